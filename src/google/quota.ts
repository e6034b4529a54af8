/**
 * Quota and rate limits: HTTP 429, `RESOURCE_EXHAUSTED`, and the `rateLimitExceeded` / `userRateLimitExceeded` family
 * of reasons, which Drive and older APIs send with a 403. The client sees the API's message; the delay the response
 * gives (`Retry-After`, RetryInfo) goes into the failure object, and the policy appends `Retry after <n> s.`.
 */
import { apiErrorText, googleApiErrorStatus, googleFailedRequestOf, googleRetryAfterMs, snakeCode } from './api-error.js';
import { apiErrorOf, reasonIn } from './body.js';
import { googleRule } from './gaxios.js';

/** Reasons (`details[]` ErrorInfo or `errors[].reason`) that mean a quota or rate limit. */
const QUOTA_REASONS = new Set([
  'RATE_LIMIT_EXCEEDED',
  'RESOURCE_EXHAUSTED',
  'rateLimitExceeded',
  'userRateLimitExceeded',
  'quotaExceeded',
  'dailyLimitExceeded',
]);

/** Quota reasons that a retry in the next minutes does not fix (a daily or project quota is spent). */
const SPENT_QUOTA_REASONS = new Set<string | undefined>(['quotaExceeded', 'dailyLimitExceeded']);

function quotaReasonOf(error: unknown): string | undefined {
  return reasonIn(apiErrorOf(error), QUOTA_REASONS);
}

/**
 * Quota and rate limits of Google APIs (`google-quota`): a Google API error with HTTP 429, status
 * `RESOURCE_EXHAUSTED`, or a quota reason (403s included). Text `<API message> (<HTTP>[ <STATUS>][ <reason>] from
 * Google API <METHOD> <URL>)`, status 429, logged at warn. Failure code the quota reason in snake case
 * (`rate_limit_exceeded`, `user_rate_limit_exceeded`), else `resource_exhausted`; retryable with the response's delay
 * (`Retry-After` header, else RetryInfo), and also without one, except for a spent daily or project quota
 * (`dailyLimitExceeded`, `quotaExceeded`) that gives no delay.
 */
export const googleQuotaRule = googleRule({
  name: 'google-quota',
  predicate: (error) => {
    const status = googleApiErrorStatus(error);
    if (status === undefined) return false;
    if (status === 429) return true;
    const api = apiErrorOf(error);
    return api?.status === 'RESOURCE_EXHAUSTED' || reasonIn(api, QUOTA_REASONS) !== undefined;
  },
  message: (error) => apiErrorText(error, quotaReasonOf(error)),
  status: 429,
  request: googleFailedRequestOf,
  failure: (error) => {
    const reason = quotaReasonOf(error);
    const retryAfterMs = googleRetryAfterMs(error);
    return {
      code: reason === undefined || reason === 'RESOURCE_EXHAUSTED' ? 'resource_exhausted' : snakeCode(reason),
      retryable: retryAfterMs !== undefined || !SPENT_QUOTA_REASONS.has(reason),
      retryAfterMs,
    };
  },
});

/**
 * Quota and rate limits: HTTP 429, `RESOURCE_EXHAUSTED`, and the `rateLimitExceeded` / `userRateLimitExceeded` family
 * of reasons, which Drive and older APIs send with a 403. The client sees the API's message; the delay the response
 * gives (`Retry-After`, RetryInfo) goes into the failure object, and the policy appends `Retry after <n> s.`.
 */
import type { ErrorRule, FailureFacts } from '../rules/rule.js';
import { apiErrorText } from './api-error-text.js';
import { googleApiErrorStatus, googleFailedRequestOf } from './api-error.js';
import { apiErrorOf, reasonIn } from './body.js';
import { googleRetryAfterMs, snakeCode } from './failure-facts.js';

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
const SPENT_QUOTA_REASONS = new Set(['quotaExceeded', 'dailyLimitExceeded']);

/** A Google API error with HTTP 429, status `RESOURCE_EXHAUSTED`, or a quota reason (403s included). */
function isGoogleQuotaError(error: unknown): boolean {
  const status = googleApiErrorStatus(error);
  if (status === undefined) return false;
  if (status === 429) return true;
  const api = apiErrorOf(error);
  return api?.status === 'RESOURCE_EXHAUSTED' || reasonIn(api, QUOTA_REASONS) !== undefined;
}

/** `<API message> (<HTTP>[ <STATUS>][ <reason>] from Google API <METHOD> <URL>)` */
function googleQuotaMessage(error: unknown): string {
  return apiErrorText(error, { reason: reasonIn(apiErrorOf(error), QUOTA_REASONS) });
}

/**
 * Failure facts of a quota error: code the quota reason in snake case (`rate_limit_exceeded`,
 * `user_rate_limit_exceeded`), else `resource_exhausted`; retryable with the response's delay (`Retry-After` header,
 * else RetryInfo), and also without one, except for a spent daily or project quota (`dailyLimitExceeded`,
 * `quotaExceeded`) that gives no delay.
 */
function googleQuotaFailure(error: unknown): FailureFacts {
  const reason = reasonIn(apiErrorOf(error), QUOTA_REASONS);
  const code = reason === undefined || reason === 'RESOURCE_EXHAUSTED' ? 'resource_exhausted' : snakeCode(reason);
  const retryAfterMs = googleRetryAfterMs(error);
  if (retryAfterMs !== undefined) return { code, retryable: true, retryAfterMs };
  return { code, retryable: reason === undefined || !SPENT_QUOTA_REASONS.has(reason) };
}

/**
 * Quota and rate limits of Google APIs (`google-quota`): text as {@link googleQuotaMessage}, status 429, logged at
 * warn, failure facts as {@link googleQuotaFailure}.
 */
export const googleQuotaRule: ErrorRule = Object.freeze({
  name: 'google-quota',
  predicate: isGoogleQuotaError,
  message: googleQuotaMessage,
  status: 429,
  level: 'warn',
  request: googleFailedRequestOf,
  failure: googleQuotaFailure,
});

/**
 * Quota and rate limits: HTTP 429, `RESOURCE_EXHAUSTED`, and the `rateLimitExceeded` / `userRateLimitExceeded` family
 * of reasons, which Drive and older APIs send with a 403. The client sees the API's message and, when the response
 * says, how long to wait.
 */
import type { ErrorRule } from '../rules/rule.js';
import { apiErrorOf, reasonIn } from './body.js';
import { apiErrorText, failedRequestOf } from './describe.js';
import { googleApiErrorStatus } from './api-error.js';
import { responseHeaderOf } from './gaxios.js';

/** Reasons (`details[]` ErrorInfo or `errors[].reason`) that mean a quota or rate limit. */
const QUOTA_REASONS = new Set([
  'RATE_LIMIT_EXCEEDED',
  'RESOURCE_EXHAUSTED',
  'rateLimitExceeded',
  'userRateLimitExceeded',
  'quotaExceeded',
  'dailyLimitExceeded',
]);

function quotaReasonOf(error: unknown): string | undefined {
  return reasonIn(apiErrorOf(error), QUOTA_REASONS);
}

/**
 * True for a quota or rate-limit failure of a Google API: a {@link isGoogleApiError} error with HTTP 429, status
 * `RESOURCE_EXHAUSTED`, or a rate-limit reason (`rateLimitExceeded`, `userRateLimitExceeded`, `RATE_LIMIT_EXCEEDED`,
 * `quotaExceeded`, `dailyLimitExceeded`), 403s included.
 *
 * @example
 * ```ts
 * isGoogleQuotaError(error); // true for Drive's 403 userRateLimitExceeded
 * ```
 */
export function isGoogleQuotaError(error: unknown): boolean {
  const status = googleApiErrorStatus(error);
  if (status === undefined) return false;
  if (status === 429) return true;
  const api = apiErrorOf(error);
  return api?.status === 'RESOURCE_EXHAUSTED' || reasonIn(api, QUOTA_REASONS) !== undefined;
}

/**
 * Seconds to wait before retrying, from the `retry-after` response header (seconds, or an HTTP date counted from now),
 * else from a `google.rpc.RetryInfo` detail of the body. `undefined` when the response says nothing.
 *
 * @example
 * ```ts
 * retryAfterSecondsOf(error); // 30
 * ```
 */
export function retryAfterSecondsOf(error: unknown, now: number = Date.now()): number | undefined {
  const header = responseHeaderOf(error, 'retry-after')?.trim();
  if (header !== undefined && header !== '') {
    if (/^\d{1,9}$/.test(header)) return Number(header);
    if (header.length <= 64) {
      const at = Date.parse(header);
      if (Number.isFinite(at)) return Math.max(0, Math.ceil((at - now) / 1000));
    }
  }
  return apiErrorOf(error)?.retryDelaySeconds;
}

/**
 * Client text of a quota or rate-limit failure:
 * `Google API <METHOD> <URL> failed with <HTTP>[ <STATUS>][ (<reason>)]: <API message>[ Retry after <N> seconds.]`.
 *
 * @example
 * ```ts
 * googleQuotaMessage(error);
 * // "Google API GET https://sheets.googleapis.com/v4/spreadsheets/abc failed with 429 RESOURCE_EXHAUSTED (RATE_LIMIT_EXCEEDED): Quota exceeded for quota metric 'Read requests' ... Retry after 30 seconds."
 * ```
 */
export function googleQuotaMessage(error: unknown): string {
  const seconds = retryAfterSecondsOf(error);
  const note = seconds === undefined ? undefined : `Retry after ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;
  return apiErrorText(error, { reason: quotaReasonOf(error), note });
}

/**
 * Quota and rate limits of Google APIs ({@link isGoogleQuotaError}): text as {@link googleQuotaMessage}, status 429,
 * logged at warn.
 *
 * @example
 * ```ts
 * createErrorPolicy({ rules: [googleQuotaRule, ...coreRules] });
 * ```
 */
export const googleQuotaRule: ErrorRule = Object.freeze({
  name: 'google-quota',
  predicate: isGoogleQuotaError,
  message: googleQuotaMessage,
  status: 429,
  level: 'warn',
  request: failedRequestOf,
});

/**
 * Quota and rate limits: HTTP 429, `RESOURCE_EXHAUSTED`, and the `rateLimitExceeded` / `userRateLimitExceeded` family
 * of reasons, which Drive and older APIs send with a 403. The client sees the API's message and, when the response
 * says, how long to wait.
 */
import { failedRequestOf, responseHeaderOf } from '../kit/http.js';
import type { ErrorRule } from '../rules/rule.js';
import { apiErrorText } from './api-error-text.js';
import { googleApiErrorStatus } from './api-error.js';
import { apiErrorOf, reasonIn } from './body.js';

/** Reasons (`details[]` ErrorInfo or `errors[].reason`) that mean a quota or rate limit. */
const QUOTA_REASONS = new Set([
  'RATE_LIMIT_EXCEEDED',
  'RESOURCE_EXHAUSTED',
  'rateLimitExceeded',
  'userRateLimitExceeded',
  'quotaExceeded',
  'dailyLimitExceeded',
]);

/** A Google API error with HTTP 429, status `RESOURCE_EXHAUSTED`, or a quota reason (403s included). */
function isGoogleQuotaError(error: unknown): boolean {
  const status = googleApiErrorStatus(error);
  if (status === undefined) return false;
  if (status === 429) return true;
  const api = apiErrorOf(error);
  return api?.status === 'RESOURCE_EXHAUSTED' || reasonIn(api, QUOTA_REASONS) !== undefined;
}

/**
 * Seconds to wait before retrying, from the `retry-after` response header (seconds, or an HTTP date counted from now),
 * else from a `google.rpc.RetryInfo` detail of the body. `undefined` when the response says nothing.
 */
function retryAfterSecondsOf(error: unknown, now: number = Date.now()): number | undefined {
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

/** `Google API <METHOD> <URL> failed with <HTTP>[ <STATUS>][ (<reason>)]: <API message>[ Retry after <N> seconds.]` */
function googleQuotaMessage(error: unknown): string {
  const seconds = retryAfterSecondsOf(error);
  const note = seconds === undefined ? undefined : `Retry after ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;
  return apiErrorText(error, { reason: reasonIn(apiErrorOf(error), QUOTA_REASONS), note });
}

/** Quota and rate limits of Google APIs (`google-quota`): status 429, logged at warn. */
export const googleQuotaRule: ErrorRule = Object.freeze({
  name: 'google-quota',
  predicate: isGoogleQuotaError,
  message: googleQuotaMessage,
  status: 429,
  level: 'warn',
  request: failedRequestOf,
});

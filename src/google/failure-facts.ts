/**
 * What an agent can act on in a Google HTTP failure: a stable code (Google's canonical `status` in lower-case snake
 * case, such as `permission_denied`, or a reason where it says more), whether the same call may succeed later, and how
 * long to wait (a `Retry-After` header in any gaxios version's header shape, else a `google.rpc.RetryInfo` detail).
 * The rules' `failure` facts are built here; the policy turns them into the failure object and appends
 * `Retry after <n> s.` to the client text.
 */
import { httpStatusOf, responseRetryAfterMsOf } from '../kit/http.js';
import type { FailureFacts } from '../rules/rule.js';
import { apiErrorOf, oauthErrorOf } from './body.js';
import { googleHttpFace } from './http2.js';

/** Canonical codes (google.rpc.Code, snake case) of HTTP statuses, for responses whose body names none. */
const CODE_OF_HTTP_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_argument',
  401: 'unauthenticated',
  403: 'permission_denied',
  404: 'not_found',
  409: 'aborted',
  412: 'failed_precondition',
  429: 'resource_exhausted',
  499: 'cancelled',
  500: 'internal',
  501: 'unimplemented',
  502: 'unavailable',
  503: 'unavailable',
  504: 'deadline_exceeded',
};

/** HTTP statuses after which the same request may succeed: 408, 429 and the 5xx of overload or outage. */
const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/**
 * An identifier as a code: `PERMISSION_DENIED` → `permission_denied`, `rateLimitExceeded` → `rate_limit_exceeded`,
 * `invalid_grant` as it is.
 *
 * @example
 * ```ts
 * snakeCode('userRateLimitExceeded'); // 'user_rate_limit_exceeded'
 * ```
 */
export function snakeCode(identifier: string): string {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .toLowerCase();
}

/**
 * Milliseconds to wait before retrying a Google HTTP failure: the response's `Retry-After` (or `retry-after-ms`)
 * header, read from a plain object (gaxios 6, googleapis-common's HTTP/2 client) or a `Headers` (gaxios 7 and 8), else
 * the body's `google.rpc.RetryInfo` `retryDelay`. `undefined` when the response says nothing.
 *
 * @example
 * ```ts
 * googleRetryAfterMs(error); // 30000 for `retry-after: 30`, 12500 for RetryInfo `retryDelay: '12.5s'`
 * ```
 */
export function googleRetryAfterMs(error: unknown): number | undefined {
  return responseRetryAfterMsOf(googleHttpFace(error)) ?? apiErrorOf(error)?.retryDelayMs;
}

/**
 * The code of a Google HTTP failure: the body's canonical `status` (`PERMISSION_DENIED` → `permission_denied`), else
 * an OAuth body's `error` (`invalid_client`), else the canonical code of the HTTP status (`502` → `unavailable`), else
 * `http_<status>`.
 */
export function googleStatusCode(error: unknown): string {
  const status = apiErrorOf(error)?.status ?? oauthErrorOf(error)?.error;
  if (status !== undefined) return snakeCode(status);
  const http = httpStatusOf(googleHttpFace(error));
  if (http === undefined) return 'http_error';
  return CODE_OF_HTTP_STATUS[http] ?? `http_${http}`;
}

/**
 * The failure facts of a Google API HTTP error: its {@link googleStatusCode}; retryable after 408, 429 and 500, 502,
 * 503, 504, with the delay of {@link googleRetryAfterMs} when the response gives one; not retryable otherwise.
 *
 * @example
 * ```ts
 * googleApiFailure(error); // { code: 'unavailable', retryable: true, retryAfterMs: 30000 } for a 503 with retry-after: 30
 * ```
 */
export function googleApiFailure(error: unknown): FailureFacts {
  const code = googleStatusCode(error);
  const http = httpStatusOf(googleHttpFace(error));
  if (http === undefined || !RETRYABLE_STATUSES.has(http)) return { code, retryable: false };
  const retryAfterMs = googleRetryAfterMs(error);
  return retryAfterMs === undefined ? { code, retryable: true } : { code, retryable: true, retryAfterMs };
}

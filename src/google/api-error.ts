/**
 * Google API HTTP errors: any HTTP error status from a gaxios error (googleapis, google-auth-library's `request`),
 * from googleapis-common's HTTP/2 client (a plain `Error` whose `cause` is the response, see http2.ts), or from an
 * HTTP-client-like error whose body is Google's. Here are their client text, their failure facts and the generic
 * rule; the rules for 401s, missing scopes and quotas build on them.
 *
 * The client text has one shape for every rule that shows one, Google's message first (a cut of a long text then
 * takes the request's URL, never the message an agent acts on):
 *
 *   <message> (<HTTP>[ <STATUS>][ <reason>] from Google API <METHOD> <URL without credentials>)
 *
 * Only server-written fields are used (the body's `error.message` and `error.status`, or the OAuth `error_description`
 * and `error`, or the HTTP status text for bodies that are not Google JSON, such as HTML pages), never the error's own
 * `message` (gaxios 7/8 put a whole HTML page there; googleapis-common's HTTP/2 client the whole body, inspected;
 * transport errors the URL with its `key=`). The message is bounded by body.ts, the URL by `redactUrl`; an internal
 * host (loopback, private, link-local, a single label) is dropped from the text by `clientUrl`, kept in the log record.
 *
 * The failure facts say what an agent can act on: a stable code (Google's canonical `status` in lower-case snake
 * case, such as `permission_denied`, or a reason where it says more), whether the same call may succeed later, and how
 * long to wait (a `Retry-After` header in any gaxios version's header shape, else a `google.rpc.RetryInfo` detail).
 * The policy turns them into the failure object and appends `Retry after <n> s.` to the client text.
 */
import {
  failedRequestOf,
  httpLevel,
  httpStatusOf,
  httpStatusTextOf,
  isHttpClientError,
  reasonPhrase,
  responseRetryAfterMsOf,
} from '../kit/http.js';
import { clientUrl } from '../kit/url.js';
import type { AnticipatedLevel, FailedRequest } from '../rules/rule.js';
import { serverTextLine } from '../text.js';
import { apiErrorOf, oauthErrorOf, ofGoogleClient } from './body.js';
import { googleRule } from './gaxios.js';
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
const RETRYABLE_STATUSES = new Set<number | undefined>([408, 429, 500, 502, 503, 504]);

/**
 * The HTTP status (300 or more) of a Google API HTTP error, or `undefined` for any other value: a gaxios error (any
 * version, any copy), googleapis-common's HTTP/2 error, or an HTTP-client-like error (object `config`, `response` key)
 * whose body is Google's AIP-193 or OAuth error JSON.
 */
export function googleApiErrorStatus(error: unknown): number | undefined {
  const status = httpStatusOf(googleHttpFace(error));
  if (status === undefined || status < 300) return undefined;
  if (ofGoogleClient(error)) return status;
  return isHttpClientError(error) && (apiErrorOf(error) !== undefined || oauthErrorOf(error) !== undefined) ? status : undefined;
}

/** The failed request of a Google HTTP error, for the log record: method, URL without credentials, HTTP status. */
export function googleFailedRequestOf(error: unknown): FailedRequest | undefined {
  return failedRequestOf(googleHttpFace(error));
}

/**
 * The log level of a Google API error: `info` (one line, no stack) for the routine failures a caller causes, a 400,
 * 404, 409, 410, 412 or 422 of the API itself (the statuses of the core `http-status` rule, and Google's 412 of a
 * failed `If-Match` precondition); `warn` with the stack for any other status, and for an OAuth token endpoint's
 * error, which is the server's credentials, not the caller's request.
 */
function googleApiErrorLevel(error: unknown): AnticipatedLevel {
  const status = googleApiErrorStatus(error);
  if (status === undefined || oauthErrorOf(error) !== undefined) return 'warn';
  return status === 412 ? 'info' : httpLevel(status);
}

/**
 * The client text of a Google API HTTP error (see the module comment for its shape), with `reason` (a rule's:
 * `ACCESS_TOKEN_SCOPE_INSUFFICIENT`, `rateLimitExceeded`) after the status when given.
 *
 * @example
 * ```ts
 * apiErrorText(error);
 * // 'The caller does not have permission (403 PERMISSION_DENIED from Google API GET https://www.googleapis.com/drive/v3/files/abc?key=[REDACTED])'
 * ```
 */
export function apiErrorText(error: unknown, reason?: string): string {
  const { method, url, status } = googleFailedRequestOf(error) ?? {};
  const api = apiErrorOf(error);
  const oauth = api === undefined ? oauthErrorOf(error) : undefined;
  // an upstream 5xx body is never shown: the status's words instead of its message
  const bodySays = status === undefined || status < 500 ? (serverTextLine(api?.message) ?? oauth?.description) : undefined;
  const message = bodySays ?? httpStatusTextOf(googleHttpFace(error)) ?? reasonPhrase(status) ?? 'No details';
  const head = [status, api?.status ?? oauth?.error, reason].filter((part) => part !== undefined).join(' ');
  return `${message} (${head === '' ? '' : `${head} `}from ${url === undefined ? 'a Google API' : `Google API ${method} ${clientUrl(url)}`})`;
}

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
 * Google API HTTP errors (`google-api-error`): text as {@link apiErrorText}
 * (`File not found: 1AbC. (404 NOT_FOUND from Google API GET https://…?key=[REDACTED])`, with the HTTP status text
 * as the message when the body is not Google's JSON), status the HTTP status (so the access log tells a 404 from a
 * 503), logged at info on one line for a caller's routine failure (400, 404, 409, 410, 412, 422; see
 * {@link googleApiErrorLevel}), else at warn with the stack. Failure code: the body's canonical `status` (`PERMISSION_DENIED` → `permission_denied`),
 * else an OAuth body's `error` (`invalid_client`), else the canonical code of the HTTP status (`502` →
 * `unavailable`), else `http_<status>`. Retryable after 408, 429 and 500, 502, 503, 504, with the delay of
 * {@link googleRetryAfterMs} when the response gives one; not retryable otherwise.
 */
export const googleApiErrorRule = googleRule({
  name: 'google-api-error',
  predicate: (error) => googleApiErrorStatus(error) !== undefined,
  message: (error) => apiErrorText(error),
  status: (error) => httpStatusOf(googleHttpFace(error)) ?? 502,
  level: googleApiErrorLevel,
  request: googleFailedRequestOf,
  failure: (error) => {
    const status = apiErrorOf(error)?.status ?? oauthErrorOf(error)?.error;
    const http = httpStatusOf(googleHttpFace(error));
    const code =
      status !== undefined ? snakeCode(status) : http === undefined ? 'http_error' : (CODE_OF_HTTP_STATUS[http] ?? `http_${http}`);
    const retryable = RETRYABLE_STATUSES.has(http);
    return { code, retryable, retryAfterMs: retryable ? googleRetryAfterMs(error) : undefined };
  },
});

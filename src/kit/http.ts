/**
 * Structural readers of HTTP client errors: the shape gaxios, axios and their kin share (`config` with the request's
 * `method` and `url`, `response` with `status`, `statusText`, `headers` and `data`), or a bare numeric `status`.
 * Nothing here imports an HTTP client; every read is a safe one (see read.ts).
 */
import type { FailedRequest, FailureFacts } from '../rules/rule.js';
import { hasKey, isObjectLike, readProp, readString } from './read.js';
import { redactUrl } from './url.js';

/** Longest response body (in characters) parsed as JSON when it arrives as a string. */
const MAX_JSON_BODY = 256 * 1024;

/**
 * True for an integer HTTP status from 100 to 599.
 * @example
 * ```ts
 * isHttpStatus(404); // true
 * isHttpStatus('404'); // false
 * ```
 */
export function isHttpStatus(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599;
}

/**
 * True for an error shaped like an HTTP client's: an object `config` and a `response` key (possibly `undefined`, when
 * the request got no response). google-auth-library's STS errors are plain `Error`s that copy `config` and `response`
 * from the gaxios error they replace; axios errors have the same two fields.
 */
export function isHttpClientError(error: unknown): boolean {
  return isObjectLike(readProp(error, 'config')) && hasKey(error, 'response');
}

/**
 * The HTTP status of a failed request: `response.status`, else a numeric `status` on the error itself. Never `code`
 * (a string for system errors, something else again per client). `undefined` when the request got no response
 * (network failures, timeouts).
 */
export function httpStatusOf(error: unknown): number | undefined {
  const status = readProp(readProp(error, 'response'), 'status');
  if (isHttpStatus(status)) return status;
  const own = readProp(error, 'status');
  return isHttpStatus(own) ? own : undefined;
}

/** The response's `statusText` (`Forbidden`, `Bad Gateway`), when it is a short line of printable ASCII. */
export function httpStatusTextOf(error: unknown): string | undefined {
  const text = readString(readProp(error, 'response'), 'statusText')?.trim();
  return text !== undefined && /^[\x20-\x7e]{1,80}$/.test(text) ? text : undefined;
}

/**
 * The response body: `response.data`, parsed when it is a JSON object as a string of at most 256 KiB (responses read
 * as text). Any other body (an HTML page, a stream) is returned as it is; callers never show it.
 */
export function responseBodyOf(error: unknown): unknown {
  const data = readProp(readProp(error, 'response'), 'data');
  if (typeof data !== 'string' || data.length > MAX_JSON_BODY) return data;
  const trimmed = data.trim();
  if (!trimmed.startsWith('{')) return data;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return data;
  }
}

/** A header's value as clients keep it: a string, a number, or the first string of an array. */
function headerValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  const first: unknown = Array.isArray(value) ? value[0] : undefined;
  return typeof first === 'string' ? first : undefined;
}

/** Most header entries looked through for a name written in another case. */
const MAX_HEADER_ENTRIES = 100;

/**
 * The value of header `name` (lower case) written in any case (`Retry-After`), from an iterable of `[name, value]`
 * pairs (a `Map`, an array of pairs) or a plain object's own entries; the first 100 entries at most.
 */
function anyCaseValue(headers: object, name: string): unknown {
  try {
    const entries = typeof readProp(headers, Symbol.iterator) === 'function' ? (headers as Iterable<unknown>) : Object.entries(headers);
    let seen = 0;
    for (const entry of entries) {
      if (++seen > MAX_HEADER_ENTRIES) break;
      const key: unknown = Array.isArray(entry) ? entry[0] : undefined;
      if (typeof key === 'string' && key.toLowerCase() === name) return (entry as unknown[])[1];
    }
  } catch {
    // a hostile iterator or getter: not found
  }
  return undefined;
}

/**
 * The header `name` (lower case) from `headers`: a WHATWG `Headers` (`headers.get(name)`; fetch-based clients),
 * axios's `AxiosHeaders`, a plain object (node-fetch, Node's `IncomingMessage`, an OpenAPI Generator client's), a `Map`
 * or an array of `[name, value]` pairs, the name in any case; the value a string, a number or the first of an array.
 * `undefined` when absent or unreadable. Read only the headers a rule needs: clients copy the request's
 * `Authorization` and `x-api-key` headers into their errors.
 */
export function headerOf(headers: unknown, name: string): string | undefined {
  if (!isObjectLike(headers)) return undefined;
  const get = readProp(headers, 'get');
  if (typeof get === 'function') {
    try {
      const value: unknown = (get as (this: unknown, key: string) => unknown).call(headers, name);
      if (typeof value === 'string') return value;
    } catch {
      // fall through to the plain-object form
    }
  }
  // a `Headers` or `AxiosHeaders` read the name in any case with `get`: searching their entries again finds nothing
  // (and costs a `Headers` a sort of all its entries); a `Map`'s `get` reads it as written
  const searched = typeof get !== 'function' || Object.prototype.toString.call(headers) === '[object Map]';
  return headerValue(readProp(headers, name)) ?? (searched ? headerValue(anyCaseValue(headers, name)) : undefined);
}

/** A response header of an HTTP client error (`error.response.headers`, see {@link headerOf}). */
export function responseHeaderOf(error: unknown, name: string): string | undefined {
  return headerOf(readProp(readProp(error, 'response'), 'headers'), name.toLowerCase());
}

/** A delay header value: whole or decimal digits only. */
const DELAY_NUMBER = /^\d{1,12}(?:\.\d{1,6})?$/;
/**
 * The shape of an HTTP date (IMF-fixdate, RFC 850 or asctime): a day name, then a time. `Date.parse` alone takes
 * `-5` or `x 1` for dates long past, which would make any failure carrying such junk retryable at once.
 */
const HTTP_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? .*\b\d{2}:\d{2}:\d{2}\b/;

/**
 * An HTTP date (a `Date` or `Retry-After` header value) as epoch milliseconds, or `undefined` when it is not one.
 * @example
 * ```ts
 * httpDateMs('Thu, 01 Jan 2026 00:00:00 GMT'); // 1767225600000
 * ```
 */
export function httpDateMs(value: string | undefined): number | undefined {
  const text = value?.trim();
  if (text === undefined || text.length > 64 || !HTTP_DATE.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isFinite(at) ? at : undefined;
}

/**
 * The time a response was sent, as epoch milliseconds: its `Date` header, else the local clock. Times a service writes
 * (a `Retry-After` date, a rate limit's reset) are counted from it, so that a skewed local clock does not stretch or
 * cut the wait.
 */
export function responseTimeOf(headers: unknown): number {
  return httpDateMs(headerOf(headers, 'date')) ?? Date.now();
}

/**
 * Milliseconds to wait before retrying, from response headers: `retry-after-ms` (OpenAI, Anthropic), else
 * `retry-after` in seconds or as an HTTP date (counted from `now`, by default the response's `Date` header, at least
 * 0). `undefined` when they say nothing usable. Bounding (a day at most) is the policy's.
 * @example
 * ```ts
 * retryAfterMsOf(new Headers({ 'retry-after': '30' })); // 30000
 * ```
 */
export function retryAfterMsOf(headers: unknown, now?: number): number | undefined {
  const ms = headerOf(headers, 'retry-after-ms')?.trim();
  if (ms !== undefined && DELAY_NUMBER.test(ms)) return Math.ceil(Number(ms));
  const header = headerOf(headers, 'retry-after')?.trim();
  if (header === undefined) return undefined;
  if (DELAY_NUMBER.test(header)) return Math.ceil(Number(header) * 1000);
  const at = httpDateMs(header);
  return at === undefined ? undefined : Math.max(0, at - (now ?? responseTimeOf(headers)));
}

/**
 * The retry delay a failed answer gives, wherever its headers are readable: `error.response.headers` (any client that
 * keeps the response), else the headers of the answer {@link httpAnswerOf} finds (a thrown or attached fetch
 * `Response`, `{ status, headers }` on the error, the AWS SDK's `$response`, an OpenAPI Generator `ApiException`): its
 * `Retry-After` (see {@link retryAfterMsOf}), or for a rate limit (429, a 403 whose limit is spent) when it resets
 * ({@link rateLimitResetMs}).
 */
export function responseRetryAfterMsOf(error: unknown): number | undefined {
  const delay = retryAfterMsOf(readProp(readProp(error, 'response'), 'headers'));
  if (delay !== undefined) return delay;
  const answer = httpAnswerOf(error);
  if (answer === undefined) return undefined;
  return retryAfterMsOf(answer.headers) ?? (isThrottled(answer) ? rateLimitResetMs(answer.headers) : undefined);
}

/**
 * True when the response says its rate limit is spent: `x-ratelimit-remaining: 0` (GitHub, Twitter and many more) or
 * `ratelimit-remaining: 0` (the IETF draft).
 */
export function rateLimitSpent(headers: unknown): boolean {
  return headerOf(headers, 'x-ratelimit-remaining')?.trim() === '0' || headerOf(headers, 'ratelimit-remaining')?.trim() === '0';
}

/** The reset headers, in the order they are tried, with the milliseconds of their unit. */
const RESET_HEADERS: readonly (readonly [string, number])[] = [
  ['x-ratelimit-reset-ms', 1],
  ['x-ratelimit-reset', 1000],
  ['ratelimit-reset', 1000],
];

/** A reset header value: digits, with a fraction (Discord writes `1470173023.123`). */
const RESET_NUMBER = /^\d{1,13}(?:\.\d{1,6})?$/;

/** A time from this one on (in milliseconds, September 2001) is a point in time; below it, a time to wait. */
const EPOCH_MS = 1e12;

/**
 * Milliseconds until a rate limit resets, from the first of `x-ratelimit-reset-ms`, `x-ratelimit-reset` (seconds) and
 * `ratelimit-reset` (the IETF draft's seconds) that holds a number: a point in time (epoch seconds or milliseconds, as
 * GitHub writes it) counted from the response's `Date` header (else the local clock), or a time to wait (a value below
 * September 2001 as an epoch time: the draft's delta seconds, and services that write one in `x-ratelimit-reset`).
 * Never negative; bounding (a day at most) is the policy's. Read only for a response that is a rate limit: the headers
 * come with every response of many services.
 * @example
 * ```ts
 * rateLimitResetMs(new Headers({ 'ratelimit-reset': '45' })); // 45000
 * ```
 */
export function rateLimitResetMs(headers: unknown): number | undefined {
  for (const [name, unit] of RESET_HEADERS) {
    const value = headerOf(headers, name)?.trim();
    if (value === undefined || !RESET_NUMBER.test(value)) continue;
    const ms = Number(value) * unit;
    return Math.ceil(Math.max(0, ms >= EPOCH_MS ? ms - responseTimeOf(headers) : ms));
  }
  return undefined;
}

/**
 * What the failure object of an HTTP failure is decided from (see {@link httpFailureFacts}); every field but the
 * status only where the error holds it.
 */
export interface HttpFacts {
  /** The HTTP status; `undefined` when the client kept none. */
  readonly status: number | undefined;
  /** The response's headers: the delay and a 403's rate limit are read from them, no other header. */
  readonly headers?: unknown;
  /** The service's own error code, identifier-shaped. */
  readonly code?: string | undefined;
  /** The service's own message (a 403 whose message names a rate limit is one). */
  readonly message?: string | undefined;
  /** A delay from a field of the service's own (Slack's `retryAfter`): before the headers'. */
  readonly retryAfterMs?: number | undefined;
  /** The call may be retried, whatever the status (AWS's `$retryable`). */
  readonly retryable?: boolean | undefined;
  /** The service throttled the call with another status than 429. */
  readonly throttled?: boolean | undefined;
  /** The service rejected the credentials with another status than 401. */
  readonly rejected?: boolean | undefined;
}

/** True for a server error (5xx): the text shows neither the body nor the service's code (an upstream 5xx body is never shown). */
export function isOpaqueServerError(status: number | undefined): boolean {
  return status !== undefined && status >= 500;
}

/** Words of a service's message or code that name a rate limit (`API rate limit exceeded`, `ThrottlingException`). */
const RATE_LIMIT_WORDS = /rate[\s_-]?limit|throttl/i;

/**
 * The service says slow down: a 429, another status the reader marked as throttling, or a 403 that is a rate limit
 * (GitHub's and others': a spent limit in the headers, a `Retry-After`, or a code or message naming a rate limit).
 */
export function isThrottled(failure: HttpFacts): boolean {
  const { status, headers } = failure;
  if (status === 429 || failure.throttled === true) return true;
  return (
    status === 403 &&
    (rateLimitSpent(headers) || headerOf(headers, 'retry-after') !== undefined || RATE_LIMIT_WORDS.test(`${failure.code ?? ''} ${failure.message ?? ''}`))
  );
}

/** Credentials rejected: a 401, or another status with a credential error code (AWS). */
export function isRejected(failure: HttpFacts): boolean {
  return failure.status === 401 || failure.rejected === true;
}

/** The failure object's code from the status alone, when the service gave none. */
function statusCode(failure: HttpFacts): string {
  const { status } = failure;
  if (isRejected(failure)) return 'unauthorized';
  if (isThrottled(failure)) return 'rate_limited';
  if ([502, 503, 504, 529].includes(status ?? 0)) return 'unavailable';
  if (status === undefined) return 'http_error';
  if (status === 403) return 'permission_denied';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 408) return 'timeout';
  if (status === 409) return 'conflict';
  if (status >= 500) return 'server_error';
  return 'invalid_request';
}

/**
 * The failure object's facts of an HTTP failure:
 * - `code`: the service's own error code or type (`rate_limit_error`, `object_not_found`, `AccessDeniedException`,
 *   `card_declined`, Slack's `channel_not_found`), else one from the status: `unauthorized` (401 and other credential
 *   rejections), `permission_denied` (403), `not_found` (404, 410), `conflict` (409), `rate_limited` (429 and other
 *   throttling, 403 rate limits), `timeout` (408), `unavailable` (502, 503, 504, 529), `server_error` (other 5xx:
 *   their code is not shown, like their body), `invalid_request` (other 4xx);
 * - `retryable`: 408, 429, 5xx, throttling and what the reader marks retryable (AWS `$retryable`, Stripe's answer
 *   that was not JSON); never a credential rejection (signing in again fixes it, not waiting);
 * - `retryAfterMs`: when retryable, the delay the service gave: its own field, else `retry-after-ms` / `Retry-After`,
 *   else, for a rate limit, when its limit resets ({@link rateLimitResetMs}).
 */
export function httpFailureFacts(failure: HttpFacts): FailureFacts {
  const { status, headers } = failure;
  const code = (isOpaqueServerError(status) ? undefined : failure.code) ?? statusCode(failure);
  const throttled = isThrottled(failure);
  const retryable = !isRejected(failure) && (throttled || failure.retryable === true || status === 408 || (status !== undefined && status >= 500));
  const retryAfterMs = retryable ? (failure.retryAfterMs ?? retryAfterMsOf(headers) ?? (throttled ? rateLimitResetMs(headers) : undefined)) : undefined;
  return retryAfterMs === undefined ? { code, retryable } : { code, retryable, retryAfterMs };
}

/**
 * The log level of an HTTP failure with `status`: `info` (one line, no stack) for the routine answers to what the
 * caller asked (400, 404, 409, 410, 422: a missing id, a bad argument, a conflict), else `warn` (with the stack: 401
 * and 403 are the server's credentials, 429 and 5xx the service's state).
 */
export function httpLevel(status: number | undefined): 'info' | 'warn' {
  return status === 400 || status === 404 || status === 409 || status === 410 || status === 422 ? 'info' : 'warn';
}

/**
 * True for the `ApiException` of a client made by OpenAPI Generator's `typescript` generator (`@kubernetes/client-node`
 * 1.x and its kin), read by shape, never `instanceof` (each client has its own class): its class named `ApiException`
 * (its `name` stays `Error`), an HTTP status in `code`, a `body` key (the answer, parsed or as text) and the response
 * `headers` as an object.
 */
export function isOpenApiException(error: unknown): boolean {
  const named = readString(error, 'name') === 'ApiException' || readString(readProp(error, 'constructor'), 'name') === 'ApiException';
  return named && isHttpStatus(readProp(error, 'code')) && hasKey(error, 'body') && isObjectLike(readProp(error, 'headers'));
}

/** A status from 300 up and an object `headers`: a failed answer. */
function answerOf(status: unknown, headers: unknown): { readonly status: number; readonly headers: object } | undefined {
  return isHttpStatus(status) && status >= 300 && isObjectLike(headers) ? { status, headers } : undefined;
}

/**
 * The failed answer of any HTTP client, read by shape, or `undefined`: a status from 300 up (`status`, else
 * `statusCode`) beside an object `headers`, on the error's `response` (axios, gaxios, ky, ofetch, Octokit, got), its
 * hidden `$response` (the AWS SDK v3) or the error itself (a thrown fetch `Response`, the OpenAI and Anthropic SDKs,
 * Stripe, Notion, Slack, Microsoft Graph, an error a server made with `{ status, headers }`); else the error's status
 * with its `response`'s headers; else an OpenAPI Generator `ApiException`'s `code` and `headers`. Never the `code` of
 * any other error: it is a string, an errno or something else again per client.
 */
export function httpAnswerOf(error: unknown): { readonly status: number; readonly headers: object } | undefined {
  for (const holder of [readProp(error, 'response'), readProp(error, '$response'), error]) {
    const answer = answerOf(readProp(holder, 'status') ?? readProp(holder, 'statusCode'), readProp(holder, 'headers'));
    if (answer !== undefined) return answer;
  }
  const headers = readProp(readProp(error, 'response'), 'headers');
  return answerOf(readProp(error, 'status') ?? readProp(error, 'statusCode'), headers) ?? (isOpenApiException(error) ? answerOf(readProp(error, 'code'), readProp(error, 'headers')) : undefined);
}

/** The request method from `config.method`, upper case; `GET` when unset or not a method name (gaxios leaves GET unset). */
export function requestMethodOf(error: unknown): string {
  const method = readString(readProp(error, 'config'), 'method')?.toUpperCase();
  return method !== undefined && /^[A-Z]{1,16}$/.test(method) ? method : 'GET';
}

/**
 * The request URL from `config.url`: a string, or the `href` of a WHATWG `URL` (or any object with a string `href`),
 * with its credentials still in it: pass it through `redactUrl` (url.ts) before showing it.
 */
export function requestUrlOf(error: unknown): string | undefined {
  const url = readProp(readProp(error, 'config'), 'url');
  return typeof url === 'string' ? url : readString(url, 'href');
}

/**
 * The failed request, for the log record (a rule's `request`): method, credential-free URL and HTTP status, each only
 * where the error holds it; `undefined` when it holds neither a URL nor a status.
 */
export function failedRequestOf(error: unknown): FailedRequest | undefined {
  const url = requestUrlOf(error);
  const status = httpStatusOf(error);
  if (url === undefined && status === undefined) return undefined;
  return url === undefined ? { status } : { method: requestMethodOf(error), url: redactUrl(url), status };
}

/** The standard reason phrases of the statuses a service answers with. */
const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  423: 'Locked',
  424: 'Failed Dependency',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  529: 'Overloaded',
};

/**
 * The reason phrase of `status` (`404` → `Not Found`), for texts of responses that carry none (HTTP/2 has no status
 * text); `undefined` for a status without a standard one.
 */
export function reasonPhrase(status: number | undefined): string | undefined {
  return status !== undefined && Object.prototype.hasOwnProperty.call(REASONS, status) ? REASONS[status] : undefined;
}

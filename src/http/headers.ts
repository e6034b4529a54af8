/**
 * What this entry reads from response headers (request ids, retry delays, rate limits), through the kit's `headerOf`:
 * a WHATWG `Headers` (Octokit's `response.headers` is a plain object, the AI SDKs' and ky's are `Headers`), axios's
 * `AxiosHeaders`, or a plain object. No other header is read: clients copy the request's `Authorization` and
 * `x-api-key` headers into their errors, and those are never touched. Retry delays (`retry-after-ms`, `retry-after`)
 * are the kit's one parser, `retryAfterMsOf`, the one the core uses when a rule gives no delay; the rate-limit headers
 * (`x-ratelimit-*`, the IETF draft's `ratelimit-*`) are read here, for every client of this entry.
 */
import { headerOf, responseTimeOf } from '../kit/http.js';

export { retryAfterMsOf } from '../kit/http.js';

/**
 * The headers that carry a request id, for the clients that may call any service (axios, ky, plain fetch), in the
 * order they are tried.
 */
export const GENERIC_REQUEST_ID_HEADERS: readonly string[] = ['x-request-id', 'request-id', 'x-github-request-id', 'x-amzn-requestid', 'x-amz-request-id', 'x-correlation-id'];

/** A request id as services write them (`req_abc123`, `C8A2:3F1B:1D0E:2A3B:65F0`, a UUID), or `undefined`. */
export function requestIdShaped(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z0-9][A-Za-z0-9._:/=+-]{0,127}$/.test(value) ? value : undefined;
}

/** The first of the `names` headers that holds a request id. */
export function requestIdOf(headers: unknown, names: readonly string[]): string | undefined {
  for (const name of names) {
    const id = requestIdShaped(headerOf(headers, name));
    if (id !== undefined) return id;
  }
  return undefined;
}

/**
 * A delay a service wrote in seconds in a field of its own (Slack's `retryAfter`, AWS's `retryAfterSeconds`), as
 * milliseconds: a finite number from 0 up, or a string of digits; `undefined` for anything else. Bounding (a day at
 * most) is the policy's.
 */
export function secondsAsMs(seconds: unknown): number | undefined {
  const value = typeof seconds === 'string' && /^\d{1,12}$/.test(seconds) ? Number(seconds) : seconds;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.ceil(value * 1000) : undefined;
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

/**
 * What this entry reads from response headers (request ids, retry delays, rate limits), through the kit's `headerOf`:
 * a WHATWG `Headers` (Octokit's `response.headers` is a plain object, the AI SDKs' and ky's are `Headers`), axios's
 * `AxiosHeaders`, or a plain object. No other header is read: clients copy the request's `Authorization` and
 * `x-api-key` headers into their errors, and those are never touched. Retry delays (`retry-after-ms`, `retry-after`)
 * are the kit's one parser, `retryAfterMsOf`, the one the core uses when a rule gives no delay; the rate-limit headers
 * (`x-ratelimit-*`, the IETF draft's `ratelimit-*`) are read here, for every client of this entry.
 */
import { headerOf } from '../kit/http.js';

export { rateLimitResetMs, rateLimitSpent, retryAfterMsOf } from '../kit/http.js';

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

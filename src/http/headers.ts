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

/** A duration as OpenAI writes its resets (`6m0s`, `1.5s`, `20ms`, `1h2m3s`). */
const DURATION = /^(?:(\d{1,4})h)?(?:(\d{1,4})m(?!s))?(?:(\d{1,6}(?:\.\d{1,6})?)s)?(?:(\d{1,9})ms)?$/;

/** Milliseconds of a duration header (`6m0s`), or `undefined`. */
export function durationMs(value: string | undefined): number | undefined {
  const text = value?.trim();
  const match = text === undefined || text === '' ? null : DURATION.exec(text);
  if (match === null) return undefined;
  const [, h = '0', m = '0', s = '0', ms = '0'] = match;
  return Math.ceil(((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(ms));
}

/**
 * OpenAI's rate-limit reset, for a 429 without `Retry-After`: the later of `x-ratelimit-reset-requests` and
 * `x-ratelimit-reset-tokens`, durations (`6m0s`, `1.5s`, `20ms`); `undefined` when neither holds one.
 * @example
 * ```ts
 * durationResetMs(new Headers({ 'x-ratelimit-reset-requests': '6m0s', 'x-ratelimit-reset-tokens': '20ms' })); // 360000
 * ```
 */
export function durationResetMs(headers: unknown): number | undefined {
  const requests = durationMs(headerOf(headers, 'x-ratelimit-reset-requests'));
  const tokens = durationMs(headerOf(headers, 'x-ratelimit-reset-tokens'));
  return requests === undefined ? tokens : Math.max(requests, tokens ?? 0);
}

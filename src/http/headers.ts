/**
 * What this entry reads from response headers (request ids, Retry-After), through the kit's `headerOf`: a WHATWG
 * `Headers` (Octokit's `response.headers` is a plain object, the AI SDKs' and ky's are `Headers`), axios's
 * `AxiosHeaders`, or a plain object. No other header is read: clients copy the request's `Authorization` and
 * `x-api-key` headers into their errors, and those are never touched.
 */
import { headerOf } from '../kit/http.js';


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

/** The longest delay shown, in seconds (a day): a larger value is someone else's bug, not advice. */
const MAX_RETRY_SECONDS = 86_400;

/**
 * Seconds to wait before retrying: `retry-after-ms` (OpenAI, Anthropic), else `retry-after` in seconds or as an HTTP
 * date (counted from `now`). `undefined` when the response says nothing usable.
 */
export function retryAfterSecondsOf(headers: unknown, now: number = Date.now()): number | undefined {
  const ms = headerOf(headers, 'retry-after-ms')?.trim();
  if (ms !== undefined && /^\d{1,12}(?:\.\d{1,6})?$/.test(ms)) return bounded(Math.ceil(Number(ms) / 1000));
  const header = headerOf(headers, 'retry-after')?.trim();
  if (header === undefined || header === '') return undefined;
  if (/^\d{1,12}(?:\.\d{1,6})?$/.test(header)) return bounded(Math.ceil(Number(header)));
  if (header.length > 64) return undefined;
  const at = Date.parse(header);
  return Number.isFinite(at) ? bounded(Math.ceil((at - now) / 1000)) : undefined;
}

/** A delay as whole seconds, from 0 to a day; `undefined` past a day. */
export function bounded(seconds: number): number | undefined {
  if (!Number.isFinite(seconds)) return undefined;
  const whole = Math.max(0, seconds);
  return whole > MAX_RETRY_SECONDS ? undefined : whole;
}

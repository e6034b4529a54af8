/**
 * Structural readers of gaxios errors (gaxios 6, 7 and 8, whichever copy threw them) and of the HTTP-client-like errors
 * google-auth-library re-wraps. Nothing here imports gaxios: `instanceof GaxiosError` fails across versions and copies,
 * so errors are recognised by the registered symbol gaxios stamps on them, and read through never-throwing readers.
 */
import { hasKey, isObjectLike, readProp, readString, readWith } from '../read.js';

/** The registered symbol every gaxios copy (6, 7, 8) sets on its errors (a class field); its value is the version. */
export const GAXIOS_ERROR_SYMBOL: symbol = Symbol.for('gaxios-gaxios-error');

/** Longest response body (in characters) parsed as JSON when it arrives as a string. */
const MAX_JSON_BODY = 256 * 1024;

/**
 * True for an error thrown by any copy of gaxios 6, 7 or 8 (and so by google-auth-library and googleapis): it carries
 * the registered symbol `Symbol.for('gaxios-gaxios-error')` with a string value (the gaxios version). Its `name` is
 * always `"Error"` and `instanceof` fails across versions, so neither is used.
 *
 * @example
 * ```ts
 * try {
 *   await drive.files.get({ fileId });
 * } catch (error) {
 *   if (isGaxiosError(error)) console.error('HTTP', error.response?.status);
 * }
 * ```
 */
export function isGaxiosError(error: unknown): boolean {
  return typeof readWith(error, readGaxiosVersion) === 'string';
}

const readGaxiosVersion = (error: { readonly [GAXIOS_ERROR_SYMBOL]?: unknown }): unknown => error[GAXIOS_ERROR_SYMBOL];

// One reader per key read on every classification (see readWith): each stays monomorphic.
const readResponse = (error: { readonly response?: unknown }): unknown => error.response;
const readConfig = (error: { readonly config?: unknown }): unknown => error.config;
const readStatus = (value: { readonly status?: unknown }): unknown => value.status;
const readData = (response: { readonly data?: unknown }): unknown => response.data;
const readMethod = (config: { readonly method?: unknown }): unknown => config.method;
const readUrl = (config: { readonly url?: unknown }): unknown => config.url;
const readHref = (url: { readonly href?: unknown }): unknown => url.href;

/** `error.response`, or `undefined` when unreadable. */
export function responseOf(error: unknown): unknown {
  return readWith(error, readResponse);
}

/** `error.config`, or `undefined` when unreadable. */
export function configOf(error: unknown): unknown {
  return readWith(error, readConfig);
}

/**
 * True for an error shaped like an HTTP client's: an object `config` and a `response` key (possibly `undefined`).
 * google-auth-library's STS errors are plain `Error`s that copy `config` and `response` from the gaxios error they
 * replace, without its symbol; this recognises them too.
 *
 * @example
 * ```ts
 * isHttpClientError(stsError); // true: a plain Error with enumerable config and response
 * ```
 */
export function isHttpClientError(error: unknown): boolean {
  return isObjectLike(configOf(error)) && hasKey(error, 'response');
}

/**
 * True for a gaxios error or an HTTP-client-like error ({@link isGaxiosError} or {@link isHttpClientError}).
 *
 * @example
 * ```ts
 * if (isGoogleHttpError(error)) console.error(httpStatusOf(error));
 * ```
 */
export function isGoogleHttpError(error: unknown): boolean {
  return isGaxiosError(error) || isHttpClientError(error);
}

function httpStatus(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599 ? value : undefined;
}

/**
 * The HTTP status of a gaxios or HTTP-client-like error: `response.status`, else a numeric `status`. Never `code`
 * (a string for system errors, the body's code in gaxios 7+, absent in gaxios 6). `undefined` when the request got no
 * response (network failures, timeouts).
 *
 * @example
 * ```ts
 * httpStatusOf(error); // 403
 * ```
 */
export function httpStatusOf(error: unknown): number | undefined {
  return httpStatus(readWith(responseOf(error), readStatus)) ?? httpStatus(readWith(error, readStatus));
}

/** The response's `statusText` (`Forbidden`, `Bad Gateway`), when it is a short line of text. */
export function httpStatusTextOf(error: unknown): string | undefined {
  const text = readString(responseOf(error), 'statusText');
  return text !== undefined && /^[\x20-\x7e]{1,80}$/.test(text) ? text.trim() || undefined : undefined;
}

/**
 * The response body: `response.data`, parsed when it is a JSON string (responses read as text or streams). A body that
 * is neither an object nor JSON (an HTML page) is returned as it is; callers never show it.
 *
 * @example
 * ```ts
 * responseDataOf(error); // { error: { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' } }
 * ```
 */
export function responseDataOf(error: unknown): unknown {
  const response = responseOf(error);
  const data = readWith(response, readData);
  if (typeof data !== 'string' || data.length > MAX_JSON_BODY) return data;
  const trimmed = data.trim();
  if (!trimmed.startsWith('{')) return data;
  // Every rule asks for the body: parse a JSON string once per response.
  const cached = isObjectLike(response) ? parsedBodies.get(response) : undefined;
  if (cached !== undefined && cached.text === data) return cached.value;
  let value: unknown = data;
  try {
    value = JSON.parse(trimmed) as unknown;
  } catch {
    // not JSON after all: the string itself
  }
  if (isObjectLike(response)) parsedBodies.set(response, { text: data, value });
  return value;
}

/** JSON bodies already parsed, by response object. */
const parsedBodies = new WeakMap<object, { readonly text: string; readonly value: unknown }>();

/**
 * A response header, from gaxios 7/8 `Headers` (`headers.get(name)`) or gaxios 6 plain objects (`headers[name]`,
 * lower-case keys). `undefined` when absent or unreadable.
 *
 * @example
 * ```ts
 * responseHeaderOf(error, 'retry-after'); // '30'
 * ```
 */
export function responseHeaderOf(error: unknown, name: string): string | undefined {
  const headers = readProp(responseOf(error), 'headers');
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
  const value = readProp(headers, name.toLowerCase());
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

/** The request method, upper case (`GET` when gaxios left it unset, as gaxios 7/8 do for GET). */
export function requestMethodOf(error: unknown): string {
  const method = readWith(configOf(error), readMethod);
  if (typeof method !== 'string') return 'GET';
  const upper = method.toUpperCase();
  return /^[A-Z]{1,16}$/.test(upper) ? upper : 'GET';
}

/**
 * The request URL as the error holds it: a string (gaxios 6) or a WHATWG `URL` (gaxios 7/8; any other object with a
 * string `href` is read as its `href`), with its credentials still in it: pass it through `redactUrl` before showing it.
 */
export function requestUrlOf(error: unknown): string | URL | undefined {
  const url = readWith(configOf(error), readUrl);
  if (typeof url === 'string' || url instanceof URL) return url;
  const href = readWith(url, readHref);
  return typeof href === 'string' ? href : undefined;
}

/**
 * The client text of a Google API HTTP error, in one shape for every rule that shows one:
 *
 *   Google API <METHOD> <URL without credentials> failed with <HTTP>[ <STATUS>][ (<reason>)]: <message>[ <note>]
 *
 * Only server-written fields are used (the body's `error.status` and `error.message`, or the OAuth `error` and
 * `error_description`, or the HTTP status text for bodies that are not Google JSON, such as HTML pages), never the
 * error's own `message` (gaxios 7/8 put a whole HTML page there; transport errors put the URL with its `key=` there).
 * The URL is followed by a space: secret scrubbers that redact `key=<value>` up to the next space or `&` then cannot
 * swallow the text after it.
 */
import type { FailedRequest } from '../rules/rule.js';
import { apiErrorOf, oauthErrorOf } from './body.js';
import { httpStatusOf, httpStatusTextOf, requestMethodOf, requestUrlOf } from './gaxios.js';
import { redactUrl, redactUrlObject } from './url.js';

/** Extras some rules add to the shared text. */
export interface ApiErrorTextOptions {
  /** A reason shown in parentheses after the status (`ACCESS_TOKEN_SCOPE_INSUFFICIENT`, `rateLimitExceeded`). */
  readonly reason?: string | undefined;
  /** A sentence appended to the message (`Retry after 30 seconds.`). */
  readonly note?: string | undefined;
}

const NO_OPTIONS: ApiErrorTextOptions = Object.freeze({});

/**
 * `<METHOD> <URL>` of the failed request, with credentials stripped from the URL, or `undefined` when the error holds
 * no URL.
 *
 * @example
 * ```ts
 * describeRequest(error); // 'GET https://www.googleapis.com/drive/v3/files/abc?key=[REDACTED]&fields=id'
 * ```
 */
export function describeRequest(error: unknown): string | undefined {
  const url = redactedRequestUrl(error);
  return url === undefined ? undefined : `${requestMethodOf(error)} ${url}`;
}

/**
 * The failed request, for the log record (`rule.request` of the Google HTTP rules): method, credential-free URL and
 * HTTP status, each only where the error holds it.
 */
export function failedRequestOf(error: unknown): FailedRequest | undefined {
  const url = redactedRequestUrl(error);
  const status = httpStatusOf(error);
  if (url === undefined && status === undefined) return undefined;
  return { method: url === undefined ? undefined : requestMethodOf(error), url, status };
}

/** The request URL without credentials, or `undefined` when the error holds none (or a URL whose getters throw). */
function redactedRequestUrl(error: unknown): string | undefined {
  const url = requestUrlOf(error);
  if (url === undefined) return undefined;
  if (typeof url === 'string') return redactUrl(url);
  try {
    return redactUrlObject(url);
  } catch {
    return undefined;
  }
}

function withNote(message: string, note: string | undefined): string {
  if (note === undefined) return message;
  return `${message}${/[.!?]$/.test(message) ? '' : '.'} ${note}`;
}

/**
 * The client text of a Google API HTTP error (see the module comment for its shape).
 *
 * @example
 * ```ts
 * apiErrorText(error);
 * // 'Google API GET https://www.googleapis.com/drive/v3/files/abc?key=[REDACTED] failed with 403 PERMISSION_DENIED: The caller does not have permission'
 * ```
 */
export function apiErrorText(error: unknown, options: ApiErrorTextOptions = NO_OPTIONS): string {
  const http = httpStatusOf(error);
  const api = apiErrorOf(error);
  const oauth = api === undefined ? oauthErrorOf(error) : undefined;
  const status = api?.status ?? oauth?.error;
  const message = api?.message ?? oauth?.description ?? httpStatusTextOf(error) ?? 'no details';
  const head = http === undefined ? status : status === undefined ? `${http}` : `${http} ${status}`;
  const reason = options.reason === undefined ? '' : ` (${options.reason})`;
  const request = describeRequest(error);
  const what = request === undefined ? 'Google API request' : `Google API ${request}`;
  return `${what} failed${head === undefined ? '' : ` with ${head}`}${reason}: ${withNote(message, options.note)}`;
}

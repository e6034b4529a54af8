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
import { httpStatusOf, httpStatusTextOf, requestMethodOf, requestUrlOf } from '../kit/http.js';
import { redactUrl } from '../kit/url.js';
import { apiErrorOf, oauthErrorOf } from './body.js';

/** Extras some rules add to the shared text. */
export interface ApiErrorTextOptions {
  /** A reason shown in parentheses after the status (`ACCESS_TOKEN_SCOPE_INSUFFICIENT`, `rateLimitExceeded`). */
  readonly reason?: string | undefined;
  /** A sentence appended to the message (`Retry after 30 seconds.`). */
  readonly note?: string | undefined;
}

/** `<METHOD> <URL>` of the failed request, credentials stripped from the URL, or `undefined` when it holds no URL. */
function requestLine(error: unknown): string | undefined {
  const url = requestUrlOf(error);
  return url === undefined ? undefined : `${requestMethodOf(error)} ${redactUrl(url)}`;
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
export function apiErrorText(error: unknown, options: ApiErrorTextOptions = {}): string {
  const http = httpStatusOf(error);
  const api = apiErrorOf(error);
  const oauth = api === undefined ? oauthErrorOf(error) : undefined;
  const status = api?.status ?? oauth?.error;
  const message = api?.message ?? oauth?.description ?? httpStatusTextOf(error) ?? 'no details';
  const head = http === undefined ? status : status === undefined ? `${http}` : `${http} ${status}`;
  const reason = options.reason === undefined ? '' : ` (${options.reason})`;
  const request = requestLine(error);
  const what = request === undefined ? 'Google API request' : `Google API ${request}`;
  return `${what} failed${head === undefined ? '' : ` with ${head}`}${reason}: ${withNote(message, options.note)}`;
}

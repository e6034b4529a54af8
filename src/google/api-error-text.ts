/**
 * The client text of a Google API HTTP error, in one shape for every rule that shows one, Google's message first (a
 * cut of a long text then takes the request's URL, never the message an agent acts on):
 *
 *   <message> (<HTTP>[ <STATUS>][ <reason>] from Google API <METHOD> <URL without credentials>)
 *
 * Only server-written fields are used (the body's `error.message` and `error.status`, or the OAuth `error_description`
 * and `error`, or the HTTP status text for bodies that are not Google JSON, such as HTML pages), never the error's own
 * `message` (gaxios 7/8 put a whole HTML page there; googleapis-common's HTTP/2 client the whole body, inspected;
 * transport errors the URL with its `key=`). The message is bounded by body.ts, the URL by `redactUrl`.
 */
import { httpStatusOf, httpStatusTextOf, reasonPhrase, requestMethodOf, requestUrlOf } from '../kit/http.js';
import { redactUrl } from '../kit/url.js';
import { apiErrorOf, oauthErrorOf } from './body.js';
import { googleHttpFace } from './http2.js';

/** Extras some rules add to the shared text. */
export interface ApiErrorTextOptions {
  /** A reason shown after the status (`ACCESS_TOKEN_SCOPE_INSUFFICIENT`, `rateLimitExceeded`). */
  readonly reason?: string | undefined;
}

/** `Google API <METHOD> <URL>` of the failed request, credentials stripped from the URL; `a Google API` without a URL. */
function requestPart(face: unknown): string {
  const url = requestUrlOf(face);
  return url === undefined ? 'a Google API' : `Google API ${requestMethodOf(face)} ${redactUrl(url)}`;
}

/**
 * The client text of a Google API HTTP error (see the module comment for its shape).
 *
 * @example
 * ```ts
 * apiErrorText(error);
 * // 'The caller does not have permission (403 PERMISSION_DENIED from Google API GET https://www.googleapis.com/drive/v3/files/abc?key=[REDACTED])'
 * ```
 */
export function apiErrorText(error: unknown, options: ApiErrorTextOptions = {}): string {
  const face = googleHttpFace(error);
  const http = httpStatusOf(face);
  const api = apiErrorOf(error);
  const oauth = api === undefined ? oauthErrorOf(error) : undefined;
  const status = api?.status ?? oauth?.error;
  const message =
    api?.message ?? oauth?.description ?? httpStatusTextOf(face) ?? reasonPhrase(http) ?? 'No details';
  const head = [http === undefined ? undefined : String(http), status, options.reason].filter((part) => part !== undefined);
  return `${message} (${head.length === 0 ? '' : `${head.join(' ')} `}from ${requestPart(face)})`;
}

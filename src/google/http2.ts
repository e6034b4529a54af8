/**
 * googleapis-common's HTTP/2 client (`http2: true`, googleapis-common 8 and 9): for an error status it throws a plain
 * `Error('Request failed with status code <N>. \n\'<the body, inspected>')` whose only link to the response is
 * `cause`: the response object itself (`{ config, headers, status, data, statusText, request }`), with no `response`
 * and no gaxios symbol. Its message holds the whole body and is never shown. Here such errors are recognised, and
 * every Google HTTP error is given one "face" that the kit's HTTP readers understand (`config` and `response`).
 */
import { isHttpStatus } from '../kit/http.js';
import { hasKey, isObjectLike, messageOf, readProp, readString } from '../kit/read.js';

/** The first words of the message googleapis-common's HTTP/2 client throws for an error status. */
const HTTP2_MESSAGE_PREFIX = 'Request failed with status code ';

/**
 * True for the error googleapis-common 8 and 9 throw for an error status on their HTTP/2 path: a plain `Error`
 * (named `Error`), message `Request failed with status code <N>. …`, whose `cause` is the response: an object with a
 * numeric HTTP `status` and an object `config`. Never throws.
 *
 * @example
 * ```ts
 * isHttp2ResponseError(await drive.files.get({ fileId }, { http2: true }).catch((e) => e)); // true for a 403
 * ```
 */
export function isHttp2ResponseError(error: unknown): boolean {
  if (readString(error, 'name') !== 'Error' || hasKey(error, 'response')) return false;
  const cause = readProp(error, 'cause');
  // (a `cause` that is no object has no `config`)
  return isObjectLike(readProp(cause, 'config')) && isHttpStatus(readProp(cause, 'status')) && messageOf(error).startsWith(HTTP2_MESSAGE_PREFIX);
}

/**
 * The error as the kit's HTTP readers expect it (an object `config` and a `response` with `status`, `headers` and
 * `data`): for an {@link isHttp2ResponseError} error, `{ config: cause.config, response: cause }`; any other value as
 * it is.
 *
 * @example
 * ```ts
 * httpStatusOf(googleHttpFace(error)); // 429, for a gaxios 429 and for googleapis-common's HTTP/2 429 alike
 * ```
 */
export function googleHttpFace(error: unknown): unknown {
  if (!isHttp2ResponseError(error)) return error;
  const cause = readProp(error, 'cause');
  return { config: readProp(cause, 'config'), response: cause };
}

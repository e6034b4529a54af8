/**
 * Plain `fetch` (Node's undici, or any WHATWG fetch): it never throws on an HTTP status, so servers throw the failed
 * `Response` themselves. Recognised structurally, never `instanceof` (undici's `Response` is not the one a polyfill or
 * another realm makes): a numeric HTTP status from 300 up (as every reader of this entry), `ok === false`, `headers`
 * with a `get` function, a string `url` and a string `type`. Where the Response may be:
 *
 * - the thrown value itself (`throw res`): it names no method;
 * - an error's `response` property (`Object.assign(new Error('…'), { response: res })`, ofetch's `FetchError`) or its
 *   `cause` (`new Error('…', { cause: res })`): the error's `data` (a parsed body: ofetch's, or one the server
 *   attached) gives the service's message; its `request` (a `Request`, or an object with a `method`), `init` (fetch's
 *   second argument) or `options` (ofetch's) the method, fetch's default GET when `init` or `options` names none.
 *
 * An error whose `response` belongs to an axios- or gaxios-shaped error (an object `config`: gaxios 7 and 8 put a real
 * `Response` there) is left to those clients' rules. The text never holds the error's own `message` (servers write the
 * URL with its credentials there; ofetch does too), nor a body nobody read: a thrown Response shows its status alone.
 */
import { isHttpClientError, isHttpStatus } from '../kit/http.js';
import { isObjectLike, readProp, readString } from '../kit/read.js';
import { redactUrl } from '../kit/url.js';
import { methodOf } from './axios.js';
import { bodyText } from './body.js';
import { failureRules, type HttpFailure } from './failure.js';
import { GENERIC_REQUEST_ID_HEADERS, requestIdOf } from './headers.js';

/**
 * True for a failed fetch `Response`: a numeric HTTP status from 300 up, `ok === false`, `headers` with a `get`
 * function, a string `url` (empty for a Response made by hand) and a string `type`.
 */
export function isFailedResponse(value: unknown): boolean {
  const status = readProp(value, 'status');
  return (
    isHttpStatus(status) &&
    status >= 300 &&
    readProp(value, 'ok') === false &&
    typeof readProp(readProp(value, 'headers'), 'get') === 'function' &&
    typeof readProp(value, 'url') === 'string' &&
    typeof readProp(value, 'type') === 'string'
  );
}

/** The request URL: the Response's own (the URL fetched, after redirects), else the carrier's `request` (a string, a `Request` or a `URL`). */
function urlOf(response: unknown, carrier: unknown): string | undefined {
  const own = readString(response, 'url');
  if (own !== undefined && own !== '') return own;
  const request = readProp(carrier, 'request');
  if (typeof request === 'string') return request === '' ? undefined : request;
  return readString(request, 'url') ?? readString(request, 'href');
}

/** The request method: the carrier's `Request`, else its `init.method` or `options.method`, else GET when it has fetch options naming none. */
function requestMethodOf(carrier: unknown): string | undefined {
  const options = readProp(carrier, 'init') ?? readProp(carrier, 'options');
  return methodOf(readProp(carrier, 'request')) ?? methodOf(options) ?? (isObjectLike(options) ? 'GET' : undefined);
}

/** The failure of `response`, with what `carrier` (the error holding it, if any) adds: body, method, URL. */
function failureFrom(response: unknown, carrier: unknown): HttpFailure {
  const headers = readProp(response, 'headers');
  const { message, code } = bodyText(readProp(carrier, 'data'));
  const url = urlOf(response, carrier);
  return {
    service: 'HTTP',
    status: readProp(response, 'status') as number,
    code,
    message,
    method: requestMethodOf(carrier),
    url: url === undefined ? undefined : redactUrl(url),
    requestId: requestIdOf(headers, GENERIC_REQUEST_ID_HEADERS),
    headers,
  };
}

/** The failure a failed fetch Response describes, thrown itself or in an error's `response` or `cause`, or `undefined`. */
export function fetchFailureOf(error: unknown): HttpFailure | undefined {
  if (isFailedResponse(error)) return failureFrom(error, undefined);
  if (isHttpClientError(error)) return undefined;
  const response = readProp(error, 'response');
  if (isFailedResponse(response)) return failureFrom(response, error);
  const cause = readProp(error, 'cause');
  return isFailedResponse(cause) ? failureFrom(cause, error) : undefined;
}

/** `fetch-unauthorized`, `fetch-http-error`. */
export const [fetchUnauthorizedRule, fetchHttpErrorRule] = failureRules('fetch', 'HTTP', fetchFailureOf);

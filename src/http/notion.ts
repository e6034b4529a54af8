/**
 * Notion (`@notionhq/client` 4 and 5): `APIResponseError` (a JSON error body `{ object: 'error', status, code, message,
 * request_id }`) and `UnknownHTTPResponseError` (any other failed response, an HTML page from a proxy among them),
 * recognised by name and shape (never `instanceof`): a numeric `status`, a string `code`, `headers`. The error keeps the
 * raw body text in `body`; only the JSON body's `message` is shown, never that text. The request id is the body's
 * `request_id` (client 5 also copies it, or `x-notion-request-id`, to `request_id`). Rate limits (429) carry
 * `Retry-After` in seconds. The errors hold no request method or URL.
 *
 * Without a response: the client's own timeout is a `RequestTimeoutError` (code `notionhq_client_request_timeout`);
 * refused connections are fetch's failure, whose system code the core `network` rule finds on the cause chain.
 */
import { isHttpStatus } from '../kit/http.js';
import { readProp, readString } from '../kit/read.js';
import { jsonObject } from './body.js';
import { failureRules, noResponseRule, serviceCode, serviceMessage, type HttpFailure } from './failure.js';
import { requestIdOf, requestIdShaped } from './headers.js';

const SERVICE = 'Notion API';

/** The failure a Notion client HTTP error describes, or `undefined`. */
export function notionFailureOf(error: unknown): HttpFailure | undefined {
  const name = readString(error, 'name');
  if (name !== 'APIResponseError' && name !== 'UnknownHTTPResponseError') return undefined;
  const status = readProp(error, 'status');
  const headers = readProp(error, 'headers');
  if (!isHttpStatus(status) || status < 300 || readString(error, 'code') === undefined || headers === undefined) return undefined;
  const body = jsonObject(readProp(error, 'body'));
  const own = serviceCode(readProp(error, 'code'));
  return {
    service: SERVICE,
    status,
    code: serviceCode(readProp(body, 'code')) ?? (own?.startsWith('notionhq_client_') === true ? undefined : own),
    message: serviceMessage(readProp(body, 'message')),
    requestId: requestIdShaped(readProp(error, 'request_id')) ?? requestIdShaped(readProp(body, 'request_id')) ?? requestIdOf(headers, ['x-notion-request-id']),
    headers,
  };
}

/** The client's timeout (`timeoutMs`): `The Notion API request timed out.`, status 504. */
export const notionTimeoutRule = noResponseRule('notion-timeout', (error: unknown): boolean => readString(error, 'code') === 'notionhq_client_request_timeout' && readString(error, 'name') === 'RequestTimeoutError', `The ${SERVICE} request timed out.`, 504);

/** `notion-unauthorized`, `notion-http-error`. */
export const [notionUnauthorizedRule, notionHttpErrorRule] = failureRules('notion', SERVICE, notionFailureOf);

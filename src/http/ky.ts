/**
 * ky 1 and 2: `HTTPError` (name `HTTPError`, a `response` with a numeric `status`, a `request` with `method` and `url`,
 * an `options` object; never `instanceof`). ky 2 parses the error body into `data`; ky 1 leaves the body unread, so
 * its text has the status alone. The error's own `message` holds the full URL (query credentials included) and is
 * never shown. ky's `TimeoutError` (name `TimeoutError`) and `NetworkError` (fetch's failure as its cause) are the
 * core rules' (`timeout`, `network`).
 */
import { isHttpStatus } from '../kit/http.js';
import { isObjectLike, readProp, readString } from '../kit/read.js';
import { redactUrl } from '../kit/url.js';
import { bodyText } from './body.js';
import { failureRules, type HttpFailure } from './failure.js';
import { GENERIC_REQUEST_ID_HEADERS, requestIdOf } from './headers.js';

/** True for a ky `HTTPError`: its name, a `response` with an HTTP status, a `request` and an `options` object. */
export function isKyHttpError(error: unknown): boolean {
  return (
    readString(error, 'name') === 'HTTPError' &&
    isHttpStatus(readProp(readProp(error, 'response'), 'status')) &&
    isObjectLike(readProp(error, 'request')) &&
    isObjectLike(readProp(error, 'options'))
  );
}

/** The failure a ky HTTPError describes, or `undefined`. */
export function kyFailureOf(error: unknown): HttpFailure | undefined {
  if (!isKyHttpError(error)) return undefined;
  const response = readProp(error, 'response');
  const status = readProp(response, 'status') as number;
  if (status < 300) return undefined;
  const request = readProp(error, 'request');
  const headers = readProp(response, 'headers');
  const { message, code } = bodyText(readProp(error, 'data'));
  const method = readString(request, 'method')?.toUpperCase();
  const url = readString(request, 'url');
  return {
    service: 'HTTP',
    status,
    code,
    message,
    method: method !== undefined && /^[A-Z]{1,16}$/.test(method) ? method : undefined,
    url: url === undefined ? undefined : redactUrl(url),
    requestId: requestIdOf(headers, GENERIC_REQUEST_ID_HEADERS),
    headers,
  };
}

/** `ky-unauthorized`, `ky-http-error`. */
export const [kyUnauthorizedRule, kyHttpErrorRule] = failureRules('ky', 'HTTP', kyFailureOf);

/**
 * Google API HTTP errors: any HTTP error status from a gaxios error (googleapis, google-auth-library's `request`),
 * from googleapis-common's HTTP/2 client (a plain `Error` whose `cause` is the response, see http2.ts), or from an
 * HTTP-client-like error whose body is Google's. The client sees the API's own message first, then its status and the
 * method and URL with credentials stripped; never the error's `message` (a whole HTML page in gaxios 7/8).
 */
import { failedRequestOf, httpStatusOf, isHttpClientError } from '../kit/http.js';
import type { FailedRequest, ErrorRule } from '../rules/rule.js';
import { apiErrorText } from './api-error-text.js';
import { apiErrorOf, oauthErrorOf } from './body.js';
import { googleApiFailure } from './failure-facts.js';
import { isGaxiosError } from './gaxios.js';
import { googleHttpFace, isHttp2ResponseError } from './http2.js';

/**
 * The HTTP status (300 or more) of a Google API HTTP error, or `undefined` for any other value: a gaxios error (any
 * version, any copy), googleapis-common's HTTP/2 error, or an HTTP-client-like error (object `config`, `response` key)
 * whose body is Google's AIP-193 or OAuth error JSON.
 */
export function googleApiErrorStatus(error: unknown): number | undefined {
  const status = httpStatusOf(googleHttpFace(error));
  if (status === undefined || status < 300) return undefined;
  if (isGaxiosError(error) || isHttp2ResponseError(error)) return status;
  return isHttpClientError(error) && (apiErrorOf(error) !== undefined || oauthErrorOf(error) !== undefined) ? status : undefined;
}

/** The failed request of a Google HTTP error, for the log record: method, URL without credentials, HTTP status. */
export function googleFailedRequestOf(error: unknown): FailedRequest | undefined {
  return failedRequestOf(googleHttpFace(error));
}

/**
 * Google API HTTP errors (`google-api-error`): text as {@link apiErrorText}
 * (`File not found: 1AbC. (404 NOT_FOUND from Google API GET https://…?key=[REDACTED])`, with the HTTP status text
 * as the message when the body is not Google's JSON), status the HTTP status (so the access log tells a 404 from a
 * 503), logged at warn. Failure code Google's status in snake case (`not_found`); retryable after 408, 429 and 5xx,
 * with the response's delay (see failure-facts.ts).
 */
export const googleApiErrorRule: ErrorRule = Object.freeze({
  name: 'google-api-error',
  predicate: (error: unknown): boolean => googleApiErrorStatus(error) !== undefined,
  message: (error: unknown): string => apiErrorText(error),
  status: (error: unknown): number => httpStatusOf(googleHttpFace(error)) ?? 502,
  level: 'warn',
  request: googleFailedRequestOf,
  failure: googleApiFailure,
});

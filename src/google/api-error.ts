/**
 * Google API HTTP errors: any HTTP error status from a gaxios error (googleapis, google-auth-library's `request`), or
 * from an HTTP-client-like error whose body is Google's. The client sees the API's own message, its canonical status,
 * and the method and URL with credentials stripped; never the error's `message` (a whole HTML page in gaxios 7/8).
 */
import { failedRequestOf, httpStatusOf, isHttpClientError } from '../kit/http.js';
import type { ErrorRule } from '../rules/rule.js';
import { apiErrorText } from './api-error-text.js';
import { apiErrorOf, oauthErrorOf } from './body.js';
import { isGaxiosError } from './gaxios.js';

/**
 * The HTTP status (300 or more) of a Google API HTTP error, or `undefined` for any other value: a gaxios error (any
 * version, any copy), or an HTTP-client-like error (object `config`, `response` key) whose body is Google's AIP-193
 * or OAuth error JSON.
 */
export function googleApiErrorStatus(error: unknown): number | undefined {
  const status = httpStatusOf(error);
  if (status === undefined || status < 300) return undefined;
  if (isGaxiosError(error)) return status;
  return isHttpClientError(error) && (apiErrorOf(error) !== undefined || oauthErrorOf(error) !== undefined) ? status : undefined;
}

/**
 * Google API HTTP errors (`google-api-error`): text as {@link apiErrorText}
 * (`Google API GET https://…?key=[REDACTED] failed with 404 NOT_FOUND: File not found: 1AbC.`, with the HTTP status
 * text as the message when the body is not Google's JSON), status the HTTP status (so the access log tells a 404 from
 * a 503), logged at warn.
 */
export const googleApiErrorRule: ErrorRule = Object.freeze({
  name: 'google-api-error',
  predicate: (error: unknown): boolean => googleApiErrorStatus(error) !== undefined,
  message: (error: unknown): string => apiErrorText(error),
  status: (error: unknown): number => httpStatusOf(error) ?? 502,
  level: 'warn',
  request: failedRequestOf,
});

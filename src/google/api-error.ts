/**
 * Google API HTTP errors: any HTTP error status from a gaxios error (googleapis, google-auth-library's `request`), or
 * from an HTTP-client-like error whose body is Google's. The client sees the API's own message, its canonical status,
 * and the method and URL with credentials stripped; never the error's `message` (a whole HTML page in gaxios 7/8).

 */
import type { ErrorRule } from '../rules/rule.js';
import { apiErrorOf, oauthErrorOf } from './body.js';
import { apiErrorText, failedRequestOf } from './describe.js';
import { httpStatusOf, isGaxiosError, isHttpClientError } from './gaxios.js';

/**
 * True for a Google API HTTP error: an HTTP status of 300 or more, on a gaxios error (any version, any copy) or on an
 * HTTP-client-like error (object `config`, `response` key) whose body is Google's AIP-193 or OAuth error JSON.
 *
 * @example
 * ```ts
 * try {
 *   await sheets.spreadsheets.get({ spreadsheetId });
 * } catch (error) {
 *   isGoogleApiError(error); // true for the 403 of a spreadsheet the caller may not read
 * }
 * ```
 */
export function isGoogleApiError(error: unknown): boolean {
  return googleApiErrorStatus(error) !== undefined;
}

/** The HTTP status of a Google API HTTP error ({@link isGoogleApiError}), or `undefined` for any other value. */
export function googleApiErrorStatus(error: unknown): number | undefined {
  const status = httpStatusOf(error);
  if (status === undefined || status < 300) return undefined;
  if (isGaxiosError(error)) return status;
  return isHttpClientError(error) && (apiErrorOf(error) !== undefined || oauthErrorOf(error) !== undefined) ? status : undefined;
}

/**
 * Client text of a Google API HTTP error:
 * `Google API <METHOD> <URL without credentials> failed with <HTTP>[ <STATUS>]: <API message>`, with the HTTP status text
 * as the message when the body is not Google's JSON (an HTML 502 page).
 *
 * @example
 * ```ts
 * googleApiErrorMessage(error);
 * // 'Google API GET https://www.googleapis.com/drive/v3/files/1AbC?key=[REDACTED] failed with 404 NOT_FOUND: File not found: 1AbC.'
 * ```
 */
export function googleApiErrorMessage(error: unknown): string {
  return apiErrorText(error);
}

/**
 * Google API HTTP errors ({@link isGoogleApiError}): text as {@link googleApiErrorMessage}, status the HTTP status
 * (so the access log tells a 404 from a 503), logged at warn.
 *
 * @example
 * ```ts
 * createErrorPolicy({ rules: [googleApiErrorRule, ...coreRules] }); // only the API errors, not the auth rules
 * ```
 */
export const googleApiErrorRule: ErrorRule = Object.freeze({
  name: 'google-api-error',
  predicate: isGoogleApiError,
  message: googleApiErrorMessage,
  status: (error: unknown): number => httpStatusOf(error) ?? 502,
  level: 'warn',
  request: failedRequestOf,
});

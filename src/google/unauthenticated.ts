/**
 * Rejected credentials: a Google API answering 401 / `UNAUTHENTICATED` (an access token that expired, was revoked, or
 * is of the wrong kind). Signing in again fixes it, so the rule asks the policy to append its re-authorization text.
 * OAuth token endpoint errors (`invalid_client`...) are not this: they carry an OAuth body, not an API one.
 */
import type { ErrorRule } from '../rules/rule.js';
import { apiErrorOf, oauthErrorOf } from './body.js';
import { apiErrorText } from './api-error-text.js';
import { googleApiErrorStatus, googleFailedRequestOf } from './api-error.js';

/**
 * True for a Google API error with HTTP 401 or status `UNAUTHENTICATED`, whose body is not an OAuth token error.
 */
function isGoogleUnauthenticatedError(error: unknown): boolean {
  const status = googleApiErrorStatus(error);
  if (status === undefined || oauthErrorOf(error) !== undefined) return false;
  return status === 401 || apiErrorOf(error)?.status === 'UNAUTHENTICATED';
}

/**
 * Client text: `<API message> (401 UNAUTHENTICATED from Google API <METHOD> <URL>)`.
 */
function googleUnauthenticatedMessage(error: unknown): string {
  return apiErrorText(error);
}

/**
 * Credentials a Google API rejected ({@link isGoogleUnauthenticatedError}): text as
 * {@link googleUnauthenticatedMessage} plus the policy's re-authorization text, status 401, logged at warn; failure code
 * `unauthenticated`, not retryable.
 */
export const googleUnauthenticatedRule: ErrorRule = Object.freeze({
  name: 'google-unauthenticated',
  predicate: isGoogleUnauthenticatedError,
  message: googleUnauthenticatedMessage,
  status: 401,
  level: 'warn',
  request: googleFailedRequestOf,
  reauthorize: true,
  failure: { code: 'unauthenticated', retryable: false },
});

/**
 * Rejected credentials: a Google API answering 401 / `UNAUTHENTICATED` (an access token that expired, was revoked, or
 * is of the wrong kind). Signing in again fixes it, so the rule asks the policy to append its re-authorization text.
 * OAuth token endpoint errors (`invalid_client`...) are not this: they carry an OAuth body, not an API one.
 */
import { apiErrorText, googleApiErrorStatus, googleFailedRequestOf } from './api-error.js';
import { apiErrorOf, oauthErrorOf } from './body.js';
import { googleRule } from './gaxios.js';

/**
 * Credentials a Google API rejected: a Google API error with HTTP 401 or status `UNAUTHENTICATED`, whose body is not
 * an OAuth token error. Text `<API message> (401 UNAUTHENTICATED from Google API <METHOD> <URL>)` plus the policy's
 * re-authorization text, status 401, logged at warn; failure code `unauthenticated`, not retryable.
 */
export const googleUnauthenticatedRule = googleRule({
  name: 'google-unauthenticated',
  predicate: (error) => {
    const status = googleApiErrorStatus(error);
    return status !== undefined && oauthErrorOf(error) === undefined && (status === 401 || apiErrorOf(error)?.status === 'UNAUTHENTICATED');
  },
  message: (error) => apiErrorText(error),
  status: 401,
  request: googleFailedRequestOf,
  reauthorize: true,
  failure: { code: 'unauthenticated', retryable: false },
});

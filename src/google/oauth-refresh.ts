/**
 * A user's sign-in that no longer works, which signing in again fixes: a refresh token expired or revoked
 * (`invalid_grant`), or a ReAuth policy demanding a fresh sign-in (`invalid_rapt`). They come as gaxios errors from
 * the token endpoint (or, for an external-account user, as google-auth-library's re-wrap). The same `invalid_grant`
 * of a service account or a workload identity federation exchange is not this (see oauth-grant.ts and
 * credential-config.ts). The client sees the clean `error_description`, never the body as JSON (which GAL puts in
 * `message` for invalid_rapt).
 */
import { oauthErrorOf } from './body.js';
import { googleFailedRequestOf } from './api-error.js';
import { googleRule } from './gaxios.js';
import { authorizationFailedText, oauthGrantKind } from './oauth-grant.js';

/** True for a ReAuth demand: `error` or `error_subtype` `invalid_rapt`. */
function isRaptError(error: unknown): boolean {
  const oauth = oauthErrorOf(error);
  return oauth?.error === 'invalid_rapt' || oauth?.subtype === 'invalid_rapt';
}

/**
 * Revoked or expired Google sign-ins: an OAuth refresh error answering a user's refresh token (not a service account's
 * JWT, not an STS exchange) with `error` `invalid_grant` (or `invalid_rapt`, or `error_subtype` `invalid_rapt`). Text
 * `Google authorization failed (<error>): <error_description>` (or `Google authorization failed (<error>).` without a
 * description) plus the policy's re-authorization text, status 401, logged at warn; failure code `invalid_rapt` for a
 * ReAuth demand, else `invalid_grant`; not retryable (the user must act).
 */
export const googleOAuthRefreshRule = googleRule({
  name: 'google-oauth-refresh',
  predicate: (error) => oauthGrantKind(error) === 'user' && (oauthErrorOf(error)?.error === 'invalid_grant' || isRaptError(error)),
  message: (error) => authorizationFailedText(oauthErrorOf(error)),
  status: 401,
  request: googleFailedRequestOf,
  reauthorize: true,
  failure: (error) => ({ code: isRaptError(error) ? 'invalid_rapt' : 'invalid_grant', retryable: false }),
});

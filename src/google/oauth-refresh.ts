/**
 * A user's sign-in that no longer works, which signing in again fixes: a refresh token expired or revoked
 * (`invalid_grant`), or a ReAuth policy demanding a fresh sign-in (`invalid_rapt`). They come as gaxios errors from
 * the token endpoint (or, for an external-account user, as google-auth-library's re-wrap). The same `invalid_grant`
 * of a service account or a workload identity federation exchange is not this (see oauth-grant.ts and
 * credential-config.ts). The client sees the clean `error_description`, never the body as JSON (which GAL puts in
 * `message` for invalid_rapt).
 */
import type { ErrorRule, FailureFacts } from '../rules/rule.js';
import { googleFailedRequestOf } from './api-error.js';
import { oauthErrorOf } from './body.js';
import { oauthGrantKind } from './oauth-grant.js';

/**
 * True for a user's OAuth refresh error that a new sign-in fixes: `error` `invalid_grant` (or `invalid_rapt`, or
 * `error_subtype` `invalid_rapt`) answering a user's refresh token (not a service account's JWT, not an STS exchange).
 */
function isOAuthRefreshError(error: unknown): boolean {
  if (oauthGrantKind(error) !== 'user') return false;
  const oauth = oauthErrorOf(error);
  return oauth !== undefined && (oauth.error === 'invalid_grant' || oauth.error === 'invalid_rapt' || oauth.subtype === 'invalid_rapt');
}

/**
 * Client text: `Google authorization failed (<error>): <error_description>`, or
 * `Google authorization failed (<error>).` without a description.
 */
function oauthRefreshMessage(error: unknown): string {
  const oauth = oauthErrorOf(error);
  const code = oauth?.error ?? 'invalid_grant';
  return oauth?.description === undefined
    ? `Google authorization failed (${code}).`
    : `Google authorization failed (${code}): ${oauth.description}`;
}

/** Failure facts: code `invalid_rapt` for a ReAuth demand, else `invalid_grant`; not retryable (the user must act). */
function oauthRefreshFailure(error: unknown): FailureFacts {
  const oauth = oauthErrorOf(error);
  const rapt = oauth?.error === 'invalid_rapt' || oauth?.subtype === 'invalid_rapt';
  return { code: rapt ? 'invalid_rapt' : 'invalid_grant', retryable: false };
}

/**
 * Revoked or expired Google sign-ins ({@link isOAuthRefreshError}): text as {@link oauthRefreshMessage} plus the
 * policy's re-authorization text, status 401, logged at warn; failure facts as {@link oauthRefreshFailure}.
 */
export const googleOAuthRefreshRule: ErrorRule = Object.freeze({
  name: 'google-oauth-refresh',
  predicate: isOAuthRefreshError,
  message: oauthRefreshMessage,
  status: 401,
  level: 'warn',
  request: googleFailedRequestOf,
  reauthorize: true,
  failure: oauthRefreshFailure,
});

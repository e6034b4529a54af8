/**
 * OAuth token failures that signing in again fixes: a refresh token expired or revoked (`invalid_grant`), a ReAuth
 * policy demanding a fresh sign-in (`invalid_rapt`), a client no longer allowed (`unauthorized_client`). They come as
 * gaxios errors from the token endpoint, or as google-auth-library's STS re-wrap (a plain `Error`
 * `Error code invalid_grant: ...` with the gaxios error's `config` and `response` copied onto it, without its symbol).
 * The client sees the clean `error_description`, never the body as JSON (which GAL puts in `message` for invalid_rapt).
 */
import { failedRequestOf } from '../kit/http.js';
import type { ErrorRule } from '../rules/rule.js';
import { oauthErrorOf } from './body.js';
import { isGoogleHttpError } from './gaxios.js';

/** OAuth `error` values that mean "sign in again". */
const REAUTHORIZE_ERRORS = new Set(['invalid_grant', 'invalid_rapt', 'unauthorized_client']);

/**
 * True for an OAuth token error that a new sign-in fixes: a gaxios or HTTP-client-like error whose response body has
 * `error` `invalid_grant`, `invalid_rapt` or `unauthorized_client` (or `error_subtype` `invalid_rapt`).
 */
function isOAuthRefreshError(error: unknown): boolean {
  if (!isGoogleHttpError(error)) return false;
  const oauth = oauthErrorOf(error);
  return oauth !== undefined && (REAUTHORIZE_ERRORS.has(oauth.error) || oauth.subtype === 'invalid_rapt');
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

/**
 * Revoked or expired Google sign-ins ({@link isOAuthRefreshError}): text as {@link oauthRefreshMessage} plus the
 * policy's re-authorization text, status 401, logged at warn.
 */
export const googleOAuthRefreshRule: ErrorRule = Object.freeze({
  name: 'google-oauth-refresh',
  predicate: isOAuthRefreshError,
  message: oauthRefreshMessage,
  status: 401,
  level: 'warn',
  request: failedRequestOf,
  reauthorize: true,
});

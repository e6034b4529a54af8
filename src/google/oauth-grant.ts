/**
 * Whose sign-in an OAuth token error is about, which decides whether signing in again can help. The token endpoint
 * answers the same `invalid_grant` to a user's revoked refresh token, to a service account's refused JWT and to a
 * workload identity federation exchange; only the first is fixed by a new sign-in. The request tells them apart:
 * - a service account's JWT grant (gtoken, inside google-auth-library) posts an `assertion`, and gtoken rewrites the
 *   gaxios error's message to `<error>: <error_description>`;
 * - google-auth-library's STS client re-wraps the gaxios error into a plain `Error('Error code <error>: …')` carrying
 *   `config` and `response` but no gaxios symbol (its external-account "authorized user" client, workforce identity
 *   federation, does the same for a user's refresh token: its request body has a `refresh_token` key (10, 11; 9's
 *   string body is redacted whole) and it posts to STS's `oauthtoken` endpoint, not `token`);
 * - anything else from the token endpoint is a user's refresh.
 * Request bodies are read for their keys only (gaxios redacts `assertion` and `grant_type` values, not the keys).
 */
import { requestUrlOf } from '../kit/http.js';
import { hasKey, isObjectLike, messageOf, readProp } from '../kit/read.js';
import { urlPathOf } from '../kit/url.js';
import { oauthErrorOf, type OAuthErrorBody } from './body.js';
import { isGaxiosError, isGoogleHttpError } from './gaxios.js';

/** Whose credentials an OAuth token error concerns. */
export type OAuthGrantKind = 'user' | 'service-account' | 'token-exchange';

/** The first words of google-auth-library's STS re-wrap. */
const REWRAP_PREFIX = 'Error code ';

/** True when the request body (`config.data`: `URLSearchParams` or an object) has the field `key`. */
function bodyHasField(error: unknown, key: string): boolean {
  const data = readProp(readProp(error, 'config'), 'data');
  if (!isObjectLike(data)) return false;
  const has = readProp(data, 'has');
  if (typeof has === 'function') {
    try {
      return (has as (this: unknown, name: string) => unknown).call(data, key) === true;
    } catch {
      return false;
    }
  }
  return hasKey(data, key);
}

/**
 * The kind of grant an OAuth token error (a gaxios or HTTP-client-like error with an OAuth error body) answered, or
 * `undefined` for anything else (see the module comment).
 *
 * @example
 * ```ts
 * oauthGrantKind(await jwtClient.getAccessToken().catch((e) => e)); // 'service-account'
 * ```
 */
export function oauthGrantKind(error: unknown): OAuthGrantKind | undefined {
  if (!isGoogleHttpError(error)) return undefined;
  const oauth = oauthErrorOf(error);
  if (oauth === undefined) return undefined;
  const message = messageOf(error);
  if (!isGaxiosError(error) && message.startsWith(REWRAP_PREFIX)) {
    // a user's refresh: the body has a `refresh_token`, or it went to STS's `oauthtoken` endpoint (`/v1/oauthtoken`)
    const user = bodyHasField(error, 'refresh_token') || urlPathOf(requestUrlOf(error) ?? '')?.endsWith('/oauthtoken') === true;
    return user ? 'user' : 'token-exchange';
  }
  if (bodyHasField(error, 'assertion') || message.startsWith(`${oauth.error}: `)) return 'service-account';
  return 'user';
}

/**
 * `Google authorization failed (<error>): <error_description>`, or `Google authorization failed (<error>).` without a
 * description (`invalid_grant` when there is no OAuth body).
 */
export function authorizationFailedText(oauth: OAuthErrorBody | undefined): string {
  const head = `Google authorization failed (${oauth?.error ?? 'invalid_grant'})`;
  return oauth?.description === undefined ? `${head}.` : `${head}: ${oauth.description}`;
}

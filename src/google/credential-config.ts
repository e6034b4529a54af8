/**
 * OAuth token errors that signing in again cannot fix, because the server's own credentials or configuration are
 * wrong: a service account's JWT refused (`invalid_grant: Invalid JWT Signature.`: a deleted or wrong key, a clock
 * far off), a workload identity federation exchange refused by Google's Security Token Service (an audience that is
 * not the pool provider's, a subject token it does not accept), an OAuth client not allowed this grant or these
 * scopes (`unauthorized_client`, such as domain-wide delegation not granted in the Admin console), or an unknown OAuth
 * client (`invalid_client`). The client text keeps Google's description and says that a new key or a configuration
 * change is needed; no re-authorization hint is added.
 */
import { asSentence } from '../text.js';
import { googleFailedRequestOf, snakeCode } from './api-error.js';
import { oauthErrorOf } from './body.js';
import { googleRule } from './gaxios.js';
import { authorizationFailedText, oauthGrantKind } from './oauth-grant.js';

/** What signing in again cannot fix, said after Google's description. */
const NOT_SIGN_IN = 'signing in again will not help.';

/** The service account's advice, also what a message for any other error says. */
const SERVICE_ACCOUNT = `The service account's key was refused: a new key or a configuration change is needed; ${NOT_SIGN_IN}`;

/** The sentence added after Google's description: by OAuth `error` for the two client errors, else by the kind of grant. */
const ADVICE: Readonly<Record<string, string>> = {
  unauthorized_client: `The OAuth client is not allowed this grant or these scopes (for domain-wide delegation, see the Admin console): a configuration change is needed; ${NOT_SIGN_IN}`,
  invalid_client: `The OAuth client ID or secret is not valid: a configuration change is needed; ${NOT_SIGN_IN}`,
  'service-account': SERVICE_ACCOUNT,
  'token-exchange': `The workload identity federation configuration (pool provider, audience or subject token) needs to change; ${NOT_SIGN_IN}`,
};

/**
 * The advice for an OAuth token error of a service account's JWT grant or of an STS token exchange (any `error`), or
 * an `unauthorized_client` / `invalid_client` of any grant; `undefined` for any other error (a user's grant).
 */
function adviceOf(error: unknown): string | undefined {
  const kind = oauthGrantKind(error);
  if (kind === undefined) return undefined;
  const code = oauthErrorOf(error)?.error;
  return ADVICE[code === 'unauthorized_client' || code === 'invalid_client' ? code : kind];
}

/**
 * OAuth token errors that need a new key or a configuration change ({@link adviceOf}). Text
 * `Google authorization failed (<error>): <error_description> <advice>`, such as `Google authorization failed
 * (invalid_grant): Invalid JWT Signature. The service account's key was refused: a new key or a configuration change
 * is needed; signing in again will not help.`, with no re-authorization text. Status 403 for `unauthorized_client`
 * (an administrator's grant is missing), else 500 (the server's credentials); logged at warn. Failure code the OAuth
 * `error` (`invalid_grant`, `unauthorized_client`...), not retryable.
 */
export const googleCredentialConfigRule = googleRule({
  name: 'google-credential-config',
  predicate: (error) => adviceOf(error) !== undefined,
  message: (error) =>
    `${asSentence(authorizationFailedText(oauthErrorOf(error)))} ${adviceOf(error) ?? SERVICE_ACCOUNT}`,
  status: (error) => (oauthErrorOf(error)?.error === 'unauthorized_client' ? 403 : 500),
  request: googleFailedRequestOf,
  failure: (error) => ({ code: snakeCode(oauthErrorOf(error)?.error ?? 'invalid_grant'), retryable: false }),
});

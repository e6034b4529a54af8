/**
 * OAuth token errors that signing in again cannot fix, because the server's own credentials or configuration are
 * wrong: a service account's JWT refused (`invalid_grant: Invalid JWT Signature.`: a deleted or wrong key, a clock
 * far off), a workload identity federation exchange refused by Google's Security Token Service (an audience that is
 * not the pool provider's, a subject token it does not accept), an OAuth client not allowed this grant or these
 * scopes (`unauthorized_client`, such as domain-wide delegation not granted in the Admin console), or an unknown OAuth
 * client (`invalid_client`). The client text keeps Google's description and says that a new key or a configuration
 * change is needed; no re-authorization hint is added.
 */
import type { ErrorRule, FailureFacts } from '../rules/rule.js';
import { googleFailedRequestOf } from './api-error.js';
import { oauthErrorOf } from './body.js';
import { snakeCode } from './failure-facts.js';
import { oauthGrantKind } from './oauth-grant.js';
import { asSentence } from '../text.js';

/** The sentence added after Google's description, by case. */
const ADVICE = {
  serviceAccount: "The service account's key was refused: a new key or a configuration change is needed; signing in again will not help.",
  tokenExchange:
    'The workload identity federation configuration (pool provider, audience or subject token) needs to change; signing in again will not help.',
  unauthorizedClient:
    'The OAuth client is not allowed this grant or these scopes (for domain-wide delegation, see the Admin console): a configuration change is needed; signing in again will not help.',
  invalidClient: 'The OAuth client ID or secret is not valid: a configuration change is needed; signing in again will not help.',
} as const;

/** Which advice applies, or `undefined` when the error is not one of these (see the module comment). */
function adviceOf(error: unknown): string | undefined {
  const kind = oauthGrantKind(error);
  if (kind === undefined) return undefined;
  const oauth = oauthErrorOf(error);
  if (oauth?.error === 'unauthorized_client') return ADVICE.unauthorizedClient;
  if (oauth?.error === 'invalid_client') return ADVICE.invalidClient;
  if (kind === 'service-account') return ADVICE.serviceAccount;
  if (kind === 'token-exchange') return ADVICE.tokenExchange;
  return undefined;
}

/**
 * True for an OAuth token error of a service account's JWT grant or of an STS token exchange (any `error`), or an
 * `unauthorized_client` / `invalid_client` of any grant.
 */
function isCredentialConfigError(error: unknown): boolean {
  return adviceOf(error) !== undefined;
}

/**
 * Client text: `Google authorization failed (<error>): <error_description> <advice>`, such as
 * `Google authorization failed (invalid_grant): Invalid JWT Signature. The service account's key was refused: a new
 * key or a configuration change is needed; signing in again will not help.`
 */
function credentialConfigMessage(error: unknown): string {
  const oauth = oauthErrorOf(error);
  const head = `Google authorization failed (${oauth?.error ?? 'invalid_grant'})`;
  const advice = adviceOf(error) ?? ADVICE.serviceAccount;
  return oauth?.description === undefined ? `${head}. ${advice}` : `${head}: ${asSentence(oauth.description)} ${advice}`;
}

/** Status: 403 for `unauthorized_client` (an administrator's grant is missing), else 500 (the server's credentials). */
function credentialConfigStatus(error: unknown): number {
  return oauthErrorOf(error)?.error === 'unauthorized_client' ? 403 : 500;
}

/** Failure facts: code the OAuth `error` (`invalid_grant`, `unauthorized_client`...), not retryable. */
function credentialConfigFailure(error: unknown): FailureFacts {
  return { code: snakeCode(oauthErrorOf(error)?.error ?? 'invalid_grant'), retryable: false };
}

/**
 * OAuth token errors that need a new key or a configuration change ({@link isCredentialConfigError}): text as
 * {@link credentialConfigMessage}, no re-authorization text, status 403 for `unauthorized_client` and 500 otherwise,
 * logged at warn; failure code the OAuth `error`, not retryable.
 */
export const googleCredentialConfigRule: ErrorRule = Object.freeze({
  name: 'google-credential-config',
  predicate: isCredentialConfigError,
  message: credentialConfigMessage,
  status: credentialConfigStatus,
  level: 'warn',
  request: googleFailedRequestOf,
  failure: credentialConfigFailure,
});

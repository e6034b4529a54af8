/**
 * Insufficient OAuth scopes: a 403 whose reason is `ACCESS_TOKEN_SCOPE_INSUFFICIENT` (ErrorInfo) or
 * `insufficientPermissions` (legacy). Signing in again with the missing scopes fixes it, so the rule asks the policy to
 * append its re-authorization text.
 */
import type { ErrorRule } from '../rules/rule.js';
import { apiErrorOf, reasonIn } from './body.js';
import { apiErrorText } from './api-error-text.js';
import { googleApiErrorStatus, googleFailedRequestOf } from './api-error.js';

/** Reasons that mean "the access token lacks a scope". */
const SCOPE_REASONS = new Set(['ACCESS_TOKEN_SCOPE_INSUFFICIENT', 'insufficientPermissions']);

/** Google's message for it, for bodies that carry no reason. */
const SCOPE_MESSAGE = 'Request had insufficient authentication scopes.';

function scopeReasonOf(error: unknown): string | undefined {
  return reasonIn(apiErrorOf(error), SCOPE_REASONS);
}

/**
 * True for a Google API 403 caused by missing OAuth scopes: reason `ACCESS_TOKEN_SCOPE_INSUFFICIENT` or
 * `insufficientPermissions`, or Google's message `Request had insufficient authentication scopes.`.
 */
function isGoogleInsufficientScopesError(error: unknown): boolean {
  if (googleApiErrorStatus(error) !== 403) return false;
  const api = apiErrorOf(error);
  return reasonIn(api, SCOPE_REASONS) !== undefined || api?.message === SCOPE_MESSAGE;
}

/**
 * Client text of an insufficient-scopes failure:
 * `Request had insufficient authentication scopes. (403 PERMISSION_DENIED ACCESS_TOKEN_SCOPE_INSUFFICIENT from Google API GET <URL>)`
 */
function googleInsufficientScopesMessage(error: unknown): string {
  return apiErrorText(error, { reason: scopeReasonOf(error) });
}

/**
 * Insufficient OAuth scopes ({@link isGoogleInsufficientScopesError}): text as
 * {@link googleInsufficientScopesMessage} plus the policy's re-authorization text, status 401, logged at warn; failure
 * code `access_token_scope_insufficient` (whichever reason Google gave), not retryable.
 */
export const googleInsufficientScopesRule: ErrorRule = Object.freeze({
  name: 'google-insufficient-scopes',
  predicate: isGoogleInsufficientScopesError,
  message: googleInsufficientScopesMessage,
  status: 401,
  level: 'warn',
  request: googleFailedRequestOf,
  reauthorize: true,
  failure: { code: 'access_token_scope_insufficient', retryable: false },
});

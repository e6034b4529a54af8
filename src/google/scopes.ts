/**
 * Insufficient OAuth scopes: a 403 whose reason is `ACCESS_TOKEN_SCOPE_INSUFFICIENT` (ErrorInfo) or
 * `insufficientPermissions` (legacy). Signing in again with the missing scopes fixes it, so the rule asks the policy to
 * append its re-authorization text.
 */
import { serverTextLine } from '../text.js';
import { apiErrorText, googleApiErrorStatus, googleFailedRequestOf } from './api-error.js';
import { apiErrorOf, reasonIn } from './body.js';
import { googleRule } from './gaxios.js';

/** Reasons that mean "the access token lacks a scope". */
const SCOPE_REASONS = new Set(['ACCESS_TOKEN_SCOPE_INSUFFICIENT', 'insufficientPermissions']);

/**
 * Insufficient OAuth scopes: a Google API 403 with reason `ACCESS_TOKEN_SCOPE_INSUFFICIENT` or
 * `insufficientPermissions`, or Google's message `Request had insufficient authentication scopes.` (for bodies that
 * carry no reason). Text
 * `Request had insufficient authentication scopes. (403 PERMISSION_DENIED ACCESS_TOKEN_SCOPE_INSUFFICIENT from Google API GET <URL>)`
 * plus the policy's re-authorization text, status 401, logged at warn; failure code `access_token_scope_insufficient`
 * (whichever reason Google gave), not retryable.
 */
export const googleInsufficientScopesRule = googleRule({
  name: 'google-insufficient-scopes',
  predicate: (error) => {
    if (googleApiErrorStatus(error) !== 403) return false;
    const api = apiErrorOf(error);
    return reasonIn(api, SCOPE_REASONS) !== undefined || serverTextLine(api?.message) === 'Request had insufficient authentication scopes.';
  },
  message: (error) => apiErrorText(error, reasonIn(apiErrorOf(error), SCOPE_REASONS)),
  status: 401,
  request: googleFailedRequestOf,
  reauthorize: true,
  failure: { code: 'access_token_scope_insufficient', retryable: false },
});

/**
 * `mcp-error-policy/google`: allowlist rules for failures of Google APIs, as thrown by gaxios 6/7/8,
 * google-auth-library 9/10/11 and googleapis. Structural: nothing here imports those packages, so the rules hold across
 * versions and duplicate copies (where `instanceof` fails).
 *
 * ## Order: `googleRules` before `coreRules`
 *
 * ```ts
 * import { coreRules, createErrorPolicy } from 'mcp-error-policy';
 * import { googleRules } from 'mcp-error-policy/google';
 *
 * const policy = createErrorPolicy({
 *   rules: [...googleRules, ...coreRules],
 *   reauthorize: 'Sign in again: run `acme auth login`.',
 * });
 * ```
 *
 * The policy walks a failure's cause chain outermost first and, at each error, tries the rules in order. After
 * `coreRules`, the core `http-status` rule would take every Google API error (status only: no message, no sign-in
 * text), the core `network` rule gaxios's network failures and the core `file-system` rule a missing `keyFile`: so
 * `createErrorPolicy` refuses `[...coreRules, ...googleRules]` (and any Google rule after a core rule) with a
 * `TypeError` naming the order to use.
 *
 * Placed first, the Google rules take almost nothing from the core rules: every Google predicate needs a gaxios error
 * (its registered symbol), an HTTP-client-like error (object `config` and a `response` key), googleapis-common's
 * HTTP/2 error (a plain `Error('Request failed with status code …')` whose cause is the response), one of
 * google-auth-library's (and gtoken's) fixed messages on an error named `Error` / `SyntaxError`, or an OpenSSL error
 * or jwa's missing-key `TypeError` thrown while google-auth-library signs a service account's JWT (by its stack
 * frames); the one exception is Node's ENOENT from opening a `.json`, `.p12` or `.pem` file, read as a missing
 * `keyFile`. So a deliberate `ToolError` still reaches the core's deliberate rule, even when it wraps a gaxios error.
 *
 * ## What the client sees (the policy scrubs and bounds it again, appends `Retry after <n> s.` when the failure object
 * has a delay, and the re-authorization text)
 * - API error, Google's message first: `The caller does not have permission (403 PERMISSION_DENIED from Google API GET https://…?key=[REDACTED])`
 * - HTML error page: `Bad Gateway (502 from Google API GET https://…)`
 * - Quota: `Quota exceeded … (429 RESOURCE_EXHAUSTED RATE_LIMIT_EXCEEDED from Google API GET https://…) Retry after 30 s.`
 * - Scopes: `Request had insufficient authentication scopes. (403 PERMISSION_DENIED ACCESS_TOKEN_SCOPE_INSUFFICIENT from Google API GET https://…)` + re-authorization
 * - Rejected token: `Request had invalid authentication credentials. … (401 UNAUTHENTICATED from Google API GET https://…)` + re-authorization
 * - Revoked sign-in: `Google authorization failed (invalid_grant): Token has been expired or revoked.` + re-authorization
 * - Service account, STS, OAuth client: `Google authorization failed (invalid_grant): Invalid JWT Signature. The service account's key was refused: a new key or a configuration change is needed; signing in again will not help.`
 * - Metadata server: `The Compute Engine metadata server gave no access token (404 Not Found). This may be because the Compute Engine instance does not have any permission scopes specified.`
 * - No token: `No refresh token or refresh handler callback is set.` + re-authorization
 * - No ADC: `Could not load the default credentials. Browse to https://cloud.google.com/docs/authentication/getting-started for more information.`
 * - Service account key: `The Google service account key cannot be used: its private key is not a valid private key (ERR_OSSL_UNSUPPORTED).`
 * - Network: `Network error while calling the Google API (ECONNREFUSED).`
 * - Timeout / abort: `The Google API request timed out.` / `The Google API request was aborted.`
 *
 * Each failure is logged once at warn with its stack, but for the API errors a caller causes (400, 404, 409, 410, 412,
 * 422), which are one info line.
 *
 * Every rule also gives the failure object its facts: a stable code (`permission_denied`, `rate_limit_exceeded`,
 * `invalid_grant`, `network`...), whether the call may be retried, and the delay Google gave (`Retry-After` header,
 * RetryInfo).
 *
 * @packageDocumentation
 */
import { packRules } from '../rules/pack.js';
import type { ErrorRule } from '../rules/rule.js';
import { googleApiErrorRule } from './api-error.js';
import { googleCredentialConfigRule } from './credential-config.js';
import { googleMetadataServerRule } from './metadata-server.js';
import { googleMissingCredentialsRule } from './missing-credentials.js';
import { googleOAuthRefreshRule } from './oauth-refresh.js';
import { googleQuotaRule } from './quota.js';
import { googleInsufficientScopesRule } from './scopes.js';
import { googleSignInRequiredRule } from './sign-in-required.js';
import { googleAbortRule, googleNetworkRule, googleTimeoutRule } from './transport.js';
import { googleUnauthenticatedRule } from './unauthenticated.js';

/**
 * The Google rules, in their order (first match wins), by name: `google-missing-credentials`,
 * `google-sign-in-required`, `google-credential-config` (service account, STS and OAuth client failures),
 * `google-oauth-refresh` (a user's sign-in), `google-metadata-server`, `google-unauthenticated` (401),
 * `google-insufficient-scopes`,
 * `google-quota`, `google-api-error` (any other HTTP error; status the HTTP status), `google-timeout`, `google-abort`,
 * `google-network`. The specific HTTP rules come before the generic one: a 403 for missing scopes or a rate limit is
 * also an API error. Place them before the core rules: after one, `createErrorPolicy` throws a `TypeError` (see the
 * module documentation for why). Pick single rules by name.
 *
 * @example
 * ```ts
 * import { coreRules, createErrorPolicy } from 'mcp-error-policy';
 * import { googleRules } from 'mcp-error-policy/google';
 *
 * const policy = createErrorPolicy({
 *   rules: [...googleRules, ...coreRules],
 *   reauthorize: 'Sign in again: run `acme auth login`.',
 * });
 *
 * // Only the API errors and quotas, without the sign-in rules:
 * const apiOnly = googleRules.filter((rule) => rule.name === 'google-api-error' || rule.name === 'google-quota');
 * ```
 */
export const googleRules: readonly ErrorRule[] = packRules('...googleRules', [
  googleMissingCredentialsRule,
  googleSignInRequiredRule,
  googleCredentialConfigRule,
  googleOAuthRefreshRule,
  googleMetadataServerRule,
  googleUnauthenticatedRule,
  googleInsufficientScopesRule,
  googleQuotaRule,
  googleApiErrorRule,
  googleTimeoutRule,
  googleAbortRule,
  googleNetworkRule,
]);

export { isGaxiosError } from './gaxios.js';
export { redactUrl } from '../kit/url.js';
// The element type of googleRules, the same as the core entry's: so that this entry's declarations name no hidden type.
export type { AnticipatedLevel, ErrorRule, FailedCall, FailedRequest, FailureFacts } from '../rules/rule.js';

/**
 * An OAuth client with no token to use: google-auth-library's `OAuth2Client` throws fixed plain `Error`s when it holds
 * neither an access token nor a refresh token (the user never signed in, or the stored tokens were lost). Signing in
 * fixes it, so the rule asks the policy to append its re-authorization text.
 */
import { messageOf, readString } from '../kit/read.js';
import type { ErrorRule } from '../rules/rule.js';
import { isGaxiosError } from './gaxios.js';

/** GAL's exact messages. */
const SIGN_IN_MESSAGES = new Set([
  'No refresh token or refresh handler callback is set.',
  'No access, refresh token, API key or refresh handler callback is set.',
  'No refresh token is set.',
]);

/** The longest of them: a longer message (a whole HTML page, say) is not hashed to be looked up. */
const LONGEST = Math.max(...[...SIGN_IN_MESSAGES].map((message) => message.length));

/**
 * True for google-auth-library's "no token" errors: `No refresh token or refresh handler callback is set.`,
 * `No access, refresh token, API key or refresh handler callback is set.`, `No refresh token is set.` (a plain `Error`
 * with exactly that message).
 */
function isSignInRequiredError(error: unknown): boolean {
  // GAL throws these plain Errors itself; a gaxios HTTP error is never one.
  if (isGaxiosError(error) || readString(error, 'name') !== 'Error') return false;
  const message = messageOf(error);
  return message.length <= LONGEST && SIGN_IN_MESSAGES.has(message);
}

/**
 * No token to call Google with ({@link isSignInRequiredError}): GAL's message as it is, plus the policy's
 * re-authorization text, status 401, logged at warn; failure code `sign_in_required`, not retryable.
 */
export const googleSignInRequiredRule: ErrorRule = Object.freeze({
  name: 'google-sign-in-required',
  predicate: isSignInRequiredError,
  message: messageOf,
  status: 401,
  level: 'warn',
  reauthorize: true,
  failure: { code: 'sign_in_required', retryable: false },
});

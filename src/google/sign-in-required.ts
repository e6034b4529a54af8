/**
 * An OAuth client with no token to use: google-auth-library's `OAuth2Client` throws fixed plain `Error`s when it holds
 * neither an access token nor a refresh token (the user never signed in, or the stored tokens were lost). Signing in
 * fixes it, so the rule asks the policy to append its re-authorization text.
 */
import { messageOf, readString } from '../kit/read.js';
import { googleRule, isGaxiosError } from './gaxios.js';

/** GAL's exact messages. */
const SIGN_IN_MESSAGES = new Set([
  'No refresh token or refresh handler callback is set.',
  'No access, refresh token, API key or refresh handler callback is set.',
  'No refresh token is set.',
]);

/**
 * No token to call Google with: google-auth-library's "no token" errors, a plain `Error` (not a gaxios HTTP error)
 * with exactly the message `No refresh token or refresh handler callback is set.`,
 * `No access, refresh token, API key or refresh handler callback is set.` or `No refresh token is set.`. Text GAL's
 * message as it is, plus the policy's re-authorization text, status 401, logged at warn; failure code
 * `sign_in_required`, not retryable.
 */
export const googleSignInRequiredRule = googleRule({
  name: 'google-sign-in-required',
  predicate: (error) => !isGaxiosError(error) && readString(error, 'name') === 'Error' && SIGN_IN_MESSAGES.has(messageOf(error)),
  message: messageOf,
  status: 401,
  reauthorize: true,
  failure: { code: 'sign_in_required', retryable: false },
});

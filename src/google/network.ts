/**
 * gaxios network failures (refused, reset, DNS, TLS), in every version and with either fetch. Their messages carry
 * the full request URL, `?key=` and all, so the client text is fixed and names only the code.
 */
import type { ErrorRule } from '../rules/rule.js';
import { isAborted, isGoogleTransportError, isTimedOut, networkCodeOf } from './transport.js';

/**
 * True for a gaxios (or HTTP-client-like) error without a response whose chain carries a network failure code
 * (`ECONNREFUSED`, `ECONNRESET`, `ENOTFOUND`, `EAI_AGAIN`, `UND_ERR_SOCKET`, TLS certificate codes...), timeouts and
 * aborts excepted.
 */
function isGoogleNetworkError(error: unknown): boolean {
  return isGoogleTransportError(error) && networkCodeOf(error) !== undefined && !isTimedOut(error) && !isAborted(error);
}

/**
 * Client text: `Network error while calling the Google API (<CODE>).`
 */
function googleNetworkMessage(error: unknown): string {
  return `Network error while calling the Google API (${networkCodeOf(error) ?? 'UNKNOWN'}).`;
}

/**
 * gaxios network failures ({@link isGoogleNetworkError}): text as {@link googleNetworkMessage}, status 502, logged at
 * warn; failure code `network`, retryable (as the core network rule's).
 */
export const googleNetworkRule: ErrorRule = Object.freeze({
  name: 'google-network',
  predicate: isGoogleNetworkError,
  message: googleNetworkMessage,
  status: 502,
  level: 'warn',
  failure: { code: 'network', retryable: true },
});

/**
 * Node network failures. Their messages carry full URLs (with API keys in the query), so the client text is fixed:
 * it names the code and never the URL.
 */
import { NETWORK_CODE_TEXT, isNetworkCode, stringCode } from '../kit/codes.js';
import type { ErrorRule } from './rule.js';

/**
 * True for a Node or undici network failure: a string `code` such as `ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET` or
 * `UND_ERR_SOCKET`. fetch's `TypeError: fetch failed` carries the code on its `cause`, which the policy's cause walk
 * reaches.
 */
function isNetworkError(error: unknown): boolean {
  return isNetworkCode(stringCode(error));
}

/**
 * Fixed client text for a network failure, naming the code and never the URL.
 */
function networkErrorMessage(error: unknown): string {
  const code = stringCode(error) ?? 'UNKNOWN';
  const words = Object.hasOwn(NETWORK_CODE_TEXT, code) ? NETWORK_CODE_TEXT[code] : 'network error';
  return `Network error: ${words} (${code})`;
}

/**
 * Node network failures, shown as `Network error: <what> (<CODE>)`, status 502, logged at warn; code `network`,
 * retryable.
 */
export const networkErrorRule: ErrorRule = Object.freeze({
  name: 'network',
  predicate: isNetworkError,
  message: networkErrorMessage,
  status: 502,
  failure: { code: 'network', retryable: true },
});

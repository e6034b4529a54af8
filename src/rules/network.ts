/**
 * Node network failures. Their messages carry full URLs (with API keys in the query), so the client text is fixed:
 * it names the code and never the URL.
 */
import { isNetworkCode, networkText, stringCode } from '../kit/codes.js';
import type { ErrorRule } from './rule.js';

/**
 * Node or undici network failures: a string `code` such as `ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET` or
 * `UND_ERR_SOCKET` (fetch's `TypeError: fetch failed` carries the code on its `cause`, which the policy's cause walk
 * reaches). Shown as `Network error: <what> (<CODE>)`, status 502, logged at warn; code `network`, retryable.
 */
export const networkErrorRule: ErrorRule = Object.freeze({
  name: 'network',
  predicate: (error: unknown): boolean => isNetworkCode(stringCode(error)),
  message: (error: unknown): string => networkText(stringCode(error)),
  status: 502,
  failure: { code: 'network', retryable: true },
});

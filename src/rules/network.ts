/**
 * Network failures. Their messages carry full URLs (with API keys in the query), so the client text is fixed: it names
 * the code and never the URL.
 */
import { networkCode, networkText } from '../kit/codes.js';
import type { ErrorRule } from './rule.js';

/**
 * Network failures on Node, Bun, Deno and workerd: a string `code` such as `ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`
 * or `UND_ERR_SOCKET` (Node and Bun; fetch's `TypeError: fetch failed` carries it on its `cause`, which the policy's
 * cause walk reaches), or a codeless Deno or workerd network failure, whose code is read from its message (Deno's
 * `... (os error 111)`, workerd's `Network connection lost.`). Shown as `Network error: <what> (<CODE>)`, status 502,
 * logged at warn; code `network`, retryable.
 */
export const networkErrorRule: ErrorRule = Object.freeze({
  name: 'network',
  predicate: (error: unknown): boolean => networkCode(error) !== undefined,
  message: (error: unknown): string => networkText(networkCode(error)),
  status: 502,
  failure: { code: 'network', retryable: true },
});

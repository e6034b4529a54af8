/** The core rules, in their order: first match wins. */
import { fileSystemRule } from './file-system.js';
import { httpStatusRule } from './http-status.js';
import { networkErrorRule } from './network.js';
import type { ErrorRule } from './rule.js';
import { abortRule, timeoutRule } from './timeout.js';

/**
 * The default allowlist for foreign errors, in order (first match wins): Node network failures (`network`), timeouts
 * (`timeout`), aborts (`abort`), HTTP status failures of any client (`http-status`: the status and the retry delay,
 * never the body), file-system errors (`file-system`). The package's own deliberate errors need no rule:
 * every policy shows them. The opt-in `zodErrorRule` is not among them. Pick single rules by name. The packs
 * (`googleRules`, `httpRules`) go before them: `createErrorPolicy` refuses a pack's rule after a core rule.
 *
 * @example
 * ```ts
 * import { coreRules, createErrorPolicy, zodErrorRule } from 'mcp-error-policy';
 * const policy = createErrorPolicy({ rules: [...coreRules, zodErrorRule] });
 * const noFiles = createErrorPolicy({ rules: coreRules.filter((rule) => rule.name !== 'file-system') });
 * ```
 */
export const coreRules: readonly ErrorRule[] = Object.freeze([
  networkErrorRule,
  timeoutRule,
  abortRule,
  httpStatusRule,
  fileSystemRule,
]);

/** The core rules, in their order: first match wins. */
import { deliberateErrorRule, resourceNotFoundRule } from './deliberate.js';
import { fileSystemRule } from './file-system.js';
import { networkErrorRule } from './network.js';
import type { ErrorRule } from './rule.js';
import { abortRule, timeoutRule } from './timeout.js';

/**
 * The default allowlist, in order: deliberate errors (`ResourceNotFoundError`, then `ToolError`/`ResourceError`),
 * Node network failures, timeouts, aborts, file-system errors. The opt-in `zodErrorRule` is not among them.
 *
 * @example
 * ```ts
 * import { coreRules, createErrorPolicy, zodErrorRule } from 'mcp-error-policy';
 * const policy = createErrorPolicy({ rules: [...coreRules, zodErrorRule] });
 * ```
 */
export const coreRules: readonly ErrorRule[] = Object.freeze([
  resourceNotFoundRule,
  deliberateErrorRule,
  networkErrorRule,
  timeoutRule,
  abortRule,
  fileSystemRule,
]);

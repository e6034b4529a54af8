/**
 * ZodError, as an opt-in rule. Not in the core rules: the SDK validates a tool's arguments before the handler runs,
 * so a ZodError inside a handler usually comes from parsing upstream data, which is a server bug.
 */
import { isObjectLike, readProp, readString } from '../kit/read.js';
import type { ErrorRule } from './rule.js';

const MAX_ISSUES = 10;

function traitsHaveZodError(error: unknown): boolean {
  const traits = readProp(readProp(error, '_zod'), 'traits');
  try {
    return traits instanceof Set && traits.has('$ZodError');
  } catch {
    return false;
  }
}

/**
 * True for a zod error of any version and build: zod 3 (`ZodError`), zod 4 classic (`ZodError`) and mini
 * (`$ZodError`), recognised by name and `issues` array or by zod 4's traits.
 */
function isZodError(error: unknown): boolean {
  const name = readString(error, 'name');
  if ((name === 'ZodError' || name === '$ZodError') && Array.isArray(readProp(error, 'issues'))) return true;
  return traitsHaveZodError(error);
}

function issuePath(issue: unknown): string {
  const path = readProp(issue, 'path');
  if (!Array.isArray(path) || path.length === 0) return '(root)';
  return path.map((part: unknown) => (typeof part === 'symbol' ? 'symbol' : String(part))).join('.');
}

/**
 * Client text for a zod error: `Invalid data: name: Invalid input: expected string, received number`, one issue per
 * `; `. zod 4 messages never echo the input, so they are used; zod 3's can (enum and literal checks quote the value),
 * so for zod 3 only the issue's `code` and `expected` are shown.
 */
function zodErrorMessage(error: unknown): string {
  const issues = readProp(error, 'issues');
  if (!Array.isArray(issues) || issues.length === 0) return 'Invalid data';
  const isV4 = isObjectLike(readProp(error, '_zod'));
  const parts = issues.slice(0, MAX_ISSUES).map((issue: unknown) => {
    const path = issuePath(issue);
    if (isV4) return `${path}: ${readString(issue, 'message') ?? readString(issue, 'code') ?? 'invalid'}`;
    const code = readString(issue, 'code') ?? 'invalid';
    const expected = readProp(issue, 'expected');
    return `${path}: ${code}${typeof expected === 'string' ? ` (expected ${expected})` : ''}`;
  });
  const more = issues.length > MAX_ISSUES ? `; and ${issues.length - MAX_ISSUES} more` : '';
  return `Invalid data: ${parts.join('; ')}${more}`;
}

/**
 * Opt-in rule for zod errors: the issues' paths and messages, status 500, logged at warn.
 *
 * @example
 * ```ts
 * const policy = createErrorPolicy({ rules: [...coreRules, zodErrorRule] });
 * ```
 */
export const zodErrorRule: ErrorRule = Object.freeze({
  name: 'zod',
  predicate: isZodError,
  message: zodErrorMessage,
});

/**
 * The rules for deliberate errors: the package's own (ToolError, ResourceError, ResourceNotFoundError) and FastMCP's
 * `UserError`, the error that framework documents for "show the user this". Every policy applies them before its own
 * rules, whatever `rules` holds, unless `maskDeliberateErrors` is set.
 */
import { deliberateFacts, isDeliberateError, isResourceError, isResourceNotFoundError } from '../errors.js';
import { isFailureCode } from '../failure.js';
import { hasKey, isObjectLike, messageOf, readProp } from '../kit/read.js';
import { RESOURCE_NOT_FOUND_CODE } from '../status.js';
import type { ErrorRule, FailureFacts } from './rule.js';

/** The facts the error was made with; its code defaults to its kind's (so does a code shaped like a credential). */
function facts(error: unknown): FailureFacts {
  const given = deliberateFacts(error);
  const kind = isResourceNotFoundError(error) ? 'resource_not_found' : isResourceError(error) ? 'resource_error' : 'tool_error';
  return { ...given, code: isFailureCode(given?.code) ? given.code : kind };
}

/** A deliberate `ResourceNotFoundError`: its text, JSON-RPC code -32002, status 404, logged at info. */
const resourceNotFoundRule: ErrorRule = Object.freeze({
  name: 'resource-not-found',
  predicate: isResourceNotFoundError,
  message: messageOf,
  status: 404,
  level: 'info',
  code: RESOURCE_NOT_FOUND_CODE,
  failure: facts,
});

/** A deliberate `ToolError` or `ResourceError`: its text, status 500, logged at info on one line. */
const deliberateErrorRule: ErrorRule = Object.freeze({
  name: 'deliberate',
  predicate: isDeliberateError,
  message: messageOf,
  level: 'info',
  failure: facts,
});

/** The name of the class an error was made by (its prototype's constructor), read safely. */
function className(prototype: unknown): unknown {
  return readProp(readProp(prototype, 'constructor'), 'name');
}

/**
 * FastMCP's `UserError` (npm `fastmcp`), read structurally so that no copy of fastmcp is imported: named `UserError`,
 * made by a class `UserError` whose parent is fastmcp's `UnexpectedStateError`, with the `extras` field that class
 * declares (present even when undefined). A `UserError` of another library does not match.
 */
export function isFastMcpUserError(error: unknown): boolean {
  if (!isObjectLike(error) || readProp(error, 'name') !== 'UserError' || !hasKey(error, 'extras')) return false;
  const prototype = Object.getPrototypeOf(error) as unknown;
  return className(prototype) === 'UserError' && className(isObjectLike(prototype) ? Object.getPrototypeOf(prototype) : undefined) === 'UnexpectedStateError';
}

/** FastMCP's `UserError`: its text as written, status 500, logged at info on one line, code `tool_error`. */
const fastMcpUserErrorRule: ErrorRule = Object.freeze({
  name: 'fastmcp-user-error',
  predicate: isFastMcpUserError,
  message: messageOf,
  level: 'info',
  failure: () => ({ code: 'tool_error' }),
});

/** The deliberate-error rules, in their order. */
export const deliberateRules: readonly ErrorRule[] = Object.freeze([resourceNotFoundRule, deliberateErrorRule, fastMcpUserErrorRule]);

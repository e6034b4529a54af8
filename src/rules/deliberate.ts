/**
 * The rules for the package's own deliberate errors (ToolError, ResourceError, ResourceNotFoundError). Every policy
 * applies them before its own rules, whatever `rules` holds, unless `maskDeliberateErrors` is set.
 */
import { deliberateFacts, isDeliberateError, isResourceError, isResourceNotFoundError } from '../errors.js';
import { isFailureCode } from '../failure.js';
import { messageOf } from '../kit/read.js';
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

/** The deliberate-error rules, in their order. */
export const deliberateRules: readonly ErrorRule[] = Object.freeze([resourceNotFoundRule, deliberateErrorRule]);

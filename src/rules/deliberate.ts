/** Rules for the package's own deliberate errors: ToolError, ResourceError, ResourceNotFoundError. */
import { isDeliberateError, isResourceNotFoundError } from '../errors.js';
import { messageOf } from '../kit/read.js';
import type { ErrorRule } from './rule.js';

/**
 * JSON-RPC code of "resource not found" (MCP).
 * @example
 * ```ts
 * const gone: ErrorRule = { name: 'gone', predicate: isGone, code: RESOURCE_NOT_FOUND_CODE, status: 404 };
 * ```
 */
export const RESOURCE_NOT_FOUND_CODE = -32002;

/**
 * A deliberate {@link ResourceNotFoundError}: its text, JSON-RPC code -32002, status 404, logged at info.
 * @example
 * ```ts
 * createErrorPolicy({ rules: [resourceNotFoundRule, deliberateErrorRule] }); // deliberate errors only
 * ```
 */
export const resourceNotFoundRule: ErrorRule = Object.freeze({
  name: 'resource-not-found',
  predicate: isResourceNotFoundError,
  message: messageOf,
  status: 404,
  level: 'info',
  code: RESOURCE_NOT_FOUND_CODE,
});

/**
 * A deliberate {@link ToolError} or {@link ResourceError}: its text, status 500, logged at info on one line.
 * @example
 * ```ts
 * createErrorPolicy({ rules: coreRules.filter((rule) => rule !== fileSystemRule) });
 * ```
 */
export const deliberateErrorRule: ErrorRule = Object.freeze({
  name: 'deliberate',
  predicate: isDeliberateError,
  message: messageOf,
  level: 'info',
});

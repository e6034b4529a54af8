/** Rules for the package's own deliberate errors: ToolError, ResourceError, ResourceNotFoundError. */
import { isDeliberateError, isResourceNotFoundError } from '../errors.js';
import { messageOf } from '../read.js';
import type { ErrorRule } from './rule.js';

/** JSON-RPC code of "resource not found" (MCP). */
export const RESOURCE_NOT_FOUND_CODE = -32002;

/**
 * A deliberate {@link ResourceNotFoundError}: its text, JSON-RPC code -32002, status 404, logged at info.
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
 */
export const deliberateErrorRule: ErrorRule = Object.freeze({
  name: 'deliberate',
  predicate: isDeliberateError,
  message: messageOf,
  level: 'info',
});

/**
 * The access-log status of a call, and the JSON-RPC codes the policy answers with: decided here and only here. The
 * status says what kind of outcome a call had, in HTTP's words, whatever transport carried it.
 */
import type { ErrorRule } from './rules/rule.js';
import { isHttpStatus } from './kit/http.js';
import { readProp, valueFor } from './kit/read.js';

/** JSON-RPC "internal error": the code of every failure answered as a JSON-RPC error that no rule gives one. */
export const INTERNAL_ERROR_CODE = -32603;

/** MCP "resource not found". */
export const RESOURCE_NOT_FOUND_CODE = -32002;

/** MCP "URL elicitation required" (2025-11-25): the client should open a URL, then retry. */
export const URL_ELICITATION_REQUIRED_CODE = -32042;

/** A successful call. */
const OK = 200;
/** A crash, or an anticipated failure whose rule gives no status. */
export const CRASH = 500;
/** A re-authorization failure, or a call refused while degraded. */
export const UNAUTHORIZED = 401;

/** A call the SDK answered itself, before any callback: an unknown or disabled name, or an invalid one. */
export function statusOfRejection(lookup: 'not-found' | 'invalid'): number {
  return lookup === 'not-found' ? 404 : 400;
}

/** An anticipated failure: 401 when it asks for re-authorization, else the rule's status (default 500). */
export function statusOfRule(rule: ErrorRule, matched: unknown, reauthorize: boolean): number {
  if (reauthorize) return UNAUTHORIZED;
  const { status } = rule;
  if (typeof status === 'number') return status;
  const value = valueFor(status, matched);
  return isHttpStatus(value) ? value : CRASH;
}

/** A protocol error, by its JSON-RPC code. */
export function statusOfProtocolCode(code: number): number {
  switch (code) {
    case -32700: // parse error
    case -32600: // invalid request
    case -32602: // invalid params
      return 400;
    case -32601: // method not found
    case RESOURCE_NOT_FOUND_CODE:
      return 404;
    case URL_ELICITATION_REQUIRED_CODE:
      return 403;
    default:
      return CRASH;
  }
}

/** A handler's result that no policy classified: 200, or 500 for an isError tool result made elsewhere. */
export function statusOfResult(value: unknown): number {
  return readProp(value, 'isError') === true ? CRASH : OK;
}

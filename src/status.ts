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

/**
 * The codes of a request the caller got wrong: JSON-RPC's parse error, invalid request, method not found and invalid
 * params, MCP's resource not found (2025-11-25), and the 2026-07-28 revision's header mismatch (-32020), missing
 * required client capability (-32021) and unsupported protocol version (-32022), as `@modelcontextprotocol/server`
 * 2.x numbers them.
 */
export const CALLER_ERROR_CODES: ReadonlySet<number> = new Set([-32700, -32600, -32601, -32602, RESOURCE_NOT_FOUND_CODE, -32020, -32021, -32022]);

/** A successful call. */
const OK = 200;
/** A crash, or an anticipated failure whose rule gives no status. */
export const CRASH = 500;
/** A re-authorization failure, or a call refused while degraded. */
export const UNAUTHORIZED = 401;
/** A call the client cancelled ("client closed request", as nginx names it): its signal was aborted. */
export const CLIENT_CLOSED_REQUEST = 499;

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
    case -32020: // header mismatch (2026-07-28)
    case -32021: // missing required client capability (2026-07-28)
    case -32022: // unsupported protocol version (2026-07-28)
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

/**
 * MCP protocol errors (`McpError` of SDK v1, `ProtocolError` of SDK v2), recognised structurally, so that neither SDK
 * is imported at run time. They pass through the policy untouched.
 */
import { readProp, readString } from './kit/read.js';

/** SDK v2's brand set, stamped on every ProtocolError at construction. */
const SDK_ERROR_BRANDS = Symbol.for('mcp.sdk.errorBrands');

/** JSON-RPC "internal error": the code of every failure answered as a JSON-RPC error that no rule gives one. */
export const INTERNAL_ERROR_CODE = -32603;

function hasV2ProtocolBrand(error: unknown): boolean {
  const brands = readProp(error, SDK_ERROR_BRANDS);
  if (brands === undefined) return false;
  try {
    return brands instanceof Set && brands.has('mcp.ProtocolError');
  } catch {
    return false;
  }
}

/**
 * True for an MCP protocol error: an SDK v2 `ProtocolError` (by its brand), or an error named `McpError` /
 * `ProtocolError` with an integer `code` (SDK v1 and its subclasses such as `UrlElicitationRequiredError`).
 * @example
 * ```ts
 * isProtocolError(new McpError(ErrorCode.InvalidParams, 'bad')); // true, without importing the SDK here
 * ```
 */
export function isProtocolError(error: unknown): boolean {
  if (hasV2ProtocolBrand(error)) return true;
  const name = readString(error, 'name');
  if (name !== 'McpError' && name !== 'ProtocolError') return false;
  const code = readProp(error, 'code');
  return typeof code === 'number' && Number.isInteger(code);
}

/** The JSON-RPC code of a protocol error ({@link INTERNAL_ERROR_CODE} when unreadable). */
export function protocolCode(error: unknown): number {
  const code = readProp(error, 'code');
  return typeof code === 'number' && Number.isInteger(code) ? code : INTERNAL_ERROR_CODE;
}

/** Access-log status for a JSON-RPC error code. */
export function statusForProtocolCode(code: number): number {
  switch (code) {
    case -32700: // parse error
    case -32600: // invalid request
    case -32602: // invalid params
      return 400;
    case -32601: // method not found
    case -32002: // resource not found
      return 404;
    case -32042: // URL elicitation required
      return 403;
    default:
      return 500;
  }
}

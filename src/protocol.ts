/**
 * MCP protocol errors (`McpError` of SDK v1, `ProtocolError` of SDK v2), recognised structurally, so that neither SDK
 * is imported at run time. A handler's deliberate one keeps its code and words (through the exit gate); one with the
 * code InternalError, or a code that is no JSON-RPC error code, is judged like any error (classify.ts).
 */
import { readProp, readString } from './kit/read.js';
import { INTERNAL_ERROR_CODE } from './status.js';

/** SDK v2's brand set, stamped on every ProtocolError at construction. */
const SDK_ERROR_BRANDS = Symbol.for('mcp.sdk.errorBrands');

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
 * `ProtocolError` (or, in early SDK v1 releases that named no error, made by a class named `McpError`) with an integer `code`
 * (SDK v1 and its subclasses such as `UrlElicitationRequiredError`).
 * @example
 * ```ts
 * isProtocolError(new McpError(ErrorCode.InvalidParams, 'bad')); // true, without importing the SDK here
 * ```
 */
export function isProtocolError(error: unknown): boolean {
  if (hasV2ProtocolBrand(error)) return true;
  // early SDK v1 releases (1.0.1 among them) set no `name` on their McpError: its class's name says it
  const name = readString(error, 'name');
  const named = name === 'McpError' || name === 'ProtocolError' || (name === 'Error' && readString(readProp(error, 'constructor'), 'name') === 'McpError');
  return named && Number.isInteger(readProp(error, 'code'));
}

/**
 * True for a code JSON-RPC reserves for errors, where MCP's codes live (-32768 to -32000). An HTTP status (`404`) or
 * any other number an error carries as `code` is not sent as a JSON-RPC code.
 */
export function isJsonRpcCode(code: number): boolean {
  return Number.isInteger(code) && code >= -32768 && code <= -32000;
}

/** The JSON-RPC code of a protocol error ({@link INTERNAL_ERROR_CODE} when unreadable). */
export function protocolCode(error: unknown): number {
  const code = readProp(error, 'code');
  return Number.isInteger(code) ? (code as number) : INTERNAL_ERROR_CODE;
}

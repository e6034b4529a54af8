/**
 * The low-level `Server`'s internals (`Server` of `@modelcontextprotocol/sdk/server/index.js` 1.x, of
 * `@modelcontextprotocol/server` 2.x): every read of them lives here, those of the `Server` an `McpServer` holds
 * included, one small function per capability. Neither SDK is imported: the instance is read structurally.
 */
import { isObjectLike, readProp } from '../kit/read.js';
import { zodErrorRule } from '../rules/zod.js';
import { markAnswer } from '../wrap/calls.js';

type Fn = (this: unknown, ...args: unknown[]) => unknown;

/** Marks a request handler this package wrapped (its value is the handler it wraps), and a patched `set` of a map. */
const PATCHED = Symbol('mcp-error-policy.patched-request');

/** The low-level `Server` an `McpServer` holds: its `server` property (both SDKs). */
export function lowLevelOf(server: object): unknown {
  return readProp(server, 'server');
}

/**
 * Whether `value` looks like a low-level `Server` (either SDK): `setRequestHandler` and `connect`, and no
 * `registerTool` (an `McpServer` has it).
 */
export function looksLikeLowLevelServer(value: unknown): value is object {
  return (
    isObjectLike(value) &&
    typeof readProp(value, 'setRequestHandler') === 'function' &&
    typeof readProp(value, 'connect') === 'function' &&
    typeof readProp(value, 'registerTool') !== 'function'
  );
}

/**
 * The request handlers of a low-level `Server`, a Map keyed by method: `_requestHandlers` (SDK 1.0.1-1.32.2, server
 * 2.0.0-2.4.0), or `undefined`.
 */
export function requestHandlersOf(low: unknown): Map<unknown, unknown> | undefined {
  const handlers = readProp(low, '_requestHandlers');
  return handlers instanceof Map ? (handlers as Map<unknown, unknown>) : undefined;
}

/**
 * Whether the connected client accepts URL-mode elicitation as the -32042 error: it declared
 * `capabilities.elicitation.url` at initialization (`getClientCapabilities()`, both SDKs), and the connection is not on
 * a protocol revision that replaced the error with input-required results (SDK v2's `_servedModernEra()`: 2026-07-28
 * and later). False when any of it cannot be read.
 */
export function clientTakesUrlElicitation(low: unknown): boolean {
  if (typeof readProp(low, '_servedModernEra') === 'function' && callMethod(low, '_servedModernEra') !== false) return false;
  return isObjectLike(readProp(readProp(callMethod(low, 'getClientCapabilities'), 'elicitation'), 'url'));
}

/**
 * The negotiated MCP protocol version, when the SDK tells it: `getNegotiatedProtocolVersion()` of the low-level server
 * (`server` itself, or the one an `McpServer` holds; server 2.x). SDK 1.x (1.23.0-1.32.2) keeps no such field: `undefined`.
 */
export function protocolVersionOf(server: object): string | undefined {
  const held = lowLevelOf(server);
  const version = callMethod(isObjectLike(held) ? held : server, 'getNegotiatedProtocolVersion');
  return typeof version === 'string' && version !== '' ? version : undefined;
}

/**
 * Whether `error` is the SDK's refusal of the request itself: a ZodError (zod 3 or 4) whose every issue is about the
 * request's `params` or `method` (`tools/call` without `name`).
 */
function isRequestSchemaError(error: unknown): boolean {
  if (!zodErrorRule.predicate(error)) return false;
  const issues = readProp(error, 'issues');
  return Array.isArray(issues) && issues.length > 0 && issues.every((issue: unknown) => {
    const head: unknown = (readProp(issue, 'path') as unknown[] | undefined)?.[0];
    return head === 'params' || head === 'method';
  });
}

/**
 * A request handler as the SDK keeps it, whose refusal of the request passes on as the SDK's own answer. The SDK
 * parses the request inside the handler it keeps (`requestSchema.parse(request)`, SDK 1.0.1-1.32.2 and server 2.x),
 * before the server's code runs, and throws what the parse throws synchronously: such an error is marked as an answer
 * (src/wrap/calls.ts), which every guard passes on unchanged, so the client gets the SDK's JSON-RPC error.
 */
function passingRequestSchemaErrors(handler: Fn): Fn {
  return function (this: unknown, ...args: unknown[]): unknown {
    try {
      return handler.apply(this, args);
    } catch (error) {
      if (isRequestSchemaError(error)) markAnswer(error as object);
      throw error;
    }
  };
}

/**
 * Wraps a request handler by its method: the wrapper, or `undefined` to leave the handler alone. `existing`: the
 * handler was in the map when it was covered (else the SDK is setting it now).
 */
export type WrapEntry = (method: string, handler: Fn, existing: boolean) => Fn | undefined;

/**
 * Replaces each handler of `map` that `wrapEntry` wraps, now and whenever the SDK sets one later (`setRequestHandler`
 * sets the map's entry: both SDKs). A handler this module wrapped is not wrapped again.
 */
export function coverHandlerMap(map: Map<unknown, unknown>, wrapEntry: WrapEntry): void {
  if (readProp(map.set, PATCHED) !== undefined) return;
  const baseSet = map.set;
  const wrapped = (method: unknown, handler: unknown, existing: boolean): unknown => {
    if (typeof method !== 'string' || typeof handler !== 'function' || readProp(handler, PATCHED) !== undefined) return handler;
    const out = wrapEntry(method, passingRequestSchemaErrors(handler as Fn), existing);
    if (out === undefined) return handler;
    Object.defineProperty(out, PATCHED, { value: handler });
    return out;
  };
  const set = function (this: Map<unknown, unknown>, method: unknown, handler: unknown): Map<unknown, unknown> {
    return baseSet.call(this, method, wrapped(method, handler, false));
  };
  Object.defineProperty(set, PATCHED, { value: baseSet });
  Object.defineProperty(map, 'set', { value: set, configurable: true, writable: true, enumerable: false });
  for (const [method, handler] of map) baseSet.call(map, method, wrapped(method, handler, true));
}

/** Calls the method `key` of `target`: what it returns, or `undefined` when there is no such method or it throws. */
export function callMethod(target: unknown, key: string, ...args: unknown[]): unknown {
  const method = readProp(target, key);
  try {
    return typeof method === 'function' ? (method as Fn).apply(target, args) : undefined;
  } catch {
    return undefined;
  }
}

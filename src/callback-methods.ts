/**
 * The requests that run a server's own tool, resource or prompt callback: the method of each kind of callback, and
 * the kind a method runs. Read by the wrappers (a low-level request handler's call is named by its request), the
 * telemetry hooks (a span's method) and the server adapters (which request handlers to wrap).
 */
import type { HandlerKind } from './log.js';

/** The request that runs each kind of callback. */
export const CALLBACK_METHODS = { tool: 'tools/call', resource: 'resources/read', prompt: 'prompts/get' } as const satisfies Readonly<Record<HandlerKind, string>>;

const KINDS = Object.keys(CALLBACK_METHODS) as readonly HandlerKind[];

/** The kind of callback a request of `method` runs (`tools/call`: a tool), or `undefined` for any other request. */
export function callbackKindOf(method: string): HandlerKind | undefined {
  return KINDS.find((kind) => CALLBACK_METHODS[kind] === method);
}

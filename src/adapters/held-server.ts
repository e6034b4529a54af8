/**
 * The low-level `Server` an `McpServer` holds (`mcpServer.server`), given to `applyErrorPolicy` in place of the
 * `McpServer`. The `McpServer` turns a tool's crash into an isError result inside its own `tools/call` handler, before
 * any wrapper of the low-level handler sees it, so the crash text would reach the client with no record. Both SDKs'
 * `McpServer` call `server.assertCanSetRequestHandler(<method>)` on the `Server` they hold just before setting the
 * handlers of a kind of callback (at its first registration); low-level code does not. That call is refused here.
 */
import { callbackKindOf } from '../callback-methods.js';
import { readProp } from '../kit/read.js';
import { MCP_SERVER_FLOOR } from './adapter.js';

type Fn = (this: unknown, ...args: unknown[]) => unknown;

/** What an `McpServer` registering a callback on a `Server` under the policy is told. */
export function heldServerError(): TypeError {
  return new TypeError(
    "applyErrorPolicy: this Server belongs to an McpServer, which sends a tool's crash text before the Server sees it: " +
      `apply the policy to the McpServer, \`applyErrorPolicy(mcpServer)\` (SDK ${MCP_SERVER_FLOOR} or later; on an older SDK, wrap each callback with withClientVisibleErrors)`,
  );
}

/**
 * Makes `server`'s `assertCanSetRequestHandler` (both SDKs) throw {@link heldServerError} for the methods whose
 * handlers run an `McpServer`'s callbacks: registering the first tool, resource or prompt on an `McpServer` whose
 * low-level `Server` is under the policy then fails at start-up, with the advice. Nothing else changes.
 */
export function refuseMcpServerCallbacks(server: object): void {
  const assert = readProp(server, 'assertCanSetRequestHandler');
  if (typeof assert !== 'function') return;
  const refusing = function (this: unknown, method: unknown, ...rest: unknown[]): unknown {
    if (typeof method === 'string' && callbackKindOf(method) !== undefined) throw heldServerError();
    return (assert as Fn).call(this, method, ...rest);
  };
  Object.defineProperty(server, 'assertCanSetRequestHandler', { value: refusing, configurable: true, writable: true, enumerable: false });
}

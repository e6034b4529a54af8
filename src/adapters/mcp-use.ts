/**
 * The mcp-use adapter (npm `mcp-use` 2.x, its `MCPServer`): the policy is MCP middleware of mcp-use's own,
 * `server.use('mcp:tools/call' | 'mcp:resources/read' | 'mcp:prompts/get', (ctx, next) => …)`, one per kind, each
 * running the rest of the chain (later middleware and the callback) under the guard every wrapper shares. Read
 * structurally: mcp-use is not imported.
 *
 * Why middleware: mcp-use keeps its registrations in private class fields and builds a fresh SDK `McpServer` from them
 * for every request, from its own copy of `@modelcontextprotocol/server` (so no `instanceof` of another copy holds,
 * and there is no server to wrap before a request comes). Its middleware runs around each callback, inside the SDK's
 * handler, and `next()` rejects with what the callback threw: the place where a failure is still a thrown value.
 *
 * What the answers are (measured with mcp-use 2.5.2): a tool's isError result reaches the client as the policy made it
 * (text, `_meta` with the failure object); a resource's and a prompt's JSON-RPC error too, with its code and `data`.
 * Middleware runs in registration order, so the policy's must be registered before any other `mcp:` middleware
 * (`applyErrorPolicy(new MCPServer(...))`); mcp-use refuses middleware once the server has started.
 */
import { CALLBACK_METHODS } from '../callback-methods.js';
import type { HandlerKind } from '../log.js';
import type { ErrorPolicy } from '../policy.js';
import { isObjectLike, readProp } from '../kit/read.js';
import type { Binding } from '../wrap/guard.js';
import { ownHandler } from '../wrap/own.js';
import type { ServerAdapter } from './adapter.js';

/** What `applyErrorPolicy` needs to see of an mcp-use `MCPServer` (npm `mcp-use` 2.x): its middleware and registrations. */
export interface McpUseServerLike {
  /** Registers HTTP or MCP middleware; the policy registers its own for `mcp:tools/call`, `mcp:resources/read`, `mcp:prompts/get`. */
  use(...args: never[]): unknown;
  /** Registers a tool. */
  tool(...args: never[]): unknown;
  /** Registers a resource template. */
  resourceTemplate(...args: never[]): unknown;
  /** Registers a prompt. */
  prompt(...args: never[]): unknown;
  /** Serves over HTTP. */
  listen(...args: never[]): unknown;
}

type Fn = (this: unknown, ...args: unknown[]) => unknown;

/** The MCP middleware context mcp-use hands each middleware: the request's params, its signal, session and auth. */
interface MiddlewareContext {
  readonly params?: unknown;
  readonly signal?: unknown;
  readonly session?: unknown;
  readonly auth?: unknown;
}

function looksLikeMcpUse(value: unknown): boolean {
  if (!isObjectLike(value) || typeof readProp(value, 'registerTool') === 'function') return false;
  return ['use', 'tool', 'resource', 'resourceTemplate', 'prompt', 'listen', 'notifyToolsChanged'].every((method) => typeof readProp(value, method) === 'function');
}

/**
 * The per-request context the guard knows a call by (as SDK v2's handler `ctx` reads): its abort signal (a failure
 * after a cancel is a cancellation), session id and auth info (for a `reauthorize` function).
 */
function callContext(ctx: MiddlewareContext): object {
  const sessionId = readProp(ctx.session, 'sessionId');
  return {
    mcpReq: { signal: ctx.signal },
    ...(typeof sessionId === 'string' ? { sessionId } : {}),
    ...(isObjectLike(ctx.auth) ? { http: { authInfo: ctx.auth } } : {}),
  };
}

/**
 * The middleware of one kind: the rest of the chain (`next`, passed as `this`) runs under the guard, called as a
 * low-level request handler is (`(request, ctx)`), so that the request names the failure: a tool's or prompt's
 * `params.name`, a resource's `params.uri`.
 */
function middleware(kind: HandlerKind, method: string, policy: ErrorPolicy): (ctx: MiddlewareContext, next: () => Promise<unknown>) => unknown {
  const binding: Binding = { policy, name: undefined, claims: policy.onOutcome !== undefined, governs: false };
  const guarded = ownHandler(
    function (this: unknown): unknown {
      return (this as () => Promise<unknown>)();
    },
    kind,
    binding,
  );
  return (ctx, next) => guarded.call(next, { method, params: ctx.params }, callContext(ctx));
}

/** mcp-use's `MCPServer` (npm `mcp-use` 2.x): every tool, resource, resource template and prompt, through its middleware. */
export const mcpUseAdapter: ServerAdapter = {
  name: 'mcp-use MCPServer',
  accepts: looksLikeMcpUse,
  apply(server: object, policy: ErrorPolicy): void {
    const use = readProp(server, 'use') as Fn;
    try {
      for (const [kind, method] of Object.entries(CALLBACK_METHODS) as [HandlerKind, string][]) use.call(server, `mcp:${method}`, middleware(kind, method, policy));
    } catch (error) {
      // mcp-use refuses middleware once the server has started (it does so before the first one is added)
      throw new Error(
        `applyErrorPolicy: this mcp-use MCPServer took no middleware (${error instanceof Error ? error.message : String(error)}). ` +
          'Apply the policy before listen() and before any other server.use(\'mcp:…\'): applyErrorPolicy(new MCPServer(...))',
        { cause: error },
      );
    }
  },
};

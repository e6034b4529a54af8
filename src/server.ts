/**
 * applyErrorPolicy: one line that puts a whole server under a policy, whatever its shape. Each shape (McpServer of
 * SDK v1 and v2, the low-level `Server`, FastMCP) is one adapter under src/adapters/, behind one interface; this module
 * checks the arguments, keeps one policy per server and hands the server to the adapter that takes it.
 */
import { resolvePolicy, type ErrorPolicy } from './policy.js';
import { isObjectLike, readProp } from './kit/read.js';
import { MCP_SERVER_FLOOR, type ServerAdapter } from './adapters/adapter.js';
import { lowLevelAdapter } from './adapters/low-level.js';
import { mcpServerAdapter } from './adapters/mcp-server.js';
import { fastMcpAdapter, type FastMcpLike } from './adapters/fastmcp.js';
import { tmcpAdapter, type TmcpServerLike } from './adapters/tmcp.js';
import { mcpUseAdapter, type McpUseServerLike } from './adapters/mcp-use.js';
import { nitroAdapter, type NitroAppLike } from './adapters/nitro.js';

/**
 * What `applyErrorPolicy` needs to see of an `McpServer`: the public surface that `McpServer` of
 * `@modelcontextprotocol/sdk` 1.x and of `@modelcontextprotocol/server` 2.x share. Both classes fit it as they are,
 * without a cast.
 */
export interface McpServerLike {
  /** The low-level protocol server. */
  readonly server: object;
  registerTool(...args: never[]): unknown;
  registerResource(...args: never[]): unknown;
  registerPrompt(...args: never[]): unknown;
}

/**
 * What `applyErrorPolicy` needs to see of a low-level `Server` (`@modelcontextprotocol/sdk/server/index.js` 1.x,
 * `Server` of `@modelcontextprotocol/server` 2.x): request handlers set by method. Both classes fit it as they are.
 */
export interface LowLevelServerLike {
  /** Sets the handler of a request method: the handlers the policy wraps. */
  setRequestHandler(...args: never[]): unknown;
  /** Connects a transport. */
  connect(...args: never[]): unknown;
}

/**
 * An `McpServer` of `@modelcontextprotocol/sdk` older than 1.13.0 (it has `tool()` but no `registerResource` and
 * `registerPrompt`): `applyErrorPolicy` does not take it. The type's name is the compiler's message: update the SDK to
 * 1.13.0 or later, or wrap each callback with `withClientVisibleErrors` and its kin.
 */
export interface McpServer_requires_sdk_1_13_or_later__wrap_handlers_with_withClientVisibleErrors {
  /** Never satisfied: an older McpServer does not type-check as an argument of `applyErrorPolicy`. */
  readonly 'applyErrorPolicy takes the McpServer of @modelcontextprotocol/sdk 1.13.0 or later': never;
}

/** The server shapes, in the order they are tried: the first whose `accepts` takes a server applies the policy. */
const ADAPTERS: readonly ServerAdapter[] = [mcpServerAdapter, lowLevelAdapter, fastMcpAdapter, tmcpAdapter, mcpUseAdapter, nitroAdapter];

/** Marks a server: its value is the policy applied to it. Registered, so that two copies of this package agree. */
const APPLIED = Symbol.for('mcp-error-policy.applied');

/** What a value that no adapter takes is, and what to do with it. */
function kindOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (!isObjectLike(value)) return typeof value;
  if (typeof value === 'function') return 'a function';
  const inner = readProp(value, 'server');
  if (isObjectLike(inner) && typeof readProp(value, 'tool') === 'function') {
    return `an McpServer of @modelcontextprotocol/sdk older than ${MCP_SERVER_FLOOR} (no registerResource or registerPrompt), which applyErrorPolicy does not take: update the SDK to ${MCP_SERVER_FLOOR} or later, or wrap each callback with withClientVisibleErrors`;
  }
  if (isObjectLike(inner) && ADAPTERS.some((adapter) => adapter.accepts(inner))) {
    return 'an object whose `server` property is a server (a framework\'s wrapper?): pass that property, `applyErrorPolicy(x.server)`, or see docs/frameworks.md';
  }
  return 'an object of another shape (a framework\'s server? see docs/frameworks.md; else wrap each handler with withClientVisibleErrors)';
}

/** A server (or the Server it holds) already under a different policy. */
function anotherPolicy(): Error {
  return new Error('applyErrorPolicy: this server already has another policy; apply one policy per server');
}

/**
 * Puts a whole server under one error policy: an `McpServer` (every tool, resource and prompt) or a low-level `Server`
 * (its request handlers), those registered before the call and those registered after it. One line covers the whole
 * server; applying it again with the same policy does nothing. Each call is logged (when it fails) and reported to the
 * access log once.
 *
 * What it covers on an `McpServer`, `@modelcontextprotocol/sdk` 1.x and `@modelcontextprotocol/server` 2.x:
 * - Callbacks registered before the call: each one in the server's registries is replaced in place (never through
 *   `update()`, so connected clients get no list_changed notification).
 * - Callbacks registered after it, through every registration method the instance has (`registerTool`, `tool`,
 *   `registerResource`, `resource`, `registerPrompt`, `prompt`, and `experimental.tasks.registerToolTask`; SDK v2 has
 *   only the `register*` ones), and callbacks given later to `update({ callback })` of a registered tool, resource,
 *   resource template or prompt. A tool or prompt renamed with `update({ name })` fails under its new name.
 * - Failures: tools answer with an isError result, resources and prompts with a JSON-RPC error, as the policy
 *   decides; each failure is logged once. While `degraded` returns a message, no callback runs.
 * - Task tools (`registerToolTask`, SDK v1): `createTask`, `getTask` and `getTaskResult` are guarded like a tool
 *   callback; a failure is thrown to the SDK with the tool's text (the SDK must receive a task from `createTask`).
 * - Completions and lists (`completion/complete`, `tools/list`, `resources/list`, `resources/templates/list`,
 *   `prompts/list`: completers and template list callbacks): a failure becomes a JSON-RPC error, a crash
 *   `Error handling <method> (reference <id>)`, logged once; no access-log
 *   outcome.
 * - Output-schema validation: a result that fails its tool's `outputSchema` (a bug of the server's) is logged once as a
 *   crash and answered with the crash text; its outcome stays 200 (the callback succeeded).
 * - The access log: when the policy has `onOutcome`, every `tools/call`, `resources/read` and `prompts/get` request
 *   the server has a handler for gets exactly one outcome, including those the SDK answers itself before any callback
 *   runs: an unknown or disabled tool, prompt or resource (status 404), invalid arguments or an invalid URI (400, or
 *   the status of the protocol error the SDK throws), and calls of task tools. Those calls keep the SDK's own answer
 *   and get no log record.
 * - Callbacks wrapped by hand (`withClientVisibleErrors` and its kin): one made without a `policy` follows this
 *   server's policy (rules, logger, access log, degraded, re-authorization, dev mode); one made without a `name`
 *   takes the registered tool or prompt name. One given its own `policy` keeps it: its calls are logged and reported
 *   to that policy, and this server's access log does not count them again.
 *
 * On a low-level `Server` (`@modelcontextprotocol/sdk/server/index.js` 1.x, `Server` of `@modelcontextprotocol/server`
 * 2.x): the handlers of `tools/call`, `resources/read` and `prompts/get`, set by `setRequestHandler` before or after
 * the call, are each wrapped whole, every failure named by the request's `params.name` or `params.uri`, with the wire
 * shapes above; completions and lists as above. A handler's protocol errors keep a deliberate code, their text through
 * the exit gate, logged once at info. Handlers that
 * server code sets on an `McpServer`'s `server` (`mcpServer.server.setRequestHandler(CallToolRequestSchema, …)`),
 * before the call or after it, are covered the same way when the policy is applied to the `McpServer`; the
 * `McpServer`'s own handlers (those that serve its registered tools, resources and prompts) are not wrapped again.
 *
 * What it leaves alone: requests for a method the server has no handler for (the protocol layer answers "Method not
 * found" and nothing is counted); the SDK's own answers for unknown tools, unknown prompts and resource URIs that
 * nothing serves; the SDK's own handlers (`initialize`, `ping`, `logging/setLevel`, task requests). A handler set with
 * `setRequestHandler` for any other request (`resources/subscribe`, a custom method) it cannot guard: its failures reach
 * the client as the SDK sends them, and a process warning (type `McpErrorPolicyWarning`, code
 * `MCP_ERROR_POLICY_UNGUARDED_HANDLER`) names it once, when the policy is applied or when the handler is set.
 *
 * On SDK v2, a prompt's callback lives in a closure of the SDK, so a prompt registered before the call is covered
 * by wrapping the SDK's prompt handler, argument validation included: invalid arguments there are logged once at info
 * as a protocol error.
 *
 * @param server - an `McpServer` from `@modelcontextprotocol/sdk/server/mcp.js` (1.13.0 or later: older ones fail to compile and are refused) or
 *   `@modelcontextprotocol/server` (2.x), or a low-level `Server` of either; anything else throws a `TypeError` naming
 *   `server` and saying what it found
 * @param policy - the policy, made by `createErrorPolicy`; anything else throws a `TypeError` naming `policy`.
 *   Applying a second, different policy to the same server throws an `Error`.
 *   Default: `defaultPolicy`.
 * @returns the same server
 *
 * @example
 * ```ts
 * import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
 * import { applyErrorPolicy, coreRules, createErrorPolicy } from 'mcp-error-policy';
 *
 * const server = new McpServer({ name: 'sheets', version: '1.0.0' });
 * applyErrorPolicy(server, createErrorPolicy({
 *   rules: coreRules,
 *   onOutcome: ({ kind, name, status, durationMs }) => accessLog.info({ kind, name, status, durationMs }),
 * }));
 * server.registerTool('get_sheet', { inputSchema: { name: z.string() } }, async ({ name }) => readSheet(name));
 * ```
 *
 * @example
 * ```ts
 * import { Server } from '@modelcontextprotocol/sdk/server/index.js';
 *
 * const server = applyErrorPolicy(new Server({ name: 'sheets', version: '1.0.0' }, { capabilities: { tools: {} } }));
 * server.setRequestHandler(CallToolRequestSchema, async (request) => callTool(request.params.name, request.params.arguments));
 * ```
 */
// `S & McpServerLike` rather than `S extends McpServerLike`: when no overload takes an older McpServer, the compiler
// still types the call's result as that server, so the one error is the floor's, not one per later use of `server`.
export function applyErrorPolicy<S extends object>(server: S & McpServerLike, policy?: ErrorPolicy): S;
/** {@inheritDoc (applyErrorPolicy:1)} */
export function applyErrorPolicy<S extends LowLevelServerLike>(server: S, policy?: ErrorPolicy): S;
/**
 * Puts every tool, resource, resource template and prompt added to a FastMCP server (npm `fastmcp`) after the call
 * under one error policy; its `UserError` is shown as written, like `ToolError`. Apply it to the new instance, before
 * adding anything: FastMCP keeps what it was given in private fields. Details: docs/frameworks.md.
 *
 * @param server - a `FastMCP` that has not started
 * @param policy - the policy, made by `createErrorPolicy`. Default: `defaultPolicy`.
 * @returns the same server
 *
 * @example
 * ```ts
 * const server = applyErrorPolicy(new FastMCP({ name: 'sheets', version: '1.0.0' }), policy);
 * server.addTool({ name: 'get_sheet', execute: async () => readSheet() });
 * ```
 */
export function applyErrorPolicy<S extends FastMcpLike>(server: S, policy?: ErrorPolicy): S;
/**
 * Puts every tool, prompt, resource and resource template registered on a tmcp `McpServer` (npm `tmcp`) after the
 * call under one error policy: a tool fails as an isError result, a prompt or resource as a JSON-RPC error, each
 * logged once; tmcp's `McpError` keeps its code and its input-required signal still reaches tmcp. Apply it before
 * registering: tmcp keeps its registrations in private fields, so what was registered before runs without the policy
 * (a failure of it is masked as a crash, without its stack, and a warning names it). Details: docs/frameworks.md.
 *
 * @param server - a tmcp `McpServer`
 * @param policy - the policy, made by `createErrorPolicy`. Default: `defaultPolicy`.
 * @returns the same server
 *
 * @example
 * ```ts
 * const server = applyErrorPolicy(new McpServer({ name: 'sheets', version: '1.0.0' }, { adapter, capabilities: { tools: {} } }), policy);
 * server.tool({ name: 'get_sheet', description: 'Reads a sheet' }, async () => tool.text(await readSheet()));
 * ```
 */
export function applyErrorPolicy<S extends TmcpServerLike>(server: S, policy?: ErrorPolicy): S;
/**
 * Puts every tool, resource, resource template and prompt of an mcp-use `MCPServer` (npm `mcp-use` 2.x) under one
 * error policy, through mcp-use's own middleware (`mcp:tools/call`, `mcp:resources/read`, `mcp:prompts/get`): those
 * registered before the call and after it. Apply it before `listen()` and before any other `server.use('mcp:…')`
 * (middleware runs in registration order). Left to mcp-use and its SDK: argument validation, unknown names, view
 * resources, completions. Details: docs/frameworks.md.
 *
 * @param server - an mcp-use `MCPServer` that has not started
 * @param policy - the policy, made by `createErrorPolicy`. Default: `defaultPolicy`.
 * @returns the same server
 *
 * @example
 * ```ts
 * const server = applyErrorPolicy(new MCPServer({ name: 'sheets', version: '1.0.0' }), policy);
 * server.tool({ name: 'get_sheet' }, async () => readSheet());
 * await server.listen(3000);
 * ```
 */
export function applyErrorPolicy<S extends McpUseServerLike>(server: S, policy?: ErrorPolicy): S;
/**
 * Puts every tool, resource and prompt that `@nuxtjs/mcp-toolkit` (0.x) serves from a Nuxt app under one error policy:
 * the line is a Nitro plugin (server/plugins/), given the `NitroApp`. Each definition's handler is wrapped once, when a
 * request first carries it; a tool fails as an isError result, a resource or prompt as a JSON-RPC error, each logged
 * once; h3's `createError` with a 4xx status is shown as written; a cached tool's cache stores no failure. Details:
 * docs/frameworks.md.
 *
 * @param server - the `NitroApp` a Nitro plugin is given
 * @param policy - the policy, made by `createErrorPolicy`. Default: `defaultPolicy`.
 * @returns the same `NitroApp`
 *
 * @example
 * ```ts
 * // server/plugins/mcp-error-policy.ts
 * export default defineNitroPlugin((nitroApp) => applyErrorPolicy(nitroApp, policy));
 * ```
 */
export function applyErrorPolicy<S extends NitroAppLike>(server: S, policy?: ErrorPolicy): S;
/**
 * An `McpServer` of `@modelcontextprotocol/sdk` older than 1.13.0 does not type-check here (and is refused at run
 * time): update the SDK, or wrap each callback with `withClientVisibleErrors` and its kin.
 */
export function applyErrorPolicy(
  server: { readonly server: object; tool(...args: never[]): unknown } & McpServer_requires_sdk_1_13_or_later__wrap_handlers_with_withClientVisibleErrors,
  policy?: ErrorPolicy,
): never;
export function applyErrorPolicy<S extends McpServerLike | LowLevelServerLike | FastMcpLike | TmcpServerLike | McpUseServerLike | NitroAppLike>(server: S, policy?: ErrorPolicy): S {
  const adapter = ADAPTERS.find((candidate) => candidate.accepts(server));
  if (adapter === undefined) {
    throw new TypeError(
      'Expected `server` to be an McpServer or a low-level Server of @modelcontextprotocol/sdk 1.x or @modelcontextprotocol/server 2.x, a FastMCP, tmcp or mcp-use server, or a Nuxt NitroApp, ' +
        `got ${kindOfValue(server)}`,
    );
  }
  const resolved = resolvePolicy(policy);
  const applied = readProp(server, APPLIED);
  if (applied !== undefined) {
    if (applied === resolved) return server;
    throw anotherPolicy();
  }
  const covered = adapter.covers?.(server) ?? [];
  if (covered.some((other) => readProp(other, APPLIED) !== undefined)) {
    throw anotherPolicy();
  }
  adapter.apply(server, resolved);
  for (const target of [server, ...covered]) Object.defineProperty(target, APPLIED, { value: resolved, configurable: true });
  return server;
}

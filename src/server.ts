/**
 * applyErrorPolicy: one line that puts a whole `McpServer` (SDK v1 or v2) under a policy. It wraps the callbacks the
 * server holds now and every callback it is given later, binds callbacks wrapped by hand to the server's policy and
 * registered name (unless they were given their own), and (with an access log) sees the calls the SDK rejects before
 * any callback runs. Every access to SDK internals goes through the adapter in ./sdk.ts.
 */
import { classifyError, type Classification } from './classify.js';
import type { HandlerKind } from './log.js';
import { resolvePolicy, type ErrorPolicy } from './policy.js';
import { isObjectLike, isRecord, readProp, readString } from './kit/read.js';
import { now, reportOutcome } from './report.js';
import {
  CALLBACK_REQUESTS,
  REGISTRATION_METHODS,
  callbackSlotOf,
  isDisabled,
  listRegistrations,
  looksLikeMcpServer,
  registriesOf,
  rememberGiven,
  renameIn,
  requestHandlersOf,
  sdkFound,
  templateMatches,
  type Entry,
  type Registries,
} from './sdk.js';
import { CRASH, statusOfRejection, statusOfResult } from './status.js';
import { traceRequest } from './telemetry.js';
import { signInAnswer, signInMode } from './wrap/sign-in.js';
import { callState, observe } from './wrap/calls.js';
import { bindGuard, isWrapped, type Binding } from './wrap/guard.js';
import { withClientVisiblePromptErrors } from './wrap/prompt.js';
import { withClientVisibleResourceErrors } from './wrap/resource.js';
import { withClientVisibleErrors } from './wrap/tool.js';

/**
 * What `applyErrorPolicy` needs to see of a server: the public surface that `McpServer` of `@modelcontextprotocol/sdk`
 * 1.x and of `@modelcontextprotocol/server` 2.x share. Both classes fit it as they are, without a cast.
 */
export interface McpServerLike {
  /** The low-level protocol server. */
  readonly server: object;
  registerTool(...args: never[]): unknown;
  registerResource(...args: never[]): unknown;
  registerPrompt(...args: never[]): unknown;
}

type Fn = (this: unknown, ...args: unknown[]) => unknown;

/** Marks a server: its value is the policy applied to it. Registered, so that two copies of this package agree. */
const APPLIED = Symbol.for('mcp-error-policy.applied');

/** Marks what this module patched: a registration's `update`, a low-level request handler, the handler map's `set`. */
const PATCHED = Symbol('mcp-error-policy.patched');

interface Context {
  readonly policy: ErrorPolicy;
  /** Whether the access log is on: wrappers then claim their calls, and calls the SDK rejects are counted here. */
  readonly traced: boolean;
  /** Whether the policy's `reauthorize` may give a sign-in URL: tool calls may then be answered with a URL elicitation. */
  readonly elicits: boolean;
  readonly registries: Registries;
  readonly server: object;
}

function kindOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (isObjectLike(value)) {
    if (typeof readProp(value, 'setRequestHandler') === 'function' && typeof readProp(value, 'registerTool') !== 'function') {
      return 'a low-level Server (pass the McpServer itself, not its `server` property)';
    }
    return typeof value === 'function' ? 'a function' : 'an object of another shape';
  }
  return typeof value;
}

/** The error for a server whose internals the adapter does not recognise: nothing is left silently unwrapped. */
function unknownLayout(server: object, what: string): Error {
  return new Error(
    `applyErrorPolicy: this McpServer's internals are not a layout mcp-error-policy knows (found ${sdkFound(server)}: ${what}). ` +
      'Supported: @modelcontextprotocol/sdk 1.23 and later 1.x, @modelcontextprotocol/server 2.x. ' +
      'Wrap handlers with withClientVisibleErrors meanwhile, and report the version.',
  );
}

function bindingFor(ctx: Context, name: string | undefined, governs = false): Binding {
  return { policy: ctx.policy, name: name === '' ? undefined : name, claims: ctx.traced, governs };
}

function wrap(fn: Fn, kind: HandlerKind): Fn {
  if (kind === 'tool') return withClientVisibleErrors(fn);
  if (kind === 'resource') return withClientVisibleResourceErrors(fn);
  return withClientVisiblePromptErrors(fn);
}

/**
 * `fn` under the server's policy and `binding`: a wrapper of this package is bound (its own `policy` and `name`
 * options still win); a plain function is wrapped and bound; a wrapper of another copy of the package is kept.
 */
function own(fn: Fn, kind: HandlerKind, binding: Binding): Fn {
  const bound = bindGuard(fn, binding);
  if (bound !== undefined) return bound;
  if (isWrapped(fn)) return fn;
  return bindGuard(wrap(fn, kind), binding) ?? fn;
}

/** Puts a registration's callback under the policy, in the slot the SDK calls. */
function cover(ctx: Context, entry: Entry, kind: HandlerKind, name: string | undefined): void {
  const slot = callbackSlotOf(entry, kind);
  if (slot === undefined) return; // a task tool: left to the SDK
  if (typeof slot === 'string') throw unknownLayout(ctx.server, slot);
  const binding = bindingFor(ctx, name);
  if (slot.given !== undefined) {
    // the SDK calls the given callback through a function of its own: bind the callback in place if it is ours
    const bound = bindGuard(slot.given, binding);
    if (bound === slot.given || (bound === undefined && isWrapped(slot.given))) return;
  }
  slot.set(own(slot.fn, kind, slot.hidesCallback ? bindingFor(ctx, name, true) : binding));
}

/**
 * Patches `update` of a registration so that a new `callback` is put under the policy and a new `name` names its
 * failures. The SDK's own `update` still runs (and sends its list_changed notification, as it always does).
 */
function patchUpdate(ctx: Context, entry: Entry, kind: HandlerKind, registeredName: string | undefined): void {
  const update = entry['update'];
  if (typeof update !== 'function' || readProp(update, PATCHED) !== undefined) return;
  let name = registeredName;
  const patched = function (this: unknown, updates: unknown): unknown {
    let next = updates;
    const rename = renameIn(updates, kind);
    const nextName = rename ?? name;
    if (isRecord(updates)) {
      const callback = readProp(updates, 'callback');
      if (typeof callback === 'function') {
        next = { ...updates, callback: own(callback as Fn, kind, bindingFor(ctx, nextName)) };
      } else if (rename !== undefined && rename !== name) {
        // a callback the SDK keeps in a closure follows the new name only if the SDK is given it again
        const slot = callbackSlotOf(entry, kind);
        const given = typeof slot === 'object' ? slot.given : undefined;
        const renamed = given === undefined ? undefined : bindGuard(given, bindingFor(ctx, nextName));
        if (renamed !== undefined && renamed !== given) next = { ...updates, callback: renamed };
      }
    }
    const result = (update as Fn).call(this, next);
    name = nextName;
    const given = readProp(next, 'callback');
    if (typeof given === 'function') rememberGiven(entry, given as Fn);
    cover(ctx, entry, kind, name);
    return result;
  };
  Object.defineProperty(patched, PATCHED, { value: update });
  entry['update'] = patched;
}

function adopt(ctx: Context, entry: unknown, kind: HandlerKind, name: string | undefined): void {
  if (!isObjectLike(entry)) return;
  patchUpdate(ctx, entry as Entry, kind, name);
  cover(ctx, entry as Entry, kind, name);
}

/** Patches a registration method of the instance so that its callback (the last argument) is put under the policy. */
function patchMethod(ctx: Context, method: string, kind: HandlerKind): void {
  const { server } = ctx;
  const original = readProp(server, method);
  if (typeof original !== 'function') return; // SDK v2 has no tool/resource/prompt
  const patched = function (this: unknown, ...args: unknown[]): unknown {
    const name = kind !== 'resource' && typeof args[0] === 'string' ? args[0] : undefined;
    const last = args.length - 1;
    let given: Fn | undefined;
    if (last >= 1 && typeof args[last] === 'function') {
      given = own(args[last] as Fn, kind, bindingFor(ctx, name));
      args[last] = given;
    }
    const registered = (original as Fn).apply(this, args);
    if (isObjectLike(registered)) {
      if (given !== undefined) rememberGiven(registered as Entry, given);
      adopt(ctx, registered, kind, name);
    }
    return registered;
  };
  Object.defineProperty(patched, 'name', { value: (original as Fn).name, configurable: true });
  Object.defineProperty(server, method, { value: patched, configurable: true, writable: true, enumerable: false });
}

/** How the SDK's registries see a requested name or URI. */
type Lookup = 'found' | 'not-found' | 'invalid';

function lookup(registries: Registries, kind: HandlerKind, name: string | undefined): Lookup {
  let registry = kind === 'tool' ? registries.tools : registries.prompts;
  let key = name;
  if (kind === 'resource') {
    if (name === undefined) return 'invalid';
    try {
      key = new URL(name).toString();
    } catch {
      return 'invalid';
    }
    registry = registries.resources;
    if (!Object.hasOwn(registry, key)) {
      const template = Object.values(registries.templates).find((entry) => templateMatches(entry, key as string));
      return template === undefined || isDisabled(template) ? 'not-found' : 'found';
    }
  }
  if (key === undefined || !Object.hasOwn(registry, key)) return 'not-found';
  return isDisabled(registry[key]) ? 'not-found' : 'found';
}

/** The access-log status of a call the SDK answered without reaching a callback wrapper. */
function rejectionOutcome(
  ctx: Context,
  kind: HandlerKind,
  name: string | undefined,
  threw: boolean,
  value: unknown,
): { status: number; classification?: Classification } {
  const { registries } = ctx;
  const found = lookup(registries, kind, name);
  if (found !== 'found') return { status: statusOfRejection(found) };
  if (threw) {
    const classification = classifyError(value, ctx.policy);
    return classification.kind === 'protocol' ? { status: classification.status, classification } : { status: CRASH };
  }
  // Calls of task tools (their handler is left alone) end here; so do the SDK's own argument checks (isError, 400).
  const taskTool = kind === 'tool' && name !== undefined && callbackSlotOf(registries.tools[name] ?? {}, 'tool') === undefined;
  if (taskTool || readProp(value, 'isError') !== true) return { status: statusOfResult(value) };
  return { status: statusOfRejection('invalid') };
}

/**
 * Wraps a low-level request handler (tools/call, resources/read, prompts/get) so that a call the SDK answers without
 * reaching a callback wrapper (unknown or disabled name, invalid arguments, bad URI, task tools) still gets one
 * access-log outcome. It changes nothing in the answer.
 */
function wrapRequest(ctx: Context, kind: HandlerKind, handler: Fn): Fn {
  const key = kind === 'resource' ? 'uri' : 'name';
  const signsIn = ctx.elicits && kind === 'tool';
  const out = function (this: unknown, ...args: unknown[]): unknown {
    const [request, extra] = args;
    const answer = (): unknown => {
      const result = handler.apply(this, args);
      const mode = signsIn ? signInMode(ctx.server, extra) : undefined;
      if (mode === undefined) return result;
      return Promise.resolve(result).then((value) => signInAnswer(mode, extra, value));
    };
    // telemetry (src/telemetry.ts): the call's one span, around the SDK's handler and the sign-in answer
    if (!ctx.traced) return traceRequest(ctx.policy, kind, request, extra, ctx.server, answer);
    const startedAt = now();
    const settle = (threw: boolean, value: unknown): void => {
      try {
        if (callState(extra)?.claimed === true) return;
        const raw = readString(readProp(request, 'params'), key);
        const { status, classification } = rejectionOutcome(ctx, kind, raw, threw, value);
        // reportOutcome scrubs the name once (a redactor need not be idempotent)
        reportOutcome(ctx.policy, { handler: kind, name: raw, startedAt }, status, classification);
      } catch {
        // the access log must not change the answer
      }
    };
    return Promise.resolve(observe(() => traceRequest(ctx.policy, kind, request, extra, ctx.server, answer), settle));
  };
  Object.defineProperty(out, PATCHED, { value: handler });
  return out;
}

/** Wraps the low-level handlers of tools/call, resources/read and prompts/get, now and whenever the SDK sets them. */
function coverRequests(ctx: Context, map: Map<unknown, unknown>): void {
  const baseSet = map.set;
  const wrapEntry = (method: unknown, handler: unknown): unknown => {
    const kind = typeof method === 'string' && Object.hasOwn(CALLBACK_REQUESTS, method) ? CALLBACK_REQUESTS[method] : undefined;
    if (kind === undefined || typeof handler !== 'function' || readProp(handler, PATCHED) !== undefined) return handler;
    return wrapRequest(ctx, kind, handler as Fn);
  };
  Object.defineProperty(map, 'set', {
    value: function (this: Map<unknown, unknown>, method: unknown, handler: unknown): Map<unknown, unknown> {
      return baseSet.call(this, method, wrapEntry(method, handler));
    },
    configurable: true,
    writable: true,
    enumerable: false,
  });
  for (const method of Object.keys(CALLBACK_REQUESTS)) {
    const handler = map.get(method);
    if (handler !== undefined) baseSet.call(map, method, wrapEntry(method, handler));
  }
}

/**
 * Puts every tool, resource and prompt of an `McpServer` under one error policy: those registered before the call
 * and those registered after it. One line covers the whole server; applying it again with the same policy does
 * nothing. Each call is logged (when it fails) and reported to the access log once.
 *
 * What it covers, on `@modelcontextprotocol/sdk` 1.x and `@modelcontextprotocol/server` 2.x:
 * - Callbacks registered before the call: each one in the server's registries is replaced in place (never through
 *   `update()`, so connected clients get no list_changed notification).
 * - Callbacks registered after it, through every registration method the instance has (`registerTool`, `tool`,
 *   `registerResource`, `resource`, `registerPrompt`, `prompt`; SDK v2 has only the `register*` ones), and callbacks
 *   given later to `update({ callback })` of a registered tool, resource, resource template or prompt. A tool or
 *   prompt renamed with `update({ name })` fails under its new name.
 * - Failures: tools answer with an isError result, resources and prompts with a JSON-RPC error, as the policy
 *   decides; each failure is logged once. While `degraded` returns a message, no callback runs.
 * - The access log: when the policy has `onOutcome`, every `tools/call`, `resources/read` and `prompts/get` request
 *   the server has a handler for gets exactly one outcome, including those the SDK answers itself before any callback
 *   runs: an unknown or disabled tool, prompt or resource (status 404), invalid arguments or an invalid URI (400, or
 *   the status of the protocol error the SDK throws), and calls of task tools (200, or 500 for an isError result).
 *   Those calls keep the SDK's own answer and get no log record. Counting them needs the low-level handler map both
 *   SDKs keep (`server.server._requestHandlers`); without it, only calls that reach a callback are counted.
 *
 * - Callbacks wrapped by hand (`withClientVisibleErrors` and its kin): one made without a `policy` follows this
 *   server's policy (rules, logger, access log, degraded, re-authorization, dev mode); one made without a `name`
 *   takes the registered tool or prompt name. One given its own `policy` keeps it: its calls are logged and reported
 *   to that policy, and this server's access log does not count them again.
 *
 * What it leaves alone:
 * - Task tools (`server.experimental.tasks.registerToolTask`, SDK v1): their handler is an object whose `createTask`
 *   result the SDK must receive unchanged, so it is not wrapped, and the SDK's own error handling applies to it.
 * - Completion callbacks and the list callbacks of resource templates.
 * - Requests for a method the server has no handler for (for example `resources/read` on a server without
 *   resources): the protocol layer answers "Method not found" and nothing is counted.
 * - Output-schema validation: a tool whose callback succeeded but whose result fails its `outputSchema` is counted
 *   with status 200 (the SDK turns it into an isError result afterwards).
 * - The SDK's own answers for unknown tools, unknown prompts and resource URIs that nothing serves.
 *
 * On SDK v2, a prompt's callback lives in a closure of the SDK, so a prompt registered before the call is covered
 * by wrapping the SDK's prompt handler, argument validation included: invalid arguments there are logged once at info
 * as a protocol error.
 *
 * @param server - an `McpServer` from `@modelcontextprotocol/sdk/server/mcp.js` (1.x) or
 *   `@modelcontextprotocol/server` (2.x); anything else throws a `TypeError` naming `server`
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
 */
export function applyErrorPolicy<S extends McpServerLike>(server: S, policy?: ErrorPolicy): S {
  if (!looksLikeMcpServer(server)) {
    throw new TypeError(
      `Expected \`server\` to be an McpServer of @modelcontextprotocol/sdk 1.x or @modelcontextprotocol/server 2.x, got ${kindOfValue(server)}`,
    );
  }
  const resolved = resolvePolicy(policy);
  const applied = readProp(server, APPLIED);
  if (applied !== undefined) {
    if (applied === resolved) return server;
    throw new Error('applyErrorPolicy: this server already has another policy; apply one policy per server');
  }
  const registries = registriesOf(server);
  if (typeof registries === 'string') throw unknownLayout(server, registries);
  const traced = resolved.onOutcome !== undefined;
  const elicits = typeof resolved.reauthorize === 'function' || readProp(resolved.reauthorize, 'url') !== undefined;
  const handlers = traced || elicits || resolved.telemetry !== undefined ? requestHandlersOf(server) : undefined;
  if ((traced || elicits) && handlers === undefined) throw unknownLayout(server, 'no `server._requestHandlers` map');
  const ctx: Context = { policy: resolved, traced, elicits, registries, server };
  // check every registration before changing any, so that an unknown layout leaves the server as it was
  const registrations = listRegistrations(registries);
  for (const { entry, kind } of registrations) {
    const slot = callbackSlotOf(entry, kind);
    if (typeof slot === 'string') throw unknownLayout(server, slot);
  }
  Object.defineProperty(server, APPLIED, { value: resolved, configurable: true });
  for (const { entry, kind, name } of registrations) adopt(ctx, entry, kind, name);
  for (const [method, kind] of REGISTRATION_METHODS) patchMethod(ctx, method, kind);
  if (handlers !== undefined) coverRequests(ctx, handlers);
  return server;
}

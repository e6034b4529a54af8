/**
 * applyErrorPolicy: one line that puts a whole `McpServer` (SDK v1 or v2) under a policy. It wraps the callbacks the
 * server holds now and every callback it is given later, and (with an access log) sees the calls the SDK rejects
 * before any callback runs.
 *
 * Neither SDK is imported: the server is read structurally, through the registries both SDKs keep on the instance.
 */
import { classifyError, type Classification } from './classify.js';
import type { HandlerKind } from './log.js';
import { resolvePolicy, type ErrorPolicy } from './policy.js';
import { isObjectLike, readProp, readString } from './kit/read.js';
import { MAX_NAME_LENGTH, now, reportOutcome } from './report.js';
import { safeText } from './scrub.js';
import { WRAPPED } from './wrap/guard.js';
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
type Entry = Record<string, unknown>;
type Registry = Record<string, Entry>;

/** The instance fields both SDKs keep (declared private in their types, so read here structurally). */
interface ServerInternals {
  readonly tools: Registry;
  readonly resources: Registry;
  readonly templates: Registry;
  readonly prompts: Registry;
}

/** Marks a server: its value is the policy applied to it. Registered, so that two copies of this package agree. */
const APPLIED = Symbol.for('mcp-error-policy.applied');

/** Marks a function that notes, for the access log, that a call reached a callback; its value is the inner function. */
const REACHED = Symbol('mcp-error-policy.reached');

/** Marks a low-level request handler wrapped for the access log. */
const REQUEST_WRAPPED = Symbol('mcp-error-policy.request');

/** Per-request context objects (`extra` in v1, `ctx` in v2) whose call reached a callback wrapper. */
const reachedCalls = new WeakSet<object>();

/** Wrappers made here: what each wraps, under which name and policy. A function not in it was wrapped by hand. */
const owned = new WeakMap<object, { readonly original: Fn; readonly name: string | undefined; readonly policy: ErrorPolicy }>();

/** The name each registered tool, prompt and resource template is known by (its registry key). */
const names = new WeakMap<object, string | undefined>();

/** SDK v2 prompts: the callback handed to the SDK (which keeps it in a closure), when it went through a patched method. */
const promptCallbacks = new WeakMap<object, Fn>();

/** Registered entries whose `update` is patched. */
const patchedEntries = new WeakSet<object>();

const REQUEST_KINDS: Readonly<Record<string, HandlerKind>> = {
  'tools/call': 'tool',
  'resources/read': 'resource',
  'prompts/get': 'prompt',
};

type EntryKind = HandlerKind;

interface Context {
  readonly policy: ErrorPolicy;
  /** Whether the access log is on: only then are calls traced to tell SDK rejections from callback calls. */
  readonly traced: boolean;
  readonly internals: ServerInternals;
}

function describe(value: unknown): string {
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

function isRegistry(value: unknown): value is Registry {
  return isObjectLike(value) && !Array.isArray(value);
}

function readServer(server: unknown): ServerInternals {
  const registries = [
    readProp(server, '_registeredTools'),
    readProp(server, '_registeredResources'),
    readProp(server, '_registeredResourceTemplates'),
    readProp(server, '_registeredPrompts'),
  ];
  const shaped =
    isObjectLike(server) &&
    isObjectLike(readProp(server, 'server')) &&
    ['registerTool', 'registerResource', 'registerPrompt'].every((m) => typeof readProp(server, m) === 'function') &&
    registries.every(isRegistry);
  if (!shaped) {
    throw new TypeError(
      `Expected \`server\` to be an McpServer of @modelcontextprotocol/sdk 1.x or @modelcontextprotocol/server 2.x, got ${describe(server)}`,
    );
  }
  const [tools, resources, templates, prompts] = registries as [Registry, Registry, Registry, Registry];
  return { tools, resources, templates, prompts };
}

function isWrapped(fn: unknown): boolean {
  return readProp(fn, WRAPPED) !== undefined;
}

function isTraced(fn: unknown): boolean {
  return readProp(fn, REACHED) !== undefined;
}

function copyIdentity(target: Fn, source: Fn): void {
  try {
    Object.defineProperty(target, 'name', { value: source.name, configurable: true });
    Object.defineProperty(target, 'length', { value: source.length, configurable: true });
  } catch {
    // a function whose name cannot be read keeps the wrapper's
  }
}

/**
 * Notes each call's context object (the callback's last argument) so that the request-level access log knows the call
 * reached a callback, whose wrapper reports it. Keeps the `WRAPPED` mark, so the guard still sees a wrapped function.
 */
function traced(fn: Fn): Fn {
  const out = function (this: unknown, ...args: unknown[]): unknown {
    const extra = args[args.length - 1];
    if (isObjectLike(extra)) reachedCalls.add(extra);
    return fn.apply(this, args);
  };
  Object.defineProperty(out, WRAPPED, { value: readProp(fn, WRAPPED) ?? fn });
  Object.defineProperty(out, REACHED, { value: fn });
  copyIdentity(out, fn);
  return out;
}

/**
 * The wrapped form of `fn` under this server's policy. A function already wrapped (by hand, or here under the same
 * name) is kept as it is, so that every failure is logged and reported once.
 */
function own(ctx: Context, fn: Fn, kind: EntryKind, name: string | undefined): Fn {
  let base = fn;
  const mine = owned.get(fn);
  if (mine !== undefined && mine.policy === ctx.policy) {
    if (kind === 'resource' || mine.name === name) return fn;
    base = mine.original; // renamed: wrap the original again under the new name
  } else if (isWrapped(fn)) {
    // wrapped by hand (or by another policy): its wrapper reports; only trace it for the access log
    return ctx.traced && !isTraced(fn) ? traced(fn) : fn;
  }
  const options = name === undefined || name === '' ? { policy: ctx.policy } : { name, policy: ctx.policy };
  const guarded =
    kind === 'tool'
      ? withClientVisibleErrors(base, options)
      : kind === 'resource'
        ? withClientVisibleResourceErrors(base, { policy: ctx.policy })
        : withClientVisiblePromptErrors(base, options);
  const out = ctx.traced ? traced(guarded) : guarded;
  owned.set(out, { original: base, name, policy: ctx.policy });
  return out;
}

function setIfChanged(entry: Entry, key: string, value: Fn): void {
  if (entry[key] !== value) entry[key] = value;
}

/** Where a registered tool keeps its callback: `handler` (SDK 1.24 and later, v2), `callback` (SDK 1.23 and older). */
function toolCallbackKey(entry: Entry): 'handler' | 'callback' {
  return 'handler' in entry ? 'handler' : 'callback';
}

/** Puts a registered tool under the policy. Task tools (an object handler with `createTask`) are left alone. */
function coverTool(ctx: Context, entry: Entry): void {
  const key = toolCallbackKey(entry);
  const handler = entry[key];
  if (typeof handler !== 'function') return;
  const name = names.get(entry);
  const executor = entry['executor'];
  if (typeof executor === 'function') {
    // SDK v2 calls `executor`, which it builds from the callback it was given (kept in a closure).
    if (isWrapped(handler)) {
      // that callback is wrapped: it reports; trace the executor only when the callback is not traced itself
      if (ctx.traced && !isTraced(handler) && !isTraced(executor)) entry['executor'] = traced(executor as Fn);
      return;
    }
    setIfChanged(entry, 'executor', own(ctx, executor as Fn, 'tool', name));
    return;
  }
  setIfChanged(entry, key, own(ctx, handler as Fn, 'tool', name));
}

function coverResource(ctx: Context, entry: Entry): void {
  const readCallback = entry['readCallback'];
  if (typeof readCallback === 'function') setIfChanged(entry, 'readCallback', own(ctx, readCallback as Fn, 'resource', undefined));
}

function coverPrompt(ctx: Context, entry: Entry): void {
  const name = names.get(entry);
  const callback = entry['callback'];
  if (typeof callback === 'function') {
    // SDK v1 calls `callback`.
    setIfChanged(entry, 'callback', own(ctx, callback as Fn, 'prompt', name));
    return;
  }
  // SDK v2 calls `handler` (argument validation, then the callback, which it keeps in a closure).
  const handler = entry['handler'];
  if (typeof handler !== 'function' || promptCallbacks.has(entry)) return;
  setIfChanged(entry, 'handler', own(ctx, handler as Fn, 'prompt', name));
}

function cover(ctx: Context, entry: Entry, kind: EntryKind): void {
  if (kind === 'tool') coverTool(ctx, entry);
  else if (kind === 'resource') coverResource(ctx, entry);
  else coverPrompt(ctx, entry);
}

/** The wrapped callback an entry was last given through a patched method, if any (for re-naming). */
function givenCallback(entry: Entry, kind: EntryKind): unknown {
  if (kind === 'tool') return entry[toolCallbackKey(entry)];
  if (typeof entry['callback'] === 'function') return entry['callback'];
  return promptCallbacks.get(entry);
}

/**
 * Patches `update` of a registered tool, resource or prompt so that a new `callback` is wrapped, and a new `name`
 * names the failures. The SDK's own `update` still runs (and sends its list_changed notification, as it always does).
 */
function patchUpdate(ctx: Context, entry: Entry, kind: EntryKind): void {
  const update = entry['update'];
  if (typeof update !== 'function' || patchedEntries.has(entry)) return;
  patchedEntries.add(entry);
  entry['update'] = function (this: unknown, updates: unknown): unknown {
    let next = updates;
    let rename: string | undefined;
    if (isObjectLike(updates) && !Array.isArray(updates)) {
      const newName = readProp(updates, 'name');
      rename = typeof newName === 'string' && newName !== '' && kind !== 'resource' ? newName : undefined;
      const name = rename ?? names.get(entry);
      const callback = readProp(updates, 'callback');
      if (typeof callback === 'function') {
        next = { ...updates, callback: own(ctx, callback as Fn, kind, name) };
      } else if (rename !== undefined && rename !== names.get(entry)) {
        const given = givenCallback(entry, kind);
        const mine = isObjectLike(given) ? owned.get(given) : undefined;
        if (mine !== undefined && mine.policy === ctx.policy) next = { ...updates, callback: own(ctx, mine.original, kind, rename) };
      }
    }
    const result = (update as Fn).call(this, next);
    if (rename !== undefined) names.set(entry, rename);
    const given = readProp(next, 'callback');
    if (kind === 'prompt' && typeof given === 'function' && typeof entry['callback'] !== 'function') promptCallbacks.set(entry, given as Fn);
    cover(ctx, entry, kind);
    return result;
  };
}

function adopt(ctx: Context, entry: unknown, kind: EntryKind, name: string | undefined): void {
  if (!isObjectLike(entry)) return;
  const e = entry as Entry;
  if (!names.has(e)) names.set(e, name);
  patchUpdate(ctx, e, kind);
  cover(ctx, e, kind);
}

/** Patches a registration method of the instance so that its callback (the last argument) is wrapped. */
function patchMethod(ctx: Context, server: object, method: string, kind: EntryKind): void {
  const original = readProp(server, method);
  if (typeof original !== 'function') return; // SDK v2 has no tool/resource/prompt
  const patched = function (this: unknown, ...args: unknown[]): unknown {
    const name = kind !== 'resource' && typeof args[0] === 'string' ? args[0] : undefined;
    const last = args.length - 1;
    let given: Fn | undefined;
    if (last >= 1 && typeof args[last] === 'function') {
      given = own(ctx, args[last] as Fn, kind, name);
      args[last] = given;
    }
    const registered = (original as Fn).apply(this, args);
    if (isObjectLike(registered)) {
      const entry = registered as Entry;
      if (kind === 'prompt' && given !== undefined && typeof entry['callback'] !== 'function') promptCallbacks.set(entry, given);
      adopt(ctx, entry, kind, name);
    }
    return registered;
  };
  copyIdentity(patched, original as Fn);
  Object.defineProperty(server, method, { value: patched, configurable: true, writable: true, enumerable: false });
}

/** How the SDK's registries see a requested name or URI. */
type Lookup = 'found' | 'not-found' | 'invalid';

function lookupNamed(registry: Registry, name: string | undefined): Lookup {
  if (name === undefined || !Object.prototype.hasOwnProperty.call(registry, name)) return 'not-found';
  return readProp(registry[name], 'enabled') === false ? 'not-found' : 'found';
}

function lookupResource(internals: ServerInternals, uri: string | undefined): Lookup {
  if (uri === undefined) return 'invalid';
  let href: string;
  try {
    href = new URL(uri).toString();
  } catch {
    return 'invalid';
  }
  if (Object.prototype.hasOwnProperty.call(internals.resources, href)) {
    return readProp(internals.resources[href], 'enabled') === false ? 'not-found' : 'found';
  }
  for (const template of Object.values(internals.templates)) {
    const uriTemplate = readProp(readProp(template, 'resourceTemplate'), 'uriTemplate');
    const match = readProp(uriTemplate, 'match');
    let matched: unknown;
    try {
      matched = typeof match === 'function' ? (match as Fn).call(uriTemplate, href) : undefined;
    } catch {
      matched = undefined;
    }
    if (isObjectLike(matched)) return readProp(template, 'enabled') === false ? 'not-found' : 'found';
  }
  return 'not-found';
}

/** The access-log status of a call the SDK answered without reaching a callback wrapper. */
function rejectionOutcome(
  ctx: Context,
  kind: HandlerKind,
  name: string | undefined,
  threw: boolean,
  value: unknown,
): { status: number; classification?: Classification } {
  const { internals } = ctx;
  const lookup =
    kind === 'resource' ? lookupResource(internals, name) : lookupNamed(kind === 'tool' ? internals.tools : internals.prompts, name);
  if (lookup === 'not-found') return { status: 404 };
  if (lookup === 'invalid') return { status: 400 };
  if (threw) {
    const classification = classifyError(value, ctx.policy);
    return classification.kind === 'protocol' ? { status: classification.status, classification } : { status: 500 };
  }
  if (readProp(value, 'isError') !== true) return { status: 200 };
  // A task tool's failure (its handler is left alone), else the SDK's own argument check.
  const handler = readProp(name === undefined ? undefined : internals.tools[name], 'handler');
  return { status: isObjectLike(handler) && typeof handler !== 'function' ? 500 : 400 };
}

/**
 * Wraps a low-level request handler (tools/call, resources/read, prompts/get) so that a call the SDK answers without
 * reaching a callback wrapper (unknown or disabled name, invalid arguments, bad URI, task tools) still gets one
 * access-log outcome. It changes nothing in the answer.
 */
function wrapRequest(ctx: Context, kind: HandlerKind, handler: Fn): Fn {
  const key = kind === 'resource' ? 'uri' : 'name';
  const out = function (this: unknown, ...args: unknown[]): unknown {
    const [request, extra] = args;
    const startedAt = now();
    const settle = (threw: boolean, value: unknown): void => {
      try {
        if (isObjectLike(extra) && reachedCalls.has(extra)) return;
        const raw = readString(readProp(request, 'params'), key);
        const { status, classification } = rejectionOutcome(ctx, kind, raw, threw, value);
        const name = raw === undefined ? '' : safeText(raw, MAX_NAME_LENGTH, ctx.policy.redact);
        reportOutcome(ctx.policy, { handler: kind, name, startedAt }, status, classification);
      } catch {
        // the access log must not change the answer
      }
    };
    let result: unknown;
    try {
      result = handler.apply(this, args);
    } catch (error) {
      settle(true, error);
      throw error;
    }
    return Promise.resolve(result).then(
      (value) => {
        settle(false, value);
        return value;
      },
      (error: unknown) => {
        settle(true, error);
        throw error;
      },
    );
  };
  Object.defineProperty(out, REQUEST_WRAPPED, { value: handler });
  copyIdentity(out, handler);
  return out;
}

/** Wraps the low-level handlers of tools/call, resources/read and prompts/get, now and whenever the SDK sets them. */
function coverRequests(ctx: Context, server: object): void {
  const handlers = readProp(readProp(server, 'server'), '_requestHandlers');
  if (!(handlers instanceof Map)) return; // an SDK without this map: callbacks stay covered, rejections are not logged
  const map = handlers as Map<unknown, unknown>;
  const baseSet = map.set;
  const wrapEntry = (method: unknown, handler: unknown): unknown => {
    const kind = typeof method === 'string' && Object.prototype.hasOwnProperty.call(REQUEST_KINDS, method) ? REQUEST_KINDS[method] : undefined;
    if (kind === undefined || typeof handler !== 'function' || readProp(handler, REQUEST_WRAPPED) !== undefined) return handler;
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
  for (const method of Object.keys(REQUEST_KINDS)) {
    const handler = map.get(method);
    if (handler !== undefined) baseSet.call(map, method, wrapEntry(method, handler));
  }
}

/**
 * Puts every tool, resource and prompt of an `McpServer` under one error policy: those registered before the call
 * and those registered after it. One line covers the whole server; applying it again with the same policy does
 * nothing, and callbacks already wrapped by hand are kept as they are, so each failure is still logged once.
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
 * What it leaves alone:
 * - Task tools (`server.experimental.tasks.registerToolTask`, SDK v1): their handler is an object whose `createTask`
 *   result the SDK must receive unchanged, so it is not wrapped, and the SDK's own error handling applies to it.
 * - A callback wrapped by hand keeps the policy it was wrapped with.
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
  const internals = readServer(server);
  const resolved = resolvePolicy(policy);
  const applied = readProp(server, APPLIED);
  if (applied !== undefined) {
    if (applied === resolved) return server;
    throw new Error('applyErrorPolicy: this server already has another policy; apply one policy per server');
  }
  Object.defineProperty(server, APPLIED, { value: resolved, configurable: true });
  const ctx: Context = { policy: resolved, traced: resolved.onOutcome !== undefined, internals };
  for (const [name, entry] of Object.entries(internals.tools)) adopt(ctx, entry, 'tool', name);
  for (const entry of Object.values(internals.resources)) adopt(ctx, entry, 'resource', undefined);
  for (const [name, entry] of Object.entries(internals.templates)) adopt(ctx, entry, 'resource', name);
  for (const [name, entry] of Object.entries(internals.prompts)) adopt(ctx, entry, 'prompt', name);
  patchMethod(ctx, server, 'registerTool', 'tool');
  patchMethod(ctx, server, 'tool', 'tool');
  patchMethod(ctx, server, 'registerResource', 'resource');
  patchMethod(ctx, server, 'resource', 'resource');
  patchMethod(ctx, server, 'registerPrompt', 'prompt');
  patchMethod(ctx, server, 'prompt', 'prompt');
  if (ctx.traced) coverRequests(ctx, server);
  return server;
}

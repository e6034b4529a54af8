/**
 * The McpServer adapter's reads: every access to the internals of an `McpServer` lives here, one small function per
 * capability (those of the low-level `Server` it holds, in ./low-level-internals.ts), and nothing else in the package reads a
 * private field of either SDK. Neither SDK is imported: the instance is read
 * structurally. Each function names the versions it was verified on (the compatibility matrix runs the range ends:
 * `@modelcontextprotocol/sdk` 1.13.0 (the floor), 1.23.0 (the full table) and latest 1.x, `@modelcontextprotocol/server` 2.0.0 and latest 2.x).
 */
import type { HandlerKind } from '../log.js';
import { isObjectLike, isRecord, readProp } from '../kit/read.js';
import { callMethod, lowLevelOf } from './low-level-internals.js';

type Fn = (this: unknown, ...args: unknown[]) => unknown;

/** A registered tool, resource, resource template or prompt: the object the SDK keeps in its registry. */
export type Entry = Record<PropertyKey, unknown>;

type Registry = Record<string, Entry>;

/** The registries of one server. */
export interface Registries {
  readonly tools: Registry;
  readonly resources: Registry;
  readonly templates: Registry;
  readonly prompts: Registry;
}

/** One registration: its kind, the name it is registered under (none for static resources, named by URI), its entry. */
export interface Registration {
  readonly kind: HandlerKind;
  readonly name: string | undefined;
  readonly entry: Entry;
}

/** Where a registration's callback can be wrapped. */
export interface CallbackSlot {
  /** The function the SDK calls for this registration. */
  readonly fn: Fn;
  /** Replaces it (the SDK reads the slot on every call). */
  set(fn: Fn): void;
  /** The callback the user gave, when the SDK calls it through a function of its own (`fn`) that keeps it in a closure. */
  readonly given: Fn | undefined;
  /** `fn` calls a callback kept in a closure that is not known here (SDK v2 prompts registered before the install). */
  readonly hidesCallback: boolean;
}

/** The registration methods each SDK has (SDK v2 has only the `register*` ones). */
export const REGISTRATION_METHODS: readonly (readonly [string, HandlerKind])[] = [
  ['registerTool', 'tool'],
  ['tool', 'tool'],
  ['registerResource', 'resource'],
  ['resource', 'resource'],
  ['registerPrompt', 'prompt'],
  ['prompt', 'prompt'],
];

/** The callback a registration was given through a patched registration method or `update`, kept on its entry. */
const GIVEN = Symbol('mcp-error-policy.given-callback');

/** Whether `value` has the public surface of an `McpServer` (either SDK): the low-level server and `register*`. */
export function looksLikeMcpServer(value: unknown): value is object {
  return (
    isObjectLike(value) &&
    isObjectLike(lowLevelOf(value)) &&
    ['registerTool', 'registerResource', 'registerPrompt'].every((m) => typeof readProp(value, m) === 'function')
  );
}

/**
 * The four registries, or a description of what is missing. Verified on SDK 1.13.0-1.32.2 and server 2.0.0-2.4.0:
 * `_registeredTools`, `_registeredResources` (keyed by URI), `_registeredResourceTemplates`, `_registeredPrompts`,
 * plain objects keyed by name.
 */
export function registriesOf(server: object): Registries | string {
  const keys = ['_registeredTools', '_registeredResources', '_registeredResourceTemplates', '_registeredPrompts'] as const;
  const found = keys.map((key) => readProp(server, key));
  const missing = keys.filter((_, i) => !isRecord(found[i]));
  if (missing.length > 0) return `no ${missing.map((key) => `\`${key}\``).join(', ')}`;
  const [tools, resources, templates, prompts] = found as [Registry, Registry, Registry, Registry];
  return { tools, resources, templates, prompts };
}

/** Every registration a server holds now (static resources are named by their URI: no name). */
export function listRegistrations(registries: Registries): Registration[] {
  const kinds = [['tools', 'tool'], ['resources', 'resource'], ['templates', 'resource'], ['prompts', 'prompt']] as const;
  return kinds.flatMap(([registry, kind]) =>
    Object.entries(registries[registry]).map(([name, entry]) => ({ kind, name: registry === 'resources' ? undefined : name, entry })),
  );
}

/**
 * Where a registered tool keeps its callback: `handler` (SDK 1.24.0 and later, server 2.x), `callback` (SDK 1.13.0-1.23.x).
 */
function toolCallbackKey(entry: Entry): 'handler' | 'callback' {
  return 'handler' in entry ? 'handler' : 'callback';
}

function slot(entry: Entry, key: string, given: Fn | undefined, hidesCallback = false): CallbackSlot | undefined {
  const fn = entry[key];
  if (typeof fn !== 'function') return undefined;
  return {
    fn: fn as Fn,
    set: (next) => {
      if (entry[key] !== next) entry[key] = next;
    },
    given,
    hidesCallback,
  };
}

/**
 * The slot to wrap for a registration, `undefined` for one to leave alone (task tools: an object handler whose
 * `createTask` result the SDK must receive unchanged), or a string saying what is unknown about the layout.
 * - Tools: SDK 1.x calls the callback key's function; server 2.x calls `executor`, built from `handler` (kept in a
 *   closure, so `handler` is the given callback).
 * - Resources and templates: `readCallback` (SDK 1.13.0-1.32.2, server 2.0.0-2.4.0).
 * - Prompts: SDK 1.x calls `callback`; server 2.x calls `handler` (argument validation, then the callback, kept in a
 *   closure: known only when given through a patched method or `update`).
 */
export function callbackSlotOf(entry: Entry, kind: HandlerKind): CallbackSlot | undefined | string {
  if (kind === 'resource') return slot(entry, 'readCallback', undefined) ?? 'no `readCallback` function';
  if (kind === 'tool') {
    const key = toolCallbackKey(entry);
    const handler = entry[key];
    if (isObjectLike(handler) && typeof handler !== 'function') return undefined; // a task tool
    if (typeof handler !== 'function') return `no tool \`${key}\` function`;
    return typeof entry['executor'] === 'function' ? slot(entry, 'executor', handler as Fn) : slot(entry, key, undefined);
  }
  if (typeof entry['callback'] === 'function') return slot(entry, 'callback', undefined);
  const given = entry[GIVEN];
  const known = typeof given === 'function' ? (given as Fn) : undefined;
  return slot(entry, 'handler', known, known === undefined) ?? 'no prompt `callback` or `handler` function';
}

/**
 * A task tool's handler slot: the object under the tool's callback key (`handler`, SDK 1.24.0-1.32.2), or `undefined`
 * for any other registration. The SDK reads the slot on every call.
 */
export function taskHandlerSlotOf(entry: Entry): { readonly handler: object; set(next: object): void } | undefined {
  const key = toolCallbackKey(entry);
  const handler = entry[key];
  if (!isObjectLike(handler) || typeof handler === 'function') return undefined;
  return {
    handler,
    set: (next) => {
      entry[key] = next;
    },
  };
}

/**
 * The experimental tasks API of an `McpServer`, where task tools are registered: `server.experimental.tasks`, with
 * `registerToolTask` (SDK 1.24.0-1.32.2; server 2.x has none), or `undefined`.
 */
export function experimentalTasksOf(server: object): object | undefined {
  const tasks = readProp(readProp(server, 'experimental'), 'tasks');
  return isObjectLike(tasks) && typeof readProp(tasks, 'registerToolTask') === 'function' ? tasks : undefined;
}

/**
 * The server's check of a tool result against the tool's output schema: `validateToolOutput(tool, result, name)`, a
 * method of the instance that throws the SDK's protocol error (SDK 1.23.0-1.32.2, server 2.0.0-2.4.0), or `undefined`.
 */
export function toolOutputValidatorOf(server: object): Fn | undefined {
  const validate = readProp(server, 'validateToolOutput');
  return typeof validate === 'function' ? (validate as Fn) : undefined;
}

/**
 * The server's maker of a tool's isError result from a message, `createToolError(message)`, which its `tools/call`
 * handler calls with the message of what it caught (SDK 1.24.0-1.32.2, server 2.0.0-2.4.0), or `undefined`.
 */
export function toolErrorMakerOf(server: object): Fn | undefined {
  const make = readProp(server, 'createToolError');
  return typeof make === 'function' ? (make as Fn) : undefined;
}

/** Replaces the server's `createToolError` (an own property of the instance: the class's method stays as it is). */
export function setToolErrorMaker(server: object, make: Fn): void {
  Object.defineProperty(server, 'createToolError', { value: make, configurable: true, writable: true, enumerable: false });
}

/** Replaces the server's output-schema check (an own property of the instance: the class's method stays as it is). */
export function setToolOutputValidator(server: object, validate: Fn): void {
  Object.defineProperty(server, 'validateToolOutput', { value: validate, configurable: true, writable: true, enumerable: false });
}

/** Remembers the callback a registration was given (SDK v2 keeps it in a closure). */
export function rememberGiven(entry: Entry, callback: Fn): void {
  Object.defineProperty(entry, GIVEN, { value: callback, configurable: true, writable: true, enumerable: false });
}

/** The registered name an `update({ name })` gives, if any (resources are named by URI: never). */
export function renameIn(updates: unknown, kind: HandlerKind): string | undefined {
  const name = readProp(updates, 'name');
  return typeof name === 'string' && name !== '' && kind !== 'resource' ? name : undefined;
}

/** Whether a registration is disabled (`enabled: false`, both SDKs). */
export function isDisabled(entry: unknown): boolean {
  return readProp(entry, 'enabled') === false;
}

/**
 * The list callback of a registered resource template, which the SDK reads as `resourceTemplate.listCallback` (a
 * getter of `ResourceTemplate`, both SDKs) when it answers `resources/list`: the callback and a setter that shadows the
 * getter on that template, or `undefined` when it has none.
 */
export function templateListSlotOf(entry: unknown): { readonly list: Fn; set(next: Fn): void } | undefined {
  const template = readProp(entry, 'resourceTemplate');
  const list = readProp(template, 'listCallback');
  if (!isObjectLike(template) || typeof list !== 'function') return undefined;
  return { list: list as Fn, set: (next) => Object.defineProperty(template, 'listCallback', { value: next, configurable: true, writable: true }) };
}

/** Whether a URI matches a resource template: `resourceTemplate.uriTemplate.match(uri)` (both SDKs). */
export function templateMatches(entry: unknown, uri: string): boolean {
  return isObjectLike(callMethod(readProp(readProp(entry, 'resourceTemplate'), 'uriTemplate'), 'match', uri));
}

/**
 * The flag an `McpServer` sets once it has set its request handlers of a method's group (SDK 1.13.0-1.32.2, server
 * 2.0.0-2.4.0); it sets them at the first registration of that kind, and never again.
 */
const HANDLER_FLAGS: Readonly<Record<string, string>> = {
  'tools/list': '_toolHandlersInitialized',
  'tools/call': '_toolHandlersInitialized',
  'resources/list': '_resourceHandlersInitialized',
  'resources/templates/list': '_resourceHandlersInitialized',
  'resources/read': '_resourceHandlersInitialized',
  'prompts/list': '_promptHandlersInitialized',
  'prompts/get': '_promptHandlersInitialized',
  'completion/complete': '_completionHandlerInitialized',
};

/**
 * Whether the `McpServer` has set its handler of `method` on the `Server` it holds: `false` for a method it has not set
 * (a handler there now is server code's) or never sets, or a string saying what is unknown about the layout. `true`
 * does not say the handler there now is still its own: server code may have replaced it since (./mcp-server.ts).
 */
export function setByMcpServer(server: object, method: string): boolean | string {
  const flag = HANDLER_FLAGS[method];
  if (flag === undefined) return false;
  const value = readProp(server, flag);
  return typeof value === 'boolean' ? value : `no \`${flag}\``;
}

/**
 * Tells the request handlers an `McpServer` sets on the `Server` it holds from those server code sets there, from now
 * on. Both SDKs' `McpServer` call `server.assertCanSetRequestHandler(method)` for each handler of a group just before
 * setting them, in one synchronous run (SDK 1.13.0-1.32.2, server 2.0.0-2.4.0); `setRequestHandler` alone does not.
 * Returns whether the handler of `method` being set now is the `McpServer`'s, or `undefined` (nothing changed) when the
 * `Server` has no `assertCanSetRequestHandler`.
 */
export function watchMcpServerSets(low: unknown): ((method: string) => boolean) | undefined {
  const assert = readProp(low, 'assertCanSetRequestHandler');
  if (!isObjectLike(low) || typeof assert !== 'function') return undefined;
  const announced = new Set<string>();
  const announcing = function (this: unknown, method: unknown, ...rest: unknown[]): unknown {
    const result = (assert as Fn).call(this, method, ...rest);
    if (typeof method === 'string') {
      // an announcement the McpServer did not follow (it threw between them) does not outlive its run
      if (announced.size === 0) queueMicrotask(() => announced.clear());
      announced.add(method);
    }
    return result;
  };
  Object.defineProperty(low, 'assertCanSetRequestHandler', { value: announcing, configurable: true, writable: true, enumerable: false });
  return (method) => announced.delete(method);
}

/** Which SDK and version a server comes from, for error messages: SDK 1.x has `tool()`, server 2.x does not. */
export function sdkFound(server: object): string {
  const name = typeof readProp(server, 'tool') === 'function' ? '@modelcontextprotocol/sdk' : '@modelcontextprotocol/server';
  return `${name} ${installedVersion(name) ?? '(version unknown)'}`;
}

function installedVersion(name: string): string | undefined {
  try {
    const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
    if (typeof getBuiltin !== 'function') return undefined;
    const { createRequire } = getBuiltin('node:module') as typeof import('node:module');
    const { readFileSync } = getBuiltin('node:fs') as typeof import('node:fs');
    const { dirname, join } = getBuiltin('node:path') as typeof import('node:path');
    const require = createRequire(join(process.cwd(), 'noop.js'));
    let dir = dirname(require.resolve(name === '@modelcontextprotocol/sdk' ? `${name}/server/mcp.js` : name));
    for (let i = 0; i < 8; i += 1) {
      try {
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
        if (manifest.name === name && typeof manifest.version === 'string') return manifest.version;
      } catch {
        // no manifest here: look further up
      }
      dir = dirname(dir);
    }
  } catch {
    // not resolvable from here
  }
  return undefined;
}

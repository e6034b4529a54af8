/**
 * The FastMCP adapter (npm `fastmcp`): puts the `execute` of every tool and the `load` of every resource, resource
 * template and prompt given to the server's `add*` methods under the policy. Read structurally: fastmcp is not
 * imported.
 *
 * FastMCP keeps what it was given in private class fields (`#tools`, `#resources`, ...) that no code outside the class
 * can read, and hands each session its own copy when it starts one. So the adapter covers what is added after
 * `applyErrorPolicy` (the one line is `applyErrorPolicy(new FastMCP(...))`), and refuses a server that has started.
 * What was added before runs without the policy: when the first session connects, a warning names it (read from the
 * lists the session's SDK `Server` answers).
 *
 * What fastmcp does with the answers (measured with fastmcp 4.20): a tool's isError result reaches the client as the
 * policy made it (text, `_meta` with the failure object); a resource template's JSON-RPC error too. A static resource's
 * and a prompt's error fastmcp catches and throws again as its own -32603 error: the client sees
 * `Failed to load resource '<name>' (<uri>): <the policy's text>` (or `Failed to load prompt '<name>': ...`), without
 * the failure object. fastmcp's `UserError` is a deliberate error (src/rules/deliberate.ts).
 */
import type { ErrorPolicy } from '../policy.js';
import type { HandlerKind } from '../log.js';
import { isObjectLike, isRecord, readProp, readString } from '../kit/read.js';
import { bindGuard, type Binding } from '../wrap/guard.js';
import { ownHandler } from '../wrap/own.js';
import { requestHandlersOf } from './low-level-internals.js';
import type { ServerAdapter } from './adapter.js';
import { emitPolicyWarning } from './unguarded.js';

/** What `applyErrorPolicy` needs to see of a FastMCP server (npm `fastmcp`): its registration methods. */
export interface FastMcpLike {
  /** Adds a tool; its `execute` runs under the policy. */
  addTool(...args: never[]): unknown;
  /** Adds a static resource; its `load` runs under the policy, failures named by its URI. */
  addResource(...args: never[]): unknown;
  /** Adds a resource template; its `load` runs under the policy, failures named by its URI template. */
  addResourceTemplate(...args: never[]): unknown;
  /** Adds a prompt; its `load` runs under the policy. */
  addPrompt(...args: never[]): unknown;
}

type Fn = (this: unknown, ...args: unknown[]) => unknown;

/** What is registered: a tool, a static resource, a resource template or a prompt. */
type Registered = 'tool' | 'resource' | 'template' | 'prompt';

/** The registration methods, one and many at a time, and what they register. */
const METHODS: readonly (readonly [string, Registered])[] = [
  ['addTool', 'tool'],
  ['addTools', 'tool'],
  ['addResource', 'resource'],
  ['addResources', 'resource'],
  ['addResourceTemplate', 'template'],
  ['addResourceTemplates', 'template'],
  ['addPrompt', 'prompt'],
  ['addPrompts', 'prompt'],
];

/** Marks a method this adapter patched. */
const PATCHED = Symbol('mcp-error-policy.fastmcp');

function looksLikeFastMcp(value: unknown): boolean {
  if (!isObjectLike(value) || typeof readProp(value, 'registerTool') === 'function') return false;
  return METHODS.every(([method]) => typeof readProp(value, method) === 'function') && typeof readProp(value, 'start') === 'function';
}

/** The handler of a registration: a tool's `execute`, the others' `load`. */
function handlerField(registered: Registered): 'execute' | 'load' {
  return registered === 'tool' ? 'execute' : 'load';
}

/** What names a registration's failures: a tool's or prompt's name, a resource's URI, a template's URI template. */
function nameOf(item: object, registered: Registered): string | undefined {
  const key = registered === 'resource' ? 'uri' : registered === 'template' ? 'uriTemplate' : 'name';
  const name = readString(item, key);
  return name === '' ? undefined : name;
}

/**
 * A resource's `load` under the policy. fastmcp calls it with the session's auth first (and a template's with its
 * variables), not a URI: the wrapper is called with the URI (or URI template) in front, which names the failure.
 */
function coverLoad(load: Fn, name: string | undefined, binding: Binding): Fn {
  const inner = bindGuard(load, binding) ?? load; // a load wrapped by hand follows the server's policy
  const read = ownHandler(
    function (this: unknown, _uri: unknown, ...args: unknown[]): unknown {
      return inner.apply(this, args);
    },
    'resource',
    binding,
  );
  return function (this: unknown, ...args: unknown[]): unknown {
    return read.call(this, name, ...args);
  };
}

/** A copy of a registration with its handler under the policy; anything else as it is. */
function cover(policy: ErrorPolicy, registered: Registered, item: unknown): unknown {
  const field = handlerField(registered);
  const handler = readProp(item, field);
  if (!isRecord(item) || typeof handler !== 'function') return item;
  const name = nameOf(item, registered);
  const kind: HandlerKind = registered === 'template' ? 'resource' : registered;
  const binding: Binding = { policy, name, claims: false, governs: false };
  const covered = kind === 'resource' ? coverLoad(handler as Fn, name, binding) : ownHandler(handler as Fn, kind, binding);
  return { ...item, [field]: covered };
}

/** `tool "search"`: a registration as the warning names it. */
function label(registered: Registered, name: string | undefined): string {
  return `${registered} ${JSON.stringify(name)}`;
}

/** The SDK's list requests, what each answers with, and what names an item. */
const LISTS: readonly (readonly [string, string, Registered])[] = [
  ['tools/list', 'tools', 'tool'],
  ['resources/list', 'resources', 'resource'],
  ['resources/templates/list', 'resourceTemplates', 'template'],
  ['prompts/list', 'prompts', 'prompt'],
];

/**
 * Warns once, when the first session connects, of the registrations it serves that were added before
 * `applyErrorPolicy` (they run without the policy): `process.emitWarning`, or `console.warn` where there is none.
 */
function warnOfEarlyRegistrations(server: object, covered: ReadonlySet<string>): void {
  const once = readProp(server, 'once');
  if (typeof once !== 'function') return;
  (once as Fn).call(server, 'connect', (event: unknown) => {
    const handlers = requestHandlersOf(readProp(readProp(event, 'session'), 'server'));
    const listed = LISTS.map(async ([method, key, registered]) => {
      const list = handlers?.get(method);
      const items = readProp(typeof list === 'function' ? await (list as Fn)({ method, params: {} }, {}) : undefined, key);
      return (Array.isArray(items) ? items : []).map((item: object) => label(registered, nameOf(item, registered)));
    });
    Promise.all(listed).then(
      (found) => {
        const early = found.flat().filter((name) => !covered.has(name));
        if (early.length === 0) return;
        const text = `applyErrorPolicy: this FastMCP server serves ${early.join(', ')} without the policy: added before applyErrorPolicy(server). Apply it first: applyErrorPolicy(new FastMCP(...))`;
        emitPolicyWarning(text);
      },
      () => undefined,
    );
  });
}

function patchMethod(server: object, method: string, registered: Registered, policy: ErrorPolicy, covered: Set<string>): void {
  const original = readProp(server, method);
  if (typeof original !== 'function' || readProp(original, PATCHED) !== undefined) return;
  const many = method.endsWith('s');
  const patched = function (this: unknown, ...args: unknown[]): unknown {
    const [given] = args;
    for (const item of many && Array.isArray(given) ? given : [given]) if (isObjectLike(item)) covered.add(label(registered, nameOf(item, registered)));
    args[0] = many && Array.isArray(given) ? given.map((item) => cover(policy, registered, item)) : cover(policy, registered, given);
    return (original as Fn).apply(this, args);
  };
  Object.defineProperty(patched, PATCHED, { value: original });
  Object.defineProperty(patched, 'name', { value: (original as Fn).name, configurable: true });
  Object.defineProperty(server, method, { value: patched, configurable: true, writable: true, enumerable: false });
}

/** FastMCP (npm `fastmcp`, 3.x and 4.x): tools, resources, resource templates and prompts added after the call. */
export const fastMcpAdapter: ServerAdapter = {
  name: 'FastMCP',
  accepts: looksLikeFastMcp,
  apply(server: object, policy: ErrorPolicy): void {
    const state = readProp(server, 'serverState');
    if (state !== undefined && state !== 'stopped') {
      throw new Error(
        `applyErrorPolicy: this FastMCP server has started (serverState ${typeof state === 'string' ? state : typeof state}); its sessions copy its tools. ` +
          'Apply the policy before adding tools and before start(): applyErrorPolicy(new FastMCP(...))',
      );
    }
    const covered = new Set<string>();
    if (!METHODS.some(([method]) => readProp(readProp(server, method), PATCHED) !== undefined)) warnOfEarlyRegistrations(server, covered);
    for (const [method, registered] of METHODS) patchMethod(server, method, registered, policy, covered);
  },
};

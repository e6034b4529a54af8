/**
 * The Nitro adapter, for Nuxt servers that serve MCP with `@nuxtjs/mcp-toolkit` (0.x): the one line is a Nitro plugin,
 * `defineNitroPlugin((nitroApp) => applyErrorPolicy(nitroApp, policy))`. Read structurally: neither Nitro nor the
 * toolkit is imported.
 *
 * Where: the toolkit builds a fresh SDK `McpServer` for every HTTP request, from the definitions of server/mcp/
 * (`defineMcpTool`, `defineMcpResource`, `defineMcpPrompt`), and catches what a tool throws into an isError result of
 * its own text before any hook of it sees a server (`mcp:server:created` comes too late). Its hook
 * `mcp:config:resolved` hands over each request's definitions before the server is built: the adapter puts each one
 * in the config under the policy, as a copy whose handler is wrapped (the package's own wrappers, bound to the
 * policy and the name the toolkit registers it under; a resource's failures are named by the URI read). Each
 * definition is covered once, the first time a request carries it, and the same copy serves every later request.
 *
 * What the answers are (measured with @nuxtjs/mcp-toolkit 0.21.0, Nuxt 4.6): a tool's isError result reaches the client
 * as the policy made it (text, `_meta` with the failure object); a resource's and a prompt's JSON-RPC error too. h3's
 * errors with a 4xx status (`createError({ statusCode: 404, message })`) are deliberate (./h3-errors.ts). A tool with
 * `cache` keeps its cache key; the copy's cache options refuse to store an isError result, so that a failure is never
 * served again from the cache as the tool's answer.
 *
 * Not covered: definitions a later `mcp:config:resolved` listener adds (plugins run in file-name order), resources
 * served from a `file` without a handler (the toolkit reads the file itself; a process warning names each once), calls
 * the SDK answers before any handler runs (an unknown tool, invalid arguments), and calls a tool's cache answers (no
 * handler runs: no access-log outcome). The toolkit's experimental code mode was not measured.
 */
import { isObjectLike, isRecord, readProp, readString } from '../kit/read.js';
import type { HandlerKind } from '../log.js';
import type { ErrorPolicy } from '../policy.js';
import type { Binding } from '../wrap/guard.js';
import { ownHandler } from '../wrap/own.js';
import type { ServerAdapter } from './adapter.js';
import { withH3Rules } from './h3-errors.js';
import { emitPolicyWarning } from './unguarded.js';

/**
 * What `applyErrorPolicy` needs to see of a `NitroApp` (the value a Nitro plugin is given, in a Nuxt server with
 * `@nuxtjs/mcp-toolkit`): its runtime hooks, its h3 app, `localFetch` and `captureError`. Nitro's class fits it as it is.
 */
export interface NitroAppLike {
  /** Nitro's runtime hooks: the policy listens to the toolkit's `mcp:config:resolved`. */
  readonly hooks: { hook(...args: never[]): unknown };
  /** The h3 app that serves the requests. */
  readonly h3App: object;
  /** Calls the app without the network. */
  localFetch(...args: never[]): unknown;
  /** Reports an error to Nitro's error hooks. */
  captureError(...args: never[]): unknown;
}

type Fn = (this: unknown, ...args: unknown[]) => unknown;

/** The config's lists of definitions, and what each holds. */
const LISTS: readonly (readonly [string, HandlerKind])[] = [
  ['tools', 'tool'],
  ['resources', 'resource'],
  ['prompts', 'prompt'],
];

/** The toolkit's per-request hook, called with `{ config, event }` before the request's `McpServer` is built. */
const CONFIG_RESOLVED = 'mcp:config:resolved';

function looksLikeNitroApp(value: unknown): boolean {
  if (!isObjectLike(value) || typeof readProp(value, 'registerTool') === 'function') return false;
  const hooks = readProp(value, 'hooks');
  return (
    typeof readProp(hooks, 'hook') === 'function' &&
    typeof readProp(hooks, 'callHook') === 'function' &&
    isObjectLike(readProp(value, 'h3App')) &&
    typeof readProp(value, 'localFetch') === 'function' &&
    typeof readProp(value, 'captureError') === 'function'
  );
}

/** `getSheet` → `get-sheet`, as the toolkit names a definition after its file. */
function kebabCase(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[_\s]+/g, '-')
    .toLowerCase();
}

/** The name the toolkit registers a tool or prompt under: its `name`, else its file's name (`_meta.filename`) in kebab case. */
function nameOf(definition: object): string | undefined {
  const name = readString(definition, 'name');
  if (name !== undefined && name !== '') return name;
  const filename = readString(readProp(definition, '_meta'), 'filename')?.replace(/\.(ts|js|mts|mjs)$/, '');
  return filename === undefined || filename === '' ? undefined : kebabCase(filename);
}

/**
 * A tool's `cache` option (a duration, or Nitro's cache options) whose cache stores no isError result: the policy's
 * answer to a failure is not served again as the tool's answer. The cache's name, group and key stay as they were.
 */
function withoutFailures(cache: unknown): unknown {
  const options = isRecord(cache) ? cache : typeof cache === 'string' || typeof cache === 'number' ? { maxAge: cache } : undefined;
  if (options === undefined) return cache;
  const given = readProp(options, 'validate');
  const validate = (entry: unknown): unknown => {
    const value = readProp(entry, 'value');
    if (readProp(value, 'isError') === true) return false;
    return typeof given === 'function' ? (given as Fn)(entry) : value !== undefined;
  };
  return { ...options, validate };
}

/** The definitions without a handler already named in a warning. */
const warned = new WeakSet<object>();

/**
 * Warns once per definition that it has no handler to put under the policy: a resource served from a `file`, which
 * the toolkit reads itself (its failure's text, with the file's path, reaches the client as the toolkit sends it).
 */
function warnUncovered(definition: object, kind: HandlerKind): void {
  if (warned.has(definition)) return;
  warned.add(definition);
  const label = kind === 'resource' ? readString(definition, 'uri') ?? readString(definition, 'file') : nameOf(definition);
  emitPolicyWarning(
    `applyErrorPolicy: the ${kind} ${JSON.stringify(label ?? '(unnamed)')} of @nuxtjs/mcp-toolkit has no handler (a resource served from a \`file\`?): ` +
      'its failures are not under the policy. Give it a handler that reads the file',
  );
}

/** Covers definitions under `policy`: each one once, the same copy for every request after. */
function coverer(policy: ErrorPolicy): (definition: unknown, kind: HandlerKind) => unknown {
  const copies = new WeakMap<object, object>();
  const made = new WeakSet<object>();
  return (definition, kind) => {
    if (!isRecord(definition) || made.has(definition)) return definition;
    const known = copies.get(definition);
    if (known !== undefined) return known;
    const handler = readProp(definition, 'handler');
    if (typeof handler !== 'function') {
      warnUncovered(definition, kind);
      return definition;
    }
    const binding: Binding = { policy, name: kind === 'resource' ? undefined : nameOf(definition), claims: false, governs: false };
    const copy: Record<string, unknown> = { ...definition, handler: ownHandler(handler as Fn, kind, binding) };
    if (kind === 'tool' && copy['cache'] !== undefined) copy['cache'] = withoutFailures(copy['cache']);
    copies.set(definition, copy);
    made.add(copy);
    return copy;
  };
}

/** Nitro's `NitroApp` with `@nuxtjs/mcp-toolkit`: the definitions of every MCP request, covered once each. */
export const nitroAdapter: ServerAdapter = {
  name: 'NitroApp',
  accepts: looksLikeNitroApp,
  apply(nitroApp: object, policy: ErrorPolicy): void {
    const cover = coverer(withH3Rules(policy));
    const hooks = readProp(nitroApp, 'hooks');
    (readProp(hooks, 'hook') as Fn).call(hooks, CONFIG_RESOLVED, (context: unknown) => {
      const config = readProp(context, 'config');
      if (!isRecord(config)) return;
      for (const [key, kind] of LISTS) {
        const list = readProp(config, key);
        if (Array.isArray(list)) (config as Record<string, unknown>)[key] = list.map((definition: unknown) => cover(definition, kind));
      }
    });
  },
};

/**
 * fast-check arbitraries of hostile thrown values, with their expected answers.
 *
 * A case is a spec (plain data, so that fast-check shrinks it to a minimal counterexample): an innermost value (a
 * hostile leaf, or an allowlisted "core" error) and the layers wrapped around it. `build` turns a spec into a fresh
 * thrown value and, beside it, a shadow graph of what the policy's cause walk can read (`cause`, `error`, the first 16
 * members of `errors`). The expectation follows from a breadth-first walk of that shadow with the policy's bound
 * (MAX_CHAIN_NODES): the first allowlisted core reached decides the text; no core reached means a crash.
 *
 * The canary is planted in every part of the value that no rule allowlists: messages and names of wrappers and leaves,
 * stacks, codes, `data`, `config`, symbol descriptions, toString/Symbol.toPrimitive results, values thrown by getters
 * and Proxy traps, the causes of allowlisted errors. It must never reach the wire.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { ResourceError, ResourceNotFoundError, ToolError } from '../../src/index.js';
import { MAX_CHAIN_NODES } from '../../src/kit/chain.js';
import { CANARY, type Expectation } from './support.js';

// ---------------------------------------------------------------------------------------------------------------
// Shared strings.
// ---------------------------------------------------------------------------------------------------------------

/**
 * A 10 MB message: a first line, then the canary, ANSI escapes and control characters (no further line feed, so that
 * reading its stack stays cheap: the policy splits stacks into lines), repeated.
 */
export const TEN_MB_MESSAGE = (() => {
  const unit = `${CANARY} \u001b[31mred\u001b[0m\r\u0000\u0007\u0085\u2028\t|`;
  return `ten megabytes\n${unit.repeat(Math.ceil(10_000_000 / unit.length))}`.slice(0, 10_000_000);
})();

/** Control characters, ANSI sequences and line separators, as text fragments. */
const CONTROL_FRAGMENTS = ['\n', '\r\n', '\r', '\u001b[2J', '\u001b[31m', '\u001b]0;title\u0007', '\u0000', '\u0008', '\u007f', '\u0085', '\u2028', '\u2029', '\t', '\u000b', '\u000c', '\u009b31m'];

/** Text made of control fragments and the given text fragments around the canary (mirrored). */
function controlTextOf(fragment: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .array(fc.oneof(fc.constantFrom(...CONTROL_FRAGMENTS), fragment), { maxLength: 12 })
    .map((parts) => `${parts.join('')}${CANARY}${parts.reverse().join('')}`);
}

/** Text full of control characters and ANSI escapes around the canary. */
export const controlText = controlTextOf(fc.string({ maxLength: 8 }));

/**
 * {@link controlText} that can never take a secret's shape, for tests that expect a value to come back exactly as
 * given (quoted, bounded): its printable fragments hold no `=`, `:`, `/`, `.` or `*`, without which none of the scrubber's
 * patterns (`key=…`, `"token": …`, `ya29.…`, `1//…`, JWTs, user info in URLs, half-masked keys such as `C***CANARY…`)
 * can form. fast-check puts words such as
 * `key` into its strings on purpose, so plain {@link controlText} does, now and then, give `key=…`, which the policy
 * rightly redacts.
 */
export const unscrubbedControlText = controlTextOf(fc.string({ maxLength: 8, unit: fc.constantFrom(...printableWithout('=:/.*')) }));

/** The printable ASCII characters but those given. */
function printableWithout(excluded: string): string[] {
  const out: string[] = [];
  for (let code = 0x20; code < 0x7f; code += 1) if (!excluded.includes(String.fromCharCode(code))) out.push(String.fromCharCode(code));
  return out;
}

/** Text with the canary and arbitrary (full-Unicode) noise around it. */
const canaryText = fc.oneof(
  fc.constant(CANARY),
  fc.tuple(fc.string({ maxLength: 20, unit: 'binary' }), fc.string({ maxLength: 20, unit: 'binary' })).map(([a, b]) => `${a}${CANARY}${b}`),
  controlText,
);

/**
 * Messages of allowlisted errors: characters that cannot form a secret shape (no `=`, `.`, `:`, `/`, no letters of
 * `key`, `Bearer`, `eyJ`...), with controls, ANSI escapes and astral characters, so that the expected client text is
 * the message itself, bounded.
 */
export const allowedMessage = fc
  .array(fc.constantFrom('0', '1', '7', '9', 'a', 'c', 'f', ' ', '-', '\n', '\t', '\u001b', '[', ';', 'm', '\u0000', '\u2028', '\u0085', '😀', 'é'), { maxLength: 60 })
  .map((chars) => chars.join(''));

// ---------------------------------------------------------------------------------------------------------------
// Specs.
// ---------------------------------------------------------------------------------------------------------------

/** An allowlisted error at the bottom of the layers. */
export type CoreSpec =
  | { readonly t: 'toolError'; readonly message: string }
  | { readonly t: 'resourceError'; readonly message: string }
  | { readonly t: 'notFound'; readonly message: string }
  | { readonly t: 'network'; readonly code: 'ECONNREFUSED' | 'ENOTFOUND' | 'ECONNRESET' | 'UND_ERR_SOCKET' }
  | { readonly t: 'timeout' }
  | { readonly t: 'abort' }
  | { readonly t: 'fileSystem'; readonly which: 'ENOENT' | 'EISDIR' };

/** A hostile value that no rule accepts. */
export type LeafSpec =
  | { readonly t: 'string'; readonly text: string }
  | { readonly t: 'number'; readonly value: number }
  | { readonly t: 'boolean'; readonly value: boolean }
  | { readonly t: 'undefined' }
  | { readonly t: 'null' }
  | { readonly t: 'bigint'; readonly value: bigint }
  | { readonly t: 'symbol'; readonly text: string }
  | { readonly t: 'nullProto'; readonly text: string }
  | { readonly t: 'revoked' }
  | { readonly t: 'allTrapsThrow' }
  | { readonly t: 'throwingGetters' }
  | LeafOrLayerSpec
  | { readonly t: 'function' }
  | { readonly t: 'frozen'; readonly text: string }
  | { readonly t: 'frozenProxy' }
  | { readonly t: 'cycle'; readonly length: number }
  | { readonly t: 'endlessCause' }
  | { readonly t: 'aggregateOfLeaves'; readonly count: number }
  | { readonly t: 'plainError'; readonly text: string };

/** What a non-string `name` / `message` / `stack` / `code` is. */
export type NonString = 'number' | 'object' | 'symbol' | 'array' | 'function' | 'null' | 'bigint' | 'throwingToString' | 'boolean';

/** A hostile shape that is a leaf or, wrapped around the value below it (as its cause), a layer. */
export type LeafOrLayerSpec =
  | { readonly t: 'toPrimitive'; readonly throws: boolean }
  | { readonly t: 'nonStringFields'; readonly kinds: readonly NonString[] }
  | { readonly t: 'tenMegabytes' }
  | { readonly t: 'controls'; readonly text: string };

/** A layer wrapped around the value below it. */
export type LayerSpec =
  | { readonly t: 'cause'; readonly text: string }
  | { readonly t: 'typeErrorCause'; readonly text: string }
  | { readonly t: 'nullProtoCause' }
  | { readonly t: 'gaxiosLike' }
  | { readonly t: 'aggregate'; readonly before: number; readonly after: number }
  | { readonly t: 'proxy' }
  | { readonly t: 'frozen' }
  | { readonly t: 'getterCause' }
  | LeafOrLayerSpec
  | { readonly t: 'selfCycle' }
  | { readonly t: 'deep'; readonly depth: number }
  // Layers that hide what they wrap: the walk cannot read past them.
  | { readonly t: 'revokedAround' }
  | { readonly t: 'allTrapsThrowAround' }
  | { readonly t: 'throwingCauseGetter' }
  | { readonly t: 'primitiveCause' }
  // Found by these tests (see findings.test.ts): an `errors` field that is a revoked Proxy stops the whole walk.
  | { readonly t: 'revokedErrorsSibling' };

/** How the handler fails. */
/**
 * How a handler fails: it throws; an async function throws; it returns a rejected promise; a thenable that rejects; a
 * thenable whose `then` getter throws; a thenable whose `then` throws.
 */
export type Mode = 'throw' | 'asyncThrow' | 'reject' | 'thenable' | 'thenGetterThrows' | 'thenThrows';

/** One case. */
export interface CaseSpec {
  readonly bottom: { readonly core: CoreSpec } | { readonly leaf: LeafSpec };
  readonly layers: readonly LayerSpec[];
  readonly mode: Mode;
}

// ---------------------------------------------------------------------------------------------------------------
// Arbitraries.
// ---------------------------------------------------------------------------------------------------------------

const nonString = fc.constantFrom<NonString>('number', 'object', 'symbol', 'array', 'function', 'null', 'bigint', 'throwingToString', 'boolean');

export const coreArb: fc.Arbitrary<CoreSpec> = fc.oneof(
  allowedMessage.map((message) => ({ t: 'toolError' as const, message })),
  allowedMessage.map((message) => ({ t: 'resourceError' as const, message })),
  allowedMessage.map((message) => ({ t: 'notFound' as const, message })),
  fc.constantFrom('ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'UND_ERR_SOCKET').map((code) => ({ t: 'network' as const, code })),
  fc.constant({ t: 'timeout' as const }),
  fc.constant({ t: 'abort' as const }),
  fc.constantFrom('ENOENT', 'EISDIR').map((which) => ({ t: 'fileSystem' as const, which })),
);

/** Weight of the common shapes against the costly ones (10 MB messages, endless chains), which stay rare. */
const COMMON = 60;

/** The {@link LeafOrLayerSpec} shapes, each a common one but the costly 10 MB message. */
const leafOrLayerArbs: readonly (fc.Arbitrary<LeafOrLayerSpec> | readonly [fc.Arbitrary<LeafOrLayerSpec>, number])[] = [
  fc.boolean().map((throws) => ({ t: 'toPrimitive' as const, throws })),
  fc.array(nonString, { minLength: 4, maxLength: 4 }).map((kinds) => ({ t: 'nonStringFields' as const, kinds })),
  [fc.constant({ t: 'tenMegabytes' as const }), 1],
  controlText.map((text) => ({ t: 'controls' as const, text })),
];

export const leafArb: fc.Arbitrary<LeafSpec> = fc.oneof(
  ...weighted<LeafSpec>([
    canaryText.map((text) => ({ t: 'string' as const, text })),
    fc.double().map((value) => ({ t: 'number' as const, value })),
    fc.boolean().map((value) => ({ t: 'boolean' as const, value })),
    fc.constant({ t: 'undefined' as const }),
    fc.constant({ t: 'null' as const }),
    fc.bigInt().map((value) => ({ t: 'bigint' as const, value })),
    canaryText.map((text) => ({ t: 'symbol' as const, text })),
    canaryText.map((text) => ({ t: 'nullProto' as const, text })),
    fc.constant({ t: 'revoked' as const }),
    fc.constant({ t: 'allTrapsThrow' as const }),
    fc.constant({ t: 'throwingGetters' as const }),
    ...leafOrLayerArbs,
    fc.constant({ t: 'function' as const }),
    canaryText.map((text) => ({ t: 'frozen' as const, text })),
    fc.constant({ t: 'frozenProxy' as const }),
    fc.integer({ min: 1, max: 5 }).map((length) => ({ t: 'cycle' as const, length })),
    [fc.constant({ t: 'endlessCause' as const }), 12],
    fc.integer({ min: 0, max: 20 }).map((count) => ({ t: 'aggregateOfLeaves' as const, count })),
    canaryText.map((text) => ({ t: 'plainError' as const, text })),
  ]),
);

/** Arbitraries with a weight: a bare arbitrary weighs COMMON. */
function weighted<T>(entries: readonly (fc.Arbitrary<T> | readonly [fc.Arbitrary<T>, number])[]): fc.WeightedArbitrary<T>[] {
  return entries.map((entry) => (Array.isArray(entry) ? { arbitrary: entry[0] as fc.Arbitrary<T>, weight: entry[1] as number } : { arbitrary: entry as fc.Arbitrary<T>, weight: COMMON }));
}

/** Layers; `includeFindings` adds the layer shapes that currently expose a bug (see findings.test.ts). */
export function layerArb(includeFindings: boolean): fc.Arbitrary<LayerSpec> {
  const layers: (fc.Arbitrary<LayerSpec> | readonly [fc.Arbitrary<LayerSpec>, number])[] = [
    canaryText.map((text) => ({ t: 'cause' as const, text })),
    canaryText.map((text) => ({ t: 'typeErrorCause' as const, text })),
    fc.constant({ t: 'nullProtoCause' as const }),
    fc.constant({ t: 'gaxiosLike' as const }),
    fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 3 })).map(([before, after]) => ({ t: 'aggregate' as const, before, after })),
    fc.constant({ t: 'proxy' as const }),
    fc.constant({ t: 'frozen' as const }),
    fc.constant({ t: 'getterCause' as const }),
    ...leafOrLayerArbs,
    fc.constant({ t: 'selfCycle' as const }),
    fc.oneof({ arbitrary: fc.integer({ min: 100, max: 140 }), weight: 4 }, { arbitrary: fc.constant(10_000), weight: 1 }).map((depth) => ({ t: 'deep' as const, depth })),
    fc.constant({ t: 'revokedAround' as const }),
    fc.constant({ t: 'allTrapsThrowAround' as const }),
    fc.constant({ t: 'throwingCauseGetter' as const }),
    fc.constant({ t: 'primitiveCause' as const }),
  ];
  if (includeFindings) layers.push(fc.constant({ t: 'revokedErrorsSibling' as const }));
  return fc.oneof(...weighted(layers));
}

/** Cases: half with an allowlisted core somewhere below, half with a hostile leaf only. */
export function caseArb(options: { includeFindings?: boolean; maxLayers?: number } = {}): fc.Arbitrary<CaseSpec> {
  return fc.record({
    bottom: fc.oneof(coreArb.map((core) => ({ core })), leafArb.map((leaf) => ({ leaf }))),
    layers: fc.array(layerArb(options.includeFindings === true), { maxLength: options.maxLayers ?? 4 }),
    mode: fc.constantFrom<Mode>('throw', 'asyncThrow', 'reject', 'thenable', 'thenGetterThrows', 'thenThrows'),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Building values and their shadows.
// ---------------------------------------------------------------------------------------------------------------

/** What the cause walk can read of a value: its linked objects, in the walk's order, and whether it is a core. */
interface Shadow {
  readonly children: Shadow[];
  core?: CoreSpec;
}

/** A value and its shadow (`undefined` for values that are not objects: the walk never queues them). */
interface Built {
  readonly value: unknown;
  readonly shadow: Shadow | undefined;
}

const leafShadow = (): Shadow => ({ children: [] });

function canaryError(text: string = CANARY): Error {
  const error = new Error(text);
  Object.assign(error, { data: { secret: CANARY }, config: { url: `https://example.test/${CANARY}` } });
  return error;
}

function nonStringValue(kind: NonString): unknown {
  switch (kind) {
    case 'number':
      return 404;
    case 'object':
      return { toString: () => CANARY, valueOf: () => CANARY, message: CANARY };
    case 'symbol':
      return Symbol(CANARY);
    case 'array':
      return [CANARY, CANARY];
    case 'function':
      return Object.defineProperty(() => CANARY, 'name', { value: CANARY });
    case 'null':
      return null;
    case 'bigint':
      return 9007199254740993n;
    case 'throwingToString':
      return {
        toString() {
          throw new Error(CANARY);
        },
        [Symbol.toPrimitive]() {
          throw new Error(CANARY);
        },
      };
    case 'boolean':
      return true;
  }
}

/** Sets stack, name, message and code to the given non-strings (own, writable, enumerable). */
function withNonStringFields<T extends object>(target: T, kinds: readonly NonString[]): T {
  // The stack first: V8 formats an Error's stack (reading name and message) when it is redefined.
  const keys = ['stack', 'name', 'message', 'code'] as const;
  keys.forEach((key, i) => {
    Object.defineProperty(target, key, { value: nonStringValue(kinds[i] ?? 'number'), writable: true, enumerable: true, configurable: true });
  });
  return target;
}

/** Every Proxy trap throws an Error carrying the canary. */
const allTrapsThrowHandler: ProxyHandler<object> = Object.fromEntries(
  ['get', 'set', 'has', 'deleteProperty', 'ownKeys', 'getOwnPropertyDescriptor', 'defineProperty', 'getPrototypeOf', 'setPrototypeOf', 'isExtensible', 'preventExtensions', 'apply', 'construct'].map((trap) => [
    trap,
    () => {
      throw new Error(`${CANARY} trap ${trap}`);
    },
  ]),
);

function revokedProxy(target: object = canaryError()): object {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
}

function throwingGetter(): never {
  throw new Error(`${CANARY} getter`);
}

function toPrimitiveObject(throws: boolean, cause?: unknown): object {
  const give = (): string => {
    if (throws) throw new Error(CANARY);
    return CANARY;
  };
  const value: Record<PropertyKey, unknown> = { [Symbol.toPrimitive]: give, toString: give, valueOf: give, toJSON: give, inspect: give };
  if (cause !== undefined) value.cause = cause;
  return value;
}

function buildCore(core: CoreSpec): Built {
  let value: object;
  switch (core.t) {
    case 'toolError':
      value = new ToolError(core.message, { cause: canaryError() });
      break;
    case 'resourceError':
      value = new ResourceError(core.message, { cause: canaryError() });
      break;
    case 'notFound':
      value = new ResourceNotFoundError(core.message, { cause: canaryError() });
      break;
    case 'network':
      // As node-fetch / gaxios word it: the full URL (with its canary) in the message.
      value = Object.assign(new Error(`request to https://api.example.test/v1?q=${CANARY} failed, reason: connect ${core.code} 127.0.0.1:9`), {
        code: core.code,
        errno: core.code,
        syscall: 'connect',
        config: { url: `https://api.example.test/v1?q=${CANARY}`, headers: { 'x-debug': CANARY } },
      });
      break;
    case 'timeout':
      value = new DOMException(`${CANARY} timed out`, 'TimeoutError');
      break;
    case 'abort':
      value = new DOMException(`${CANARY} aborted`, 'AbortError');
      break;
    case 'fileSystem':
      value = realFileSystemError(core.which);
      break;
  }
  // Non-allowlisted parts of an allowlisted error: its stack and extra fields.
  try {
    Object.defineProperty(value, 'stack', { value: `Error: ${CANARY}\n    at secretFunction (/srv/${CANARY}.js:1:1)`, configurable: true, writable: true });
  } catch {
    // DOMException: leave its own stack
  }
  Object.assign(value, { data: CANARY, [Symbol('detail')]: CANARY });
  return { value, shadow: { children: [], core } };
}

function realFileSystemError(which: 'ENOENT' | 'EISDIR'): object {
  try {
    readFileSync(which === 'ENOENT' ? `/nonexistent-${CANARY}/file` : '/');
  } catch (error) {
    return error as object;
  }
  throw new Error('expected a file-system error');
}

function buildLeaf(leaf: LeafSpec): Built {
  switch (leaf.t) {
    case 'string':
      return { value: leaf.text, shadow: undefined };
    case 'number':
    case 'boolean':
    case 'bigint':
      return { value: leaf.value, shadow: undefined };
    case 'undefined':
      return { value: undefined, shadow: undefined };
    case 'null':
      return { value: null, shadow: undefined };
    case 'symbol':
      return { value: Symbol(leaf.text), shadow: undefined };
    case 'nullProto':
      return { value: Object.assign(Object.create(null) as object, { name: leaf.text, message: leaf.text, stack: leaf.text, code: leaf.text }), shadow: leafShadow() };
    case 'revoked':
      return { value: revokedProxy(), shadow: leafShadow() };
    case 'allTrapsThrow':
      return { value: new Proxy(canaryError(), allTrapsThrowHandler), shadow: leafShadow() };
    case 'throwingGetters': {
      const value = canaryError();
      for (const key of ['stack', 'name', 'message', 'code', 'cause', 'error', 'errors', 'constructor', 'then', 'syscall', 'type', 'issues']) {
        Object.defineProperty(value, key, { get: throwingGetter, configurable: true });
      }
      return { value, shadow: leafShadow() };
    }
    case 'toPrimitive':
      return { value: toPrimitiveObject(leaf.throws), shadow: leafShadow() };
    case 'nonStringFields':
      return { value: withNonStringFields(new Error(CANARY), leaf.kinds), shadow: leafShadow() };
    case 'tenMegabytes':
      return { value: new Error(TEN_MB_MESSAGE), shadow: leafShadow() };
    case 'controls':
      return { value: Object.assign(new Error(leaf.text), { name: leaf.text }), shadow: leafShadow() };
    case 'function':
      return { value: Object.defineProperty(() => CANARY, 'name', { value: CANARY }), shadow: leafShadow() };
    case 'frozen':
      return { value: Object.freeze(canaryError(leaf.text)), shadow: leafShadow() };
    case 'frozenProxy':
      return { value: new Proxy(Object.freeze(canaryError()), {}), shadow: leafShadow() };
    case 'cycle': {
      const errors = Array.from({ length: leaf.length }, () => canaryError());
      const shadows = errors.map(() => leafShadow());
      errors.forEach((error, i) => {
        (error as Error & { cause?: unknown }).cause = errors[(i + 1) % errors.length];
        shadows[i]!.children.push(shadows[(i + 1) % shadows.length]!);
      });
      return { value: errors[0], shadow: shadows[0] };
    }
    case 'endlessCause': {
      // Every read of `cause` makes a new error: an endless chain. The walk must stop at its bound.
      const endless = (): object => Object.defineProperty({ name: 'Error', message: CANARY, stack: CANARY }, 'cause', { get: endless, enumerable: true });
      return { value: endless(), shadow: leafShadow() };
    }
    case 'aggregateOfLeaves': {
      const members = Array.from({ length: leaf.count }, (_, i) => (i % 3 === 0 ? CANARY : i % 3 === 1 ? revokedProxy() : canaryError()));
      return { value: new AggregateError(members, CANARY), shadow: leafShadow() };
    }
    case 'plainError':
      return { value: canaryError(leaf.text), shadow: leafShadow() };
  }
}

/** Children of a shadow, as the walk reads them: object-like values only. */
function childrenOf(...shadows: (Shadow | undefined)[]): Shadow[] {
  return shadows.filter((s): s is Shadow => s !== undefined);
}

function buildLayer(layer: LayerSpec, inner: Built): Built {
  switch (layer.t) {
    case 'cause':
      return { value: Object.assign(new Error(layer.text, { cause: inner.value }), { code: CANARY }), shadow: { children: childrenOf(inner.shadow) } };
    case 'typeErrorCause':
      return { value: new TypeError(layer.text, { cause: inner.value }), shadow: { children: childrenOf(inner.shadow) } };
    case 'nullProtoCause':
      return { value: Object.assign(Object.create(null) as object, { message: CANARY, name: CANARY, cause: inner.value }), shadow: { children: childrenOf(inner.shadow) } };
    case 'gaxiosLike': {
      // gaxios 7: a plain-object cause, the wrapped error under `error`, and request config holding the canary.
      const cause = { message: CANARY, status: CANARY };
      return {
        value: Object.assign(new Error(`request to https://x.test/?q=${CANARY} failed`), { cause, error: inner.value, config: { url: CANARY, data: CANARY } }),
        shadow: { children: childrenOf(leafShadow(), inner.shadow) },
      };
    }
    case 'aggregate': {
      const before = Array.from({ length: layer.before }, (_, i) => (i % 2 === 0 ? canaryError() : CANARY));
      const after = Array.from({ length: layer.after }, () => canaryError());
      const members = [...before, inner.value, ...after];
      const shadows = [...before.map((m) => (typeof m === 'string' ? undefined : leafShadow())), inner.shadow, ...after.map(() => leafShadow())];
      return { value: new AggregateError(members, CANARY), shadow: { children: childrenOf(...shadows.slice(0, 16)) } };
    }
    case 'proxy':
      return { value: new Proxy(new Error(CANARY, { cause: inner.value }), {}), shadow: { children: childrenOf(inner.shadow) } };
    case 'frozen':
      return { value: Object.freeze(new Error(CANARY, { cause: inner.value })), shadow: { children: childrenOf(inner.shadow) } };
    case 'getterCause': {
      const value = {};
      Object.defineProperty(value, 'cause', { get: () => inner.value, enumerable: true });
      for (const key of ['stack', 'name', 'message', 'code', 'error', 'errors']) Object.defineProperty(value, key, { get: throwingGetter });
      return { value, shadow: { children: childrenOf(inner.shadow) } };
    }
    case 'nonStringFields':
      return { value: withNonStringFields(new Error(CANARY, { cause: inner.value }), layer.kinds), shadow: { children: childrenOf(inner.shadow) } };
    case 'toPrimitive':
      return { value: toPrimitiveObject(layer.throws, inner.value), shadow: { children: childrenOf(inner.shadow) } };
    case 'selfCycle': {
      const value = new Error(CANARY);
      const shadow: Shadow = { children: [] };
      Object.assign(value, { cause: value, error: inner.value });
      shadow.children.push(shadow, ...childrenOf(inner.shadow));
      return { value, shadow };
    }
    case 'controls':
      return { value: Object.assign(new Error(layer.text, { cause: inner.value }), { name: layer.text }), shadow: { children: childrenOf(inner.shadow) } };
    case 'tenMegabytes':
      return { value: new Error(TEN_MB_MESSAGE, { cause: inner.value }), shadow: { children: childrenOf(inner.shadow) } };
    case 'deep': {
      // `depth` plain wrappers (cheap to make by the ten thousand), each the cause of the one above.
      let value: unknown = inner.value;
      let shadow: Shadow | undefined = inner.shadow;
      for (let i = 0; i < layer.depth; i += 1) {
        value = { name: 'Error', message: CANARY, cause: value };
        shadow = { children: childrenOf(shadow) };
      }
      return { value, shadow };
    }
    case 'revokedAround':
      return { value: revokedProxy(typeof inner.value === 'object' && inner.value !== null ? inner.value : canaryError()), shadow: leafShadow() };
    case 'allTrapsThrowAround':
      return { value: new Proxy(new Error(CANARY, { cause: inner.value }), allTrapsThrowHandler), shadow: leafShadow() };
    case 'throwingCauseGetter': {
      const value = Object.assign(new Error(CANARY), { details: inner.value });
      Object.defineProperty(value, 'cause', { get: throwingGetter });
      return { value, shadow: leafShadow() };
    }
    case 'primitiveCause':
      return { value: Object.assign(new Error(CANARY, { cause: CANARY }), { details: inner.value }), shadow: leafShadow() };
    case 'revokedErrorsSibling':
      return { value: Object.assign(new Error(CANARY, { cause: inner.value }), { errors: revokedProxy([]) }), shadow: { children: childrenOf(inner.shadow) } };
  }
}

/** The policy's walk, on the shadow: breadth first, at most MAX_CHAIN_NODES nodes, each visited once. */
function firstCore(root: Shadow | undefined): CoreSpec | undefined {
  if (root === undefined) return undefined;
  const queue: Shadow[] = [root];
  const seen = new Set<Shadow>();
  for (let i = 0; i < queue.length && i < MAX_CHAIN_NODES; i += 1) {
    const node = queue[i]!;
    if (node.core !== undefined) return node.core;
    for (const child of node.children) {
      if (!seen.has(child) && child !== root) {
        seen.add(child);
        queue.push(child);
      }
    }
  }
  return undefined;
}

const NETWORK_WORDS = { ECONNREFUSED: 'connection refused', ENOTFOUND: 'host not found', ECONNRESET: 'connection reset by peer', UND_ERR_SOCKET: 'connection closed by the other side' } as const;

/** Cuts `text` to `max` characters with an ellipsis, never splitting a surrogate pair (the documented bound). */
export function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** The expected answer for an allowlisted core (with the policy's bound on client text). */
export function expectationFor(core: CoreSpec | undefined, max: number): Expectation {
  if (core === undefined) return { kind: 'crash' };
  switch (core.t) {
    case 'toolError':
    case 'resourceError': {
      const failure = { code: core.t === 'toolError' ? 'tool_error' : 'resource_error', retryable: false };
      return { kind: 'anticipated', rule: 'deliberate', text: bounded(core.message, max), code: -32603, status: 500, level: 'info', failure };
    }
    case 'notFound':
      return { kind: 'anticipated', rule: 'resource-not-found', text: bounded(core.message, max), code: -32002, status: 404, level: 'info', failure: { code: 'resource_not_found', retryable: false } };
    case 'network':
      return {
        kind: 'anticipated',
        rule: 'network',
        text: bounded(`Network error: ${NETWORK_WORDS[core.code]} (${core.code})`, max),
        code: -32603,
        status: 502,
        level: 'warn',
        failure: { code: 'network', retryable: true, ...(core.code === 'ECONNREFUSED' || core.code === 'ENOTFOUND' ? { upstream: 'unreached' } : {}) },
      };
    case 'timeout':
      return { kind: 'anticipated', rule: 'timeout', text: bounded('The operation timed out', max), code: -32603, status: 504, level: 'warn', failure: { code: 'timeout', retryable: true } };
    case 'abort':
      return { kind: 'anticipated', rule: 'abort', text: bounded('The operation was aborted', max), code: -32603, status: 499, level: 'warn', failure: { code: 'aborted', retryable: false } };
    case 'fileSystem':
      return {
        kind: 'anticipated',
        rule: 'file-system',
        text: bounded(core.which === 'ENOENT' ? 'File system error: no such file or directory (ENOENT, open)' : 'File system error: is a directory (EISDIR, read)', max),
        code: -32603,
        status: 500,
        level: 'warn',
        failure: { code: 'file-system', retryable: false },
      };
  }
}

/** A fresh thrown value for `spec`, and what the policy must answer. */
export function build(spec: CaseSpec, max: number): { value: unknown; expected: Expectation } {
  let built = 'core' in spec.bottom ? buildCore(spec.bottom.core) : buildLeaf(spec.bottom.leaf);
  for (const layer of spec.layers) built = buildLayer(layer, built);
  return { value: built.value, expected: expectationFor(firstCore(built.shadow), max) };
}

/** A handler failing with `value` the way `mode` says. */
export function failWith(value: unknown, mode: Mode): unknown {
  switch (mode) {
    case 'throw':
      throw value;
    case 'asyncThrow':
      return (async () => {
        throw value;
      })();
    case 'reject':
      return Promise.reject(value);
    case 'thenable':
      return { then: (_resolve: unknown, reject: (reason: unknown) => void) => reject(value) };
    case 'thenGetterThrows':
      return {
        get then(): never {
          throw value;
        },
      };
    case 'thenThrows':
      return {
        then(): never {
          throw value;
        },
      };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Credentials of no known shape, in the context that gives them away (the scrubber's context rule).
// ---------------------------------------------------------------------------------------------------------------

/** Letters and digits, for the drawn part of a context credential. */
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Interleaved with the drawn characters, so that every credential looks random (a run of letters and digits mixing
 * both, well above 2.5 bits a character) whatever fast-check draws, `aaaa…` included; and holds no known prefix.
 */
const CONTEXT_MIXER = 'Cq7xW2mZ9vK4pR8tL3nB6hF1';

/** Prefixes no secret scanner lists (the scrubber knows none of them). */
const UNKNOWN_PREFIXES = ['', 'acme_pat_', 'zt-live-', 'corp.', 'v2_'] as const;

/** The text before and after a credential that gives it away: a context word, then its value or a few words. */
const CREDENTIAL_CONTEXTS: readonly (readonly [before: string, after: string])[] = [
  ['401 Unauthorized: token ', ' is invalid'],
  ['Invalid API key: ', '. Check the dashboard.'],
  ['authentication failed with credential ', ''],
  ['the access token ', ' is expired'],
  ['upstream said {"apiToken":"', '"}'],
  ['X-Acme-Token: ', ''],
  ['rejected secret (', '), try again'],
  ['ACME_API_KEY=', ' (from .env)'],
  ['password for svc: ', '; rotate it'],
  ['Bearer token ', ' refused'],
  ["{ apiKey: '", "' }"],
];

/** A credential of no known shape planted in a text that gives it away by its context, and the text scrubbed. */
export interface ContextCredential {
  readonly text: string;
  /** The credential: none of it may be shown or logged. */
  readonly secret: string;
  /** `text` with the credential replaced by `[REDACTED]`, the words and punctuation around it as they were. */
  readonly scrubbed: string;
}

/** Credentials of no known shape (an unknown vendor prefix, or none), each in a context that gives it away. */
export const contextCredential: fc.Arbitrary<ContextCredential> = fc
  .record({
    prefix: fc.constantFrom(...UNKNOWN_PREFIXES),
    drawn: fc.array(fc.constantFrom(...ALPHANUMERIC), { minLength: 12, maxLength: CONTEXT_MIXER.length }),
    context: fc.constantFrom(...CREDENTIAL_CONTEXTS),
  })
  .map(({ prefix, drawn, context: [before, after] }) => {
    const secret = `${prefix}${drawn.map((c, i) => `${c}${CONTEXT_MIXER.charAt(i)}`).join('')}`;
    return { text: `${before}${secret}${after}`, secret, scrubbed: `${before}[REDACTED]${after}` };
  });

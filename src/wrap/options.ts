/** The options every wrapper takes, and their validation. */
import { resolvePolicy, type ErrorPolicy } from '../policy.js';
import { isObjectLike } from '../kit/read.js';

/** Options of the wrappers. */
export interface WrapOptions {
  /**
   * The tool or prompt name used in the client text (`Error executing tool <name>`) and in the log record. Resource
   * wrappers name the URI of each call instead.
   * @default the handler function's own name, if it has one
   * @example
   * ```ts
   * server.registerTool('get_sheet', config, withClientVisibleErrors(getSheet, { name: 'get_sheet' }));
   * ```
   */
  readonly name?: string;
  /**
   * The policy deciding what the client sees and where the record goes.
   * @default defaultPolicy
   * @example
   * ```ts
   * withClientVisibleErrors(getSheet, { name: 'get_sheet', policy: createErrorPolicy({ rules: [...googleRules, ...coreRules] }) });
   * ```
   */
  readonly policy?: ErrorPolicy;
}

/** Checks a wrapper's arguments; throws a TypeError naming the bad one. */
export function readWrapOptions(handler: unknown, options: unknown, handlerOption: string): { name: string | undefined; policy: ErrorPolicy } {
  if (typeof handler !== 'function') {
    throw new TypeError(`Expected \`${handlerOption}\` to be a function, got ${handler === null ? 'null' : typeof handler}`);
  }
  if (options === undefined) return { name: nameOfFunction(handler), policy: resolvePolicy(undefined) };
  if (!isObjectLike(options) || Array.isArray(options)) throw new TypeError(`Expected \`options\` to be an object, got ${typeof options}`);
  const { name, policy } = options as { name?: unknown; policy?: unknown };
  if (name !== undefined && (typeof name !== 'string' || name === '')) {
    throw new TypeError(`Expected \`name\` to be a non-empty string, got ${typeof name}`);
  }
  return { name: (name as string | undefined) ?? nameOfFunction(handler), policy: resolvePolicy(policy) };
}

function nameOfFunction(handler: { readonly name?: unknown }): string | undefined {
  const name = handler.name;
  return typeof name === 'string' && name !== '' && name !== 'anonymous' ? name : undefined;
}

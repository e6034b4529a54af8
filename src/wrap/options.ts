/** The options every wrapper takes, and their validation. */
import { resolvePolicy, type ErrorPolicy } from '../policy.js';
import { isRecord } from '../kit/read.js';
import type { GuardOptions } from './guard.js';

/**
 * The type an argument of a wrapped handler gets when it has no annotation and no registration gives it one: a wrapper
 * called outside `registerTool(name, config, …)` (and its resource and prompt twins) has no schema to infer the
 * arguments from. Reading anything from such an argument fails to compile at once, with this type's name in the
 * message, instead of the argument silently being `never`. Annotate the arguments, or wrap inside the registration.
 * @example
 * ```ts
 * // Property 'id' does not exist on type 'Annotate_the_handler_arguments__e_g__async_args_id_string'
 * // const getSheet = withClientVisibleErrors(async ({ id }) => …);
 * const getSheet = withClientVisibleErrors(async ({ id }: { id: string }) => ({ content: [{ type: 'text' as const, text: id }] }));
 * ```
 */
// An empty interface on purpose: every argument type but null and undefined is assignable to it, so any annotated
// handler fits the wrappers' bound, and its name is the message.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Annotate_the_handler_arguments__e_g__async_args_id_string {}

/**
 * The handlers a wrapper takes: any function. Declared as a method, so that its parameters are compared both ways
 * (any annotated parameter type fits), while an unannotated argument of a handler wrapped outside a registration gets
 * {@link Annotate_the_handler_arguments__e_g__async_args_id_string}; inside a registration the SDK's callback type
 * gives the arguments their types.
 */
export type WrappableHandler = { handler(...args: Annotate_the_handler_arguments__e_g__async_args_id_string[]): unknown }['handler'];

/** Options of the wrappers. Any other option name makes the wrapper throw a `TypeError` naming it, at once. */
export interface WrapOptions {
  /**
   * The tool or prompt name used in the client text (`Error executing tool <name>`) and in the log record. Resource
   * wrappers name the URI of each call instead.
   * @default the name the callback is registered under, on a server under `applyErrorPolicy`; else the handler
   *   function's own name, if it has one
   * @example
   * ```ts
   * server.registerTool('get_sheet', config, withClientVisibleErrors(getSheet, { name: 'get_sheet' }));
   * ```
   */
  readonly name?: string;
  /**
   * The policy deciding what the client sees, where the record goes and which access log counts the call. A wrapper
   * given a policy keeps it, also on a server under another one (that server's access log then does not count its
   * calls: each call is logged and reported once, to this policy).
   * @default the policy of the server the callback is registered on, once `applyErrorPolicy` has run there (before or
   *   after the registration); else `defaultPolicy`
   * @example
   * ```ts
   * withClientVisibleErrors(getSheet, { name: 'get_sheet', policy: createErrorPolicy({ rules: [...googleRules, ...coreRules] }) });
   * ```
   */
  readonly policy?: ErrorPolicy;
}

/** Checks a wrapper's arguments; throws a TypeError naming the bad one. */
export function readWrapOptions(handler: unknown, options: unknown, handlerOption: string): GuardOptions {
  if (typeof handler !== 'function') {
    throw new TypeError(`Expected \`${handlerOption}\` to be a function, got ${handler === null ? 'null' : typeof handler}`);
  }
  const given = options === undefined ? {} : options;
  if (!isRecord(given)) throw new TypeError(`Expected \`options\` to be an object, got ${typeof given}`);
  for (const key of Object.keys(given)) {
    if (key !== 'name' && key !== 'policy') throw new TypeError(`Unknown option \`${key}\`: expected name or policy`);
  }
  const { name, policy } = given as { name?: unknown; policy?: unknown };
  if (name !== undefined && (typeof name !== 'string' || name === '')) {
    throw new TypeError(`Expected \`name\` to be a non-empty string, got ${typeof name}`);
  }
  // the handler function's own name, unless it has none
  const own: unknown = handler.name;
  const functionName = typeof own === 'string' && own !== '' && own !== 'anonymous' ? own : undefined;
  return { name: name as string | undefined, policy: policy === undefined ? undefined : resolvePolicy(policy), functionName };
}

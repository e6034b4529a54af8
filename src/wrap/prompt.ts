/** Prompts: failures become JSON-RPC errors, as for resources. */
import { guard } from './guard.js';
import { readWrapOptions, type WrapOptions, type WrappableHandler } from './options.js';
import { rpcShape } from './rpc-error.js';

const promptShape = rpcShape('prompt');

/**
 * Wraps a prompt callback (`(args, extra)` or `(extra)`) so that its failures reach the client as the policy decides,
 * as JSON-RPC errors, each logged once. Same type in and out.
 *
 * @param callback - the prompt callback
 * @param options - `name` (for the crash text `Error getting prompt <name>` and the log) and `policy`
 *
 * @example
 * ```ts
 * server.registerPrompt('summarize', { argsSchema: { sheet: z.string() } },
 *   withClientVisiblePromptErrors(async ({ sheet }) => ({ messages: [await summaryMessage(sheet)] }), { name: 'summarize' }),
 * );
 * ```
 */
export function withClientVisiblePromptErrors<H extends WrappableHandler>(callback: H, options?: WrapOptions): H {
  return guard(callback, promptShape, readWrapOptions(callback, options, 'callback'));
}

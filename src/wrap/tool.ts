/**
 * Tools: a failure becomes an isError result with one text content, `Error executing tool <name>: <message>` or, for a
 * crash, `Error executing tool <name> (reference <id>)`. Never structuredContent on an error result.
 */
import type { Classification } from '../classification.js';
import { classifyCall } from '../classify.js';
import { resolvePolicy, type ErrorPolicy } from '../policy.js';
import { messageOf } from '../kit/read.js';
import { reportFailure } from '../report.js';
import { INTERNAL_ERROR_CODE } from '../status.js';
import { markAnswer } from './calls.js';
import { callFacts } from './sign-in.js';
import { guard, type WireShape } from './guard.js';
import { crashText, failedCallText, firstTextOf, toolMeta } from './meta.js';
import { readWrapOptions, type WrapOptions, type WrappableHandler } from './options.js';
import { PolicyRpcError } from './rpc-error.js';

/** The isError result a failed tool call returns. */
export interface ToolErrorResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  isError: true;
  /** The failure object, under `mcp-error-policy/failure` (unless the policy's `failureObject` is false). */
  _meta?: Record<string, unknown>;
}

function result(text: string, meta?: Record<string, unknown>): ToolErrorResult {
  const out: ToolErrorResult = { content: [{ type: 'text', text }], isError: true };
  if (meta !== undefined) out._meta = meta;
  return out;
}

/**
 * The isError result of a classified failure: `Error executing tool <name>: <message>`, or the crash's text with its
 * reference, and the failure object. A protocol error (only `toToolResult` makes a result of one; wrappers rethrow
 * them) shows its message through the gate, as the SDK itself shows a protocol error thrown by a tool.
 */
export function toolFailureResult(classification: Classification, name: string | undefined, policy: ErrorPolicy): ToolErrorResult {
  if (classification.kind === 'protocol') return result(classification.message);
  const text = classification.kind === 'crash' ? crashText(failedCallText('tool', name, policy), classification) : `${failedCallText('tool', name, policy)}: ${classification.message}`;
  return result(text, toolMeta(policy, classification.failure, classification.kind === 'anticipated' && classification.reauthorize));
}

const toolShape: WireShape<ToolErrorResult> = {
  handler: 'tool',
  answer: toolFailureResult,
  answerDegraded: (message, name, policy, failure) => result(`${failedCallText('tool', name, policy)}: ${message}`, toolMeta(policy, failure, true)),
  answerUnreadable: (name) => result(failedCallText('tool', name, undefined)),
};

/**
 * Wraps a tool callback (`(args, extra)` or `(extra)`) so that its failures reach the client as the policy decides,
 * each logged once. Same type in and out, so it fits `registerTool` on SDK v1 and v2. A function already wrapped is
 * returned as it is.
 *
 * @param handler - the tool callback
 * @param options - `name` (for the client text and log) and `policy`
 *
 * @example
 * ```ts
 * server.registerTool(
 *   'get_sheet',
 *   { inputSchema: { name: z.string() } },
 *   withClientVisibleErrors(async ({ name }) => {
 *     if (name === '') throw new ToolError('Sheet name must not be empty');
 *     return { content: [{ type: 'text', text: await readSheet(name) }] };
 *   }, { name: 'get_sheet' }),
 * );
 * ```
 */
export function withClientVisibleErrors<H extends WrappableHandler>(handler: H, options?: WrapOptions): H {
  return guard(handler, toolShape, readWrapOptions(handler, options, 'handler'));
}

/**
 * For tools that catch errors themselves: the same isError result, text and log record the wrapper would produce.
 * Inside a wrapped tool, the wrapper reports the call to the access log with this failure's status.
 *
 * @param error - what was caught
 * @param name - the tool name, for the text `Error executing tool <name>: ...`
 * @param policy - default {@link defaultPolicy}
 *
 * @example
 * ```ts
 * try {
 *   return { content: [{ type: 'text', text: await readSheet(name) }] };
 * } catch (error) {
 *   return toToolResult(error, 'get_sheet', policy);
 * }
 * ```
 */
export function toToolResult(error: unknown, name?: string, policy?: ErrorPolicy): ToolErrorResult {
  const resolved = resolvePolicy(policy);
  const toolName = typeof name === 'string' && name !== '' ? name : undefined;
  try {
    const classification = classifyCall(error, resolved, callFacts(undefined, 'tool', toolName));
    reportFailure(resolved, { handler: 'tool', name: toolName, startedAt: 0 }, classification, false);
    const out = toolFailureResult(classification, toolName, resolved);
    markAnswer(out, classification);
    return out;
  } catch {
    return toolShape.answerUnreadable(toolName);
  }
}

/**
 * A tool result that failed the tool's output schema (the SDK's `Output validation error`, a bug of the server's, not
 * the client's): logged once as a crash (`OutputValidationError` with the SDK's message), and the error for the SDK to
 * turn into the tool's isError result: the crash text and reference, with the result's `_meta` (the failure object) as
 * its `data` (in report mode, the SDK's error as it was).
 */
export function outputSchemaCrash(error: unknown, name: string | undefined, policy: ErrorPolicy): unknown {
  const bug = new Error(messageOf(error));
  bug.name = 'OutputValidationError';
  const answer = toToolResult(bug, name, policy);
  if (policy.mode === 'report') return error; // the SDK's own answer
  const meta = answer._meta;
  return new PolicyRpcError(INTERNAL_ERROR_CODE, firstTextOf(answer) ?? failedCallText('tool', name, policy), meta === undefined ? undefined : { ...meta });
}

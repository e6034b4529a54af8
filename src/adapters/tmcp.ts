/**
 * The tmcp adapter (npm `tmcp`, 1.x): puts the `execute` of every tool, prompt, resource and resource template given to
 * a tmcp `McpServer`'s `tool`, `prompt`, `resource` and `template` methods after the call under the policy (`tools`,
 * `prompts`, `resources` and `templates` go through them). Read structurally: tmcp is not imported.
 *
 * tmcp has its own JSON-RPC layer. Without the policy a handler's exception becomes a JSON-RPC error -32603 carrying
 * its message (a tool's too, not an isError result), and tmcp `console.warn`s it with its stack. Under the policy:
 * - a tool's failure is the policy's isError result; a prompt's or resource's, the policy's JSON-RPC error, and a
 *   deliberate `McpError` keeps its code and `data`, its text through the exit gate. tmcp would log every error a
 *   handler throws (its `console.warn`, a second record of a failure the policy logged, with the thrown value's own
 *   fields), and it keeps the code and `data` only of its own `McpError` class. So the adapter also wraps the server's
 *   public `receive` (the method every tmcp transport calls): on a `tools/call`, `resources/read` or `prompts/get`
 *   request it hands tmcp a context carrying a slot; a handler's wrapper that answers with a JSON-RPC error notes it
 *   there and gives tmcp an empty result in its place, and `receive` answers with the noted error;
 * - in report mode tmcp answers and logs what was thrown, as without the policy, but what it is given is a stand-in
 *   whose message and stack are scrubbed and whose own fields are not the thrown value's (./wrap/transparent.ts);
 * - tmcp's input-required signal (thrown by `server.elicitation()` or `server.message()` on a per-request call, so that
 *   tmcp answers with an InputRequiredResult) is handed back to tmcp as it was thrown, neither logged nor answered.
 *
 * tmcp keeps its registrations in private fields, so handlers registered before the call cannot be wrapped. What they
 * throw reaches `receive` only as tmcp's -32603 answer: the adapter masks any such answer of a call that no wrapper
 * answered (as a crash: the record holds tmcp's text but no stack, which tmcp's own warning has) and names the tool,
 * prompt or resource once in a process warning: register it after the line. Such a handler's other answers (its
 * successes, its `McpError`s, tmcp's own refusals) are left as tmcp made them.
 */
import { callbackKindOf } from '../callback-methods.js';
import type { HandlerKind } from '../log.js';
import type { ErrorPolicy } from '../policy.js';
import { isObjectLike, readProp, readString } from '../kit/read.js';
import { guardedCall } from '../wrap/calls.js';
import { isWrapped, type Binding } from '../wrap/guard.js';
import { ownHandler } from '../wrap/own.js';
import { withClientVisiblePromptErrors } from '../wrap/prompt.js';
import { withClientVisibleResourceErrors } from '../wrap/resource.js';
import { PolicyRpcError } from '../wrap/rpc-error.js';
import { loggableStandIn } from '../wrap/transparent.js';
import { toToolResult } from '../wrap/tool.js';
import type { ServerAdapter } from './adapter.js';
import { emitPolicyWarning } from './unguarded.js';

/** What `applyErrorPolicy` needs to see of a tmcp `McpServer` (npm `tmcp`): its registration methods and `receive`. */
export interface TmcpServerLike {
  /** Adds a tool; its `execute` runs under the policy. */
  tool(...args: never[]): unknown;
  /** Adds a prompt; its `execute` runs under the policy. */
  prompt(...args: never[]): unknown;
  /** Adds a static resource; its `execute` runs under the policy, failures named by the URI read. */
  resource(...args: never[]): unknown;
  /** Adds a resource template; its `execute` runs under the policy, failures named by the URI read. */
  template(...args: never[]): unknown;
  /** Answers one JSON-RPC message: what tmcp's transports call. */
  receive(...args: never[]): unknown;
}

type Fn = (this: unknown, ...args: unknown[]) => unknown;

/** What is registered, by the method that registers it. */
type Registered = 'tool' | 'prompt' | 'resource' | 'template';

const METHODS: readonly Registered[] = ['tool', 'prompt', 'resource', 'template'];

/** tmcp's code for a handler's exception (and for its own internal errors). */
const INTERNAL_ERROR = -32603;

/** Marks a method this adapter patched. */
const PATCHED = Symbol('mcp-error-policy.tmcp');

/** The key of the slot in the context `receive` hands tmcp, which `server.ctx` returns inside the handler. */
const SLOT = Symbol('mcp-error-policy.tmcp-call');

/** A JSON-RPC error as it goes on the wire. */
interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** What a wrapper notes of one call that failed. */
interface Slot {
  /** A wrapper answered the failure: tmcp's answer is the policy's. */
  answered?: true;
  /** The policy's JSON-RPC error, which `receive` sends in place of the empty result tmcp was given. */
  error?: RpcError;
}

/** What tmcp is given in place of a call's result when the call's answer is a JSON-RPC error noted in its slot. */
const EMPTY_RESULT: Readonly<Record<HandlerKind, object>> = { tool: { content: [] }, resource: { contents: [] }, prompt: { messages: [] } };

/** A handler's value that carries tmcp's input-required signal past the policy. */
class Signal {
  constructor(readonly thrown: unknown) {}
}

/**
 * tmcp's input-required signal (its class is not exported): tmcp answers it with an InputRequiredResult. A value that
 * only looks like it is answered by tmcp with -32603 and its text, which `receive` then masks as a crash.
 */
function isInputRequired(error: unknown): boolean {
  return error instanceof Error && readString(error, 'name') === 'InputRequiredSignal';
}

function looksLikeTmcp(value: unknown): boolean {
  if (!isObjectLike(value) || typeof readProp(value, 'registerTool') === 'function') return false;
  return [...METHODS, 'receive'].every((method) => typeof readProp(value, method) === 'function');
}

/** What names a registration: a tool's or prompt's name, a resource's URI or a template's URI template. */
function nameOf(item: unknown, registered: Registered): string | undefined {
  const name = readString(item, registered === 'tool' || registered === 'prompt' ? 'name' : 'uri');
  return name === '' ? undefined : name;
}

function slotOf(server: object): Slot | undefined {
  const slot = readProp(readProp(server, 'ctx'), SLOT);
  return isObjectLike(slot) ? (slot as Slot) : undefined;
}

/** `execute` under the policy, for `server`'s `receive` to complete what tmcp drops of the policy's answers. */
function cover(server: object, execute: Fn, registered: Registered, binding: Binding): Fn {
  const kind: HandlerKind = registered === 'template' ? 'resource' : registered;
  // what the handler throws for tmcp's input-required signal goes back to tmcp as it is, past the guard
  const inner = function (this: unknown, ...args: unknown[]): unknown {
    return guardedCall(execute, this, args, (error) => {
      if (isInputRequired(error)) return new Signal(error);
      throw error;
    });
  };
  // a handler wrapped by hand follows the server's policy (its guard sees the input-required signal as a crash)
  const guarded = ownHandler(isWrapped(execute) ? execute : inner, kind, binding);
  // no async layer of its own: a handler's call costs what it cost without the policy
  return function (this: unknown, ...args: unknown[]): unknown {
    return guardedCall(
      guarded,
      this,
      args,
      (error) => {
        const slot = slotOf(server);
        if (slot !== undefined) slot.answered = true;
        // under 'enforce' what the guard throws is the policy's JSON-RPC error or a deliberate protocol error
        const answer = slot !== undefined && binding.policy.mode === 'enforce' ? rpcErrorOf(error) : undefined;
        if (slot === undefined || answer === undefined) throw loggableStandIn(error, binding.policy);
        slot.error = answer;
        return EMPTY_RESULT[kind];
      },
      (value) => {
        if (value instanceof Signal) throw value.thrown;
      },
    );
  };
}

function patchMethod(server: object, registered: Registered, policy: ErrorPolicy): void {
  const original = readProp(server, registered);
  if (typeof original !== 'function' || readProp(original, PATCHED) !== undefined) return;
  const patched = function (this: unknown, item: unknown, execute: unknown, ...rest: unknown[]): unknown {
    const binding: Binding = { policy, name: nameOf(item, registered), claims: false, governs: false };
    const own = readProp(item, 'execute');
    // tmcp takes `execute` from the definition (defineTool and kin) when it has one, else from the second argument
    if (typeof own === 'function') return (original as Fn).call(this, { ...item as object, execute: cover(server, own as Fn, registered, binding) }, execute, ...rest);
    return (original as Fn).call(this, item, typeof execute === 'function' ? cover(server, execute as Fn, registered, binding) : execute, ...rest);
  };
  Object.defineProperty(patched, PATCHED, { value: original });
  Object.defineProperty(patched, 'name', { value: (original as Fn).name, configurable: true });
  Object.defineProperty(server, registered, { value: patched, configurable: true, writable: true, enumerable: false });
}

/** The handlers that failed without a wrapper, each named once. */
const warned = new WeakMap<object, Set<string>>();

function warnUnwrapped(server: object, label: string): void {
  const labels = warned.get(server) ?? new Set<string>();
  if (labels.has(label)) return;
  labels.add(label);
  warned.set(server, labels);
  emitPolicyWarning(
    `applyErrorPolicy: the tmcp ${label} runs without the policy: registered before applyErrorPolicy(server). Its failures are masked as crashes, ` +
      'without their stack, and its ToolErrors are not shown. Register tools, prompts and resources after the line: applyErrorPolicy(new McpServer(...))',
  );
}

/** The policy's answer to a failure tmcp answered for a handler no wrapper guards. */
function unwrappedAnswer(server: object, kind: HandlerKind, params: unknown, text: string, policy: ErrorPolicy): { result: unknown } | { error: unknown } | undefined {
  const name = readString(params, kind === 'resource' ? 'uri' : 'name');
  warnUnwrapped(server, `${kind} ${JSON.stringify(name)}`);
  // what tmcp answered is all that is known of the failure: its text, judged as any thrown error's
  const error = new Error(text);
  error.stack = `Error: ${text}`;
  const result = toResultOrError(kind, error, name, policy);
  return policy.mode === 'report' ? undefined : result;
}

function toResultOrError(kind: HandlerKind, error: Error, name: string | undefined, policy: ErrorPolicy): { result: unknown } | { error: unknown } {
  if (kind === 'tool') return { result: toToolResult(error, name, policy) };
  const thrower = (..._args: unknown[]): never => {
    throw error;
  };
  try {
    if (kind === 'resource') withClientVisibleResourceErrors(thrower, { policy, ...(name === undefined ? {} : { name }) })(name);
    else withClientVisiblePromptErrors(thrower, { policy, ...(name === undefined ? {} : { name }) })();
  } catch (thrown) {
    if (thrown instanceof PolicyRpcError) return { error: rpcError(thrown) };
  }
  return { error: { code: INTERNAL_ERROR, message: 'Internal error' } };
}

function rpcError(error: PolicyRpcError): RpcError {
  return { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) };
}

/** The JSON-RPC error a wrapper threw (the policy's, or a protocol error passed on), as it goes on the wire. */
function rpcErrorOf(error: unknown): RpcError | undefined {
  const code = readProp(error, 'code');
  const message = readString(error, 'message');
  if (!Number.isInteger(code) || message === undefined) return undefined;
  const data = readProp(error, 'data');
  return { code: code as number, message, ...(data === undefined ? {} : { data }) };
}

/** tmcp's answer to a call, with what tmcp dropped of the policy's answer put back, or a failure no wrapper saw masked. */
function settle(server: object, kind: HandlerKind, params: unknown, response: unknown, slot: Slot, policy: ErrorPolicy): unknown {
  if (slot.error !== undefined && isObjectLike(response)) {
    const { result: _result, error: _error, ...rest } = response as Record<string, unknown>;
    return { ...rest, error: slot.error };
  }
  const error = readProp(response, 'error');
  if (!isObjectLike(error) || !isObjectLike(response)) return response;
  const message = readString(error, 'message');
  if (slot.answered === true || readProp(error, 'code') !== INTERNAL_ERROR || message === undefined) return response;
  const answer = unwrappedAnswer(server, kind, params, message, policy);
  if (answer === undefined) return response;
  const { error: _dropped, ...rest } = response as Record<string, unknown>;
  return { ...rest, ...answer };
}

function patchReceive(server: object, policy: ErrorPolicy): void {
  const original = readProp(server, 'receive');
  if (typeof original !== 'function' || readProp(original, PATCHED) !== undefined) return;
  const patched = function (this: unknown, message: unknown, ctx: unknown, ...rest: unknown[]): unknown {
    const kind = callbackKindOf(readString(message, 'method') ?? '');
    if (kind === undefined || readProp(message, 'id') === undefined) return (original as Fn).call(this, message, ctx, ...rest);
    const slot: Slot = {};
    const answer = (original as Fn).call(this, message, { ...(isObjectLike(ctx) ? ctx : {}), [SLOT]: slot }, ...rest);
    const finish = (response: unknown): unknown => settle(server, kind, readProp(message, 'params'), response, slot, policy);
    return answer instanceof Promise ? answer.then(finish) : finish(answer);
  };
  Object.defineProperty(patched, PATCHED, { value: original });
  Object.defineProperty(patched, 'name', { value: (original as Fn).name, configurable: true });
  Object.defineProperty(server, 'receive', { value: patched, configurable: true, writable: true, enumerable: false });
}

/** tmcp's `McpServer` (npm `tmcp`, 1.x): tools, prompts, resources and templates registered after the call. */
export const tmcpAdapter: ServerAdapter = {
  name: 'tmcp McpServer',
  accepts: looksLikeTmcp,
  apply(server: object, policy: ErrorPolicy): void {
    patchReceive(server, policy);
    for (const registered of METHODS) patchMethod(server, registered, policy);
  },
};

/**
 * Task tools (`server.experimental.tasks.registerToolTask`, SDK 1.x): their handler is an object whose `createTask`,
 * `getTask` and `getTaskResult` run the server's code. Each method is guarded like a tool callback (same texts, one
 * record, one outcome), and a failure is thrown as a JSON-RPC error carrying the tool's text: the SDK must receive a
 * task (never an isError result) from `createTask`, and it turns what `createTask` throws into an isError result with
 * that text, or (for a task-augmented request) answers with its own error.
 */
import { isObjectLike, readProp } from '../kit/read.js';
import { INTERNAL_ERROR_CODE } from '../status.js';
import { claimCall, handledIn } from './calls.js';
import { bindGuard, type Binding } from './guard.js';
import { firstTextOf } from './meta.js';
import { PolicyRpcError } from './rpc-error.js';
import { withClientVisibleErrors } from './tool.js';

type Fn = (this: unknown, ...args: unknown[]) => unknown;

const TASK_METHODS = ['createTask', 'getTask', 'getTaskResult'] as const;

/** Marks a guarded task handler: its value is the handler the user gave. */
const GUARDED = Symbol('mcp-error-policy.task-handler');

/**
 * The per-request context of each task tool call, by its abort signal: the SDK calls `createTask` with a copy of the
 * context (`{ ...extra, taskStore }`), which keeps the signal.
 */
const calls = new WeakMap<object, object>();

/** Remembers the per-request context of a call of a task tool (the request-level access log's), before it runs. */
export function linkTaskCall(extra: unknown): void {
  const signal = readProp(extra, 'signal');
  if (isObjectLike(signal) && isObjectLike(extra)) calls.set(signal, extra);
}

/** Whether `value` is a task tool's handler: an object (not a function) with a `createTask` function. */
export function isTaskHandler(value: unknown): value is object {
  return isObjectLike(value) && typeof value !== 'function' && typeof readProp(value, 'createTask') === 'function';
}

/** A wrapper's isError answer, thrown as a JSON-RPC error with the same text and failure object. */
function thrownOnFailure(result: unknown): unknown {
  return Promise.resolve(result).then((value) => {
    if (readProp(value, 'isError') !== true || handledIn(value, undefined) === undefined) return value;
    const meta = readProp(value, '_meta');
    throw new PolicyRpcError(INTERNAL_ERROR_CODE, firstTextOf(value) ?? 'Error executing tool', isObjectLike(meta) ? { ...meta } : undefined);
  });
}

/**
 * A copy of a task tool's handler (the one the user gave, if `handler` is already a guarded copy) whose task methods
 * are guarded under `binding`. The copy keeps the handler's prototype and own properties.
 */
export function guardTaskHandler(handler: object, binding: Binding): object {
  const given = (readProp(handler, GUARDED) as object | undefined) ?? handler;
  const out = Object.assign(Object.create(Object.getPrototypeOf(given) as object | null) as Record<string, unknown>, given);
  for (const key of TASK_METHODS) {
    const fn = readProp(given, key);
    if (typeof fn !== 'function') continue;
    const guarded = bindGuard(withClientVisibleErrors(fn as Fn, { name: binding.name ?? 'task' }), binding) ?? (fn as Fn);
    out[key] = function (this: unknown, ...args: unknown[]): unknown {
      // this method's guard reports the call: the request-level access log, which sees the original context, must not
      const request = calls.get(readProp(args[args.length - 1], 'signal') as object);
      if (request !== undefined && binding.claims) claimCall(request);
      return thrownOnFailure(guarded.apply(this, args));
    };
  }
  Object.defineProperty(out, GUARDED, { value: given });
  return out;
}

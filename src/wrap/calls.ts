/**
 * Per-call state, owned here and only here. Wrappers can nest around one handler (a hand-wrapped callback inside the
 * wrapper `applyErrorPolicy` puts around an SDK v2 prompt handler, or a wrapped function called from another one),
 * and the server's access log sees calls the SDK answers itself; this module is how they agree that each call is
 * logged once and reported once.
 *
 * A call is known by the SDK's per-request context (`extra` in SDK v1, `ctx` in v2): the last argument of a handler
 * call, recognised by its request id, request envelope or abort signal. Nested wrappers see the same object.
 */
import type { Classification } from '../classification.js';
import type { ErrorPolicy } from '../policy.js';
import { hasKey, isObjectLike, readProp } from '../kit/read.js';

/** Who governs a call: the policy and name of the outermost wrapper that governs inner ones. */
export interface Governor {
  readonly policy: ErrorPolicy;
  readonly name: string | undefined;
}

export interface CallState {
  /** A wrapper reports this call's outcome (the access log must not report it again). */
  claimed: boolean;
  /** The policy and name inner wrappers without their own follow. */
  governor: Governor | undefined;
  /** Errors already logged in this call (protocol errors, which every wrapper hands on to the SDK). */
  logged: WeakMap<object, Classification> | undefined;
  /** The call's telemetry trace (src/telemetry.ts), when one is open: inner wrappers start no second one. */
  trace: object | undefined;
  /** The failure a wrapper answered in this call (the SDKs copy results, so the answer itself cannot carry it). */
  answered: Classification | undefined;
}

const calls = new WeakMap<object, CallState>();

/** Answers made by a wrapper (isError results, thrown JSON-RPC errors), with the classification behind each. */
const answers = new WeakMap<object, Classification | undefined>();

/** The per-request context of a handler call, if its last argument is one. */
export function requestOf(args: readonly unknown[]): object | undefined {
  const extra = args.length === 0 ? undefined : args[args.length - 1];
  if (!isObjectLike(extra)) return undefined;
  return hasKey(extra, 'requestId') || hasKey(extra, 'mcpReq') || hasKey(extra, 'signal') ? extra : undefined;
}

function stateOf(request: object): CallState {
  let state = calls.get(request);
  if (state === undefined) {
    state = { claimed: false, governor: undefined, logged: undefined, trace: undefined, answered: undefined };
    calls.set(request, state);
  }
  return state;
}

/** Claims the call's outcome: true for the first claimant only (and for calls without a known request). */
export function claimCall(request: object | undefined): boolean {
  if (request === undefined) return true;
  const state = stateOf(request);
  if (state.claimed) return false;
  state.claimed = true;
  return true;
}

/** What is known of a call (`request`: its per-request context), if anything. */
export function callState(request: unknown): Readonly<CallState> | undefined {
  return isObjectLike(request) ? calls.get(request) : undefined;
}

/**
 * Records, for the call, the governor of wrappers inside it that have no policy or name of their own, the failure a
 * wrapper answered (the SDKs copy results, so the answer itself cannot carry it), or its open telemetry trace. The
 * first one stays: an outer wrapper passes an inner one's answer on.
 */
export function keepFirst<K extends 'governor' | 'answered' | 'trace'>(request: object | undefined, key: K, value: NonNullable<CallState[K]>): void {
  if (request === undefined) return;
  stateOf(request)[key] ??= value;
}

/** Remembers that `error` was logged in this call, so that outer wrappers of the call pass it on without a record. */
export function markLogged(error: unknown, classification: Classification, request: object | undefined): void {
  if (request === undefined || !isObjectLike(error)) return;
  const state = stateOf(request);
  (state.logged ??= new WeakMap()).set(error, classification);
}

/** Remembers that `answer` was made by a wrapper, and the classification behind it (none: no failure was read). */
export function markAnswer(answer: object, classification?: Classification): void {
  answers.set(answer, classification);
}

/** Whether `value` is an answer a wrapper made, or an error already logged in this call; and its classification. */
export function handledIn(value: unknown, request: object | undefined): { classification: Classification | undefined } | undefined {
  if (!isObjectLike(value)) return undefined;
  if (answers.has(value)) return { classification: answers.get(value) };
  const classification = request === undefined ? undefined : calls.get(request)?.logged?.get(value);
  return classification === undefined ? undefined : { classification };
}

/** An answer as a settled promise: resolved with what `answer` returns, or rejected with what it throws. */
export function settle<T>(answer: () => T): Promise<T> {
  try {
    return Promise.resolve(answer());
  } catch (thrown) {
    return Promise.reject(thrown);
  }
}

type Fn = (this: unknown, ...args: unknown[]) => unknown;

/**
 * The one way a guarded call runs (tools, resources, prompts, lists and completions): `fn` is called, and whatever it
 * throws, the thenable it returns rejects with, or reading that thenable throws (a `then` getter, a `constructor`
 * getter that `Promise.resolve` reads) goes to `onFailure`, whose answer is returned as a settled promise. A value that
 * is no thenable is returned as it is, after `onSuccess`; a thenable's value is passed on after `onSuccess`.
 */
export function guardedCall(fn: Fn, thisArg: unknown, args: unknown[], onFailure: (error: unknown) => unknown, onSuccess?: (value: unknown) => void): unknown {
  let result: unknown;
  let then: unknown;
  try {
    result = fn.apply(thisArg, args);
    if (isObjectLike(result)) then = (result as { then?: unknown }).then;
  } catch (error) {
    return settle(() => onFailure(error));
  }
  if (typeof then !== 'function') {
    onSuccess?.(result);
    return result;
  }
  try {
    const pending = Promise.resolve(result);
    if (onSuccess === undefined) return pending.then(undefined, onFailure);
    return pending.then((value) => {
      onSuccess(value);
      return value;
    }, onFailure);
  } catch (error) {
    return settle(() => onFailure(error));
  }
}

/** Whether `value` is a thenable (read safely: a hostile `then` getter makes it not one). */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof readProp(value, 'then') === 'function';
}

/**
 * Runs `run` and tells `done` how the call ended (whether it threw, and its value or what was thrown) once it has
 * settled. Returns what `run` returns (for a thenable, a promise of the same outcome) and rethrows what it throws.
 */
export function observe(run: () => unknown, done: (threw: boolean, value: unknown) => void): unknown {
  let result: unknown;
  try {
    result = run();
  } catch (error) {
    done(true, error);
    throw error;
  }
  if (!isPromiseLike(result)) {
    done(false, result);
    return result;
  }
  return Promise.resolve(result).then(
    (value) => {
      done(false, value);
      return value;
    },
    (error: unknown) => {
      done(true, error);
      throw error;
    },
  );
}

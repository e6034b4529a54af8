/**
 * The guard every wrapper shares: run the handler, and on failure classify, report once and answer in the wire shape of
 * its kind. The success path does nothing beyond the try (and a clock read when an access log is set).
 */
import { classifyError, type Classification } from '../classify.js';
import type { HandlerKind } from '../log.js';
import type { ErrorPolicy } from '../policy.js';
import { hasKey, isObjectLike, readProp } from '../kit/read.js';
import { now, reportDegraded, reportFailure, reportOutcome, type CallContext } from '../report.js';
import { safeText } from '../scrub.js';

/** Marks a wrapped function; its value is the original handler. */
export const WRAPPED = Symbol.for('mcp-error-policy.wrapped');

/** How an error was reported: its classification, and the request it was reported for (none: every request). */
interface Handled {
  readonly classification: Classification | undefined;
  readonly request: object | undefined;
}

/**
 * Errors already logged by a wrapper, or thrown by one: an outer wrapper of the same request passes them on without a
 * second record (and reports the outcome when it is the one reporting the call). The same error object thrown again in
 * another request (a module-level constant) is logged again.
 */
const handledErrors = new WeakMap<object, Handled>();

/**
 * The SDK's per-request context (`extra` in SDK v1, `ctx` in v2): the last argument of a handler call, recognised by
 * its request id, request envelope or abort signal. Wrappers nested around one handler see the same object.
 */
function requestContextOf(args: readonly unknown[]): object | undefined {
  const extra = args.length === 0 ? undefined : args[args.length - 1];
  if (!isObjectLike(extra)) return undefined;
  return hasKey(extra, 'requestId') || hasKey(extra, 'mcpReq') || hasKey(extra, 'signal') ? extra : undefined;
}

/** Requests a wrapper has reported to the access log, so that a wrapper around a wrapper does not report them again. */
const reportedCalls = new WeakSet<object>();

/** True unless an outer wrapper already reports this request. */
function firstReport(request: object | undefined): boolean {
  if (request === undefined) return true;
  if (reportedCalls.has(request)) return false;
  reportedCalls.add(request);
  return true;
}

/** True when `error` was reported for this request (or is an answer a wrapper made, which no request reports twice). */
function handledFor(error: unknown, request: object | undefined): Handled | undefined {
  if (!isObjectLike(error)) return undefined;
  const handled = handledErrors.get(error);
  if (handled === undefined) return undefined;
  return handled.request === undefined || handled.request === request ? handled : undefined;
}

/** Classifications of isError results made by the policy, so the access log reports their status, not 200. */
const resultClassifications = new WeakMap<object, Classification>();

/**
 * Remembers that `error` has been reported for `request`, so that no other wrapper of that request reports it again.
 * Without a request, no wrapper ever reports it again (answers made by a wrapper, fresh for each failure).
 */
export function markHandled(error: unknown, classification?: Classification, request?: object): void {
  if (isObjectLike(error)) handledErrors.set(error, { classification, request });
}

/** Remembers the classification behind an isError result. */
export function markResult(result: object, classification: Classification): void {
  resultClassifications.set(result, classification);
}

/** How one kind of handler answers a failure on the wire. */
export interface WireShape<R> {
  readonly handler: HandlerKind;
  /** The answer to a failure (a result to return, or an error to throw). Protocol errors never reach it. */
  answer(classification: Classification, name: string | undefined, policy: ErrorPolicy): R;
  /** The answer while degraded. */
  answerDegraded(message: string, name: string | undefined, policy: ErrorPolicy): R;
  /** The answer when even classification failed: fixed text, no detail. */
  answerUnreadable(name: string | undefined): R;
  /** The name of this call, from its arguments, when the wrapper was given none. */
  nameFromArgs?(args: readonly unknown[]): string | undefined;
}

/** A call's name: the wrapper's `name` option, else what the arguments say. */
function nameOfCall<R>(shape: WireShape<R>, name: string | undefined, args: readonly unknown[]): string | undefined {
  if (shape.nameFromArgs !== undefined) {
    try {
      return shape.nameFromArgs(args) ?? name;
    } catch {
      return name;
    }
  }
  return name;
}

function degradedMessage(policy: ErrorPolicy): string | undefined {
  if (policy.degraded === undefined) return undefined;
  try {
    const message: unknown = policy.degraded();
    return typeof message === 'string' && message !== '' ? safeText(message, policy.maxMessageLength, policy.redact) : undefined;
  } catch {
    return 'The server is not ready: its credentials could not be checked';
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof readProp(value, 'then') === 'function';
}

/** Turns a failure into the shape's answer, having logged and reported it once. Throws only protocol errors. */
export function answerFailure<R>(
  shape: WireShape<R>,
  policy: ErrorPolicy,
  context: CallContext,
  error: unknown,
  withOutcome = true,
  request: object | undefined = undefined,
): R {
  const handled = handledFor(error, request);
  if (handled !== undefined) {
    const { classification } = handled;
    if (withOutcome && classification !== undefined) reportOutcome(policy, context, classification.status, classification);
    throw error;
  }
  let classification: Classification;
  try {
    classification = classifyError(error, policy);
  } catch {
    return shape.answerUnreadable(context.name);
  }
  reportFailure(policy, context, classification, withOutcome);
  if (classification.kind === 'protocol') {
    markHandled(error, classification, request);
    throw error;
  }
  try {
    const answer = shape.answer(classification, context.name, policy);
    if (isObjectLike(answer)) markResult(answer, classification);
    return answer;
  } catch (thrown) {
    if (handledFor(thrown, undefined) !== undefined) {
      markHandled(thrown, classification);
      throw thrown;
    }
    return shape.answerUnreadable(context.name);
  }
}

type AnyFunction = (this: unknown, ...args: never[]) => unknown;

/** Wraps `handler` with the guard of `shape`. A function already wrapped is returned as it is. */
export function guard<H extends AnyFunction, R>(handler: H, shape: WireShape<R>, name: string | undefined, policy: ErrorPolicy): H {
  if ((handler as unknown as Record<symbol, unknown>)[WRAPPED] !== undefined) return handler;
  const invoke = handler as unknown as (this: unknown, ...args: unknown[]) => unknown;

  /** A failure of a call that no access log times: everything about the call is worked out here, not before. */
  const fail = (args: readonly unknown[], error: unknown): R =>
    answerFailure(shape, policy, { handler: shape.handler, name: nameOfCall(shape, name, args), startedAt: 0 }, error, false, requestContextOf(args));

  /** The plain path: nothing beyond the try until a failure is known. */
  const plain = function (this: unknown, ...args: unknown[]): unknown {
    let result: unknown;
    try {
      result = invoke.apply(this, args);
    } catch (error) {
      return settle(() => fail(args, error));
    }
    if (!isPromiseLike(result)) return result;
    try {
      // Promise.resolve reads the result's `constructor`, which a hostile thenable may make throw.
      return Promise.resolve(result).then(undefined, (error: unknown) => fail(args, error));
    } catch (error) {
      return settle(() => fail(args, error));
    }
  };

  /** The full path: the degraded check, and timing and one outcome per request for the access log. */
  const full = function (this: unknown, ...args: unknown[]): unknown {
    const request = requestContextOf(args);
    const timed = policy.onOutcome !== undefined && firstReport(request);
    const callName = nameOfCall(shape, name, args);
    if (policy.degraded !== undefined) {
      const message = degradedMessage(policy);
      if (message !== undefined) {
        reportDegraded(policy, { handler: shape.handler, name: callName, startedAt: 0 }, message, timed);
        return settle(() => shape.answerDegraded(message, callName, policy));
      }
    }
    const context: CallContext = { handler: shape.handler, name: callName, startedAt: timed ? now() : 0 };
    const onFailure = (error: unknown): R => answerFailure(shape, policy, context, error, timed, request);
    let result: unknown;
    try {
      result = invoke.apply(this, args);
    } catch (error) {
      return settle(() => onFailure(error));
    }
    if (!isPromiseLike(result)) {
      if (timed) succeed(policy, context, result);
      return result;
    }
    try {
      const pending = Promise.resolve(result);
      return timed
        ? pending.then((value) => {
            succeed(policy, context, value);
            return value;
          }, onFailure)
        : pending.then(undefined, onFailure);
    } catch (error) {
      return settle(() => onFailure(error));
    }
  };

  const wrapped = policy.onOutcome === undefined && policy.degraded === undefined ? plain : full;
  Object.defineProperty(wrapped, WRAPPED, { value: handler });
  Object.defineProperty(wrapped, 'name', { value: invoke.name, configurable: true });
  Object.defineProperty(wrapped, 'length', { value: invoke.length, configurable: true });
  return wrapped as unknown as H;
}

/** An answer as a settled promise: resolved with what `answer` returns, or rejected with what it throws. */
function settle<T>(answer: () => T): Promise<T> {
  try {
    return Promise.resolve(answer());
  } catch (thrown) {
    return Promise.reject(thrown);
  }
}

function succeed(policy: ErrorPolicy, context: CallContext, value: unknown): void {
  const classification = isObjectLike(value) ? resultClassifications.get(value) : undefined;
  if (classification !== undefined) reportOutcome(policy, context, classification.status, classification);
  else if (readProp(value, 'isError') === true) reportOutcome(policy, context, 500);
  else reportOutcome(policy, context, 200);
}

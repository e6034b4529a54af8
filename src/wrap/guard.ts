/**
 * The guard every wrapper shares: run the handler, and on failure classify, report once and answer in the wire shape of
 * its kind. The success path does nothing beyond the try (and a clock read when an access log is set).
 */
import { classifyError, type Classification } from '../classify.js';
import type { HandlerKind } from '../log.js';
import type { ErrorPolicy } from '../policy.js';
import { isObjectLike, readProp } from '../read.js';
import { now, reportDegraded, reportFailure, reportOutcome, type CallContext } from '../report.js';
import { safeText } from '../text.js';

/** Marks a wrapped function; its value is the original handler. */
export const WRAPPED = Symbol.for('mcp-error-policy.wrapped');

/**
 * Errors already logged by a wrapper (or thrown by one), with their classification: an outer wrapper passes them on
 * without a second record (and reports the outcome when it is the one reporting the call).
 */
const handledErrors = new WeakMap<object, Classification | undefined>();

/**
 * Per-call context objects (the SDK's `extra`, the last argument) whose call a wrapper has reported to the access log,
 * so that a wrapper around a wrapper does not report the same call again.
 */
const reportedCalls = new WeakSet<object>();

/** True the first time a call's context is seen: the call is to be reported by this wrapper. */
function firstReport(args: readonly unknown[]): boolean {
  const extra = args.length === 0 ? undefined : args[args.length - 1];
  if (!isObjectLike(extra)) return true;
  if (reportedCalls.has(extra)) return false;
  reportedCalls.add(extra);
  return true;
}

/** Classifications of isError results made by the policy, so the access log reports their status, not 200. */
const resultClassifications = new WeakMap<object, Classification>();

/** Remembers that `error` has been reported, so that no other wrapper reports it again. */
export function markHandled(error: unknown, classification?: Classification): void {
  if (isObjectLike(error)) handledErrors.set(error, classification);
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
export function answerFailure<R>(shape: WireShape<R>, policy: ErrorPolicy, context: CallContext, error: unknown, withOutcome = true): R {
  if (isObjectLike(error) && handledErrors.has(error)) {
    const handled = handledErrors.get(error);
    if (withOutcome && handled !== undefined) reportOutcome(policy, context, handled.status, handled);
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
    markHandled(error, classification);
    throw error;
  }
  try {
    const answer = shape.answer(classification, context.name, policy);
    if (isObjectLike(answer)) markResult(answer, classification);
    return answer;
  } catch (thrown) {
    if (isObjectLike(thrown) && handledErrors.has(thrown)) {
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
  const call = handler as unknown as (this: unknown, ...args: unknown[]) => unknown;
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    const timed = policy.onOutcome !== undefined && firstReport(args);
    const callName = nameOfCall(shape, name, args);
    if (policy.degraded !== undefined) {
      const message = degradedMessage(policy);
      if (message !== undefined) {
        reportDegraded(policy, { handler: shape.handler, name: callName, startedAt: 0 }, message, timed);
        try {
          return Promise.resolve(shape.answerDegraded(message, callName, policy));
        } catch (thrown) {
          return Promise.reject(thrown);
        }
      }
    }
    const context: CallContext = { handler: shape.handler, name: callName, startedAt: timed ? now() : 0 };
    const onFailure = (error: unknown): R => answerFailure(shape, policy, context, error, timed);
    let result: unknown;
    try {
      result = call.apply(this, args);
    } catch (error) {
      try {
        return Promise.resolve(onFailure(error));
      } catch (thrown) {
        return Promise.reject(thrown);
      }
    }
    if (isPromiseLike(result)) {
      return timed
        ? Promise.resolve(result).then((value) => {
            succeed(policy, context, value);
            return value;
          }, onFailure)
        : Promise.resolve(result).then(undefined, onFailure);
    }
    if (timed) succeed(policy, context, result);
    return result;
  };
  Object.defineProperty(wrapped, WRAPPED, { value: handler });
  Object.defineProperty(wrapped, 'name', { value: call.name, configurable: true });
  Object.defineProperty(wrapped, 'length', { value: call.length, configurable: true });
  return wrapped as unknown as H;
}

function succeed(policy: ErrorPolicy, context: CallContext, value: unknown): void {
  const classification = isObjectLike(value) ? resultClassifications.get(value) : undefined;
  if (classification !== undefined) reportOutcome(policy, context, classification.status, classification);
  else if (readProp(value, 'isError') === true) reportOutcome(policy, context, 500);
  else reportOutcome(policy, context, 200);
}

/**
 * The guard every wrapper shares: run the handler, and on failure classify, report once and answer in the wire shape of
 * its kind. On success it does nothing beyond the try, unless the governing policy has an access log or a degraded
 * check (or a server's access log needs to know the call reached a callback). A failure after the call's signal was
 * aborted (the client cancelled it) is classified as a cancellation, whatever was thrown (src/cancellation.ts).
 *
 * Which policy governs a call, first that applies: the wrapper's own `policy` option; the server's policy, once
 * `applyErrorPolicy` has bound the wrapper; the policy of an outer wrapper of the same call that governs inner ones;
 * `defaultPolicy`. The name, likewise: the `name` option, the registered name, the outer wrapper's, the function's.
 */
import { CALLBACK_METHODS } from '../callback-methods.js';
import { cancellation, wasCancelled } from '../cancellation.js';
import type { Classification } from '../classification.js';
import { classifyCall } from '../classify.js';
import { degradedFailure, type FailureInfo } from '../failure.js';
import type { HandlerKind } from '../log.js';
import { defaultPolicy, type ErrorPolicy } from '../policy.js';
import { readProp, readString } from '../kit/read.js';
import { now, reportDegraded, reportFailure, reportOutcome, type CallContext } from '../report.js';
import { safeText } from '../scrub.js';
import { statusOfResult } from '../status.js';
import { traceCallback } from '../telemetry.js';
import { callFacts } from './sign-in.js';
import { transparentAnswer } from './transparent.js';
import { protocolAnswer } from './protocol-answer.js';
import { callState, claimCall, guardedCall, handledIn, keepFirst, markAnswer, markLogged, requestOf, settle } from './calls.js';

/** Marks a wrapped function (of any copy of this package); its value is the original handler. */
const WRAPPED = Symbol.for('mcp-error-policy.wrapped');

/** Holds a wrapper's control (this copy of the package only). */
const CONTROL = Symbol('mcp-error-policy.control');

/** How one kind of handler answers a failure on the wire. */
export interface WireShape<R> {
  readonly handler: HandlerKind;
  /**
   * The answer to a failure (a result to return, or an error to throw). Protocol errors never reach it. `request`:
   * the SDK's per-request context of the call, when known.
   */
  answer(classification: Classification, name: string | undefined, policy: ErrorPolicy, request?: object): R;
  /** The answer while degraded, with its failure object. */
  answerDegraded(message: string, name: string | undefined, policy: ErrorPolicy, failure: FailureInfo): R;
  /** The answer when even classification failed: fixed text, no detail. */
  answerUnreadable(name: string | undefined): R;
  /** The name of this call, from its arguments (a resource's URI), before any other name. It must not throw. */
  nameFromArgs?(args: readonly unknown[]): string | undefined;
}

/** What `applyErrorPolicy` binds a wrapper to: the server's policy and the name the callback is registered under. */
export interface Binding {
  readonly policy: ErrorPolicy;
  readonly name: string | undefined;
  /** The server's access log is on: the wrapper claims each call, so that the server does not report it again. */
  readonly claims: boolean;
  /** Wrappers inside this one's calls that have no policy of their own follow this one (SDK v2 prompt handlers). */
  readonly governs: boolean;
  /**
   * The server's request-level wrapper opens each call's telemetry span (src/telemetry.ts `traceRequest`), so the
   * wrapper opens none and asks the telemetry nothing: with no provider registered, a call then checks once, not twice.
   */
  readonly tracedByRequest?: true;
}

/** The options a wrapper was made with. */
export interface GuardOptions {
  /** The `policy` option, if given. */
  readonly policy: ErrorPolicy | undefined;
  /** The `name` option, if given. */
  readonly name: string | undefined;
  /** The handler function's own name, the last resort. */
  readonly functionName: string | undefined;
}

type Fn = (this: unknown, ...args: unknown[]) => unknown;

interface Control {
  readonly handler: Fn;
  readonly shape: WireShape<unknown>;
  readonly options: GuardOptions;
  /** Set once, by `bindGuard`. */
  binding: Binding | undefined;
}

/** One call on the path that needs its request: timed for the access log, claimed, or governing inner wrappers. */
interface Call {
  readonly request: object | undefined;
  readonly timed: boolean;
  readonly context: CallContext;
}

function controlOf(fn: unknown): Control | undefined {
  return readProp(fn, CONTROL) as Control | undefined;
}

/** Whether `fn` is a wrapper made by any copy of this package. */
export function isWrapped(fn: unknown): boolean {
  return readProp(fn, WRAPPED) !== undefined;
}

/**
 * The name a low-level request handler's call carries: `params.name` of a `tools/call` or `prompts/get` request given
 * as the first argument, beside the SDK's per-request context (so that a tool's own arguments are never read as one).
 */
function requestedName(handler: HandlerKind, args: readonly unknown[]): string | undefined {
  if (args.length !== 2 || requestOf(args) === undefined || readString(args[0], 'method') !== CALLBACK_METHODS[handler]) return undefined;
  const name = readString(readProp(args[0], 'params'), 'name');
  return name === '' ? undefined : name;
}

function nameOfCall(control: Control, args: readonly unknown[], governor: string | undefined): string | undefined {
  const { shape, options, binding } = control;
  return shape.nameFromArgs?.(args) ?? options.name ?? binding?.name ?? requestedName(shape.handler, args) ?? governor ?? options.functionName;
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

/** Starts a call that needs its request. Returns the degraded answer instead when no handler may run. */
function begin(control: Control, policy: ErrorPolicy, args: readonly unknown[]): Call | { readonly answer: unknown } {
  const { binding, shape } = control;
  const request = requestOf(args);
  const claimed = (policy.onOutcome !== undefined || binding?.claims === true) && claimCall(request);
  const timed = claimed && policy.onOutcome !== undefined;
  const name = nameOfCall(control, args, undefined);
  if (binding?.governs === true) keepFirst(request, 'governor', { policy, name });
  const context: CallContext = { handler: shape.handler, name, startedAt: 0 };
  const message = degradedMessage(policy);
  if (message !== undefined) {
    const failure = degradedFailure();
    reportDegraded(policy, context, message, failure, timed);
    return { answer: settle(() => shape.answerDegraded(message, name, policy, failure)) };
  }
  return { request, timed, context: timed ? { ...context, startedAt: now() } : context };
}

/** Turns a failure into the shape's answer, having logged it once (and reported it, when the call is timed). */
function fail(control: Control, policy: ErrorPolicy, call: Call | undefined, args: readonly unknown[], error: unknown): unknown {
  const { shape, options, binding } = control;
  const request = call === undefined ? requestOf(args) : call.request;
  const timed = call?.timed === true;
  const handled = handledIn(error, request);
  if (handled !== undefined) {
    // an inner wrapper's answer, or a protocol error logged in this call: pass it on
    const { classification } = handled;
    if (timed && classification !== undefined) reportOutcome(policy, call.context, classification.status, classification);
    throw error;
  }
  let governing = policy;
  let context = call?.context;
  if (context === undefined) {
    const governor = options.policy === undefined && binding === undefined ? callState(request)?.governor : undefined;
    if (governor !== undefined) governing = governor.policy;
    context = { handler: shape.handler, name: nameOfCall(control, args, governor?.name), startedAt: 0 };
  }
  // a failure after the call's signal was aborted is the cancellation's doing, whatever was thrown
  const classification = wasCancelled(request)
    ? cancellation(error, governing)
    : classifyCall(error, governing, callFacts(request, shape.handler, context.name), { args: args.filter((arg) => arg !== request) });
  reportFailure(governing, context, classification, timed);
  // a protocol error goes to the SDK with its code, its text through the gate; in report mode, every failure the SDK
  // can answer goes back to it as it was thrown (secrets scrubbed)
  const passed = governing.mode === 'report' ? transparentAnswer(error, governing) : classification.kind === 'protocol' ? { thrown: protocolAnswer(classification, governing) } : undefined;
  if (passed !== undefined) {
    markLogged(passed.thrown, classification, request);
    throw passed.thrown;
  }
  try {
    const answer = shape.answer(classification, context.name, governing, request);
    markAnswer(answer as object, classification);
    keepFirst(request, 'answered', classification);
    return answer;
  } catch (thrown) {
    if (handledIn(thrown, undefined) === undefined) return shape.answerUnreadable(context.name);
    markAnswer(thrown as object, classification);
    throw thrown;
  }
}

function succeed(policy: ErrorPolicy, call: Call, value: unknown): void {
  const handled = handledIn(value, undefined);
  // an inner wrapper's answer, copied by the SDK on its way out (a low-level Server's tools/call result)
  const classification = handled === undefined && readProp(value, 'isError') === true ? callState(call.request)?.answered : handled?.classification;
  reportOutcome(policy, call.context, classification === undefined ? statusOfResult(value) : classification.status, classification);
}

function makeGuard(control: Control): Fn {
  const invoke = control.handler;
  const guarded = function (this: unknown, policy: ErrorPolicy, args: unknown[]): unknown {
    const { binding } = control;
    let call: Call | undefined;
    if (binding?.claims === true || binding?.governs === true || policy.onOutcome !== undefined || policy.degraded !== undefined) {
      const begun = begin(control, policy, args);
      if ('answer' in begun) return begun.answer;
      call = begun;
    }
    const timedCall = call?.timed === true ? call : undefined;
    return guardedCall(
      invoke,
      this,
      args,
      (error) => fail(control, policy, call, args, error),
      timedCall === undefined ? undefined : (value) => succeed(policy, timedCall, value),
    );
  };
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    const policy = control.options.policy ?? control.binding?.policy ?? defaultPolicy;
    // telemetry (src/telemetry.ts): the call's one span, unless an outer wrapper of the call has it
    if (policy.telemetry !== undefined && control.binding?.tracedByRequest !== true) return traceCallback(policy, control.shape.handler, () => nameOfCall(control, args, undefined), args, () => guarded.call(this, policy, args));
    return guarded.call(this, policy, args);
  };
  Object.defineProperty(wrapped, WRAPPED, { value: invoke });
  Object.defineProperty(wrapped, CONTROL, { value: control });
  Object.defineProperty(wrapped, 'name', { value: invoke.name, configurable: true });
  Object.defineProperty(wrapped, 'length', { value: invoke.length, configurable: true });
  return wrapped;
}

type AnyFunction = (this: unknown, ...args: never[]) => unknown;

/** Wraps `handler` with the guard of `shape`. A function already wrapped is returned as it is. */
export function guard<H extends AnyFunction, R>(handler: H, shape: WireShape<R>, options: GuardOptions): H {
  if (isWrapped(handler)) return handler;
  return makeGuard({ handler: handler as unknown as Fn, shape, options, binding: undefined }) as unknown as H;
}

function sameBinding(a: Binding, b: Binding): boolean {
  return a.policy === b.policy && a.name === b.name && a.claims === b.claims && a.governs === b.governs && a.tracedByRequest === b.tracedByRequest;
}

/**
 * Puts a wrapper made by this copy of the package under `binding`. An unbound wrapper is bound in place (a callback
 * the SDK keeps in a closure then follows the server too) and returned; one bound alike is returned as it is; one
 * bound otherwise (the same function registered twice, or renamed) gets a new wrapper of the same handler and
 * options. Returns undefined for anything that is not such a wrapper.
 */
export function bindGuard(fn: unknown, binding: Binding): Fn | undefined {
  const control = controlOf(fn);
  if (control === undefined) return undefined;
  if (control.binding === undefined) {
    control.binding = binding;
    return fn as Fn;
  }
  if (sameBinding(control.binding, binding)) return fn as Fn;
  return makeGuard({ ...control, binding });
}

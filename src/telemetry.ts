/**
 * Telemetry, the core's side: the policy's calls to its `telemetry` (the interface is in src/policy-telemetry.ts) around
 * each `tools/call`, `resources/read` and `prompts/get` it runs. Here the core decides everything that touches an
 * error: which call failed and how (`error.type`), the safe description, the failure facts, the scrubbed exception of
 * a crash.
 *
 * One span per call: the request-level wrapper of `applyErrorPolicy` starts it when it can (it also sees the calls the
 * SDK answers itself); otherwise the outermost callback wrapper of the call does. Inner wrappers of the same call find
 * it in the per-call state (src/wrap/calls.ts), or, failing that, ask the implementation whether one of its calls is
 * active in the current context, and only tell it how the handler failed.
 */
import { CALLBACK_METHODS } from './callback-methods.js';
import type { Classification } from './classification.js';
import type { HandlerKind } from './log.js';
import type { ErrorPolicy } from './policy.js';
import type { PolicyTelemetry, TelemetryCall, TelemetryCallHandle, TelemetryFailure, TelemetryResult } from './policy-telemetry.js';
import { isObjectLike, messageOf, readProp, readString } from './kit/read.js';
import { crashException, MAX_NAME_LENGTH } from './report.js';
import { safeText } from './scrub.js';
import { isProtocolError } from './protocol.js';
import { CALLER_ERROR_CODES, INTERNAL_ERROR_CODE, RESOURCE_NOT_FOUND_CODE } from './status.js';
import { protocolVersionOf } from './sdk.js';
import { callState, handledIn, keepFirst, observe, requestOf } from './wrap/calls.js';
import { failedCallText, firstTextOf } from './wrap/meta.js';
import { ENVELOPE_VERSION } from './wrap/sign-in.js';

/** The core's side of one call: the implementation's handle, and what inner wrappers learnt. */
interface Trace {
  readonly handle: TelemetryCallHandle;
  readonly kind: HandlerKind;
  readonly name: string | undefined;
  readonly policy: ErrorPolicy;
  /** The SDK's per-request context of the call, when known: where wrappers record what they answered. */
  readonly request: object | undefined;
  /** SDK v2 (its per-request context has `mcpReq`): it encodes a thrown -32002 as -32602 on the wire. */
  readonly v2: boolean;
  ended: boolean;
}

/** JSON-RPC "invalid params": what SDK v2 puts on the wire for a thrown -32002. */
const INVALID_PARAMS_CODE = -32602;

/** The core's trace of a handle, kept on the handle (a WeakMap entry per call costs more). */
const TRACE = Symbol('mcp-error-policy.trace');

function traceOfHandle(handle: TelemetryCallHandle | undefined): Trace | undefined {
  return (handle as { [TRACE]?: Trace } | undefined)?.[TRACE];
}

/** Longest trace-context value read from `_meta`. */
const MAX_CARRIER_VALUE = 1024;
const CARRIER_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;

type Fn = () => unknown;

/** What the hooks know of a call when they start its span. */
interface CallSource {
  readonly kind: HandlerKind;
  /** Tool or prompt name, or resource URI, unscrubbed. */
  readonly name: string | undefined;
  /** The SDK's per-request context (`extra` / `ctx`), when known. */
  readonly request: object | undefined;
  /** The request's `params._meta`, when the caller has the request. */
  readonly meta?: unknown;
  /** The negotiated protocol version, when the caller has the server. */
  readonly protocolVersion?: string | undefined;
}

function carrierOf(meta: unknown): Record<string, string> {
  const carrier: Record<string, string> = {};
  if (!isObjectLike(meta)) return carrier;
  for (const key of CARRIER_KEYS) {
    const value = readProp(meta, key);
    if (typeof value === 'string' && value.length <= MAX_CARRIER_VALUE) carrier[key] = value;
  }
  return carrier;
}

function idText(id: unknown): string | undefined {
  if (typeof id === 'string') return id.slice(0, MAX_NAME_LENGTH);
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return undefined;
}

function failureOf(classification: Classification | undefined): TelemetryFailure {
  if (classification === undefined) return { kind: 'unclassified' };
  if (classification.kind === 'protocol') return { kind: 'protocol' };
  const { failure } = classification;
  const base = { code: failure.code, retryable: failure.retryable, correlationId: failure.correlationId };
  if (classification.kind === 'crash') return { kind: 'crash', ...base, reference: classification.reference };
  return { kind: 'anticipated', rule: classification.rule.name, ...base };
}

/** How the call ended, from the answer (a result, or what was thrown) and what the wrappers recorded of it. */
function resultOf(trace: Trace, threw: boolean, value: unknown): TelemetryResult {
  const { policy } = trace;
  const handled = handledIn(value, trace.request);
  const answered = callState(trace.request)?.answered;
  const classification = handled?.classification ?? answered;
  // only an answer a wrapper made (or a protocol error) has text the policy vouches for
  const made = handled !== undefined;
  const safe = (text: string | undefined): string | undefined => (text === undefined ? undefined : safeText(text, policy.maxMessageLength, policy.redact));
  if (!threw && readProp(value, 'isError') !== true) {
    // a sign-in answered with an input-required result (src/wrap/sign-in.ts): a result, but the call did not run
    return made && classification !== undefined ? { failure: failureOf(classification) } : {};
  }
  let rpcCode: string | undefined;
  let callerError = false;
  if (threw) {
    const thrownCode = readProp(value, 'code');
    const code = Number.isSafeInteger(thrownCode) ? (thrownCode as number) : INTERNAL_ERROR_CODE;
    rpcCode = String(trace.v2 && code === RESOURCE_NOT_FOUND_CODE ? INVALID_PARAMS_CODE : code);
    callerError = CALLER_ERROR_CODES.has(code);
  }
  let description: string | undefined;
  // a crash's answer shows what failed and the reference (when dev mode is off)
  if (classification?.kind === 'crash') description = `${failedCallText(trace.kind, trace.name, policy)} (reference ${classification.reference})`;
  else if (!threw) description = classification === undefined ? undefined : safe(firstTextOf(value));
  else if (made || classification?.kind === 'protocol' || isProtocolError(value)) description = safe(messageOf(value));
  else description = 'Internal error';
  const out: { -readonly [K in keyof TelemetryResult]: TelemetryResult[K] } = { errorType: rpcCode ?? 'tool_error', failure: failureOf(classification) };
  if (rpcCode !== undefined) out.rpcCode = rpcCode;
  if (callerError) out.callerError = true;
  if (description !== undefined) out.description = description;
  if (classification?.kind === 'crash') out.exception = crashException(policy, classification.error);
  return out;
}

function end(trace: Trace, threw: boolean, value: unknown): void {
  if (trace.ended) return;
  trace.ended = true;
  try {
    trace.handle.end(resultOf(trace, threw, value));
  } catch {
    // telemetry must not change the answer
  }
}

function isEnabled(telemetry: PolicyTelemetry): boolean {
  try {
    return telemetry.enabled === undefined || telemetry.enabled();
  } catch {
    return false;
  }
}

/**
 * Starts the call's span (telemetry `start`) and runs `run` inside it, ending the span with the answer; runs `run`
 * alone when the telemetry starts none. The call is described from its name and the SDK's per-request context
 * (`request`; SDK v1 `extra`: `requestId`, `sessionId`, `_meta`; SDK v2 `ctx`: `mcpReq.id`, `mcpReq._meta`,
 * `sessionId`).
 */
function runTraced(policy: ErrorPolicy, telemetry: PolicyTelemetry, { kind, name, request, meta, protocolVersion }: CallSource, run: Fn): unknown {
  const mcpReq = readProp(request, 'mcpReq');
  const v2 = isObjectLike(mcpReq);
  const call: { -readonly [K in keyof TelemetryCall]: TelemetryCall[K] } = {
    method: CALLBACK_METHODS[kind],
    carrier: carrierOf(meta ?? (v2 ? readProp(mcpReq, '_meta') : readProp(request, '_meta'))),
  };
  if (name !== undefined && name !== '') {
    const safeName = safeText(name, MAX_NAME_LENGTH, policy.redact);
    if (kind === 'resource') call.uri = safeName;
    else call.target = safeName;
  }
  const requestId = idText(v2 ? readProp(mcpReq, 'id') : readProp(request, 'requestId'));
  if (requestId !== undefined) call.requestId = requestId;
  const sessionId = readString(request, 'sessionId');
  if (sessionId !== undefined && sessionId !== '') call.sessionId = sessionId.slice(0, MAX_NAME_LENGTH);
  // the request's own revision (2026-07-28 envelope) when the caller does not know the negotiated one
  const version = protocolVersion ?? readString(v2 ? readProp(mcpReq, '_meta') : readProp(request, '_meta'), ENVELOPE_VERSION);
  if (version !== undefined) call.protocolVersion = version.slice(0, 64);
  let handle: TelemetryCallHandle | undefined;
  try {
    handle = telemetry.start(call);
  } catch {
    return run();
  }
  if (!isObjectLike(handle)) return run();
  const trace: Trace = { handle, kind, name, policy, request, v2, ended: false };
  try {
    (handle as { [TRACE]?: Trace })[TRACE] = trace;
  } catch {
    // a frozen handle: the per-call state alone keeps calls to one span
  }
  keepFirst(request, 'trace', trace);
  return observe(() => trace.handle.run(run), (threw, value) => end(trace, threw, value));
}

/** Whether a call starting now gets a span: the policy has a telemetry, and it is enabled. */
export function tracesNow(policy: ErrorPolicy): boolean {
  return policy.telemetry !== undefined && isEnabled(policy.telemetry);
}

/**
 * The request-level hook (applyErrorPolicy's wrapper of tools/call, resources/read, prompts/get): one call's span
 * around the SDK's handler, ended with the answer the SDK gives. The wrapper calls it when {@link tracesNow} said
 * yes for the call, so that the telemetry is asked once.
 */
export function traceRequest(policy: ErrorPolicy, kind: HandlerKind, request: unknown, extra: unknown, server: object, run: Fn): unknown {
  const { telemetry } = policy;
  if (telemetry === undefined) return run();
  const params = readProp(request, 'params');
  const name = readString(params, kind === 'resource' ? 'uri' : 'name');
  const source = { kind, name, request: isObjectLike(extra) ? extra : undefined, meta: readProp(params, '_meta'), protocolVersion: protocolVersionOf(server) };
  return runTraced(policy, telemetry, source, run);
}

/**
 * The callback-level hook (every wrapper's guard): the span of a call no request-level wrapper traces. Inside one that
 * does, it only runs the handler: the wrapper records what it answered in the per-call state.
 */
export function traceCallback(policy: ErrorPolicy, kind: HandlerKind, name: () => string | undefined, args: readonly unknown[], run: Fn): unknown {
  const { telemetry } = policy;
  if (telemetry === undefined) return run();
  const request = requestOf(args);
  if (callState(request)?.trace !== undefined) return run();
  if (!isEnabled(telemetry)) return run();
  try {
    const current = telemetry.current?.();
    if (traceOfHandle(current)?.ended === false) return run();
  } catch {
    // no current call known: start one
  }
  let callName: string | undefined;
  try {
    callName = name();
  } catch {
    callName = undefined;
  }
  return runTraced(policy, telemetry, { kind, name: callName, request }, run);
}

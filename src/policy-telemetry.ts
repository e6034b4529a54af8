/**
 * The telemetry interface: what a policy's `telemetry` option implements (`PolicyTelemetry`), and the plain values the
 * policy gives it around each `tools/call`, `resources/read` and `prompts/get` it runs. The core decides everything that
 * touches an error: which call failed and how (`error.type`), the safe description, the failure facts, the scrubbed
 * exception of a crash (src/telemetry.ts). An implementation (such as `openTelemetry()` of
 * `mcp-error-policy/opentelemetry`) only maps those plain, already safe values to its API. Nothing here imports a
 * telemetry library.
 */
import { isRecord, readProp } from './kit/read.js';

/** The MCP method of each kind of handler call. */
export type TelemetryMethod = 'tools/call' | 'resources/read' | 'prompts/get';

/** One call, as the policy gives it to {@link PolicyTelemetry.start}. Every text is scrubbed and bounded. */
export interface TelemetryCall {
  /** The request's method. */
  readonly method: TelemetryMethod;
  /** The tool or prompt name, when known (never set for resources). */
  readonly target?: string;
  /** The resource URI (`resources/read`). */
  readonly uri?: string;
  /** The JSON-RPC request id, as a string (absent when the id is unknown or null). */
  readonly requestId?: string;
  /** The MCP session id, when the transport has sessions. */
  readonly sessionId?: string;
  /** The negotiated MCP protocol version, when the SDK tells it. */
  readonly protocolVersion?: string;
  /**
   * The trace-context entries of the request's `params._meta` (`traceparent`, `tracestate`, `baggage`), string
   * values only; empty when the client sent none.
   */
  readonly carrier: Readonly<Record<string, string>>;
}

/** What the policy knows of a failed call, beside `error.type`. Absent on success. */
export interface TelemetryFailure {
  /**
   * How the policy classified the failure; `unclassified` when no wrapper of this package made the answer (the SDK's
   * own answer, a handler's own isError result, a call refused while degraded).
   */
  readonly kind: 'anticipated' | 'crash' | 'protocol' | 'unclassified';
  /** The rule that accepted the failure (anticipated). */
  readonly rule?: string;
  /** The failure object's code (`internal` for a crash). */
  readonly code?: string;
  /** The failure object's retryable flag. */
  readonly retryable?: boolean;
  /** The failure object's correlation id, also in the log record. */
  readonly correlationId?: string;
  /** The reference the client was shown (crashes). */
  readonly reference?: string;
}

/** A crash's exception, scrubbed like its log record: its name, message and stack frames. */
export interface TelemetryException {
  /** The thrown value's name (or what was thrown). */
  readonly type: string;
  /** Its message, scrubbed and bounded. */
  readonly message: string;
  /** Its stack frames and cause chain, scrubbed. */
  readonly stacktrace: string;
}

/** How one call ended, as the policy gives it to {@link TelemetryCallHandle.end}. */
export interface TelemetryResult {
  /**
   * Set exactly when the call failed: `tool_error` for an isError tool result, else the JSON-RPC error code as a
   * string (`-32002`).
   */
  readonly errorType?: string;
  /** The JSON-RPC error code of the response, as a string, when it is an error response. */
  readonly rpcCode?: string;
  /**
   * Set when `rpcCode` says the caller got the request wrong (-32700, -32600, -32601, -32602, -32002, and the
   * 2026-07-28 revision's -32020, -32021, -32022): for the server, no error of its own.
   */
  readonly callerError?: true;
  /**
   * A description safe for any backend: the client text for anticipated failures, the masked text (with the reference)
   * for crashes, never a crash's own text.
   */
  readonly description?: string;
  /**
   * What the policy decided, for failures; also, without `errorType`, for a sign-in answered with an input-required
   * result (2026-07-28), which is a result, not an error.
   */
  readonly failure?: TelemetryFailure;
  /** Crashes only: the scrubbed exception. */
  readonly exception?: TelemetryException;
}

/** One call in progress, as a telemetry implementation keeps it. */
export interface TelemetryCallHandle {
  /** Runs the handler inside the call's context (its span active), and returns what it returns. */
  run<T>(fn: () => T): T;
  /** Ends the call, once. */
  end(result: TelemetryResult): void;
}

/**
 * The interface a policy's `telemetry` option implements; `openTelemetry()` of `mcp-error-policy/opentelemetry` is
 * one. Every method may throw: that is contained, and the call runs as it would without telemetry.
 */
export interface PolicyTelemetry {
  /** Whether a call started now would be recorded; when false, the policy does not describe calls to `start`. */
  enabled?(): boolean;
  /** Starts a call; `undefined` to leave this call alone. */
  start(call: TelemetryCall): TelemetryCallHandle | undefined;
  /** The call of this telemetry active in the current context, if any (one span per call, never two). */
  current?(): TelemetryCallHandle | undefined;
}

/** Whether `value` can be a policy's `telemetry`: an object with a `start` function (and `current`, if any, one too). */
export function isPolicyTelemetry(value: unknown): value is PolicyTelemetry {
  if (!isRecord(value)) return false;
  const current = readProp(value, 'current');
  return typeof readProp(value, 'start') === 'function' && (current === undefined || typeof current === 'function');
}

/**
 * openTelemetry(): the policy's telemetry hook (src/telemetry.ts) implemented with `@opentelemetry/api`, after the
 * OpenTelemetry semantic conventions for MCP (GenAI semconv `mcp.md`, development status). The core hands it plain
 * values it has already made safe; this module only maps them to spans, events and one histogram.
 *
 * When neither a tracer provider nor a meter provider is registered (the API's no-op ones), `start` returns nothing
 * and the policy runs as it would without telemetry.
 */
import {
  context,
  createNoopMeter,
  metrics,
  propagation,
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  trace,
  ValueType,
  type Attributes,
  type Context,
  type Histogram,
  type Link,
  type MeterProvider,
  type Span,
  type TextMapGetter,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import type { PolicyTelemetry, TelemetryCall, TelemetryCallHandle, TelemetryResult } from '../policy-telemetry.js';

/** The options of {@link openTelemetry}. All are optional. */
export interface OpenTelemetryOptions {
  /**
   * Where spans go.
   * @default the global tracer provider (`trace.getTracerProvider()`, read at each call, so a provider registered
   * after the policy was made is used)
   * @example
   * ```ts
   * openTelemetry({ tracerProvider: provider });
   * ```
   */
  readonly tracerProvider?: TracerProvider;
  /**
   * Where the `mcp.server.operation.duration` histogram goes.
   * @default the global meter provider (`metrics.getMeterProvider()`, read at each call)
   * @example
   * ```ts
   * openTelemetry({ meterProvider });
   * ```
   */
  readonly meterProvider?: MeterProvider;
  /**
   * Whether a crash's span gets an `exception` event with its scrubbed type, message and stack (the crash's own
   * text, which never reaches the client nor any span attribute or status). Anticipated failures never get one.
   * @default true
   * @example
   * ```ts
   * openTelemetry({ recordExceptions: false });
   * ```
   */
  readonly recordExceptions?: boolean;
}

/** The instrumentation scope of the spans and the histogram. */
const SCOPE = 'mcp-error-policy';
/** The histogram's bucket boundaries, in seconds, as the convention advises. */
const BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
/** This package's attribute namespace. */
const NS = 'mcp_error_policy';

/** The API's no-op providers: nothing registered. */
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();
const NOOP_METER = createNoopMeter();

/**
 * The handle of the call whose context this is, kept on the context object made for the call (one copy of the
 * context instead of two): the wrappers that ask for `current()` run directly in it.
 */
const CALL = Symbol('mcp-error-policy.call');

const carrierGetter: TextMapGetter<Readonly<Record<string, string>>> = {
  get: (carrier, key) => (Object.prototype.hasOwnProperty.call(carrier, key) ? carrier[key] : undefined),
  keys: (carrier) => Object.keys(carrier),
};

function fail(option: string, expected: string, got: unknown): never {
  const shown = got === null ? 'null' : Array.isArray(got) ? 'an array' : typeof got;
  throw new TypeError(`Expected \`${option}\` to be ${expected}, got ${shown}`);
}

function isObject(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

function hasMethod(value: unknown, method: string): boolean {
  return isObject(value) && typeof (value as Record<string, unknown>)[method] === 'function';
}

/** The provider a call uses: the given one, or the global one's delegate (the API's no-op one when none is set). */
function delegateOf(provider: TracerProvider): TracerProvider {
  return provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider;
}

/** The first protocol revision without sessions (revisions are ISO dates: later ones sort after it). */
const FIRST_SESSIONLESS_REVISION = '2026-07-28';

function isSessionless(protocolVersion: string | undefined): boolean {
  return protocolVersion !== undefined && protocolVersion >= FIRST_SESSIONLESS_REVISION;
}

/** Attributes of the span and of the histogram, per the convention. */
function callAttributes(call: TelemetryCall): Attributes {
  const attributes: Attributes = { 'mcp.method.name': call.method };
  if (call.method === 'tools/call' && call.target !== undefined) {
    attributes['gen_ai.tool.name'] = call.target;
    attributes['gen_ai.operation.name'] = 'execute_tool';
  } else if (call.method === 'tools/call') {
    attributes['gen_ai.operation.name'] = 'execute_tool';
  }
  if (call.method === 'prompts/get' && call.target !== undefined) attributes['gen_ai.prompt.name'] = call.target;
  if (call.protocolVersion !== undefined) attributes['mcp.protocol.version'] = call.protocolVersion;
  return attributes;
}

function failureAttributes(result: TelemetryResult): Attributes {
  const attributes: Attributes = {};
  const { failure } = result;
  if (failure === undefined) return attributes;
  attributes[`${NS}.failure.kind`] = failure.kind;
  if (failure.rule !== undefined) attributes[`${NS}.rule`] = failure.rule;
  if (failure.code !== undefined) attributes[`${NS}.failure.code`] = failure.code;
  if (failure.retryable !== undefined) attributes[`${NS}.failure.retryable`] = failure.retryable;
  if (failure.correlationId !== undefined) attributes[`${NS}.correlation_id`] = failure.correlationId;
  if (failure.reference !== undefined) attributes[`${NS}.reference`] = failure.reference;
  return attributes;
}

/**
 * OpenTelemetry for a policy: one SERVER span per `tools/call`, `resources/read` and `prompts/get` the policy runs,
 * and the `mcp.server.operation.duration` histogram, after the OpenTelemetry semantic conventions for MCP.
 *
 * - Span name `{mcp.method.name} {target}` (`tools/call get_sheet`, `prompts/get summary`; `resources/read` alone:
 *   the convention keeps URIs out of span names), kind SERVER.
 * - Parent: the trace context the client sent in `params._meta` (`traceparent`, `tracestate`, `baggage`), read with
 *   the globally registered propagator; else the active context. With a parent from `_meta`, an active span (such as
 *   an HTTP server span) is linked.
 * - The handler runs inside the span's context, so spans of the libraries it calls nest under it.
 * - Attributes: `mcp.method.name`, `gen_ai.tool.name` and `gen_ai.operation.name` = `execute_tool` (tools),
 *   `gen_ai.prompt.name` (prompts), `mcp.resource.uri` (resources), `jsonrpc.request.id`, `mcp.session.id`,
 *   `mcp.protocol.version` where known (no `mcp.session.id` on 2026-07-28, which has no sessions); on failure
 *   `error.type` (`tool_error` for an isError tool result, else the JSON-RPC code, such as `-32603`),
 *   `rpc.response.status_code` (JSON-RPC errors), status ERROR with a safe description, and
 *   `mcp_error_policy.failure.kind`, `.rule`, `.failure.code`, `.failure.retryable`, `.correlation_id`, `.reference`.
 *   A caller's error (-32700, -32600, -32601, -32602, -32002, -32020, -32021, -32022) gets `rpc.response.status_code`
 *   and the `mcp_error_policy.*` attributes only: no `error.type`, no error status. A crash alone gets an `exception`
 *   event (scrubbed); its own text is in no attribute and no status.
 *
 * @param options - `tracerProvider`, `meterProvider` (default: the global ones), `recordExceptions`
 * @returns the value of a policy's `telemetry` option
 *
 * @example
 * ```ts
 * import { applyErrorPolicy, coreRules, createErrorPolicy } from 'mcp-error-policy';
 * import { openTelemetry } from 'mcp-error-policy/opentelemetry';
 *
 * applyErrorPolicy(server, createErrorPolicy({ rules: coreRules, telemetry: openTelemetry() }));
 * ```
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): PolicyTelemetry {
  if (!isObject(options) || Array.isArray(options)) fail('options', 'an object', options);
  const known = new Set(['tracerProvider', 'meterProvider', 'recordExceptions']);
  for (const key of Object.keys(options)) {
    if (!known.has(key)) throw new TypeError(`Unknown option \`${key}\`: expected one of ${[...known].join(', ')}`);
  }
  const { tracerProvider, meterProvider, recordExceptions } = options;
  if (tracerProvider !== undefined && !hasMethod(tracerProvider, 'getTracer')) fail('tracerProvider', 'a TracerProvider', tracerProvider);
  if (meterProvider !== undefined && !hasMethod(meterProvider, 'getMeter')) fail('meterProvider', 'a MeterProvider', meterProvider);
  if (recordExceptions !== undefined && typeof recordExceptions !== 'boolean') fail('recordExceptions', 'a boolean', recordExceptions);
  const exceptions = recordExceptions !== false;

  let tracerFor: TracerProvider | undefined;
  let tracer: Tracer | undefined;
  let meterFor: MeterProvider | undefined;
  let histogram: Histogram | undefined;

  /** The tracer of the provider in use, or undefined when it is the API's no-op one. */
  const currentTracer = (): Tracer | undefined => {
    const provider = delegateOf(tracerProvider ?? trace.getTracerProvider());
    if (provider === NOOP_TRACER_PROVIDER) return undefined;
    if (provider !== tracerFor) {
      tracer = provider.getTracer(SCOPE);
      tracerFor = provider;
    }
    return tracer;
  };

  /** The histogram of the meter provider in use, or undefined when it is the API's no-op one. */
  const currentHistogram = (): Histogram | undefined => {
    const provider = meterProvider ?? metrics.getMeterProvider();
    if (provider !== meterFor) {
      meterFor = provider;
      const meter = provider.getMeter(SCOPE);
      histogram =
        meter === NOOP_METER
          ? undefined
          : meter.createHistogram('mcp.server.operation.duration', {
              description: 'The duration of the MCP request or notification as observed on the receiver from the time it was received until the result or ack is sent.',
              unit: 's',
              valueType: ValueType.DOUBLE,
              advice: { explicitBucketBoundaries: BUCKETS },
            });
    }
    return histogram;
  };

  const start = (call: TelemetryCall): TelemetryCallHandle | undefined => {
    const spans = currentTracer();
    const durations = currentHistogram();
    if (spans === undefined && durations === undefined) return undefined;
    const startedAt = performance.now();
    let span: Span | undefined;
    let callContext: Context | undefined;
    let ended = false;
    const handle: TelemetryCallHandle = {
      run: (fn) => (callContext === undefined ? fn() : context.with(callContext, fn)),
      end: (result) => {
        if (ended) return;
        ended = true;
        // a caller's error (invalid params, unknown method, ...) is no error of the server: its code, no error status
        const failed = result.errorType !== undefined && result.callerError !== true;
        const errorAttributes: Attributes = {};
        if (failed) errorAttributes['error.type'] = result.errorType;
        if (result.rpcCode !== undefined) errorAttributes['rpc.response.status_code'] = result.rpcCode;
        if (span !== undefined) {
          span.setAttributes(errorAttributes);
          if (result.failure !== undefined) span.setAttributes(failureAttributes(result));
          if (failed) {
            span.setStatus(result.description === undefined ? { code: SpanStatusCode.ERROR } : { code: SpanStatusCode.ERROR, message: result.description });
            if (exceptions && result.exception !== undefined) {
              span.addEvent('exception', {
                'exception.type': result.exception.type,
                'exception.message': result.exception.message,
                'exception.stacktrace': result.exception.stacktrace,
              });
            }
          }
          span.end();
        }
        if (durations !== undefined) {
          const attributes = callAttributes(call);
          Object.assign(attributes, errorAttributes);
          durations.record((performance.now() - startedAt) / 1000, attributes);
        }
      },
    };
    if (spans !== undefined) {
      const active = context.active();
      let parent = active;
      const links: Link[] = [];
      if (call.carrier['traceparent'] !== undefined) {
        parent = propagation.extract(active, call.carrier, carrierGetter);
        const ambient = trace.getSpanContext(active);
        const remote = trace.getSpanContext(parent);
        if (ambient !== undefined && ambient !== remote && trace.isSpanContextValid(ambient)) links.push({ context: ambient });
      }
      const attributes: Attributes = callAttributes(call);
      if (call.uri !== undefined) attributes['mcp.resource.uri'] = call.uri;
      if (call.requestId !== undefined) attributes['jsonrpc.request.id'] = call.requestId;
      // the 2026-07-28 revision has no sessions: the convention sets no session id for it
      if (call.sessionId !== undefined && !isSessionless(call.protocolVersion)) attributes['mcp.session.id'] = call.sessionId;
      const name = call.target === undefined || call.method === 'resources/read' ? call.method : `${call.method} ${call.target}`;
      span = spans.startSpan(name, links.length === 0 ? { kind: SpanKind.SERVER, attributes } : { kind: SpanKind.SERVER, attributes, links }, parent);
      callContext = trace.setSpan(parent, span);
      (callContext as { [CALL]?: TelemetryCallHandle })[CALL] = handle;
    }
    return handle;
  };

  const current = (): TelemetryCallHandle | undefined => (context.active() as { [CALL]?: TelemetryCallHandle })[CALL];
  const enabled = (): boolean => currentTracer() !== undefined || currentHistogram() !== undefined;

  return Object.freeze({ enabled, start, current });
}

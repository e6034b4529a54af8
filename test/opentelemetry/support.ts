/**
 * Test support for the OpenTelemetry entry: the real OpenTelemetry SDK (a tracer provider exporting through a
 * SimpleSpanProcessor to an InMemorySpanExporter, a MeterProvider read on demand), the AsyncLocalStorage context manager
 * and the W3C propagators registered globally as `NodeSDK` does, and readers that turn exported spans into plain objects
 * to compare exactly.
 *
 * The tests run on two lines of the OpenTelemetry JS SDK, and their differences are kept here (see `traceSdk`):
 * - 2.x (the lock file's 2.12.1, and 2.0.0 beside api 1.3.0 in the matrix): `@opentelemetry/sdk-trace-base`'s
 *   `BasicTracerProvider`, and `new SimpleSpanProcessor(exporter)`;
 * - 3.x (beside api 1.10, the only line that accepts it; the matrix's `otel-api-1.10.0` cell): no `sdk-trace-base`;
 *   `@opentelemetry/sdk-trace`'s `TracerProvider`, and `new SimpleSpanProcessor({ exporter })`.
 * The metrics SDK, the context manager and the propagators are used the same way on both.
 */
import { context, propagation, trace, type HrTime } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, SDK_INFO, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { AggregationTemporality, MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import type { BasicTracerProvider, InMemorySpanExporter, ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/**
 * The tracing part of the OpenTelemetry SDK that is installed, constructed the way its line takes it. Typed with the
 * 2.x declarations (the lock file's); the 3.x classes have the same surface as far as the tests use them.
 */
export interface TraceSdk {
  /** 2: `@opentelemetry/sdk-trace-base` (2.x); 3: `@opentelemetry/sdk-trace` alone (3.x). */
  readonly line: 2 | 3;
  /** A tracer provider (2.x `BasicTracerProvider`, 3.x `TracerProvider`) exporting every span through a SimpleSpanProcessor to each of `exporters`. */
  tracerProvider(...exporters: SpanExporter[]): BasicTracerProvider;
  inMemoryExporter(): InMemorySpanExporter;
}

/**
 * The SDK line, from the version of `@opentelemetry/core` loaded (the tests import core on both lines, and the
 * matrix redirects it to the cell's install). Not from whether `sdk-trace-base` can be imported: a scratch directory
 * of the matrix lies inside the project, so a package missing there still resolves from the project's node_modules.
 */
function sdkLine(): 2 | 3 {
  const version = String(SDK_INFO['telemetry.sdk.version']);
  const major = Number(version.split('.')[0]);
  if (major !== 2 && major !== 3) throw new Error(`@opentelemetry/core ${version}: the tests know the SDK lines 2.x and 3.x`);
  return major;
}

async function loadTraceSdk(): Promise<TraceSdk> {
  if (sdkLine() === 2) {
    const sdk = await import('@opentelemetry/sdk-trace-base');
    return {
      line: 2,
      tracerProvider: (...exporters) => new sdk.BasicTracerProvider({ spanProcessors: exporters.map((exporter) => new sdk.SimpleSpanProcessor(exporter)) }),
      inMemoryExporter: () => new sdk.InMemorySpanExporter(),
    };
  }
  // 3.x has no sdk-trace-base. The lock file's copy of @opentelemetry/sdk-trace is 2.12.1, which already has 3.x's
  // TracerProvider and SimpleSpanProcessor({ exporter }): its declarations type the 3.x module.
  const sdk = await import('@opentelemetry/sdk-trace');
  return {
    line: 3,
    tracerProvider: (...exporters) =>
      new sdk.TracerProvider({ spanProcessors: exporters.map((exporter) => new sdk.SimpleSpanProcessor({ exporter })) }) as unknown as BasicTracerProvider,
    inMemoryExporter: () => new sdk.InMemorySpanExporter(),
  };
}

/** The OpenTelemetry JS SDK line installed beside the API under test (the lock file's, or a matrix cell's). */
export const traceSdk: TraceSdk = await loadTraceSdk();

/** A trace id and a span id a client sent in `_meta.traceparent`. */
export const REMOTE = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' } as const;
export const TRACEPARENT = `00-${REMOTE.traceId}-${REMOTE.spanId}-01`;
export const TRACESTATE = 'rojo=00f067aa0ba902b7';

/** Registers the context manager and propagators once per test file (each file runs in its own process). */
export function registerGlobals(): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
}

/** Collects metrics when asked. */
class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** One tracer provider and one meter provider, recording everything. */
export interface Telemetry {
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  readonly exporter: InMemorySpanExporter;
  /** The spans ended so far, oldest first. */
  spans(): ReadableSpan[];
  /** The histogram points of `mcp.server.operation.duration`: attributes and count. */
  durations(): Promise<{ attributes: Record<string, unknown>; count: number; unit: string }[]>;
  reset(): void;
}

export function newTelemetry(): Telemetry {
  const exporter = traceSdk.inMemoryExporter();
  const tracerProvider = traceSdk.tracerProvider(exporter);
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    exporter,
    spans: () => exporter.getFinishedSpans(),
    durations: async () => {
      const { resourceMetrics } = await reader.collect();
      const out: { attributes: Record<string, unknown>; count: number; unit: string }[] = [];
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          if (metric.descriptor.name !== 'mcp.server.operation.duration') continue;
          for (const point of (metric as HistogramMetricData).dataPoints) {
            out.push({ attributes: { ...point.attributes }, count: point.value.count, unit: metric.descriptor.unit });
          }
        }
      }
      return out;
    },
    reset: () => exporter.reset(),
  };
}

/** A span as plain data: what the tests compare exactly. */
export interface SpanView {
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
  events: { name: string; attributes: Record<string, unknown> }[];
  parent: string | undefined;
  traceId: string;
  spanId: string;
  links: string[];
}

export function view(span: ReadableSpan): SpanView {
  const status: { code: number; message?: string } = { code: span.status.code };
  if (span.status.message !== undefined) status.message = span.status.message;
  return {
    name: span.name,
    kind: span.kind,
    attributes: { ...span.attributes },
    status,
    events: span.events.map((event) => ({ name: event.name, attributes: { ...event.attributes } })),
    parent: span.parentSpanContext?.spanId,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    links: span.links.map((link) => link.context.spanId),
  };
}

/** Every string in the exported telemetry (names, attribute values, statuses, events), for secret checks. */
export function allText(spans: readonly ReadableSpan[], points: readonly { attributes: Record<string, unknown> }[] = []): string {
  return JSON.stringify([spans.map(view), points]);
}

/** Durations in seconds are positive numbers (HrTime sanity). */
export function seconds(time: HrTime): number {
  return time[0] + time[1] / 1e9;
}

/** The active span's ids inside a handler. */
export function activeIds(): { traceId: string; spanId: string } | undefined {
  const span = trace.getActiveSpan();
  if (span === undefined) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

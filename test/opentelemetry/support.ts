/**
 * Test support for the OpenTelemetry entry: the real OpenTelemetry SDK (a BasicTracerProvider exporting to an
 * InMemorySpanExporter, a MeterProvider read on demand), the AsyncLocalStorage context manager and the W3C propagators
 * registered globally as `NodeSDK` does, and readers that turn exported spans into plain objects to compare exactly.
 */
import { context, propagation, trace, type HrTime } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { AggregationTemporality, MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

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
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
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

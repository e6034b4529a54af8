/**
 * The telemetry rows of `npm run bench`: what `telemetry: openTelemetry()` costs on the success path of an MCP tool
 * call (real McpServer and Client over InMemoryTransport, the built package), timed interleaved in one run:
 *
 * - with a real tracer provider (the OpenTelemetry SDK's BasicTracerProvider, a BatchSpanProcessor to an exporter
 *   that drops what it gets, a MeterProvider), the AsyncLocalStorage context manager and the W3C propagators
 *   registered as NodeSDK registers them, and the client sending `_meta.traceparent`: against the bare handler on
 *   the same server with the same provider (not traced), and, for information, against the bare handler in a span
 *   made by hand with the same provider and the same attributes (what tracing costs by itself);
 * - with no provider registered: `openTelemetry()` against the plain policy.
 *
 * Run after the other success-path rows: the AsyncLocalStorage context manager turns on Node's promise hooks for the
 * rest of the process, which would slow every later measurement alike.
 */
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';
import { interleave } from './interleave.mjs';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

/** An exporter that drops every span (the cost of sending is not the policy's). */
const dropExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: () => Promise.resolve(),
  forceFlush: () => Promise.resolve(),
};

/** @param {{ n: number }} args */
const asyncTool = async ({ n }) => ({ content: [{ type: 'text', text: `n=${n}` }] });

/**
 * @param {McpServer} server
 * @returns {Promise<{ call: (name: string) => Promise<unknown>, close: () => Promise<void> }>}
 */
async function connect(server) {
  const client = new Client({ name: 'bench-client', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  const args = { n: 1 };
  const _meta = { traceparent: TRACEPARENT };
  return {
    call: (name) => client.callTool({ name, arguments: args, _meta }),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/**
 * @param {{ lib: typeof import('../../src/index.js'), otel: typeof import('../../src/opentelemetry/index.js'), samples: number, check: (ok: unknown, message: string) => void }} options
 * @returns {Promise<{ traced: Map<string, import("./interleave.mjs").Times>, noProvider: Map<string, import("./interleave.mjs").Times>, spans: number }>}
 */
export async function measureTelemetry({ lib, otel, samples, check }) {
  const noop = () => {};
  const schema = { inputSchema: { n: z.number() } };

  // No provider registered: openTelemetry() against the plain policy, each on its own server.
  const plainServer = lib.applyErrorPolicy(new McpServer({ name: 'plain', version: '1.0.0' }), lib.createErrorPolicy({ logger: noop }));
  plainServer.registerTool('echo', schema, asyncTool);
  const idleServer = lib.applyErrorPolicy(new McpServer({ name: 'idle', version: '1.0.0' }), lib.createErrorPolicy({ logger: noop, telemetry: otel.openTelemetry() }));
  idleServer.registerTool('echo', schema, asyncTool);
  const plain = await connect(plainServer);
  const idle = await connect(idleServer);
  check(trace.getTracerProvider().getTracer('probe').startSpan('probe').isRecording() === false, 'no tracer provider is registered for the no-provider rows');
  const noProvider = await interleave(
    [
      { name: 'plain policy', async: true, fn: () => plain.call('echo') },
      { name: 'openTelemetry(), no provider', async: true, fn: () => idle.call('echo') },
    ],
    { samples, batch: 1, warmup: 500 },
  );
  await plain.close();
  await idle.close();

  // A real provider, registered as NodeSDK does.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  let exported = 0;
  const counting = { ...dropExporter, export: (spans, done) => ((exported += spans.length), done({ code: 0 })) };
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(counting, { maxQueueSize: 65_536, maxExportBatchSize: 512, scheduledDelayMillis: 200 })] });
  const meterProvider = new MeterProvider();
  const tracer = tracerProvider.getTracer('by-hand');
  const histogram = meterProvider.getMeter('by-hand').createHistogram('mcp.server.operation.duration', { unit: 's' });

  const tracedServer = lib.applyErrorPolicy(
    new McpServer({ name: 'traced', version: '1.0.0' }),
    lib.createErrorPolicy({ logger: noop, telemetry: otel.openTelemetry({ tracerProvider, meterProvider }) }),
  );
  tracedServer.registerTool('traced', schema, asyncTool);
  const bareServer = new McpServer({ name: 'bare', version: '1.0.0' });
  bareServer.registerTool('bare', schema, asyncTool);
  // the same span by hand: parent from _meta, SERVER kind, the convention's attributes, the handler inside it, the histogram
  bareServer.registerTool('by-hand', schema, async (args, extra) => {
    const startedAt = performance.now();
    const parent = propagation.extract(context.active(), extra._meta ?? {});
    const attributes = { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'by-hand', 'gen_ai.operation.name': 'execute_tool', 'jsonrpc.request.id': String(extra.requestId) };
    const span = tracer.startSpan('tools/call by-hand', { kind: SpanKind.SERVER, attributes }, parent);
    try {
      return await context.with(trace.setSpan(parent, span), () => asyncTool(args));
    } finally {
      span.end();
      histogram.record((performance.now() - startedAt) / 1000, { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'by-hand', 'gen_ai.operation.name': 'execute_tool' });
    }
  });
  const traced = await connect(tracedServer);
  const bare = await connect(bareServer);
  check(JSON.stringify(await traced.call('traced')) === JSON.stringify({ content: [{ type: 'text', text: 'n=1' }] }), 'the traced tool answers n=1');
  const tracedTimes = await interleave(
    [
      { name: 'bare', async: true, fn: () => bare.call('bare') },
      { name: 'bare, span by hand', async: true, fn: () => bare.call('by-hand') },
      { name: 'openTelemetry()', async: true, fn: () => traced.call('traced') },
    ],
    { samples, batch: 1, warmup: 500 },
  );
  await traced.close();
  await bare.close();
  await tracerProvider.forceFlush();
  check(exported > samples, `the traced calls exported their spans (${exported})`);
  await tracerProvider.shutdown();
  return { traced: tracedTimes, noProvider, spans: exported };
}

/**
 * openTelemetry() without applyErrorPolicy (the wrappers' guard opens the span), nested wrappers (still one span),
 * the active context as parent when the client sends no trace context, the ambient span linked when it does,
 * `recordExceptions: false`, no provider registered (no span, no change), option checks, and a telemetry that throws.
 */
import { context, metrics, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server as LowLevelServer } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { applyErrorPolicy, createErrorPolicy, ToolError, withClientVisibleErrors, withClientVisiblePromptErrors, withClientVisibleResourceErrors, type ErrorPolicy, type PolicyTelemetry } from '../../src/index.js';
import { openTelemetry } from '../../src/opentelemetry/index.js';
import { link } from '../support/link.js';
import { referenceIn, textOf } from '../support/calls.js';
import { newTelemetry, registerGlobals, REMOTE, TRACEPARENT, view, type Telemetry } from './support.js';

registerGlobals();

const ok = (text: string) => ({ content: [{ type: 'text' as const, text }] });
const quiet = { logger: () => undefined };

function policyWith(telemetry: Telemetry, extra: Parameters<typeof openTelemetry>[0] = {}): ErrorPolicy {
  return createErrorPolicy({ ...quiet, telemetry: openTelemetry({ tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider, ...extra }) });
}

async function connect(server: McpServer) {
  return link(server, new Client({ name: 'c', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
}

describe('the guard opens the span when applyErrorPolicy does not', () => {
  it('hand-wrapped tool, resource and prompt: one SERVER span each, parented on _meta.traceparent', async () => {
    const telemetry = newTelemetry();
    const policy = policyWith(telemetry);
    const server = new McpServer({ name: 's', version: '1.0.0' });
    server.registerTool('refuse', {}, withClientVisibleErrors(() => {
      throw new ToolError('No such sheet');
    }, { name: 'refuse', policy }));
    server.registerResource('doc', 'doc://one', {}, withClientVisibleResourceErrors(() => {
      throw new Error('CANARY-guard: /srv/secret/path');
    }, { policy }));
    server.registerPrompt('hello', {}, withClientVisiblePromptErrors(() => ({ messages: [] }), { name: 'hello', policy }));
    const { client, close } = await connect(server);
    const meta = { _meta: { traceparent: TRACEPARENT } };
    expect(textOf(await client.callTool({ name: 'refuse', arguments: {}, ...meta }))).toBe('Error executing tool refuse: No such sheet');
    const failed = await client.readResource({ uri: 'doc://one', ...meta }).then(() => '', (error: Error) => error.message);
    const reference = referenceIn(failed);
    await client.getPrompt({ name: 'hello', ...meta });
    await close();
    const spans = telemetry.spans().map(view);
    expect(spans.map((s) => [s.name, s.kind, s.parent, s.traceId, s.attributes['error.type'], s.status])).toEqual([
      ['tools/call refuse', SpanKind.SERVER, REMOTE.spanId, REMOTE.traceId, 'tool_error', { code: SpanStatusCode.ERROR, message: 'Error executing tool refuse: No such sheet' }],
      ['resources/read', SpanKind.SERVER, REMOTE.spanId, REMOTE.traceId, '-32603', { code: SpanStatusCode.ERROR, message: `Error reading resource doc://one (reference ${reference})` }],
      ['prompts/get hello', SpanKind.SERVER, REMOTE.spanId, REMOTE.traceId, undefined, { code: SpanStatusCode.UNSET }],
    ]);
    expect(spans[1]?.attributes).toEqual({
      'mcp.method.name': 'resources/read',
      'mcp.resource.uri': 'doc://one',
      'jsonrpc.request.id': expect.stringMatching(/^\d+$/),
      'error.type': '-32603',
      'rpc.response.status_code': '-32603',
      'mcp_error_policy.failure.kind': 'crash',
      'mcp_error_policy.failure.code': 'internal',
      'mcp_error_policy.failure.retryable': false,
      'mcp_error_policy.correlation_id': reference,
      'mcp_error_policy.reference': reference,
    });
    expect(spans[1]?.events.map((e) => e.name)).toEqual(['exception']);
    expect(JSON.stringify(spans[1]?.status)).not.toContain('CANARY');
  });

  it('a wrapped function called directly, without an SDK: one span, parented on the active span', async () => {
    const telemetry = newTelemetry();
    const policy = policyWith(telemetry);
    const tool = withClientVisibleErrors(async (_args: object, _extra: object) => ok('done'), { name: 'direct', policy });
    const outer = telemetry.tracerProvider.getTracer('app').startSpan('outer');
    await context.with(trace.setSpan(context.active(), outer), () => tool({}, {} as never));
    outer.end();
    const spans = telemetry.spans().map(view);
    expect(spans.map((s) => [s.name, s.parent])).toEqual([
      ['tools/call direct', outer.spanContext().spanId],
      ['outer', undefined],
    ]);
  });
});

describe('one span per call, never two', () => {
  it('applyErrorPolicy around hand-wrapped callbacks (same policy, and a policy of their own)', async () => {
    const telemetry = newTelemetry();
    const policy = policyWith(telemetry);
    const own = policyWith(telemetry);
    const server = new McpServer({ name: 's', version: '1.0.0' });
    server.registerTool('inner', {}, withClientVisibleErrors(() => {
      throw new ToolError('inner refused');
    }));
    server.registerTool('own', {}, withClientVisibleErrors(() => {
      throw new Error('CANARY own crash');
    }, { policy: own }));
    // a wrapped function calling another wrapped function, with the same per-request context
    const helper = withClientVisibleErrors((_args: object, extra: object) => {
      void extra;
      return ok('helped');
    }, { name: 'helper', policy });
    server.registerTool('outer', {}, withClientVisibleErrors((extra: object) => helper({}, extra)));
    applyErrorPolicy(server, policy);
    const { client, close } = await connect(server);
    expect(textOf(await client.callTool({ name: 'inner', arguments: {} }))).toBe('Error executing tool inner: inner refused');
    const crash = textOf(await client.callTool({ name: 'own', arguments: {} }));
    expect(textOf(await client.callTool({ name: 'outer', arguments: {} }))).toBe('helped');
    await close();
    const spans = telemetry.spans().map(view);
    expect(spans.map((s) => [s.name, s.attributes['error.type'], s.attributes['mcp_error_policy.failure.kind'], s.parent])).toEqual([
      ['tools/call inner', 'tool_error', 'anticipated', undefined],
      ['tools/call own', 'tool_error', 'crash', undefined],
      ['tools/call outer', undefined, undefined, undefined],
    ]);
    expect(spans[1]?.attributes['mcp_error_policy.reference']).toBe(referenceIn(crash));
    expect((await telemetry.durations()).reduce((n, p) => n + p.count, 0)).toBe(3);
  });

  it('an unknown tool (the SDK answers itself): one span from the request-level wrapper', async () => {
    const telemetry = newTelemetry();
    const server = applyErrorPolicy(new McpServer({ name: 's', version: '1.0.0' }), policyWith(telemetry));
    server.registerTool('known', {}, () => ok('x'));
    const { client, close } = await connect(server);
    const result = await client.callTool({ name: 'nope', arguments: {} });
    await close();
    expect(result.isError).toBe(true);
    expect(telemetry.spans().map(view).map((s) => [s.name, s.attributes['error.type'], s.attributes['mcp_error_policy.failure.kind'], s.status])).toEqual([
      ['tools/call nope', 'tool_error', 'unclassified', { code: SpanStatusCode.ERROR }],
    ]);
  });
});

describe('hostile and secret-bearing failures', () => {
  it('a revoked Proxy, a throwing getter and a Symbol thrown: one span each, masked; a token in client text scrubbed', async () => {
    const telemetry = newTelemetry();
    const policy = policyWith(telemetry);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const getter = Object.defineProperty(new Error('x'), 'message', {
      get() {
        throw new Error('getter');
      },
    });
    const thrown: unknown[] = [proxy, getter, Symbol('CANARY-symbol'), new ToolError('upstream rejected token ya29.a0AfB_CANARYtoolERROR0123456789abcdef')];
    for (const [i, value] of thrown.entries()) {
      const tool = withClientVisibleErrors((_args: object, _extra: object) => {
        throw value;
      }, { name: `t${i}`, policy });
      expect(((await tool({}, {} as never)) as { isError?: boolean }).isError).toBe(true);
    }
    const spans = telemetry.spans().map(view);
    expect(spans.map((s) => [s.name, s.attributes['error.type'], s.attributes['mcp_error_policy.failure.kind'], s.status.code])).toEqual([
      ['tools/call t0', 'tool_error', 'crash', SpanStatusCode.ERROR],
      ['tools/call t1', 'tool_error', 'crash', SpanStatusCode.ERROR],
      ['tools/call t2', 'tool_error', 'crash', SpanStatusCode.ERROR],
      ['tools/call t3', 'tool_error', 'anticipated', SpanStatusCode.ERROR],
    ]);
    expect(spans[3]?.status.message).toBe('Error executing tool t3: upstream rejected token [REDACTED]');
    expect(JSON.stringify(spans)).not.toContain('CANARYtoolERROR');
    // a crash's own text is in its exception event only: never in a name, attribute or status
    expect(JSON.stringify(spans.map((s) => [s.name, s.attributes, s.status]))).not.toContain('CANARY-symbol');
    expect(spans[2]?.events[0]?.attributes['exception.message']).toBe('Symbol(CANARY-symbol)');
  });
});

describe('parents and links', () => {
  it('no trace context in _meta: the active context is the parent; with one, the active span is linked', async () => {
    const telemetry = newTelemetry();
    const policy = policyWith(telemetry);
    const tool = withClientVisibleErrors((_args: object, _extra: object) => ok('x'), { name: 't', policy });
    const ambient = telemetry.tracerProvider.getTracer('transport').startSpan('POST /mcp');
    await context.with(trace.setSpan(context.active(), ambient), async () => {
      await tool({}, { requestId: 1, signal: new AbortController().signal } as never);
      await tool({}, { requestId: 2, signal: new AbortController().signal, _meta: { traceparent: TRACEPARENT } } as never);
    });
    ambient.end();
    const [first, second] = telemetry.spans().map(view);
    expect([first?.parent, first?.traceId, first?.links]).toEqual([ambient.spanContext().spanId, ambient.spanContext().traceId, []]);
    expect([second?.parent, second?.traceId, second?.links]).toEqual([REMOTE.spanId, REMOTE.traceId, [ambient.spanContext().spanId]]);
    expect([first?.attributes['jsonrpc.request.id'], second?.attributes['jsonrpc.request.id']]).toEqual(['1', '2']);
  });
});

describe('options', () => {
  afterEach(() => {
    trace.disable();
    metrics.disable();
    registerGlobals();
  });

  it('recordExceptions: false leaves crashes without the exception event', async () => {
    const telemetry = newTelemetry();
    const tool = withClientVisibleErrors((_args: object, _extra: object) => {
      throw new Error('boom');
    }, { name: 'c', policy: policyWith(telemetry, { recordExceptions: false }) });
    await tool({}, {} as never);
    const [span] = telemetry.spans().map(view);
    expect([span?.attributes['mcp_error_policy.failure.kind'], span?.events]).toEqual(['crash', []]);
  });

  it('no provider registered: no span, and the handler still runs in the caller context', async () => {
    const policy = createErrorPolicy({ ...quiet, telemetry: openTelemetry() });
    let ran = false;
    const tool = withClientVisibleErrors((_args: object, _extra: object) => {
      ran = true;
      return ok('x');
    }, { policy });
    expect(await tool({}, {} as never)).toEqual(ok('x'));
    expect(ran).toBe(true);
  });

  it('a telemetry that is not enabled is asked once a call, and starts nothing (McpServer and low-level Server)', async () => {
    const asked: string[] = [];
    const idle: PolicyTelemetry = {
      enabled: () => (asked.push('enabled'), false),
      start: () => (asked.push('start'), undefined),
      current: () => (asked.push('current'), undefined),
    };
    const policy = createErrorPolicy({ ...quiet, telemetry: idle });
    const server = applyErrorPolicy(new McpServer({ name: 's', version: '1.0.0' }), policy);
    server.registerTool('ok', {}, () => ok('fine'));
    server.registerTool('boom', {}, () => {
      throw new ToolError('No such sheet');
    });
    const low = applyErrorPolicy(new LowLevelServer({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } }), policy);
    low.setRequestHandler(CallToolRequestSchema, () => ok('low'));
    const high = await connect(server);
    const lowLink = await link(low, new Client({ name: 'c', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
    expect(await high.client.callTool({ name: 'ok', arguments: {} })).toEqual(ok('fine'));
    expect(textOf(await high.client.callTool({ name: 'boom', arguments: {} }))).toBe('Error executing tool boom: No such sheet');
    expect(await lowLink.client.callTool({ name: 'any', arguments: {} })).toEqual(ok('low'));
    await high.close();
    await lowLink.close();
    expect(asked).toEqual(['enabled', 'enabled', 'enabled']);
  });

  it('a telemetry that is enabled is asked once a call too, then started once (McpServer and low-level Server)', async () => {
    const asked: string[] = [];
    const leaves: PolicyTelemetry = {
      enabled: () => (asked.push('enabled'), true),
      start: () => (asked.push('start'), undefined), // leaves the call alone: no span
      current: () => (asked.push('current'), undefined),
    };
    const policy = createErrorPolicy({ ...quiet, telemetry: leaves });
    const server = applyErrorPolicy(new McpServer({ name: 's', version: '1.0.0' }), policy);
    server.registerTool('ok', {}, () => ok('fine'));
    const low = applyErrorPolicy(new LowLevelServer({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } }), policy);
    low.setRequestHandler(CallToolRequestSchema, () => ok('low'));
    const high = await connect(server);
    const lowLink = await link(low, new Client({ name: 'c', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
    expect(await high.client.callTool({ name: 'ok', arguments: {} })).toEqual(ok('fine'));
    expect(await lowLink.client.callTool({ name: 'any', arguments: {} })).toEqual(ok('low'));
    await high.close();
    await lowLink.close();
    expect(asked).toEqual(['enabled', 'start', 'enabled', 'start']);
  });

  it('the global providers, registered after the policy was made, are used', async () => {
    const policy = createErrorPolicy({ ...quiet, telemetry: openTelemetry() });
    const telemetry = newTelemetry();
    trace.setGlobalTracerProvider(telemetry.tracerProvider);
    metrics.setGlobalMeterProvider(telemetry.meterProvider);
    await withClientVisibleErrors((_args: object, _extra: object) => ok('x'), { name: 'late', policy })({}, {} as never);
    expect(telemetry.spans().map((s) => s.name)).toEqual(['tools/call late']);
    expect((await telemetry.durations()).map((p) => p.count)).toEqual([1]);
  });

  it('bad options throw a TypeError naming the option', () => {
    expect(() => openTelemetry({ recordExceptions: 'yes' as never })).toThrow(new TypeError('Expected `recordExceptions` to be a boolean, got string'));
    expect(() => openTelemetry({ tracerProvider: {} as never })).toThrow(new TypeError('Expected `tracerProvider` to be a TracerProvider, got object'));
    expect(() => openTelemetry({ meterProvider: 1 as never })).toThrow(new TypeError('Expected `meterProvider` to be a MeterProvider, got number'));
    expect(() => openTelemetry({ sampler: 1 } as never)).toThrow(/^Unknown option `sampler`/);
    expect(() => createErrorPolicy({ telemetry: {} as never })).toThrow(
      new TypeError('Expected `telemetry` to be the result of openTelemetry() (an object with a start function), got object'),
    );
    expect(() => createErrorPolicy({ telemetry: 'otel' as never })).toThrow(/^Expected `telemetry`/);
  });

  it('a telemetry that cannot tell its active call (no current(), one that finds none, frozen handles) still gets one call per request', async () => {
    const recorder = (frozen: boolean, withCurrent: boolean) => {
      const started: string[] = [];
      const ended: (string | undefined)[] = [];
      const telemetry: PolicyTelemetry = {
        start: (call) => {
          started.push(`${call.method} ${call.target ?? ''}`);
          const handle = { run: <T>(fn: () => T): T => fn(), end: (result: { errorType?: string }) => void ended.push(result.errorType) };
          return frozen ? Object.freeze(handle) : handle;
        },
        ...(withCurrent ? { current: () => undefined } : {}),
      };
      return { telemetry, started, ended };
    };
    for (const [frozen, withCurrent] of [[false, false], [false, true], [true, true], [true, false]] as const) {
      const { telemetry, started, ended } = recorder(frozen, withCurrent);
      const policy = createErrorPolicy({ ...quiet, telemetry });
      const server = applyErrorPolicy(new McpServer({ name: 's', version: '1.0.0' }), policy);
      // a hand-wrapped tool inside the server's own wrapper: two wrappers of one call
      server.registerTool('refuse', {}, withClientVisibleErrors(() => {
        throw new ToolError('No such sheet');
      }, { name: 'refuse', policy }));
      server.registerTool('fine', {}, withClientVisibleErrors(() => ok('fine'), { policy }));
      const { client, close } = await connect(server);
      expect(textOf(await client.callTool({ name: 'refuse', arguments: {} }))).toBe('Error executing tool refuse: No such sheet');
      expect(textOf(await client.callTool({ name: 'fine', arguments: {} }))).toBe('fine');
      await close();
      expect([started, ended]).toEqual([
        ['tools/call refuse', 'tools/call fine'],
        ['tool_error', undefined],
      ]);
    }
    // openTelemetry() with a meter provider and no tracer provider: no span context for current() to find
    const metricsOnly = newTelemetry();
    const policy = createErrorPolicy({ ...quiet, telemetry: openTelemetry({ meterProvider: metricsOnly.meterProvider }) });
    const server = applyErrorPolicy(new McpServer({ name: 's', version: '1.0.0' }), policy);
    server.registerTool('fine', {}, withClientVisibleErrors(() => ok('fine'), { policy }));
    const { client, close } = await connect(server);
    await client.callTool({ name: 'fine', arguments: {} });
    await client.callTool({ name: 'fine', arguments: {} });
    await close();
    expect(metricsOnly.spans()).toEqual([]);
    expect((await metricsOnly.durations()).map((p) => p.count)).toEqual([2]);
  });

  it('a telemetry that throws changes nothing in the answer', async () => {
    const throwing: PolicyTelemetry = {
      start: () => ({
        run: (fn) => fn(),
        end: () => {
          throw new Error('exporter down');
        },
      }),
      current: () => {
        throw new Error('no context');
      },
    };
    const broken: PolicyTelemetry = {
      start: () => {
        throw new Error('no tracer');
      },
    };
    for (const telemetry of [throwing, broken]) {
      const policy = createErrorPolicy({ ...quiet, telemetry });
      expect(await withClientVisibleErrors((_args: object, _extra: object) => ok('fine'), { policy })({}, {} as never)).toEqual(ok('fine'));
      const refused = await withClientVisibleErrors((_args: object, _extra: object) => {
        throw new ToolError('nope');
      }, { name: 't', policy })({}, {} as never);
      expect(textOf(refused)).toBe('Error executing tool t: nope');
    }
  });
});

/**
 * openTelemetry() with the real OpenTelemetry SDK, through real SDK v1 and v2 servers and clients in memory: a crash,
 * a deliberate ToolError, a Google 403 (real gaxios against the fake Google server), a success and a missing resource
 * each give exactly one SERVER span, with the convention's name, attributes, status and parent (the client's
 * `_meta.traceparent`), and one histogram point; the crash alone has an exception event; no planted secret is in any
 * exported span or metric.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport as InMemoryTransportV2, McpServer as McpServerV2, ResourceTemplate as ResourceTemplateV2 } from '@modelcontextprotocol/server';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyErrorPolicy, coreRules, createErrorPolicy, ResourceNotFoundError, ToolError, type ErrorPolicy, type LogRecord } from '../../src/index.js';
import { googleRules } from '../../src/google/index.js';
import { openTelemetry } from '../../src/opentelemetry/index.js';
import type { GaxiosModule } from '../google/gaxios-suite.js';
import { SECRETS, useFakeGoogle } from '../google/support.js';
import { GOOGLE_MESSAGES } from '../support/fake-google.js';
import { link } from '../support/link.js';
import { referenceIn, textOf } from '../support/calls.js';
import { activeIds, allText, newTelemetry, registerGlobals, REMOTE, TRACEPARENT, TRACESTATE, view, type SpanView, type Telemetry } from './support.js';

registerGlobals();

/** Planted in thrown errors: none may reach any exported span, event or metric. */
const CANARY = {
  bearer: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJQTEFOVEVEIn0.c2lnbmF0dXJlLXBsYW50ZWQ',
  token: 'ya29.a0AfB_CANARYotelTOKEN0123456789abcdef',
  text: 'CANARY-otel-7f3a',
} as const;

const META = { traceparent: TRACEPARENT, tracestate: TRACESTATE };
const ok = (text: string) => ({ content: [{ type: 'text' as const, text }] });

const google = useFakeGoogle({ isolate: 'allTests' });
let gaxios: GaxiosModule;

beforeAll(async () => {
  gaxios = (await import('gaxios7')) as unknown as GaxiosModule;
});

interface Registrar {
  registerTool(name: string, config: object, cb: (...args: never[]) => unknown): unknown;
}

/** The tools of both servers: the same callbacks, registered the way each SDK takes them. */
function registerTools(server: Registrar, telemetry: Telemetry, seen: { inside?: { traceId: string; spanId: string } | undefined }): void {
  server.registerTool('crash', {}, () => {
    throw new Error(`${CANARY.text}: upstream said ${CANARY.bearer} with ${CANARY.token}`);
  });
  server.registerTool('deliberate', {}, () => {
    throw new ToolError('Sheet name must not be empty');
  });
  server.registerTool('sheets_get', {}, async () => {
    await gaxios.request({ url: google.fake.url(`/v1/forbidden?key=${SECRETS.apiKey}&fields=id`), headers: { Authorization: `Bearer ${SECRETS.accessToken}` }, retry: false });
    return ok('unreachable');
  });
  server.registerTool('ok', {}, async () => {
    seen.inside = activeIds();
    // a library's span, made while the handler runs: it nests under the call's span
    await telemetry.tracerProvider.getTracer('some-library').startActiveSpan('library work', async (span) => {
      await Promise.resolve();
      span.end();
    });
    return ok('fine');
  });
}

function policyFor(telemetry: Telemetry, records: LogRecord[]): ErrorPolicy {
  return createErrorPolicy({
    rules: [...googleRules, ...coreRules],
    logger: (record) => records.push(record),
    telemetry: openTelemetry({ tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider }),
  });
}

const REQUEST_ID = expect.stringMatching(/^\d+$/) as unknown as string;
const CORRELATION_ID = expect.stringMatching(/^[0-9a-f]{12}$/) as unknown as string;

type ExpectedSpan = Omit<SpanView, 'traceId' | 'spanId'>;

/** A SERVER span parented on the client's `_meta.traceparent`. */
function serverSpan(name: string, attributes: SpanView['attributes'], status: SpanView['status'], events: SpanView['events'] = []): ExpectedSpan {
  return { name, kind: SpanKind.SERVER, attributes, status, events, parent: REMOTE.spanId, links: [] };
}

/** The attributes of a failure a rule anticipated (its correlation id random). */
function anticipated(rule: string, code: string): SpanView['attributes'] {
  return {
    'mcp_error_policy.failure.kind': 'anticipated',
    'mcp_error_policy.rule': rule,
    'mcp_error_policy.failure.code': code,
    'mcp_error_policy.failure.retryable': false,
    'mcp_error_policy.correlation_id': CORRELATION_ID,
  };
}

/** The five spans both SDKs agree on, but for what each SDK answers for the missing resource and its version. */
function expected(
  protocol: Record<string, string>,
  crashReference: string,
  googleText: string,
  missing: { code: string },
  notFoundCode: string,
): ExpectedSpan[] {
  const tool = (name: string) => ({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': name, 'gen_ai.operation.name': 'execute_tool', 'jsonrpc.request.id': REQUEST_ID, ...protocol });
  const read = (uri: string) => ({ 'mcp.method.name': 'resources/read', 'mcp.resource.uri': uri, 'jsonrpc.request.id': REQUEST_ID, ...protocol });
  return [
    serverSpan(
      'tools/call crash',
      {
        ...tool('crash'),
        'error.type': 'tool_error',
        'mcp_error_policy.failure.kind': 'crash',
        'mcp_error_policy.failure.code': 'internal',
        'mcp_error_policy.failure.retryable': false,
        'mcp_error_policy.correlation_id': crashReference,
        'mcp_error_policy.reference': crashReference,
      },
      { code: SpanStatusCode.ERROR, message: `Error executing tool crash (reference ${crashReference})` },
      [
        {
          name: 'exception',
          attributes: {
            'exception.type': 'Error',
            'exception.message': expect.stringContaining(CANARY.text) as unknown as string,
            'exception.stacktrace': expect.stringMatching(/^ {4}at .*spans\.test\.ts:\d+:\d+/) as unknown as string,
          },
        },
      ],
    ),
    serverSpan(
      'tools/call deliberate',
      { ...tool('deliberate'), 'error.type': 'tool_error', ...anticipated('deliberate', 'tool_error') },
      { code: SpanStatusCode.ERROR, message: 'Error executing tool deliberate: Sheet name must not be empty' },
    ),
    serverSpan(
      'tools/call sheets_get',
      { ...tool('sheets_get'), 'error.type': 'tool_error', ...anticipated('google-api-error', expect.any(String) as unknown as string) },
      { code: SpanStatusCode.ERROR, message: googleText },
    ),
    {
      name: 'library work',
      kind: SpanKind.INTERNAL,
      attributes: {},
      status: { code: SpanStatusCode.UNSET },
      events: [],
      parent: 'the ok span',
      links: [],
    },
    serverSpan('tools/call ok', tool('ok'), { code: SpanStatusCode.UNSET }),
    // caller errors (-32602, -32002): the code, no error.type and no error status (the server did nothing wrong)
    serverSpan(
      'resources/read',
      { ...read('sheet://missing'), 'rpc.response.status_code': missing.code, 'mcp_error_policy.failure.kind': 'unclassified' },
      { code: SpanStatusCode.UNSET },
    ),
    serverSpan(
      'resources/read',
      { ...read('gone://gone'), 'rpc.response.status_code': notFoundCode, ...anticipated('resource-not-found', 'resource_not_found') },
      { code: SpanStatusCode.UNSET },
    ),
    serverSpan(
      'prompts/get summary',
      { 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'summary', 'jsonrpc.request.id': REQUEST_ID, ...protocol },
      { code: SpanStatusCode.UNSET },
    ),
  ];
}

async function run(
  call: (name: string) => Promise<unknown>,
  read: (uri: string) => Promise<unknown>,
  prompt: (name: string) => Promise<unknown>,
  telemetry: Telemetry,
): Promise<{ crashText: string; googleText: string }> {
  const crashText = textOf(await call('crash'));
  expect(textOf(await call('deliberate'))).toBe('Error executing tool deliberate: Sheet name must not be empty');
  const googleText = textOf(await call('sheets_get'));
  expect(googleText).toContain(GOOGLE_MESSAGES.permissionDenied);
  expect(textOf(await call('ok'))).toBe('fine');
  await expect(read('sheet://missing')).rejects.toThrow();
  await expect(read('gone://gone')).rejects.toThrow('No sheet named gone');
  await prompt('summary');
  void telemetry;
  return { crashText, googleText };
}

function spanViews(telemetry: Telemetry): SpanView[] {
  const spans = telemetry.spans().map(view);
  const okSpan = spans.find((s) => s.name === 'tools/call ok');
  return spans.map((s) => (s.name === 'library work' && s.parent === okSpan?.spanId ? { ...s, parent: 'the ok span' } : s));
}

function expectNoSecret(text: string): void {
  for (const secret of [CANARY.bearer, CANARY.token, 'c2lnbmF0dXJlLXBsYW50ZWQ', SECRETS.apiKey, SECRETS.accessToken]) expect(text).not.toContain(secret);
}

describe.each(['v1', 'v2'] as const)('openTelemetry() under applyErrorPolicy, SDK %s, in memory', (sdk) => {
  let telemetry: Telemetry;
  const records: LogRecord[] = [];
  const seen: { inside?: { traceId: string; spanId: string } | undefined } = {};
  let call: (name: string) => Promise<unknown>;
  let read: (uri: string) => Promise<unknown>;
  let prompt: (name: string) => Promise<unknown>;
  let close: () => Promise<void>;

  beforeEach(async () => {
    telemetry = newTelemetry();
    records.length = 0;
    // the same server either way, built from each SDK's own classes
    const server = sdk === 'v1' ? new McpServer({ name: 'otel-v1', version: '1.0.0' }) : (new McpServerV2({ name: 'otel-v2', version: '1.0.0' }) as unknown as McpServer);
    const Template = sdk === 'v1' ? ResourceTemplate : (ResourceTemplateV2 as unknown as typeof ResourceTemplate);
    applyErrorPolicy(server, policyFor(telemetry, records));
    registerTools(server as unknown as Registrar, telemetry, seen);
    server.registerResource('sheet', 'sheet://known', {}, () => ({ contents: [] }));
    server.registerResource('gone', new Template('gone://{name}', { list: undefined }), {}, (uri: URL) => {
      throw new ResourceNotFoundError(`No sheet named ${uri.host}`);
    });
    server.registerPrompt('summary', {}, () => ({ messages: [] }));
    const linked =
      sdk === 'v1'
        ? await link(server, new Client({ name: 'c', version: '1.0.0' }), InMemoryTransport.createLinkedPair())
        : await link(server, new ClientV2({ name: 'c', version: '1.0.0' }) as unknown as Client, InMemoryTransportV2.createLinkedPair());
    call = (name) => linked.client.callTool({ name, arguments: {}, _meta: META });
    read = (uri) => linked.client.readResource({ uri, _meta: META });
    prompt = (name) => linked.client.getPrompt({ name, _meta: META });
    close = linked.close;
  });

  it('one SERVER span per call, parented on _meta.traceparent, with the convention attributes; no secret exported', async () => {
    const { crashText, googleText } = await run(call, read, prompt, telemetry);
    const reference = referenceIn(crashText);
    const spans = spanViews(telemetry);
    const points = await telemetry.durations();
    await close();
    // what each SDK answers itself for a URI nothing serves (SDK 1.32 answers -32602, not the -32002 of older 1.x)
    const missing = { code: '-32602' };
    const protocol: Record<string, string> = sdk === 'v2' ? { 'mcp.protocol.version': expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) as unknown as string } : {};
    expect(spans).toEqual(
      expected(protocol, reference, googleText, missing, sdk === 'v1' ? '-32002' : '-32602').map((s) => ({
        ...s,
        traceId: REMOTE.traceId,
        spanId: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown as string,
      })),
    );
    // the handler ran inside its span
    expect(seen.inside).toEqual({ traceId: REMOTE.traceId, spanId: spans.find((s) => s.name === 'tools/call ok')?.spanId });
    // one histogram point per call, in seconds, with error.type on the server's failures only, the code on every error
    // (SDK v2 answers both failed reads -32602: one series of two)
    const reads = sdk === 'v1' ? [['resources/read', undefined, '-32602', 1, 's'], ['resources/read', undefined, '-32002', 1, 's']] : [['resources/read', undefined, '-32602', 2, 's']];
    const name = (p: (typeof points)[number]) => p.attributes['gen_ai.tool.name'] ?? p.attributes['gen_ai.prompt.name'] ?? p.attributes['mcp.method.name'];
    expect(points.map((p) => [name(p), p.attributes['error.type'], p.attributes['rpc.response.status_code'], p.count, p.unit])).toEqual([
      ['crash', 'tool_error', undefined, 1, 's'],
      ['deliberate', 'tool_error', undefined, 1, 's'],
      ['sheets_get', 'tool_error', undefined, 1, 's'],
      ['ok', undefined, undefined, 1, 's'],
      ...reads,
      ['summary', undefined, undefined, 1, 's'],
    ]);
    expect(records.map((r) => [r.name, r.kind])).toEqual([
      ['crash', 'crash'],
      ['deliberate', 'anticipated'],
      ['sheets_get', 'anticipated'],
      ['gone://gone', 'anticipated'],
    ]);
    expectNoSecret(allText(telemetry.spans(), points));
    // the records carry the crash's text; the telemetry only its scrubbed form, in the exception event
    expect(allText(telemetry.spans())).not.toContain(CANARY.token);
  });
});

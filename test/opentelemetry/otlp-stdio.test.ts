/**
 * End to end over stdio and OTLP: a server subprocess (SDK v1, and SDK v2) under applyErrorPolicy with
 * `openTelemetry()` and a real OTLP/HTTP exporter, a real Client (v1, and v2) over stdio sending `_meta.traceparent`,
 * and an OTLP receiver on 127.0.0.1 that collects what the exporter sends. Each call is exactly one SERVER span in the
 * client's trace, with the convention's attributes, and the planted token is nowhere in what reached the collector.
 * Under the compatibility matrix (COMPAT_DEPS) the subprocess gets test/compat/redirect.mjs and reports which
 * OpenTelemetry copies it loaded; they must be the ones the cell asked for.
 */
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otelMismatches, type OtelLoaded } from '../compat/otel-loaded.js';
import { listenOnLoopback, readRequestBody, type Listening } from '../support/loopback.js';
import { referenceIn, textOf } from '../support/calls.js';
import { REMOTE, TRACEPARENT } from './support.js';

const fixture = fileURLToPath(new URL('./fixtures/otlp-server.ts', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const REDIRECT = fileURLToPath(new URL('../compat/redirect.mjs', import.meta.url));
const CANARY_TOKEN = 'ya29.a0AfB_CANARYstdioOTLP0123456789abcdef';

interface OtlpValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  startTimeUnixNano: string | number;
  name: string;
  kind: number;
  attributes: { key: string; value: OtlpValue }[];
  status: { code?: number; message?: string };
  events: { name: string; attributes: { key: string; value: OtlpValue }[] }[];
}

let receiver: Listening;
let origin = '';
const bodies: string[] = [];

beforeAll(async () => {
  const server: Server = createServer((req, res) => {
    void readRequestBody(req).then((body) => {
      if (req.method === 'POST' && req.url === '/v1/traces') bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  receiver = await listenOnLoopback(server);
  origin = receiver.origin;
});

afterAll(async () => {
  await receiver.close();
});

function received(): OtlpSpan[] {
  const spans: OtlpSpan[] = [];
  for (const body of bodies) {
    const parsed = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
    for (const resource of parsed.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
  }
  // one export request per span: they may arrive in any order
  return spans.sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1));
}

function attributes(list: readonly { key: string; value: OtlpValue }[]): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, value.stringValue ?? value.boolValue ?? value.intValue]));
}

async function until(done: () => boolean): Promise<void> {
  const end = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > end) throw new Error(`the collector got ${received().length} spans`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface AnyClient {
  callTool(params: { name: string; arguments: object; _meta: object }): Promise<unknown>;
  readResource(params: { uri: string; _meta: object }): Promise<unknown>;
  close(): Promise<void>;
}

describe.each(['v1', 'v2'] as const)('SDK %s over stdio, exporting OTLP/HTTP to 127.0.0.1', (sdk) => {
  it('one SERVER span per call in the client trace, with the convention attributes; the canary never exported', async () => {
    bodies.length = 0;
    const env = { ...(process.env as Record<string, string>), NODE_ENV: 'production', OTLP_URL: `${origin}/v1/traces`, MCP_SDK: sdk };
    // under the compatibility matrix, the subprocess resolves OpenTelemetry (and the MCP SDKs) as the tests do
    const deps = process.env['COMPAT_DEPS'];
    const redirect = deps === undefined || deps === '' ? [] : ['--import', REDIRECT];
    const options = { command: process.execPath, args: ['--import', 'tsx', ...redirect, fixture], cwd: root, env, stderr: 'pipe' as const };
    let stderr = '';
    const onStderr = (chunk: Buffer): void => {
      stderr += chunk.toString('utf8');
    };
    let client: AnyClient;
    if (sdk === 'v1') {
      const c = new Client({ name: 'otlp-test', version: '1.0.0' });
      const transport = new StdioClientTransport(options);
      transport.stderr?.on('data', onStderr);
      await c.connect(transport);
      client = c as unknown as AnyClient;
    } else {
      const c = new ClientV2({ name: 'otlp-test', version: '1.0.0' });
      const transport = new StdioClientTransportV2(options);
      transport.stderr?.on('data', onStderr);
      await c.connect(transport);
      client = c as unknown as AnyClient;
    }
    const _meta = { traceparent: TRACEPARENT };
    try {
      const crash = textOf(await client.callTool({ name: 'crash', arguments: {}, _meta }));
      const reference = referenceIn(crash);
      expect(crash).not.toContain(CANARY_TOKEN);
      expect(textOf(await client.callTool({ name: 'deliberate', arguments: {}, _meta }))).toBe('Error executing tool deliberate: Sheet name must not be empty');
      expect(textOf(await client.callTool({ name: 'ok', arguments: {}, _meta }))).toBe('fine');
      await expect(client.readResource({ uri: 'doc://gone', _meta })).rejects.toThrow('No document doc://gone');
      await until(() => received().length >= 4);
      await new Promise((resolve) => setTimeout(resolve, 200)); // a second span per call would be there by now
      const spans = received();
      const code = sdk === 'v1' ? '-32002' : '-32602';
      const version = sdk === 'v2' ? { 'mcp.protocol.version': expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) as unknown } : {};
      expect(spans.map((s) => ({ name: s.name, kind: s.kind, traceId: s.traceId, parent: s.parentSpanId, status: s.status, events: s.events.map((e) => e.name) }))).toEqual([
        { name: 'tools/call crash', kind: 2, traceId: REMOTE.traceId, parent: REMOTE.spanId, status: { code: 2, message: `Error executing tool crash (reference ${reference})` }, events: ['exception'] },
        { name: 'tools/call deliberate', kind: 2, traceId: REMOTE.traceId, parent: REMOTE.spanId, status: { code: 2, message: 'Error executing tool deliberate: Sheet name must not be empty' }, events: [] },
        { name: 'tools/call ok', kind: 2, traceId: REMOTE.traceId, parent: REMOTE.spanId, status: { code: 0 }, events: [] },
        // a caller's error (resource not found): no error status
        { name: 'resources/read', kind: 2, traceId: REMOTE.traceId, parent: REMOTE.spanId, status: { code: 0 }, events: [] },
      ]);
      expect(spans.map((s) => attributes(s.attributes))).toEqual([
        {
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': 'crash',
          'gen_ai.operation.name': 'execute_tool',
          'jsonrpc.request.id': expect.stringMatching(/^\d+$/),
          ...version,
          'error.type': 'tool_error',
          'mcp_error_policy.failure.kind': 'crash',
          'mcp_error_policy.failure.code': 'internal',
          'mcp_error_policy.failure.retryable': false,
          'mcp_error_policy.correlation_id': reference,
          'mcp_error_policy.reference': reference,
        },
        {
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': 'deliberate',
          'gen_ai.operation.name': 'execute_tool',
          'jsonrpc.request.id': expect.stringMatching(/^\d+$/),
          ...version,
          'error.type': 'tool_error',
          'mcp_error_policy.failure.kind': 'anticipated',
          'mcp_error_policy.rule': 'deliberate',
          'mcp_error_policy.failure.code': 'tool_error',
          'mcp_error_policy.failure.retryable': false,
          'mcp_error_policy.correlation_id': expect.stringMatching(/^[0-9a-f]{12}$/),
        },
        { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'ok', 'gen_ai.operation.name': 'execute_tool', 'jsonrpc.request.id': expect.stringMatching(/^\d+$/), ...version },
        {
          'mcp.method.name': 'resources/read',
          'mcp.resource.uri': 'doc://gone',
          'jsonrpc.request.id': expect.stringMatching(/^\d+$/),
          ...version,
          'rpc.response.status_code': code,
          'mcp_error_policy.failure.kind': 'anticipated',
          'mcp_error_policy.rule': 'resource-not-found',
          'mcp_error_policy.failure.code': 'resource_not_found',
          'mcp_error_policy.failure.retryable': false,
          'mcp_error_policy.correlation_id': expect.stringMatching(/^[0-9a-f]{12}$/),
        },
      ]);
      const exception = attributes(spans[0]?.events[0]?.attributes ?? []);
      expect(exception['exception.message']).toContain('CANARY-stdio-otlp');
      expect(bodies.join('\n')).not.toContain(CANARY_TOKEN);
      expect(bodies.join('\n')).not.toContain('a0AfB_CANARY');
      // the subprocess loaded the OpenTelemetry copies asked for (the matrix's COMPAT_EXPECT_OTEL_*), src/opentelemetry
      // the same API copy as the SDK
      const line = /^\[otel-loaded\] (.*)$/m.exec(stderr)?.[1];
      expect(line, stderr).toBeDefined();
      expect(otelMismatches(JSON.parse(line ?? '{}') as OtelLoaded)).toEqual([]);
    } finally {
      await client.close();
    }
  }, 30_000);
});

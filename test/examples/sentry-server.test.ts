import { createServer, type IncomingMessage } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport as InMemoryTransportV2, McpServer as McpServerV2, ResourceTemplate as ResourceTemplateV2 } from '@modelcontextprotocol/server';
import * as Sentry from '@sentry/node';
import { applyErrorPolicy, createErrorPolicy, ResourceError, ToolError } from 'mcp-error-policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { link } from '../support/link.js';
import { listenOnLoopback, type Listening } from '../support/loopback.js';
import { startExample, type RunningExample } from '../support/stdio.js';

/** The planted credential: the crashing tool puts it into its error message, inside a URL's `key=` query value. */
const CANARY = 'canary-5e1f0c7d9a3b42d8b6e4';

/** One item of a Sentry envelope: its header and its JSON payload. */
interface Item {
  readonly header: { readonly type: string } & Record<string, unknown>;
  readonly payload: Record<string, unknown>;
}

/**
 * Parses a Sentry envelope: a JSON header line, then items, each a JSON header line and a payload of `length` bytes
 * when the header gives one, else up to the next newline.
 */
function parseEnvelope(body: Buffer): Item[] {
  let at = body.indexOf(0x0a);
  if (at === -1) return [];
  const items: Item[] = [];
  while (at < body.length - 1) {
    const start = at + 1;
    const headerEnd = body.indexOf(0x0a, start);
    if (headerEnd === -1) break;
    const header = JSON.parse(body.subarray(start, headerEnd).toString('utf8')) as Item['header'];
    const length = typeof header['length'] === 'number' ? header['length'] : undefined;
    const payloadEnd = length === undefined ? (body.indexOf(0x0a, headerEnd + 1) === -1 ? body.length : body.indexOf(0x0a, headerEnd + 1)) : headerEnd + 1 + length;
    items.push({ header, payload: JSON.parse(body.subarray(headerEnd + 1, payloadEnd).toString('utf8')) as Record<string, unknown> });
    at = payloadEnd;
  }
  return items;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  return request.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
}

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content[0]!.text;
}

describe('examples/sentry-server.ts over stdio, Sentry sending to 127.0.0.1', () => {
  /** What the fake Sentry received: every envelope body (decompressed), in order. */
  const bodies: Buffer[] = [];
  const paths: string[] = [];
  let sentry: Listening;
  let example: RunningExample;

  beforeAll(async () => {
    sentry = await listenOnLoopback(
      createServer((request, response) => {
        paths.push(`${request.method ?? ''} ${new URL(request.url ?? '/', 'http://127.0.0.1').pathname}`);
        void bodyOf(request).then((body) => {
          bodies.push(body);
          response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        });
      }),
    );
    example = await startExample('examples/sentry-server.ts', {
      SENTRY_DSN: `http://publickey@127.0.0.1:${sentry.port}/1`,
      RATES_API_KEY: CANARY,
    });
  });

  afterAll(async () => {
    await example?.close();
    await sentry?.close();
  });

  it('sends one event per crash, tagged with the reference the client saw; none for anticipated failures; no secret', async () => {
    const client = example.client;
    expect(await client.callTool({ name: 'convert', arguments: { amount: 10, from: 'EUR', to: 'USD' } })).toEqual({
      content: [{ type: 'text', text: '10.80 USD' }],
    });
    const deliberate = await client.callTool({ name: 'convert', arguments: { amount: 10, from: 'EUR', to: 'XYZ' } });
    expect(deliberate).toMatchObject({ content: [{ type: 'text', text: 'Error executing tool convert: Unknown currency: XYZ' }], isError: true });
    // A credential in an argument: Sentry's MCP spans record arguments (recordInputs defaults to true).
    expect(await client.callTool({ name: 'convert', arguments: { amount: 1, from: 'EUR', to: `key=${CANARY}` } })).toMatchObject({
      content: [{ type: 'text', text: 'Error executing tool convert: Unknown currency: key=[REDACTED]' }],
      isError: true,
    });
    const crash = await client.callTool({ name: 'refresh_rates', arguments: {} });
    expect(crash).toMatchObject({ isError: true });
    const reference = /^Error executing tool refresh_rates \(reference ([0-9a-f]{12})\)$/.exec(textOf(crash))?.[1];
    expect(reference, textOf(crash)).toBeDefined();
    expect(JSON.stringify(crash)).not.toContain(CANARY);
    expect(await client.readResource({ uri: 'rates://USD' })).toEqual({ contents: [{ uri: 'rates://USD', text: '1.0800' }] });
    await expect(client.readResource({ uri: 'rates://usd' })).rejects.toMatchObject({
      code: -32603,
      message: 'MCP error -32603: Currency codes are three capital letters',
    });
    const resourceCrash = (await client.readResource({ uri: 'rates://XYZ' }).catch((error: unknown) => error)) as { code: number; message: string };
    const resourceReference = /^MCP error -32603: Error reading resource rates:\/\/XYZ \(reference ([0-9a-f]{12})\)$/.exec(resourceCrash.message)?.[1];
    expect(resourceReference, resourceCrash.message).toBeDefined();

    // The example flushes Sentry when stdin ends, then exits; close() waits for the process to end.
    await example.close();

    const items = bodies.flatMap(parseEnvelope);
    expect(new Set(paths)).toEqual(new Set(['POST /api/1/envelope/']));
    const events = items.filter((item) => item.header.type === 'event').map((item) => item.payload as Record<string, any>);
    // One event per crash (the tool's and the resource's); none for the ToolError, the ResourceError or the successes.
    const tagOf = (e: Record<string, any>): string =>
      e.tags?.['mcp_error_policy.reference'] ?? `untagged ${String(e.exception?.values?.[0]?.type)}: ${String(e.exception?.values?.[0]?.value)}`;
    expect(events.map(tagOf).sort()).toEqual([reference, resourceReference].sort());
    const event = events.find((e) => e.tags['mcp_error_policy.reference'] === reference)!;
    expect(event.tags).toMatchObject({ 'mcp.handler': 'tool', 'mcp.name': 'refresh_rates' });
    const [exception] = event.exception.values as [Record<string, any>];
    expect(exception).toMatchObject({
      type: 'Error',
      value: 'GET https://rates.example/v1/latest?key=[REDACTED] returned a body that is not JSON',
      mechanism: { type: 'mcp_error_policy', handled: false },
    });
    const resourceEvent = events.find((e) => e.tags['mcp_error_policy.reference'] === resourceReference)!;
    expect(resourceEvent.tags).toMatchObject({ 'mcp.handler': 'resource', 'mcp.name': 'rates://XYZ' });
    expect(resourceEvent.exception.values).toMatchObject([{ type: 'TypeError', mechanism: { type: 'mcp_error_policy' } }]);
    expect(exception.stacktrace.frames.length).toBeGreaterThan(0);

    // Sentry's MCP instrumentation traced each call (spans stream in v2 span items); the crash event belongs to the
    // trace of its tools/call span.
    const spans = items.filter((item) => item.header.type === 'span').flatMap((item) => item.payload['items'] as Record<string, any>[]);
    const toolSpans = spans.filter((span) => (span.name as string).startsWith('tools/call'));
    expect(toolSpans.map((span) => span.name as string).sort()).toEqual(['tools/call convert', 'tools/call convert', 'tools/call convert', 'tools/call refresh_rates']);
    const crashSpan = toolSpans.find((span) => span.name === 'tools/call refresh_rates')!;
    expect(event.contexts.trace.trace_id).toBe(crashSpan.trace_id);
    expect(crashSpan.attributes['error.type']).toEqual({ value: 'tool_error', type: 'string' });
    expect(JSON.stringify(toolSpans)).toContain('key=[REDACTED]');

    // Nothing Sentry received holds the credential: not the event, not a span, not a header.
    for (const body of bodies) expect(body.toString('utf8')).not.toContain(CANARY);

    // The policy's one log record carries the same reference.
    expect(example.stderr()).toContain(`tool "refresh_rates" crashed (reference ${reference})`);
    expect(example.stderr()).not.toContain(CANARY);
  });
});

/**
 * Where Sentry's handler wrappers sit relative to the policy's decides what Sentry gets. Sentry marks an error it
 * captured, and ignores a second capture of the same error: when its wrapper runs inside the policy's, it captures
 * the raw error first (untagged, anticipated failures included), and the `onOutcome` hook's capture is ignored.
 */
describe('Sentry and applyErrorPolicy in one process: the order of wrapping', () => {
  /** What beforeSend saw: `<handler kind> <reference>` for the hook's events, `raw <type>: <message>` for Sentry's own captures. */
  const seen: string[] = [];
  let dropSentryCaptures = true;

  beforeAll(async () => {
    // Nothing is sent: beforeSend records and drops every event. The DSN's port is closed.
    Sentry.init({
      dsn: 'http://publickey@127.0.0.1:9/1',
      defaultIntegrations: false,
      beforeSend: (event) => {
        const [exception] = event.exception?.values ?? [];
        const sentryOwn = exception?.mechanism?.type === 'auto.ai.mcp_server' && exception.mechanism.data?.['error_type'] !== 'transport';
        if (!(sentryOwn && dropSentryCaptures)) {
          seen.push(sentryOwn ? `raw ${String(exception?.type)}: ${String(exception?.value)}` : `${String(event.tags?.['mcp.handler'])} ${String(event.tags?.['mcp_error_policy.reference'])}`);
        }
        return null;
      },
    });
  });

  afterAll(async () => {
    await Sentry.close();
  });

  type Step = 'sentry' | 'policy' | 'register';

  /** Builds a server in the order `steps`, calls a crashing tool, a ToolError tool, a crashing resource and prompt. */
  async function run(steps: readonly Step[], sdk: 'v1' | 'v2' = 'v1'): Promise<{ seen: string[]; references: string[] }> {
    seen.length = 0;
    // The two SDKs' McpServer and Client differ in their types, not in what this test uses.
    const server: any = sdk === 'v1' ? new McpServer({ name: 'order', version: '1.0.0' }) : new McpServerV2({ name: 'order', version: '1.0.0' });
    const Template: any = sdk === 'v1' ? ResourceTemplate : ResourceTemplateV2;
    const policy = createErrorPolicy({
      logger: () => undefined,
      onOutcome: ({ kind, name, classification }) => {
        if (classification?.kind !== 'crash') return;
        Sentry.captureException(classification.error, {
          captureContext: { tags: { 'mcp_error_policy.reference': classification.reference, 'mcp.handler': kind, 'mcp.name': name } },
          mechanism: { type: 'mcp_error_policy', handled: false },
        });
      },
    });
    const actions: Record<Step, () => void> = {
      sentry: () => Sentry.wrapMcpServerWithSentry(server),
      policy: () => applyErrorPolicy(server, policy),
      register: () => {
        server.registerTool('crash', {}, () => {
          throw new Error('tool bug');
        });
        server.registerTool('deliberate', {}, () => {
          throw new ToolError('Not allowed');
        });
        server.registerResource('item', new Template('items://{id}', { list: undefined }), {}, (_uri: URL, { id }: { id: string }) => {
          if (id === 'bad') throw new ResourceError('Bad item id');
          throw new Error('resource bug');
        });
        server.registerPrompt('summary', {}, () => {
          throw new Error('prompt bug');
        });
      },
    };
    for (const step of steps) actions[step]();
    const linked =
      sdk === 'v1'
        ? await link(server, new Client({ name: 'order-test', version: '1.0.0' }), InMemoryTransport.createLinkedPair())
        : await link(server, new ClientV2({ name: 'order-test', version: '1.0.0' }), InMemoryTransportV2.createLinkedPair());
    const client: Client = linked.client as Client;
    const references: string[] = [];
    const referenceIn = (text: string): void => {
      const found = /\(reference ([0-9a-f]{12})\)/.exec(text)?.[1];
      if (found !== undefined) references.push(found);
    };
    referenceIn(textOf(await client.callTool({ name: 'crash', arguments: {} })));
    await client.callTool({ name: 'deliberate', arguments: {} });
    await client.readResource({ uri: 'items://bad' }).catch(() => undefined);
    referenceIn(((await client.readResource({ uri: 'items://7' }).catch((error: unknown) => error)) as Error).message);
    referenceIn(((await client.getPrompt({ name: 'summary' }).catch((error: unknown) => error)) as Error).message);
    await linked.close();
    await Sentry.flush();
    return { seen: [...seen], references };
  }

  it('Sentry first, then the policy, then the handlers: each crash once, tagged with its reference; nothing else', async () => {
    const { seen: events, references } = await run(['sentry', 'policy', 'register']);
    expect(references).toHaveLength(3);
    expect(events).toEqual([`tool ${references[0]}`, `resource ${references[1]}`, `prompt ${references[2]}`]);
    dropSentryCaptures = false;
    try {
      // what beforeSend drops in this order: no tool failure; the policy's JSON-RPC errors, anticipated ones included
      const unfiltered = await run(['sentry', 'policy', 'register']);
      const [, resource, prompt] = unfiltered.references;
      expect(unfiltered.seen.filter((event) => event.startsWith('raw ')).sort()).toEqual(
        [
          'raw ProtocolError: Bad item id',
          'raw JsonRpcError_-32603: Bad item id',
          `raw ProtocolError: Error reading resource items://7 (reference ${resource})`,
          `raw JsonRpcError_-32603: Error reading resource items://7 (reference ${resource})`,
          `raw ProtocolError: Error getting prompt summary (reference ${prompt})`,
          `raw JsonRpcError_-32603: Error getting prompt summary (reference ${prompt})`,
        ].sort(),
      );
    } finally {
      dropSentryCaptures = true;
    }
  });

  it('the same on SDK v2 (@modelcontextprotocol/server): Sentry first, then the policy, then the handlers', async () => {
    const { seen: events, references } = await run(['sentry', 'policy', 'register'], 'v2');
    expect(references).toHaveLength(3);
    expect(events).toEqual([`tool ${references[0]}`, `resource ${references[1]}`, `prompt ${references[2]}`]);
    expect((await run(['policy', 'sentry', 'register'], 'v2')).seen).toEqual([]);
  });

  it('the policy first, then Sentry: Sentry captures the raw errors first, so the hook reports nothing', async () => {
    expect((await run(['policy', 'sentry', 'register'])).seen).toEqual([]);
    dropSentryCaptures = false;
    try {
      // what Sentry's own captures are: untagged raw errors, the ToolError and the ResourceError included
      expect((await run(['policy', 'sentry', 'register'])).seen).toEqual(
        expect.arrayContaining(['raw Error: tool bug', 'raw ToolError: Not allowed', 'raw ResourceError: Bad item id', 'raw Error: resource bug']),
      );
    } finally {
      dropSentryCaptures = true;
    }
  });

  it('handlers registered between Sentry and the policy: Sentry sits inside the policy, and the hook reports nothing', async () => {
    expect((await run(['sentry', 'register', 'policy'])).seen).toEqual([]);
  });
});

/**
 * SDK v2 over Streamable HTTP on 127.0.0.1: `@modelcontextprotocol/server`'s McpServer with applyErrorPolicy behind a
 * node:http server on 127.0.0.1 (test/support/fetch-server.ts; through v2's web-standard transport, stateless: a server per request, as v2 documents it),
 * and `@modelcontextprotocol/client`'s StreamableHTTPClientTransport. The client texts are the ones the in-memory v2
 * table expects, and each failure is logged once.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer, ResourceTemplate, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyErrorPolicy, createErrorPolicy, ResourceNotFoundError, ToolError, type LogRecord } from '../../src/index.js';
import { FAILURE_KEY, REFERENCE, rpcError } from '../support/calls.js';
import { serveFetch } from '../support/fetch-server.js';
import type { Listening } from '../support/loopback.js';

const CANARY = 'CANARY-v2-http-91c3';
const records: LogRecord[] = [];
const policy = createErrorPolicy({ logger: (record) => records.push(record) });

function serverForRequest(): McpServer {
  const server = new McpServer({ name: 'v2-http', version: '1.0.0' });
  applyErrorPolicy(server, policy);
  server.registerTool('rename', { inputSchema: z.object({ to: z.string() }) }, ({ to }) => {
    if (to === '') throw new ToolError('A sheet name must not be empty');
    throw new Error(`${CANARY} lock held at /var/lib/sheets`);
  });
  server.registerResource('sheet', new ResourceTemplate('sheet://{id}', { list: undefined }), {}, (_uri, { id }) => {
    throw new ResourceNotFoundError(`No sheet named ${String(id)}`);
  });
  server.registerPrompt('summary', {}, () => {
    throw new TypeError(CANARY);
  });
  return server;
}

/** The web-standard transport: one McpServer and transport per request (stateless). */
async function handle(request: Request): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await serverForRequest().connect(transport);
  return transport.handleRequest(request);
}

let http: Listening;
let client: Client;
beforeAll(async () => {
  http = await serveFetch(handle);
  client = new Client({ name: 'v2-http-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${http.origin}/mcp`)));
});
afterAll(async () => {
  await client.close();
  await http.close();
});

describe('applyErrorPolicy on SDK v2 over Streamable HTTP (stateless)', () => {
  it('shows a ToolError, masks a crash, answers a missing resource and a crashed prompt, each logged once', async () => {
    records.length = 0;
    const deliberate = await client.callTool({ name: 'rename', arguments: { to: '' } });
    expect(deliberate).toEqual({
      _meta: { [FAILURE_KEY]: { code: 'tool_error', retryable: false, correlationId: expect.stringMatching(REFERENCE) } },
      content: [{ type: 'text', text: 'Error executing tool rename: A sheet name must not be empty' }],
      isError: true,
    });
    const crash = (await client.callTool({ name: 'rename', arguments: { to: 'x' } })) as { content: { text: string }[]; _meta: Record<string, unknown> };
    const reference = /^Error executing tool rename \(reference ([0-9a-f]{12})\)$/.exec(crash.content[0]!.text)?.[1];
    expect(reference, crash.content[0]!.text).toBeDefined();
    expect(crash._meta).toEqual({ [FAILURE_KEY]: { code: 'internal', retryable: false, correlationId: reference } });
    expect(JSON.stringify(crash)).not.toContain(CANARY);
    const missing = await rpcError(client.readResource({ uri: 'sheet://q9' }));
    expect(missing).toEqual({
      code: -32602,
      message: 'No sheet named q9',
      data: { uri: 'sheet://q9' },
    });
    const prompt = await rpcError(client.getPrompt({ name: 'summary' }));
    expect(prompt.code).toBe(-32603);
    const promptReference = /^Error getting prompt summary \(reference ([0-9a-f]{12})\)$/.exec(prompt.message)?.[1];
    expect(promptReference, prompt.message).toBeDefined();
    expect(prompt.data).toEqual({ [FAILURE_KEY]: { code: 'internal', retryable: false, correlationId: promptReference } });
    expect(prompt.message).not.toContain(CANARY);
    expect(records.map((r) => [r.level, r.handler, r.name, r.kind, r.correlationId])).toEqual([
      ['info', 'tool', 'rename', 'anticipated', (deliberate._meta as Record<string, { correlationId: string }>)[FAILURE_KEY]!.correlationId],
      ['error', 'tool', 'rename', 'crash', reference],
      ['info', 'resource', 'sheet://q9', 'anticipated', expect.stringMatching(REFERENCE)],
      ['error', 'prompt', 'summary', 'crash', promptReference],
    ]);
    expect(records[1]!.reference).toBe(reference);
  });
});

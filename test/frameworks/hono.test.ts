/**
 * @hono/mcp: a Hono app serves an McpServer of `@modelcontextprotocol/sdk` 1.x through its StreamableHTTPTransport,
 * so the one line is `applyErrorPolicy(mcpServer, policy)`. Driven by the real v1 client over Streamable HTTP on
 * 127.0.0.1.
 */
import { StreamableHTTPTransport } from '@hono/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { applyErrorPolicy, ToolError } from '../../src/index.js';
import { capture } from '../support/calls.js';
import type { Listening } from '../support/loopback.js';
import { crash, expectCrash, expectShown } from './support.js';
import { serveFetch } from './web.js';

const { policy, records } = capture();
const mcpServer = applyErrorPolicy(new McpServer({ name: 'sheets', version: '1.0.0' }), policy);
mcpServer.registerTool('crash', {}, () => crash());
mcpServer.registerTool('tool_error', {}, () => {
  throw new ToolError('Sheet name must not be empty');
});
const transport = new StreamableHTTPTransport();
const app = new Hono();
app.all('/mcp', async (c) => {
  if (!mcpServer.isConnected()) await mcpServer.connect(transport);
  return transport.handleRequest(c);
});

let listening: Listening;
let client: Client;
beforeAll(async () => {
  listening = await serveFetch(async (request) => app.fetch(request));
  client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${listening.origin}/mcp`)));
});
afterAll(async () => {
  await client.close();
  await mcpServer.close();
  await listening.close();
});

describe('@hono/mcp with applyErrorPolicy on its McpServer', () => {
  it('masks a crash with a reference (one error record with its stack)', async () => {
    records.length = 0;
    expectCrash(await client.callTool({ name: 'crash', arguments: {} }), records, 'crash');
  });

  it('shows a ToolError (one info record)', async () => {
    records.length = 0;
    expectShown(await client.callTool({ name: 'tool_error', arguments: {} }), records, 'tool_error', { name: 'ToolError', message: 'Sheet name must not be empty', rule: 'deliberate' });
  });
});

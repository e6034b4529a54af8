/**
 * Cloudflare's `agents` (0.32): `createMcpHandler` of `agents/mcp/server` takes a factory of SDK v2 McpServers (the
 * route its docs now give instead of the feature-frozen `McpAgent`), so the one line is `applyErrorPolicy` in the
 * factory. Its fetch handler runs on Node too: served on 127.0.0.1 and driven by the real v2 client over Streamable
 * HTTP. (`McpAgent`'s `server` is an McpServer as well; it needs Durable Objects, which this suite does not run.)
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { createMcpHandler } from 'agents/mcp/server';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { applyErrorPolicy, ToolError } from '../../src/index.js';
import { capture } from '../support/calls.js';
import type { Listening } from '../support/loopback.js';
import { crash, expectCrash, expectShown } from './support.js';
import { serveFetch } from './web.js';

const { policy, records } = capture();
const handler = createMcpHandler(() => {
  const server = applyErrorPolicy(new McpServer({ name: 'sheets', version: '1.0.0' }), policy);
  server.registerTool('crash', {}, () => crash());
  server.registerTool('tool_error', {}, () => {
    throw new ToolError('Sheet name must not be empty');
  });
  return server;
});

let listening: Listening;
let client: Client;
beforeAll(async () => {
  listening = await serveFetch((request) => handler.fetch(request));
  client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${listening.origin}/mcp`)));
});
afterAll(async () => {
  await client.close();
  await listening.close();
});

describe('agents createMcpHandler with applyErrorPolicy in its factory', () => {
  it('masks a crash with a reference (one error record with its stack)', async () => {
    records.length = 0;
    expectCrash(await client.callTool({ name: 'crash', arguments: {} }), records, 'crash');
  });

  it('shows a ToolError (one info record)', async () => {
    records.length = 0;
    expectShown(await client.callTool({ name: 'tool_error', arguments: {} }), records, 'tool_error', { name: 'ToolError', message: 'Sheet name must not be empty', rule: 'deliberate' });
  });
});

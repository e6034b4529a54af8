/**
 * mcp-handler (Vercel's `createMcpHandler`): it gives the initializer an McpServer of
 * `@modelcontextprotocol/server` 2.x, so the one line is `applyErrorPolicy(server, policy)` in it. Driven by the real
 * v2 client over Streamable HTTP on 127.0.0.1.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler } from 'mcp-handler';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { applyErrorPolicy, ToolError } from '../../src/index.js';
import { capture } from '../support/calls.js';
import type { Listening } from '../support/loopback.js';
import { crash, expectCrash, expectShown } from './support.js';
import { serveFetch } from './web.js';

const { policy, records } = capture();
const handler = createMcpHandler(
  (server) => {
    applyErrorPolicy(server, policy);
    server.registerTool('crash', {}, () => crash());
    server.registerTool('tool_error', {}, () => {
      throw new ToolError('Sheet name must not be empty');
    });
  },
  { serverInfo: { name: 'sheets', version: '1.0.0' }, telemetry: false },
);

let listening: Listening;
let client: Client;
beforeAll(async () => {
  listening = await serveFetch(handler);
  client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${listening.origin}/mcp`)));
});
afterAll(async () => {
  await client.close();
  await listening.close();
});

describe('mcp-handler with applyErrorPolicy in its initializer', () => {
  it('masks a crash with a reference (one error record with its stack)', async () => {
    records.length = 0;
    expectCrash(await client.callTool({ name: 'crash', arguments: {} }), records, 'crash');
  });

  it('shows a ToolError (one info record)', async () => {
    records.length = 0;
    expectShown(await client.callTool({ name: 'tool_error', arguments: {} }), records, 'tool_error', { name: 'ToolError', message: 'Sheet name must not be empty', rule: 'deliberate' });
  });
});

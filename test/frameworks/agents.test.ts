/**
 * Cloudflare's `agents` (0.32): `createMcpHandler` of `agents/mcp/server` takes a factory of SDK v2 McpServers (the
 * route its docs now give instead of the feature-frozen `McpAgent`), so the one line is `applyErrorPolicy` in the
 * factory. Its fetch handler runs on Node too: served on 127.0.0.1 and driven by the real v2 client over Streamable
 * HTTP. (`McpAgent`'s `server` is an McpServer as well; it needs Durable Objects, which this suite does not run.)
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { createMcpHandler } from 'agents/mcp/server';
import { applyErrorPolicy, ToolError } from '../../src/index.js';
import { capture } from '../support/calls.js';
import { crash, TOOL_ERROR } from './support.js';
import { describeOverHttp } from './web.js';

const { policy, records } = capture();
const handler = createMcpHandler(() => {
  const server = applyErrorPolicy(new McpServer({ name: 'sheets', version: '1.0.0' }), policy);
  server.registerTool('crash', {}, () => crash());
  server.registerTool('tool_error', {}, () => {
    throw new ToolError(TOOL_ERROR);
  });
  return server;
});

describeOverHttp(
  'agents createMcpHandler with applyErrorPolicy in its factory',
  (request) => handler.fetch(request),
  async (url) => {
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    return client;
  },
  records,
);

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
import { applyErrorPolicy, ToolError } from '../../src/index.js';
import { capture } from '../support/calls.js';
import { crash, TOOL_ERROR } from './support.js';
import { describeOverHttp } from './web.js';

const { policy, records } = capture();
const mcpServer = applyErrorPolicy(new McpServer({ name: 'sheets', version: '1.0.0' }), policy);
mcpServer.registerTool('crash', {}, () => crash());
mcpServer.registerTool('tool_error', {}, () => {
  throw new ToolError(TOOL_ERROR);
});
const transport = new StreamableHTTPTransport();
const app = new Hono().all('/mcp', async (c) => {
  if (!mcpServer.isConnected()) await mcpServer.connect(transport);
  return transport.handleRequest(c);
});

describeOverHttp(
  '@hono/mcp with applyErrorPolicy on its McpServer',
  async (request) => app.fetch(request),
  async (url) => {
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    return client;
  },
  records,
  () => mcpServer.close(),
);

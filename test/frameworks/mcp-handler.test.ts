/**
 * mcp-handler (Vercel's `createMcpHandler`): it gives the initializer an McpServer of `@modelcontextprotocol/server`
 * 2.x, so the one line is `applyErrorPolicy(server, policy)` in it. Driven by the real v2 client over Streamable HTTP
 * on 127.0.0.1.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler } from 'mcp-handler';
import { applyErrorPolicy, ToolError } from '../../src/index.js';
import { capture } from '../support/calls.js';
import { crash, TOOL_ERROR } from './support.js';
import { describeOverHttp } from './web.js';

const { policy, records } = capture();
const handler = createMcpHandler(
  (server) => {
    applyErrorPolicy(server, policy);
    server.registerTool('crash', {}, () => crash());
    server.registerTool('tool_error', {}, () => {
      throw new ToolError(TOOL_ERROR);
    });
  },
  { serverInfo: { name: 'sheets', version: '1.0.0' }, telemetry: false },
);

describeOverHttp(
  'mcp-handler with applyErrorPolicy in its initializer',
  handler,
  async (url) => {
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    return client;
  },
  records,
);

/**
 * The compatibility table served over stdio, for test/compat/harness.ts (`node --import tsx test/compat/server.ts`).
 * Logs with the policy's default logger (stderr). `COMPAT_INSTALL` picks how the policy is installed: `server`
 * (applyErrorPolicy, the default) or `wrappers`. The `compat_mark` tool writes `[compat-mark] <mark>` to stderr, so
 * the test knows every record written before it has arrived.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { sdkV1 } from './harness.js';
import { closedPortUrl, makePolicies, registerScenarios } from './scenarios.js';

const install = process.env['COMPAT_INSTALL'] === 'wrappers' ? 'wrappers' : 'server';
const server = sdkV1.newServer();
registerScenarios(server, { ...makePolicies(), closedUrl: await closedPortUrl(), sdk: sdkV1 }, install);
(server as unknown as McpServer).registerTool('compat_mark', { inputSchema: { mark: z.string() } }, async ({ mark }) => {
  process.stderr.write(`[compat-mark] ${mark}\n`);
  return { content: [{ type: 'text', text: mark }] };
});
await (server as unknown as McpServer).connect(new StdioServerTransport());

/**
 * The compatibility table served over stdio, for test/compat/harness.ts (`node --import tsx test/compat/server.ts`).
 * Logs as the policy's default logger does (its stderr lines), and after each line the whole record as
 * `[compat-record] <JSON>`, so that the test checks the records (their correlation ids among them) as it does in
 * process. `COMPAT_INSTALL` picks how the policy is installed: `server` (applyErrorPolicy, the default) or
 * `wrappers`. The `compat_mark` tool writes `[compat-mark] <mark>` to stderr, so the test knows every record written
 * before it has arrived.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { LogRecord } from '../../src/index.js';
import { stderrSink } from '../../src/log.js';
import { RECORD_MARK, sdkV1 } from './harness.js';
import { closedPortUrl, makePolicies, registerScenarios } from './scenarios.js';

/** The default logger's line, then the record itself. */
function logger(record: LogRecord): void {
  stderrSink(record);
  process.stderr.write(`${RECORD_MARK}${JSON.stringify(record)}\n`);
}

const install = process.env['COMPAT_INSTALL'] === 'wrappers' ? 'wrappers' : 'server';
const server = sdkV1.newServer();
registerScenarios(server, { ...makePolicies(logger), closedUrl: await closedPortUrl(), sdk: sdkV1 }, install);
(server as unknown as McpServer).registerTool('compat_mark', { inputSchema: { mark: z.string() } }, async ({ mark }) => {
  process.stderr.write(`[compat-mark] ${mark}\n`);
  return { content: [{ type: 'text', text: mark }] };
});
await (server as unknown as McpServer).connect(new StdioServerTransport());

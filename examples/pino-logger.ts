/**
 * Logging through pino: one JSON record per failure, on stderr (fd 2), never on stdout (the stdio transport's channel).
 *
 * Install: npm install mcp-error-policy @modelcontextprotocol/sdk zod pino tsx
 * Try: npx tsx examples/pino-logger.ts (an MCP server on stdio). A client sees:
 *   rename_sheet {"from":"Q1","to":"A name much longer than thirty-one characters"} → Error executing tool rename_sheet: Sheet names are at most 31 characters
 *   rename_sheet {"from":"Q1","to":"Q2"} → Error executing tool rename_sheet (reference 3f9a1c2b7d04)
 * and stderr gets pino's JSON lines: a record per failure, and the access log's line per call:
 *   stderr → {"level":30, …
 *   stderr → {"level":50, …
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createErrorPolicy, ToolError, withClientVisibleErrors } from 'mcp-error-policy';
import pino from 'pino';
import { z } from 'zod';

const logger = pino({ name: 'sheets' }, pino.destination(2));
const policy = createErrorPolicy({
  logger,
  onOutcome: ({ kind, name, status, durationMs }) => logger.info({ handler: kind, handlerName: name, status, durationMs }, 'mcp call'),
});

const server = new McpServer({ name: 'sheets', version: '1.0.0' });

server.registerTool(
  'rename_sheet',
  { inputSchema: { from: z.string(), to: z.string() } },
  withClientVisibleErrors(
    async ({ from, to }) => {
      if (to.length > 31) throw new ToolError('Sheet names are at most 31 characters');
      throw new Error(`rename ${from} failed: lock held by worker 7`);
    },
    { name: 'rename_sheet', policy },
  ),
);

await server.connect(new StdioServerTransport());

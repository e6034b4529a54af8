/**
 * Quick start: an MCP server over stdio whose tools are wrapped with withClientVisibleErrors.
 * Run: npx tsx examples/quickstart.ts (then talk to it with any MCP client over stdio).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ToolError, withClientVisibleErrors } from 'mcp-error-policy';
import { z } from 'zod';

const sheets = new Map([['Budget', 'A1: 42']]);

const server = new McpServer({ name: 'sheets', version: '1.0.0' });

server.registerTool(
  'get_sheet',
  { description: 'Read a sheet by name', inputSchema: { name: z.string() } },
  withClientVisibleErrors(
    async ({ name }) => {
      // A deliberate failure: the client sees this text.
      if (name === '') throw new ToolError('Sheet name must not be empty');
      const sheet = sheets.get(name);
      // A bug: the client sees only "Error executing tool get_sheet (reference …)"; stderr gets the stack.
      return { content: [{ type: 'text', text: sheet!.toUpperCase() }] };
    },
    { name: 'get_sheet' },
  ),
);

await server.connect(new StdioServerTransport());

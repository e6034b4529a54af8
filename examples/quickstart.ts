/**
 * Quick start: an MCP server over stdio whose tools are wrapped with withClientVisibleErrors.
 *
 * Install: npm install mcp-error-policy @modelcontextprotocol/sdk zod tsx
 * Try: npx tsx examples/quickstart.ts (an MCP server on stdio: any MCP client can call it). A client that calls
 *   get_sheet {"name":"Budget"} → A1: 42
 *   get_sheet {"name":""} → Error executing tool get_sheet: Sheet name must not be empty
 *   get_sheet {"name":"Q9"} → Error executing tool get_sheet (reference 3f9a1c2b7d04)
 * sees those texts; stderr gets one record per failure, the crash's with its stack and the same reference:
 *   stderr → [mcp-error-policy] INFO tool "get_sheet" failed: ToolError "Sheet name must not be empty" (correlation 5b0e9d3a7c21)
 *   stderr → [mcp-error-policy] ERROR tool "get_sheet" crashed (reference 3f9a1c2b7d04): TypeError "Cannot read properties of undefined (reading 'toUpperCase')"
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

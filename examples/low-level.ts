/**
 * A low-level server (`Server.setRequestHandler`, no McpServer) that uses the policy by hand: `classifyError` to let
 * protocol errors through, `toToolResult` for the isError result and its log record.
 * Run: npx tsx examples/low-level.ts (an MCP server on stdio).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { classifyError, createErrorPolicy, toToolResult, ToolError } from 'mcp-error-policy';

const policy = createErrorPolicy();

const server = new Server({ name: 'low-level', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    { name: 'divide', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } },
    { name: 'explain', inputSchema: { type: 'object', properties: { code: { type: 'string' } } } },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args = {} } = request.params;
  try {
    if (name === 'divide') {
      const { a, b } = args as { a: number; b: number };
      if (b === 0) throw new ToolError('Cannot divide by zero');
      return { content: [{ type: 'text', text: String(a / b) }] };
    }
    if (name === 'explain') {
      // An unexpected failure: its text stays on the server.
      const table: Record<string, { text: string }> = {};
      return { content: [{ type: 'text', text: table[String(args.code)]!.text }] };
    }
    throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
  } catch (error) {
    // Protocol errors (an McpError) go back as JSON-RPC errors, as the SDK would send them.
    if (classifyError(error, policy).kind === 'protocol') throw error;
    // Everything else: the same isError result, text and log record that withClientVisibleErrors produces.
    return toToolResult(error, name, policy);
  }
});

await server.connect(new StdioServerTransport());

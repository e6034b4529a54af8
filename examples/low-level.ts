/**
 * A low-level server (`Server.setRequestHandler`, no McpServer) under the policy in one line: `applyErrorPolicy` wraps
 * its request handlers, names each failure after the tool in the request, masks crashes and lets protocol errors through.
 *
 * Install: npm install mcp-error-policy @modelcontextprotocol/sdk tsx
 * Try: npx tsx examples/low-level.ts (an MCP server on stdio). A client sees:
 *   divide {"a":6,"b":3} → 2
 *   divide {"a":1,"b":0} → Error executing tool divide: Cannot divide by zero
 *   explain {"code":"E42"} → Error executing tool explain (reference 3f9a1c2b7d04)
 *   rename {} → MCP error -32602: MCP error -32602: Tool rename not found
 *   stderr → [mcp-error-policy] ERROR tool "explain" crashed (reference 3f9a1c2b7d04): TypeError …
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { applyErrorPolicy, ToolError } from 'mcp-error-policy';

const server = applyErrorPolicy(new Server({ name: 'low-level', version: '1.0.0' }, { capabilities: { tools: {} } }));

server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    { name: 'divide', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } },
    { name: 'explain', inputSchema: { type: 'object', properties: { code: { type: 'string' } } } },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args = {} } = request.params;
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
  // A protocol error goes back as a JSON-RPC error, as the SDK would send it.
  throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
});

await server.connect(new StdioServerTransport());

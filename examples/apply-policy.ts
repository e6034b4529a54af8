/**
 * The one-line install: `applyErrorPolicy(server, policy)` covers every tool, resource and prompt, registered before
 * or after it, with an access log.
 *
 * Install: npm install mcp-error-policy @modelcontextprotocol/sdk zod tsx
 * Try: npx tsx examples/apply-policy.ts (an MCP server on stdio). A client sees:
 *   take {"item":"apple","count":1} → 2 apple left
 *   take {"item":"apple","count":5} → Error executing tool take: Only 2 apple left
 *   stock://pear → MCP error -32002: No item named pear
 *   prompt restock {"item":"apple"} → MCP error -32603: Error getting prompt restock (reference 3f9a1c2b7d04)
 * and stderr gets the access log, a line per call (a ToolError's status is 500 unless it says another), beside one
 * record per failure:
 *   stderr → access tool "take" 200 0.4ms
 *   stderr → access tool "take" 500 0.3ms
 *   stderr → access resource "stock://pear" 404 0.2ms
 *   stderr → [mcp-error-policy] ERROR prompt "restock" crashed (reference 3f9a1c2b7d04): TypeError "Cannot read properties of undefined (reading 'name')"
 *   stderr → access prompt "restock" 500 0.9ms
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { applyErrorPolicy, createErrorPolicy, ResourceNotFoundError, ToolError } from 'mcp-error-policy';
import { z } from 'zod';

const server = new McpServer({ name: 'inventory', version: '1.0.0' });
applyErrorPolicy(
  server,
  createErrorPolicy({
    onOutcome: ({ kind, name, status, durationMs }) =>
      process.stderr.write(`access ${kind} ${JSON.stringify(name)} ${status} ${durationMs.toFixed(1)}ms\n`),
  }),
);

const stock = new Map([['apple', 3]]);

server.registerTool('take', { inputSchema: { item: z.string(), count: z.number().int() } }, ({ item, count }) => {
  const have = stock.get(item) ?? 0;
  if (count > have) throw new ToolError(`Only ${have} ${item} left`);
  stock.set(item, have - count);
  return { content: [{ type: 'text', text: `${have - count} ${item} left` }] };
});

server.registerResource('item', new ResourceTemplate('stock://{item}', { list: undefined }), {}, (uri, { item }) => {
  const count = stock.get(String(item));
  if (count === undefined) throw new ResourceNotFoundError(`No item named ${String(item)}`);
  return { contents: [{ uri: uri.href, text: String(count) }] };
});

server.registerPrompt('restock', { argsSchema: { item: z.string() } }, ({ item }) => {
  const supplier = (JSON.parse('{}') as Record<string, { name: string }>)[item];
  return { messages: [{ role: 'user', content: { type: 'text', text: `Order ${item} from ${supplier!.name}` } }] };
});

await server.connect(new StdioServerTransport());

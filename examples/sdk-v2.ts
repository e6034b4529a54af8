/**
 * SDK v2 (`@modelcontextprotocol/server`): the same one line, `applyErrorPolicy(server)`, over stdio.
 *
 * Install: npm install mcp-error-policy @modelcontextprotocol/server zod tsx
 * Try: npx tsx examples/sdk-v2.ts (an MCP server on stdio). A client sees (SDK v2 sends a resource's "not found",
 * -32002, as -32602):
 *   add_note {"id":"welcome","text":"Hi"} → Error executing tool add_note: A note named welcome exists already
 *   add_note {"id":"todo","text":"crash"} → Error executing tool add_note (reference 3f9a1c2b7d04)
 *   note://welcome → Hello from SDK v2
 *   note://nope → MCP error -32602: No note named nope
 *   stderr → [mcp-error-policy] ERROR tool "add_note" crashed (reference 3f9a1c2b7d04): Error "index corrupted at /var/lib/notes/idx (CANARY)"
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { applyErrorPolicy, ResourceNotFoundError, ToolError } from 'mcp-error-policy';
import { z } from 'zod';

const notes = new Map([['welcome', 'Hello from SDK v2']]);

const server = new McpServer({ name: 'notes-v2', version: '1.0.0' });
applyErrorPolicy(server);

server.registerTool('add_note', { inputSchema: z.object({ id: z.string(), text: z.string() }) }, async ({ id, text }) => {
  if (notes.has(id)) throw new ToolError(`A note named ${id} exists already`);
  if (text === 'crash') throw new Error('index corrupted at /var/lib/notes/idx (CANARY)');
  notes.set(id, text);
  return { content: [{ type: 'text', text: `Saved ${id}` }] };
});

server.registerResource('note', new ResourceTemplate('note://{id}', { list: undefined }), {}, async (uri, { id }) => {
  const text = notes.get(String(id));
  if (text === undefined) throw new ResourceNotFoundError(`No note named ${String(id)}`);
  return { contents: [{ uri: uri.href, text }] };
});

await server.connect(new StdioServerTransport());

/**
 * SDK v2 (`@modelcontextprotocol/server`): the same one line, `applyErrorPolicy(server)`, over stdio.
 * Run: npx tsx examples/sdk-v2.ts (an MCP server on stdio).
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

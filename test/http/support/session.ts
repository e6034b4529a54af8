/** Test support for the HTTP rule tests: a real McpServer and the real SDK Client over InMemoryTransport. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** A server and a client connected to it. */
export interface Session {
  readonly server: McpServer;
  readonly client: Client;
  close(): Promise<void>;
}

/** Connects `server` to a fresh client over InMemoryTransport. */
export async function connect(server: McpServer): Promise<Session> {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'http-test-client', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    server,
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** The text of the first content of a tool result. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content;
  const first = content?.[0];
  if (first?.type !== 'text' || typeof first.text !== 'string') throw new Error(`not a text result: ${JSON.stringify(result)}`);
  return first.text;
}

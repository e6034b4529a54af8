/** Test support: a real McpServer connected to the real SDK Client over InMemoryTransport, and a capturing logger. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { LogRecord } from '../../src/index.js';

/** A server and a client talking to it. */
export interface Session {
  readonly server: McpServer;
  readonly client: Client;
  close(): Promise<void>;
}

/** Connects `server` (registrations done or still to come) to a fresh client over InMemoryTransport. */
export async function connect(server: McpServer): Promise<Session> {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
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

/** A new McpServer. */
export function newServer(): McpServer {
  return new McpServer({ name: 'test-server', version: '1.0.0' });
}

/** A logger that keeps every record. */
export function captureLogs(): { records: LogRecord[]; logger: (record: LogRecord) => void } {
  const records: LogRecord[] = [];
  return { records, logger: (record) => records.push(record) };
}

/** The text of the first content of a tool result. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content;
  const first = content?.[0];
  if (first?.type !== 'text' || typeof first.text !== 'string') throw new Error(`not a text result: ${JSON.stringify(result)}`);
  return first.text;
}

/** Matches a crash reference id. */
export const REFERENCE = /^[0-9a-f]{12}$/;

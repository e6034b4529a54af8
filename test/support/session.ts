/**
 * Test support: a real SDK v1 McpServer connected to the real SDK v1 Client over InMemoryTransport, and (re-exported
 * from calls.ts) what tests observe of a call.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { link, type Linked } from './link.js';

export * from './calls.js';

/** A server and a client talking to it; `notifications` collects every notification method the client receives. */
export type Session = Linked<McpServer, Client>;

/** Connects `server` (registrations done or still to come) to a fresh client over InMemoryTransport. */
export function connect(server: McpServer): Promise<Session> {
  return link(server, new Client({ name: 'test-client', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
}

/** A new McpServer. */
export function newServer(): McpServer {
  return new McpServer({ name: 'test-server', version: '1.0.0' });
}

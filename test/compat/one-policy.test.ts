/**
 * One policy per server on SDK v1 (the matrix runs it on the oldest supported 1.x and the latest): hand-wrapped
 * callbacks follow the server's policy and registered name, a wrapper with its own policy keeps it, and every call
 * gives one record (for a failure) and one outcome, to the governing policy. In memory and over stdio.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { applyErrorPolicy } from '../../src/index.js';
import { startFakeGoogle, type FakeGoogle } from '../support/fake-google.js';
import { buildOnePolicyServer } from './one-policy.js';
import { callAll, checkOnePolicy, collect, overStdio } from './one-policy-check.js';
import type { LooseServer } from './scenarios.js';

describe('one policy per server, SDK v1', () => {
  let fake: FakeGoogle;
  beforeAll(async () => {
    fake = await startFakeGoogle();
  });
  afterAll(async () => {
    await fake.close();
  });

  it('in memory: hand-wrapped callbacks follow the server policy and name; an explicit policy keeps its own', async () => {
    const seen = collect();
    const server = new McpServer({ name: 'one-policy-v1', version: '1.0.0' });
    await buildOnePolicyServer(server as unknown as LooseServer, (s, policy) => applyErrorPolicy(s as unknown as McpServer, policy), fake.origin, seen.sinks);
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'one-policy-client', version: '1.0.0' });
    await client.connect(clientSide);
    const read = await callAll(client);
    await client.close();
    checkOnePolicy('v1', fake.origin, read, seen);
  });

  it('over stdio: the same answers, records and outcomes from a subprocess', async () => {
    const { read, seen } = await overStdio('v1', fake.origin, async (stdio) => {
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      const client = new Client({ name: 'one-policy-client', version: '1.0.0' });
      const transport = new StdioClientTransport(stdio);
      transport.stderr?.on('data', (chunk: Buffer) => stdio.onStderr(chunk.toString('utf8')));
      await client.connect(transport);
      return client;
    });
    checkOnePolicy('v1', fake.origin, read, seen);
  });
});

/**
 * One policy per server on SDK v2 (`@modelcontextprotocol/server` with the v2 client; the matrix runs it on 2.0.0
 * and the latest): the same scenario and assertions as one-policy.test.ts. On v2 a prompt's callback lives in a
 * closure of the SDK, so the hand-wrapped prompt registered before the install follows the server through the wrapper
 * around the SDK's prompt handler.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { applyErrorPolicy } from '../../src/index.js';
import { startFakeGoogle, type FakeGoogle } from '../support/fake-google.js';
import { buildOnePolicyServer } from './one-policy.js';
import { callAll, checkOnePolicy, collect, overStdio } from './one-policy-check.js';
import type { LooseServer } from './scenarios.js';

describe('one policy per server, SDK v2', () => {
  let fake: FakeGoogle;
  beforeAll(async () => {
    fake = await startFakeGoogle();
  });
  afterAll(async () => {
    await fake.close();
  });

  it('in memory: hand-wrapped callbacks follow the server policy and name; an explicit policy keeps its own', async () => {
    const seen = collect();
    const server = new McpServer({ name: 'one-policy-v2', version: '1.0.0' });
    await buildOnePolicyServer(server as unknown as LooseServer, (s, policy) => applyErrorPolicy(s as unknown as McpServer, policy), fake.origin, seen.sinks);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'one-policy-client', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const read = await callAll(client);
    await client.close();
    checkOnePolicy('v2', fake.origin, read, seen);
  });

  it('over stdio: the same answers, records and outcomes from a subprocess', async () => {
    const { read, seen } = await overStdio('v2', fake.origin, async (stdio) => {
      const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
      const client = new Client({ name: 'one-policy-client', version: '1.0.0' });
      const transport = new StdioClientTransport(stdio);
      transport.stderr?.on('data', (chunk: Buffer) => stdio.onStderr(chunk.toString('utf8')));
      await client.connect(transport);
      return client;
    });
    checkOnePolicy('v2', fake.origin, read, seen);
  });
});

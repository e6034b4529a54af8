/**
 * docs/failure-object.schema.json, for clients in other languages: every failure object the server sends (read raw
 * from the wire: the tool results' `_meta`, the resource error's `data`) is valid against it, with each optional
 * field seen at least once; and it refuses what the server never sends.
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourceError, ToolError, type LogRecord, type Outcome } from '../../src/index.js';
import { link } from '../support/link.js';
import { FAILURE_KEY, rpcError } from '../support/calls.js';
import { newServer, startFakeApi, TOOL_NAMES, type FakeApi } from './fixture.js';

const schema = JSON.parse(readFileSync(new URL('../../docs/failure-object.schema.json', import.meta.url), 'utf8')) as object;
const validate = new Ajv2020({ strict: true }).compile(schema);

describe('docs/failure-object.schema.json', () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await startFakeApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('holds every failure object the server sends, each field seen', async () => {
    const records: LogRecord[] = [];
    const outcomes: Outcome[] = [];
    const server = await newServer('v1', api, records, outcomes);
    server.registerTool('busy', {}, async () => {
      throw new ToolError('Recalculating', { code: 'recalculating', retryAfterMs: 1_500 });
    });
    server.registerResource('ledger', 'acme://ledger', {}, async () => {
      throw new ResourceError('The ledger is locked', { code: 'ledger.locked', retryable: true });
    });
    const session = await link(server, new Client({ name: 'c', version: '1' }), InMemoryTransport.createLinkedPair());
    try {
      const sent: unknown[] = [];
      for (const name of [...TOOL_NAMES, 'busy']) {
        const result = await session.client.callTool({ name, arguments: {} });
        sent.push((result._meta as Record<string, unknown>)[FAILURE_KEY]);
      }
      sent.push(((await rpcError(session.client.readResource({ uri: 'acme://ledger' }))).data as Record<string, unknown>)[FAILURE_KEY]);
      expect(sent.map((object) => (object as { code: string }).code)).toEqual([
        'rate_limited',
        'unavailable',
        'network',
        'internal',
        'tool_error',
        'unauthorized',
        'recalculating',
        'ledger.locked',
      ]);
      expect(sent.filter((object) => !validate(object))).toEqual([]);
      const keys = new Set(sent.flatMap((object) => Object.keys(object as object)));
      expect([...keys].sort()).toEqual(Object.keys((schema as { properties: object }).properties).sort());
    } finally {
      await session.close();
    }
  });

  it.each([
    ['no correlation id', { code: 'network', retryable: true }],
    ['a code with a space', { code: 'rate limited', retryable: true, correlationId: '0123456789ab' }],
    ['a delay on a failure that is not retryable', { code: 'x', retryable: false, retryAfterMs: 10, correlationId: '0123456789ab' }],
    ['a fractional delay', { code: 'x', retryable: true, retryAfterMs: 1.5, correlationId: '0123456789ab' }],
    ['another upstream', { code: 'x', retryable: true, upstream: 'reached', correlationId: '0123456789ab' }],
    ['an unknown key', { code: 'x', retryable: true, correlationId: '0123456789ab', stack: 'at /srv' }],
  ])('refuses %s', (_what, object) => {
    expect(validate(object)).toBe(false);
  });
});

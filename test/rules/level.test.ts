/**
 * A rule's `level` as a function of the accepted error and the call: the hook for "info, one line, no stack" on a
 * routine failure the caller caused. Through a real McpServer and Client.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyErrorPolicy, classifyError, coreRules, type ErrorRule, type FailedCall } from '../../src/index.js';
import { link, type Linked } from '../support/link.js';
import { capture, textOf } from '../support/calls.js';

class ApiError extends Error {
  override name = 'ApiError';
  constructor(readonly status: number) {
    super(`API answered ${status}`);
  }
}

const seen: FailedCall[] = [];
const apiRule: ErrorRule = {
  name: 'api',
  predicate: (error) => error instanceof ApiError,
  message: (error, call) => `${(error as ApiError).message} for ${JSON.stringify(call.args)}`,
  level: (error, call) => {
    seen.push(call);
    const status = (error as ApiError).status;
    if (status === 418) throw new Error('a level function that throws');
    if (status === 409) return 'error' as never;
    return status === 404 ? 'info' : 'warn';
  },
};
const { policy, records } = capture({ rules: [apiRule, ...coreRules] });
let session: Linked<McpServer, Client>;

beforeAll(async () => {
  const server = applyErrorPolicy(new McpServer({ name: 'api', version: '1.0.0' }), policy);
  server.registerTool('get', { inputSchema: { id: z.string(), status: z.number() } }, ({ status }) => {
    throw new ApiError(status);
  });
  session = await link(server, new Client({ name: 'c', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
});

afterAll(async () => {
  await session.close();
});

describe('level as a function of the error and the call', () => {
  it.each([
    [404, 'info', false],
    [500, 'warn', true],
    [418, 'warn', true],
    [409, 'warn', true],
  ] as const)('status %i: %s, stack %s', async (status, level, stack) => {
    records.length = 0;
    const text = textOf(await session.client.callTool({ name: 'get', arguments: { id: 'item-7', status } }));
    expect(text).toBe(`Error executing tool get: API answered ${status} for [{"id":"item-7","status":${status}}]`);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level, rule: 'api' });
    expect(records[0]!.stack !== undefined).toBe(stack);
    expect(records[0]!.message).not.toContain('\n');
    expect(seen.at(-1)).toEqual({ args: [{ id: 'item-7', status }] });
  });

  it('classifyError gives the functions a call with no arguments', () => {
    const c = classifyError(new ApiError(404), policy);
    expect(c).toMatchObject({ kind: 'anticipated', level: 'info', message: 'API answered 404 for []' });
    expect(seen.at(-1)).toEqual({ args: [] });
  });
});

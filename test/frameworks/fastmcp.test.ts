/**
 * FastMCP (npm `fastmcp`) under `applyErrorPolicy(new FastMCP(...))`, through the real SDK client over the in-memory
 * transport FastMCP's `connect` takes: what the client receives and what is logged, for tools, resources, resource
 * templates and prompts.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { FastMCP, UserError } from 'fastmcp';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyErrorPolicy, classifyError, createErrorPolicy, ResourceNotFoundError, ToolError, withClientVisibleErrors } from '../../src/index.js';
import { capture, referenceIn, rpcError, textOf } from '../support/calls.js';
import { failureData, failureObject } from '../support/failure.js';
import { CANARY, crash, expectCrash, expectShown, TOOL_ERROR } from './support.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

function newFastMcp(): FastMCP {
  return new FastMCP({ name: 'sheets', version: '1.0.0' });
}

async function connect(server: FastMCP): Promise<Client> {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  close = () => client.close();
  return client;
}

describe('FastMCP tools', () => {
  it('a crash is masked with a reference, UserError and ToolError are shown; one record each', async () => {
    const { policy, records } = capture();
    const server = applyErrorPolicy(newFastMcp(), policy);
    server.addTool({ name: 'crash', parameters: z.object({ id: z.string() }), execute: async () => crash() });
    server.addTool({ name: 'user_error', execute: async () => { throw new UserError('Sheet "q3" not found'); } });
    server.addTools([{ name: 'tool_error', execute: async () => { throw new ToolError(TOOL_ERROR); } }]);
    server.addTool({ name: 'ok', execute: async () => 'fine' });
    const client = await connect(server);

    expectCrash(await client.callTool({ name: 'crash', arguments: { id: 'a' } }), records, 'crash');
    records.length = 0;
    expectShown(await client.callTool({ name: 'user_error', arguments: {} }), records, 'user_error', { name: 'UserError', message: 'Sheet "q3" not found', rule: 'fastmcp-user-error' });
    records.length = 0;
    expectShown(await client.callTool({ name: 'tool_error', arguments: {} }), records, 'tool_error', { name: 'ToolError', message: TOOL_ERROR, rule: 'deliberate' });
    records.length = 0;
    expect(await client.callTool({ name: 'ok', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'fine' }] });
    expect(records).toEqual([]);
  });

  it('without the policy, fastmcp sends the crash text (what the adapter changes)', async () => {
    const server = newFastMcp();
    server.addTool({ name: 'crash', execute: async () => crash() });
    const client = await connect(server);
    expect(textOf(await client.callTool({ name: 'crash', arguments: {} }))).toBe(`Tool 'crash' execution failed: ${CANARY}`);
  });

  it('a tool wrapped by hand follows the server policy: one record', async () => {
    const { policy, records } = capture();
    const server = applyErrorPolicy(newFastMcp(), policy);
    server.addTool({ name: 'crash', execute: withClientVisibleErrors(async () => crash()) });
    const client = await connect(server);
    expectCrash(await client.callTool({ name: 'crash', arguments: {} }), records, 'crash');
  });

  it('what was added before the call is not reached (FastMCP keeps it in a private field): fastmcp answers it, and a warning names it', async () => {
    const { policy, records } = capture();
    const server = newFastMcp();
    server.addTool({ name: 'early', execute: async () => crash() });
    server.addResource({ uri: 'file:///early.txt', name: 'early file', load: async () => ({ text: 'x' }) });
    applyErrorPolicy(server, policy);
    server.addTool({ name: 'late', execute: async () => 'fine' });
    server.addPrompt({ name: 'late_prompt', load: async () => 'hi' });
    const warned = new Promise<Error>((resolve) => {
      const listener = (warning: Error): void => {
        if (warning.name !== 'McpErrorPolicyWarning') return;
        process.off('warning', listener);
        resolve(warning);
      };
      process.on('warning', listener);
    });
    const client = await connect(server);
    expect(textOf(await client.callTool({ name: 'early', arguments: {} }))).toBe(`Tool 'early' execution failed: ${CANARY}`);
    expect(records).toEqual([]);
    expect((await warned).message).toBe(
      'applyErrorPolicy: this FastMCP server serves tool "early", resource "file:///early.txt" without the policy: added before applyErrorPolicy(server). ' +
        'Apply it first: applyErrorPolicy(new FastMCP(...))',
    );
  });
});

describe('FastMCP resources and prompts', () => {
  it('a static resource: fastmcp puts the policy text inside its own -32603 error and drops the failure object', async () => {
    const { policy, records } = capture();
    const server = applyErrorPolicy(newFastMcp(), policy);
    server.addResource({ uri: 'file:///logs/today', name: 'today', load: async () => crash() });
    const client = await connect(server);
    const error = await rpcError(client.readResource({ uri: 'file:///logs/today' }));
    const reference = referenceIn(error.message);
    expect(error).toEqual({
      code: -32603,
      message: `MCP error -32603: MCP error -32603: Failed to load resource 'today' (file:///logs/today): Error reading resource file:///logs/today (reference ${reference})`,
      data: { uri: 'file:///logs/today' },
    });
    expect(records).toEqual([expect.objectContaining({ level: 'error', kind: 'crash', handler: 'resource', name: 'file:///logs/today', reference, stack: expect.stringMatching(/^ {4}at /) })]);
  });

  it('a resource template: the policy answer reaches the client as it is, failure object included', async () => {
    const { policy, records } = capture();
    const server = applyErrorPolicy(newFastMcp(), policy);
    server.addResourceTemplate({
      uriTemplate: 'file:///logs/{day}',
      name: 'log',
      arguments: [{ name: 'day', required: true }],
      load: async ({ day }) => (day === 'missing' ? Promise.reject(new ResourceNotFoundError(`No log for ${day}`)) : crash()),
    });
    const client = await connect(server);
    const crashed = await rpcError(client.readResource({ uri: 'file:///logs/monday' }));
    const reference = referenceIn(crashed.message);
    expect(crashed).toEqual({
      code: -32603,
      message: `MCP error -32603: Error reading resource file:///logs/{day} (reference ${reference})`,
      data: failureData(failureObject('internal', false, { correlationId: reference })),
    });
    const missing = await rpcError(client.readResource({ uri: 'file:///logs/missing' }));
    expect(missing).toEqual({
      code: -32002,
      message: 'MCP error -32002: No log for missing',
      data: failureData(failureObject('resource_not_found', false), 'file:///logs/{day}'),
    });
    expect(records.map(({ level, kind, name }) => ({ level, kind, name }))).toEqual([
      { level: 'error', kind: 'crash', name: 'file:///logs/{day}' },
      { level: 'info', kind: 'anticipated', name: 'file:///logs/{day}' },
    ]);
  });

  it('a prompt: fastmcp puts the policy text inside its own -32603 error; UserError shown, a crash masked', async () => {
    const { policy, records } = capture();
    const server = applyErrorPolicy(newFastMcp(), policy);
    server.addPrompt({ name: 'summary', load: async () => { throw new UserError('No sheet is open'); } });
    server.addPrompts([{ name: 'broken', load: async () => crash() }]);
    const client = await connect(server);
    expect(await rpcError(client.getPrompt({ name: 'summary' }))).toEqual({
      code: -32603,
      message: "MCP error -32603: MCP error -32603: Failed to load prompt 'summary': No sheet is open",
      data: undefined,
    });
    const crashed = await rpcError(client.getPrompt({ name: 'broken' }));
    const reference = referenceIn(crashed.message);
    expect(crashed.message).toBe(`MCP error -32603: MCP error -32603: Failed to load prompt 'broken': Error getting prompt broken (reference ${reference})`);
    expect(records.map(({ level, kind, name, rule }) => ({ level, kind, name, rule }))).toEqual([
      { level: 'info', kind: 'anticipated', name: 'summary', rule: 'fastmcp-user-error' },
      { level: 'error', kind: 'crash', name: 'broken', rule: undefined },
    ]);
  });
});

describe('applyErrorPolicy on a FastMCP server', () => {
  it('is idempotent with the same policy and refuses another', () => {
    const policy = createErrorPolicy();
    const server = newFastMcp();
    expect(applyErrorPolicy(server, policy)).toBe(server);
    expect(applyErrorPolicy(server, policy)).toBe(server);
    expect(() => applyErrorPolicy(server, createErrorPolicy())).toThrow('apply one policy per server');
  });

  it('refuses a server that has started, whose sessions hold their own copies', async () => {
    const server = newFastMcp();
    server.addTool({ name: 'ok', execute: async () => 'fine' });
    await connect(server);
    expect(() => applyErrorPolicy(server)).toThrow(/^applyErrorPolicy: this FastMCP server has started \(serverState running\)/);
  });

  it('recognises fastmcp UserError structurally, and no other class named UserError', () => {
    expect(classifyError(new UserError('Shown')).kind).toBe('anticipated');
    class OtherUserError extends Error {
      override name = 'UserError';
      extras = undefined;
    }
    expect(classifyError(new OtherUserError(CANARY)).kind).toBe('crash');
    expect(classifyError(Object.assign(new Error(CANARY), { name: 'UserError', extras: {} })).kind).toBe('crash');
    expect(classifyError(new UserError('Shown'), createErrorPolicy({ maskDeliberateErrors: true })).kind).toBe('crash');
  });
});

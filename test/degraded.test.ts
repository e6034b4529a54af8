/**
 * The degraded start, end to end through a real SDK v1 McpServer and Client: while `degraded` returns a message, no
 * handler runs, every call gets that message (tools: an isError result; resources and prompts: a JSON-RPC error),
 * one info record and one outcome with status 401.
 */
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyErrorPolicy, withClientVisibleErrors, type ErrorPolicy } from '../src/index.js';
import { expectCorrelated, failureData, failureObject, toolFailure } from './support/failure.js';
import { capture, connect, newServer, rpcError, textOf, withoutDurations } from './support/session.js';

const MESSAGE = 'Not signed in: run `acme auth login`.';

function serve(policy: ErrorPolicy, ran: string[]) {
  const server = newServer();
  server.registerTool('get_sheet', { inputSchema: { name: z.string() } }, ({ name }) => {
    ran.push(`tool ${name}`);
    return { content: [{ type: 'text' as const, text: `sheet ${name}` }] };
  });
  server.registerResource('static', 'static://r', {}, (uri) => {
    ran.push(`resource ${uri.href}`);
    return { contents: [{ uri: uri.href, text: 'r' }] };
  });
  server.registerResource('sheet', new ResourceTemplate('sheet://{name}', { list: undefined }), {}, (uri) => {
    ran.push(`resource ${uri.href}`);
    return { contents: [{ uri: uri.href, text: 's' }] };
  });
  server.registerPrompt('summarize', { argsSchema: { sheet: z.string() } }, ({ sheet }) => {
    ran.push(`prompt ${sheet}`);
    return { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: sheet } }] };
  });
  applyErrorPolicy(server, policy);
  // registered after the call, and one wrapped by hand: the same
  server.registerTool('late', {}, () => {
    ran.push('tool late');
    return { content: [{ type: 'text' as const, text: 'late' }] };
  });
  server.registerTool(
    'by_hand',
    {},
    withClientVisibleErrors(
      () => {
        ran.push('tool by_hand');
        return { content: [{ type: 'text' as const, text: 'by hand' }] };
      },
      { name: 'by_hand', policy },
    ),
  );
  return server;
}

describe('degraded', () => {
  it('while it returns a message: no handler runs, each call gets the message, status 401; afterwards handlers run again', async () => {
    let signedIn = false;
    const ran: string[] = [];
    const { policy, records, outcomes } = capture({ degraded: () => (signedIn ? undefined : MESSAGE) });
    const { client } = await connect(serve(policy, ran));

    // every refused call carries the failure object: auth_required, not retryable, a correlation id of its own
    const authRequired = failureObject('auth_required', false);
    const answers: unknown[] = [];
    for (const name of ['get_sheet', 'late', 'by_hand']) {
      const result = await client.callTool({ name, arguments: name === 'get_sheet' ? { name: 'Q3' } : {} });
      expect(result).toEqual(toolFailure(`Error executing tool ${name}: ${MESSAGE}`, authRequired));
      answers.push(result);
    }
    for (const uri of ['static://r', 'sheet://Q3']) {
      const error = await rpcError(client.readResource({ uri }));
      expect(error).toEqual({ code: -32603, message: `MCP error -32603: ${MESSAGE}`, data: failureData(authRequired) });
      answers.push(error);
    }
    const prompt = await rpcError(client.getPrompt({ name: 'summarize', arguments: { sheet: 'Q3' } }));
    expect(prompt).toEqual({ code: -32603, message: `MCP error -32603: ${MESSAGE}`, data: failureData(authRequired) });
    answers.push(prompt);
    expect(ran).toEqual([]);
    expect(withoutDurations(outcomes)).toEqual([
      { kind: 'tool', name: 'get_sheet', status: 401 },
      { kind: 'tool', name: 'late', status: 401 },
      { kind: 'tool', name: 'by_hand', status: 401 },
      { kind: 'resource', name: 'static://r', status: 401 },
      { kind: 'resource', name: 'sheet://Q3', status: 401 },
      { kind: 'prompt', name: 'summarize', status: 401 },
    ]);
    // A refused call never ran: its duration is 0, as Outcome documents (not a measured time, so no timing bound).
    expect(outcomes.map((o) => o.durationMs)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(records).toHaveLength(6);
    const ids = answers.map((answer, i) => expectCorrelated(answer, records[i]));
    expect(new Set(ids).size).toBe(6);
    expect(records[0]).toEqual({
      level: 'info',
      message: `tool "get_sheet" refused (degraded): ${JSON.stringify(MESSAGE)}`,
      kind: 'degraded',
      handler: 'tool',
      name: 'get_sheet',
      status: 401,
      errorName: 'degraded',
      errorMessage: MESSAGE,
      correlationId: ids[0],
    });
    expect(records[3]?.message).toBe(`resource "static://r" refused (degraded): ${JSON.stringify(MESSAGE)}`);
    expect(records[5]?.message).toBe(`prompt "summarize" refused (degraded): ${JSON.stringify(MESSAGE)}`);

    signedIn = true;
    records.length = 0;
    outcomes.length = 0;
    expect(textOf(await client.callTool({ name: 'get_sheet', arguments: { name: 'Q3' } }))).toBe('sheet Q3');
    expect((await client.readResource({ uri: 'sheet://Q3' })).contents).toEqual([{ uri: 'sheet://Q3', text: 's' }]);
    expect((await client.getPrompt({ name: 'summarize', arguments: { sheet: 'Q3' } })).messages).toHaveLength(1);
    expect(ran).toEqual(['tool Q3', 'resource sheet://Q3', 'prompt Q3']);
    expect(records).toEqual([]);
    expect(outcomes.map((o) => o.status)).toEqual([200, 200, 200]);
  });

  it('reports durationMs 0 for a refused call, as Outcome documents', async () => {
    const { policy, outcomes } = capture({ degraded: () => MESSAGE });
    const { client } = await connect(serve(policy, []));
    for (let i = 0; i < 5; i += 1) await client.callTool({ name: 'late', arguments: {} });
    expect(outcomes.map((o) => o.durationMs)).toEqual([0, 0, 0, 0, 0]);
  });

  it('a degraded check that throws counts as degraded, with a fixed message', async () => {
    const ran: string[] = [];
    const { policy, outcomes } = capture({
      degraded: () => {
        throw new Error('keychain locked: token=abc');
      },
    });
    const { client } = await connect(serve(policy, ran));
    expect(await client.callTool({ name: 'get_sheet', arguments: { name: 'Q3' } })).toEqual(
      toolFailure('Error executing tool get_sheet: The server is not ready: its credentials could not be checked', failureObject('auth_required', false)),
    );
    expect(await rpcError(client.readResource({ uri: 'static://r' }))).toEqual({
      code: -32603,
      message: 'MCP error -32603: The server is not ready: its credentials could not be checked',
      data: failureData(failureObject('auth_required', false)),
    });
    expect(ran).toEqual([]);
    expect(outcomes.map((o) => o.status)).toEqual([401, 401]);
  });

  it('the message is scrubbed and bounded like any client text', async () => {
    const { policy } = capture({ maxMessageLength: 64, degraded: () => `Token ya29.a0AfH6SMBexpired expired; ${'x'.repeat(100)}` });
    const { client } = await connect(serve(policy, []));
    const text = textOf(await client.callTool({ name: 'late', arguments: {} }));
    expect(text).toBe(`Error executing tool late: Token [REDACTED] expired; ${'x'.repeat(64 - 'Token [REDACTED] expired; '.length - 1)}…`);
  });

  it('calls the SDK refuses itself (an unknown tool) keep the SDK answer while degraded', async () => {
    const { policy, outcomes } = capture({ degraded: () => MESSAGE });
    const { client } = await connect(serve(policy, []));
    expect(textOf(await client.callTool({ name: 'nope', arguments: {} }))).toBe('MCP error -32602: Tool nope not found');
    expect(outcomes.map((o) => o.status)).toEqual([404]);
  });
});

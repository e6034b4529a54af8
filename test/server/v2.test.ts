/**
 * applyErrorPolicy on SDK v2: `McpServer` of @modelcontextprotocol/server 2.x with a Client of
 * @modelcontextprotocol/client 2.x over v2's InMemoryTransport.
 *
 * Two v2 facts these tests pin down:
 * - v2 maps a handler-thrown -32002 to -32602 when it encodes the error (both wire codecs), so a ResourceNotFoundError
 *   reaches a v2 client as -32602 with its text; v2's own resource-not-found answer is -32602 too, with `data: { uri }`.
 * - v2's client shows a JSON-RPC error's message without the `MCP error <code>:` prefix of v1's client.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer, ProtocolError, ResourceTemplate } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyErrorPolicy, ResourceNotFoundError, ToolError, withClientVisibleErrors, withClientVisiblePromptErrors } from '../../src/index.js';
import { capture, REFERENCE, referenceIn, rpcError, textOf, withoutDurations } from '../support/calls.js';
import { expectAppliedWithoutNotifications } from '../support/apply.js';
import { expectCorrelated, failureData, failureObject, toolFailure } from '../support/failure.js';
import { link } from '../support/link.js';

const CANARY = 'CANARY-v2-2b7e';

function crash(): never {
  throw new Error(CANARY);
}

function connectV2(server: McpServer) {
  return link(server, new Client({ name: 'v2-client', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
}

function newV2(): McpServer {
  return new McpServer({ name: 'v2-server', version: '1.0.0' });
}

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

describe('applyErrorPolicy on @modelcontextprotocol/server 2.x', () => {
  it('tools before and after the call: crashes masked, deliberate errors shown, one record and one outcome each', async () => {
    const { policy, records, outcomes } = capture();
    const server = newV2();
    server.registerTool('before', { inputSchema: z.object({ sheet: z.string() }) }, crash);
    server.registerTool('no_schema', {}, crash);
    applyErrorPolicy(server, policy);
    server.registerTool('after', { inputSchema: z.object({ sheet: z.string() }) }, () => {
      throw new ToolError('Sheet name must not be empty');
    });
    server.registerTool('ok', {}, () => text('fine'));
    const { client } = await connectV2(server);

    const beforeResult = await client.callTool({ name: 'before', arguments: { sheet: 'Q3' } });
    const before = textOf(beforeResult);
    expect(beforeResult).toEqual(toolFailure(`Error executing tool before (reference ${referenceIn(before)})`, failureObject('internal', false, { correlationId: referenceIn(before) })));
    const noSchemaResult = await client.callTool({ name: 'no_schema', arguments: {} });
    const noSchema = textOf(noSchemaResult);
    expect(noSchemaResult).toEqual(toolFailure(`Error executing tool no_schema (reference ${referenceIn(noSchema)})`, failureObject('internal', false, { correlationId: referenceIn(noSchema) })));
    const after = await client.callTool({ name: 'after', arguments: { sheet: '' } });
    expect(after).toEqual(toolFailure('Error executing tool after: Sheet name must not be empty', failureObject('tool_error', false)));
    expect(await client.callTool({ name: 'ok', arguments: {} })).toEqual(text('fine'));
    expect(records.map((r) => [r.name, r.kind, r.level])).toEqual([
      ['before', 'crash', 'error'],
      ['no_schema', 'crash', 'error'],
      ['after', 'anticipated', 'info'],
    ]);
    [beforeResult, noSchemaResult, after].forEach((answer, i) => expectCorrelated(answer, records[i]));
    expect(records[0]?.reference).toBe(referenceIn(before));
    expect(withoutDurations(outcomes)).toEqual([
      { kind: 'tool', name: 'before', status: 500, classification: 'crash' },
      { kind: 'tool', name: 'no_schema', status: 500, classification: 'crash' },
      { kind: 'tool', name: 'after', status: 500, classification: 'anticipated' },
      { kind: 'tool', name: 'ok', status: 200 },
    ]);
  });

  it("v2's ProtocolError is a protocol error: it passes through as v2 sends it, logged at info", async () => {
    const { policy, records } = capture();
    const server = newV2();
    server.registerTool('elicit', {}, () => {
      throw new ProtocolError(-32042, 'Open the consent page first', { elicitations: [] });
    });
    server.registerResource('r', 'static://r', {}, () => {
      throw new ProtocolError(-32602, 'Sheet ids are numeric');
    });
    applyErrorPolicy(server, policy);
    const { client } = await connectV2(server);
    const elicit = await rpcError(client.callTool({ name: 'elicit', arguments: {} }));
    expect([elicit.code, elicit.message]).toEqual([-32042, 'Open the consent page first']);
    expect(await rpcError(client.readResource({ uri: 'static://r' }))).toEqual({ code: -32602, message: 'Sheet ids are numeric', data: undefined });
    expect(records.map((r) => [r.kind, r.level, r.status])).toEqual([
      ['protocol', 'info', 403],
      ['protocol', 'info', 400],
    ]);
  });

  it('resources: not found (v2 puts -32602 on the wire), crash, a thrown code and data; template and static', async () => {
    const { policy, records, outcomes } = capture();
    const server = newV2();
    server.registerResource('sheet', new ResourceTemplate('sheet://{name}', { list: undefined }), {}, (_uri, { name }) => {
      throw new ResourceNotFoundError(`No sheet named ${String(name)}`);
    });
    server.registerResource('crash', 'static://crash', {}, () => {
      throw Object.assign(new Error(`forbidden ${CANARY}`), { code: 403, data: { secret: CANARY } });
    });
    applyErrorPolicy(server, policy);
    server.registerResource('ok', 'static://ok', {}, (uri) => ({ contents: [{ uri: uri.href, text: 'fine' }] }));
    const { client } = await connectV2(server);

    // v2 sends the -32002 as -32602, with data exactly { uri } (what its client raises as ResourceNotFoundError)
    const missing = await rpcError(client.readResource({ uri: 'sheet://x' }));
    expect(missing).toEqual({ code: -32602, message: 'No sheet named x', data: { uri: 'sheet://x' } });
    const crashed = await rpcError(client.readResource({ uri: 'static://crash' }));
    const reference = referenceIn(crashed.message);
    expect(crashed).toEqual({
      code: -32603,
      message: `Error reading resource static://crash (reference ${reference})`,
      data: failureData(failureObject('internal', false, { correlationId: reference })),
    });
    expect(records[0]?.correlationId).toMatch(REFERENCE); // in the record only: the client's data is exactly { uri }
    expectCorrelated(crashed, records[1]);
    expect(JSON.stringify(crashed)).not.toContain('CANARY');
    expect((await client.readResource({ uri: 'static://ok' })).contents).toEqual([{ uri: 'static://ok', text: 'fine' }]);
    // v2's own answer for a URI nothing serves is kept
    expect(await rpcError(client.readResource({ uri: 'other://x' }))).toEqual({
      code: -32602,
      message: 'Resource not found: other://x',
      data: { uri: 'other://x' },
    });
    expect(records.map((r) => [r.name, r.kind, r.status])).toEqual([
      ['sheet://x', 'anticipated', 404],
      ['static://crash', 'crash', 500],
    ]);
    expect(withoutDurations(outcomes)).toEqual([
      { kind: 'resource', name: 'sheet://x', status: 404, classification: 'anticipated' },
      { kind: 'resource', name: 'static://crash', status: 500, classification: 'crash' },
      { kind: 'resource', name: 'static://ok', status: 200 },
      { kind: 'resource', name: 'other://x', status: 404 },
    ]);
  });

  it('prompts before and after the call', async () => {
    const { policy, records, outcomes } = capture();
    const server = newV2();
    server.registerPrompt('before', { argsSchema: z.object({ sheet: z.string() }) }, crash);
    applyErrorPolicy(server, policy);
    server.registerPrompt('after', {}, crash);
    const { client } = await connectV2(server);
    for (const name of ['before', 'after']) {
      const error = await rpcError(client.getPrompt({ name, arguments: name === 'before' ? { sheet: 'Q3' } : {} }));
      const reference = referenceIn(error.message);
      expect(error).toEqual({ code: -32603, message: `Error getting prompt ${name} (reference ${reference})`, data: failureData(failureObject('internal', false, { correlationId: reference })) });
    }
    expect(records.map((r) => [r.name, r.kind])).toEqual([
      ['before', 'crash'],
      ['after', 'crash'],
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([500, 500]);
  });

  it('update(): a new callback, a new schema (v2 rebuilds its executor) and a new name stay covered', async () => {
    const { policy, records } = capture();
    const server = newV2();
    const tool = server.registerTool('t', {}, () => text('fine'));
    const prompt = server.registerPrompt('p', {}, () => ({ messages: [] }));
    applyErrorPolicy(server, policy);
    const late = server.registerPrompt('late', {}, crash);
    const { client } = await connectV2(server);

    tool.update({ callback: crash });
    expect(textOf(await client.callTool({ name: 't', arguments: {} }))).toMatch(/^Error executing tool t \(reference [0-9a-f]{12}\)$/);
    tool.update({ paramsSchema: z.object({ n: z.number().optional() }) });
    expect(textOf(await client.callTool({ name: 't', arguments: {} }))).toMatch(/^Error executing tool t \(reference/);
    tool.update({ name: 't2' });
    expect(textOf(await client.callTool({ name: 't2', arguments: {} }))).toMatch(/^Error executing tool t2 \(reference/);
    prompt.update({ callback: crash });
    expect((await rpcError(client.getPrompt({ name: 'p' }))).message).toMatch(/^Error getting prompt p \(reference/);
    prompt.update({ name: 'p2' });
    expect((await rpcError(client.getPrompt({ name: 'p2' }))).message).toMatch(/^Error getting prompt p2 \(reference/);
    late.update({ name: 'late2' });
    expect((await rpcError(client.getPrompt({ name: 'late2' }))).message).toMatch(/^Error getting prompt late2 \(reference/);
    expect(records.map((r) => r.name)).toEqual(['t', 't', 't2', 'p', 'p2', 'late2']);
  });

  it('a tool and a prompt registered before the call and renamed later fail under their new names', async () => {
    const { policy, records } = capture();
    const server = newV2();
    const tool = server.registerTool('old_tool', {}, crash);
    const prompt = server.registerPrompt('old_prompt', {}, crash);
    applyErrorPolicy(server, policy);
    tool.update({ name: 'new_tool' });
    prompt.update({ name: 'new_prompt' });
    const { client } = await connectV2(server);
    expect(textOf(await client.callTool({ name: 'new_tool', arguments: {} }))).toMatch(/^Error executing tool new_tool \(reference [0-9a-f]{12}\)$/);
    expect((await rpcError(client.getPrompt({ name: 'new_prompt' }))).message).toMatch(/^Error getting prompt new_prompt \(reference [0-9a-f]{12}\)$/);
    expect(records.map((r) => r.name)).toEqual(['new_tool', 'new_prompt']);
  });

  it('a pre-registered tool whose schema changes without a new callback stays covered', async () => {
    const { policy, records } = capture();
    const server = newV2();
    const tool = server.registerTool('t', {}, crash);
    applyErrorPolicy(server, policy);
    tool.update({ paramsSchema: z.object({ n: z.number().optional() }) });
    const { client } = await connectV2(server);
    expect(textOf(await client.callTool({ name: 't', arguments: { n: 1 } }))).toMatch(/^Error executing tool t \(reference/);
    expect(records).toHaveLength(1);
  });

  it('applying it to a connected server sends no list_changed notification', async () => {
    const server = newV2();
    const tool = server.registerTool('t', {}, crash);
    server.registerResource('r', 'static://r', {}, crash);
    server.registerPrompt('p', {}, crash);
    await expectAppliedWithoutNotifications(await connectV2(server), tool);
  });

  it('calls v2 answers itself keep its answer and get one outcome', async () => {
    const { policy, records, outcomes } = capture();
    const server = newV2();
    server.registerTool('typed', { inputSchema: z.object({ n: z.number() }) }, ({ n }) => text(String(n)));
    server.registerPrompt('ask', { argsSchema: z.object({ q: z.string() }) }, ({ q }) => ({ messages: [{ role: 'user', content: { type: 'text', text: q } }] }));
    applyErrorPolicy(server, policy);
    const { client } = await connectV2(server);
    expect(await rpcError(client.callTool({ name: 'nope', arguments: {} }))).toEqual({ code: -32602, message: 'Tool nope not found', data: undefined });
    expect(textOf(await client.callTool({ name: 'typed', arguments: { n: 'x' } }))).toBe(
      'Input validation error: Invalid arguments for tool typed: n: Invalid input: expected number, received string',
    );
    expect(await rpcError(client.getPrompt({ name: 'nope' }))).toEqual({ code: -32602, message: 'Prompt nope not found', data: undefined });
    expect(withoutDurations(outcomes)).toEqual([
      { kind: 'tool', name: 'nope', status: 404 },
      { kind: 'tool', name: 'typed', status: 400 },
      { kind: 'prompt', name: 'nope', status: 404 },
    ]);
    expect(records).toEqual([]);
  });

  it('hand-wrapped tools (before and after) and prompts (after): one outcome per call', async () => {
    const { policy, records, outcomes } = capture();
    const server = newV2();
    server.registerTool('hand_ok', {}, withClientVisibleErrors(() => text('ok'), { name: 'hand_ok', policy }));
    server.registerTool('hand_crash', {}, withClientVisibleErrors(crash, { name: 'hand_crash', policy }));
    applyErrorPolicy(server, policy);
    server.registerPrompt('hand_p', {}, withClientVisiblePromptErrors(() => ({ messages: [] }), { name: 'hand_p', policy }));
    const { client } = await connectV2(server);
    await client.callTool({ name: 'hand_ok', arguments: {} });
    await client.callTool({ name: 'hand_crash', arguments: {} });
    await client.getPrompt({ name: 'hand_p' });
    expect(records.map((r) => r.name)).toEqual(['hand_crash']);
    expect(withoutDurations(outcomes)).toEqual([
      { kind: 'tool', name: 'hand_ok', status: 200 },
      { kind: 'tool', name: 'hand_crash', status: 500, classification: 'crash' },
      { kind: 'prompt', name: 'hand_p', status: 200 },
    ]);
  });

  it('a prompt wrapped by hand and registered before the call: a failure is logged and reported once', async () => {
    const { policy, records, outcomes } = capture();
    const server = newV2();
    server.registerPrompt('hand_crash', {}, withClientVisiblePromptErrors(crash, { name: 'hand_crash', policy }));
    applyErrorPolicy(server, policy);
    const { client } = await connectV2(server);
    await rpcError(client.getPrompt({ name: 'hand_crash' }));
    expect(records).toHaveLength(1);
    expect(outcomes.map((o) => o.status)).toEqual([500]);
  });

  it('a prompt wrapped by hand and registered before the call: a success is reported once', async () => {
    const { policy, outcomes } = capture();
    const server = newV2();
    server.registerPrompt('hand_ok', {}, withClientVisiblePromptErrors(() => ({ messages: [] }), { name: 'hand_ok', policy }));
    applyErrorPolicy(server, policy);
    const { client } = await connectV2(server);
    await client.getPrompt({ name: 'hand_ok' });
    expect(outcomes.map((o) => o.status)).toEqual([200]);
  });
});

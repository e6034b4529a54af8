/**
 * Report mode (`createErrorPolicy({ mode: 'report' })`), through a real McpServer under `applyErrorPolicy` and a real
 * SDK Client: a crash's own text still reaches the client (scrubbed, bounded), its one record is a `warn` report record
 * naming the text `'enforce'` would replace and where it was thrown; everything else is as under `'enforce'`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CompleteRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyErrorPolicy, createErrorPolicy, ToolError } from '../../src/index.js';
import { ANY_ID, failureData, failureObject, toolFailure } from '../support/failure.js';
import { link } from '../support/link.js';
import { capture, connect, newServer, REFERENCE, rpcError, withoutDurations, withStderr, type Session } from '../support/session.js';

/** A frame of this file: `<function> (<path>/test/adopt/report.test.ts:<line>:<column>)`. */
const frameOf = (fn: string): unknown => expect.stringMatching(new RegExp(`^${fn} \\(.*test/adopt/report\\.test\\.ts:\\d+:\\d+\\)$`));

// The idiom of published servers: user-facing text in a plain Error.
function readEntity(name: string): never {
  throw new Error(`Entity with name ${name} not found`);
}

function checkPath(path: string): never {
  throw new Error(`Access denied - path outside allowed directories: ${path}`);
}

function callApi(): never {
  throw new Error('request to https://api.example.com/v1/items?key=AIzaSyA1234567890abcdefghijklmnopqrstu failed, reason: socket hang up');
}

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function reportingServer(options: Parameters<typeof capture>[0] = {}) {
  const observed = capture({ mode: 'report', ...options });
  const server = applyErrorPolicy(newServer(), observed.policy);
  server.registerTool('get_entity', {}, () => readEntity('Ada'));
  server.registerTool('call_api', {}, () => callApi());
  server.registerTool('long', {}, () => {
    throw new Error(`too long: ${'x'.repeat(200)}`);
  });
  server.registerTool('no_text', {}, () => {
    throw { status: 'broken' };
  });
  server.registerTool('deliberate', {}, () => {
    throw new ToolError('Sheet name must not be empty');
  });
  server.registerTool('refused', {}, () => {
    throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:443 (https://api.example.com/?key=AIzaSyA1234567890abcdefghijklmnopqrstu)'), { code: 'ECONNREFUSED', syscall: 'connect' });
  });
  server.registerTool('protocol', {}, () => {
    throw new McpError(ErrorCode.InvalidParams, 'Unknown sheet');
  });
  server.registerResource('file', 'file:///srv/data/readme.txt', {}, () => checkPath('/etc/passwd'));
  session = await connect(server);
  return { ...observed, client: session.client };
}

describe("mode: 'report'", () => {
  it('shows a crash its own text as the SDK would, and logs a warn report record with the text and the first frame', async () => {
    const { client, records, outcomes } = await reportingServer();
    const answer = await client.callTool({ name: 'get_entity', arguments: {} });
    const reference = records[0]?.reference;
    expect(reference).toMatch(REFERENCE);
    expect(answer).toEqual(toolFailure('Entity with name Ada not found', failureObject('internal', false, { correlationId: reference })));
    expect(records).toEqual([
      {
        level: 'warn',
        message: expect.stringMatching(new RegExp(`^report: tool "get_entity" would be masked \\(reference ${reference}\\): Error "Entity with name Ada not found" at readEntity \\(.*test/adopt/report\\.test\\.ts:\\d+:\\d+\\)$`)),
        kind: 'crash',
        handler: 'tool',
        name: 'get_entity',
        status: 500,
        errorName: 'Error',
        errorMessage: 'Entity with name Ada not found',
        reference,
        correlationId: reference,
        report: true,
        thrownAt: frameOf('readEntity'),
        stack: expect.stringMatching(/^ {4}at readEntity \(/),
      },
    ]);
    expect(records[0]?.message.endsWith(` at ${records[0].thrownAt}`)).toBe(true);
    expect(withoutDurations(outcomes)).toEqual([{ kind: 'tool', name: 'get_entity', status: 500, classification: 'crash' }]);
  });

  it('scrubs secrets from the text the client and the record get, and bounds it by maxMessageLength', async () => {
    const { client, records } = await reportingServer({ maxMessageLength: 64 });
    const scrubbed = 'request to https://api.example.com/v1/items?key=[REDACTED] failed, reason: socket hang up';
    const bounded = `${scrubbed.slice(0, 63)}…`;
    expect(await client.callTool({ name: 'call_api', arguments: {} })).toEqual(toolFailure(bounded, failureObject('internal', false, { correlationId: records[0]?.reference })));
    expect(await client.callTool({ name: 'long', arguments: {} })).toEqual(toolFailure(`too long: ${'x'.repeat(53)}…`, failureObject('internal', false, { correlationId: records[1]?.reference })));
    expect(records.map(({ level, report, errorMessage, thrownAt }) => ({ level, report, errorMessage, thrownAt }))).toEqual([
      { level: 'warn', report: true, errorMessage: bounded, thrownAt: frameOf('callApi') },
      { level: 'warn', report: true, errorMessage: `too long: ${'x'.repeat(53)}…`, thrownAt: expect.stringMatching(/report\.test\.ts:\d+:\d+$/) },
    ]);
    expect(JSON.stringify(records)).not.toContain('AIza');
  });

  it('gives a thrown value without a text the masked answer, still as a report record', async () => {
    const { client, records } = await reportingServer();
    const answer = await client.callTool({ name: 'no_text', arguments: {} });
    const reference = records[0]?.reference;
    expect(answer).toEqual(toolFailure(`Error executing tool no_text (reference ${reference})`, failureObject('internal', false, { correlationId: reference })));
    expect(records).toEqual([
      {
        level: 'warn',
        message: `report: tool "no_text" would be masked (reference ${reference}): Object ""`,
        kind: 'crash',
        handler: 'tool',
        name: 'no_text',
        status: 500,
        errorName: 'Object',
        errorMessage: '',
        reference,
        correlationId: reference,
        report: true,
        stack: '    (no stack: Object thrown)',
      },
    ]);
  });

  it('answers a resource crash with its text as a JSON-RPC error whose code the policy chooses', async () => {
    const { client, records, outcomes } = await reportingServer();
    const error = await rpcError(client.readResource({ uri: 'file:///srv/data/readme.txt' }));
    const reference = records[0]?.reference;
    expect(error).toEqual({
      code: -32603,
      message: 'MCP error -32603: Access denied - path outside allowed directories: /etc/passwd',
      data: failureData(failureObject('internal', false, { correlationId: reference })),
    });
    expect(records.map(({ level, message, report, thrownAt }) => ({ level, message, report, thrownAt }))).toEqual([
      {
        level: 'warn',
        message: expect.stringMatching(
          new RegExp(`^report: resource "file:///srv/data/readme.txt" would be masked \\(reference ${reference}\\): Error "Access denied - path outside allowed directories: /etc/passwd" at checkPath \\(`),
        ),
        report: true,
        thrownAt: frameOf('checkPath'),
      },
    ]);
    expect(withoutDurations(outcomes)).toEqual([{ kind: 'resource', name: 'file:///srv/data/readme.txt', status: 500, classification: 'crash' }]);
  });

  it('shows a crashing completer and a crashing list callback their own text too, one report record each', async () => {
    const { policy, records } = capture({ mode: 'report' });
    const server = newServer();
    server.registerPrompt('summarize', { argsSchema: { sheet: completable(z.string(), () => checkPath('/etc/shadow')) } }, () => ({ messages: [] }));
    server.registerResource('sheet', new ResourceTemplate('sheet://{id}', { list: () => callApi() }), {}, (uri) => ({ contents: [{ uri: uri.href, text: 'x' }] }));
    applyErrorPolicy(server, policy);
    session = await connect(server);
    const { client } = session;
    const completion = await rpcError(client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'sheet', value: 'Q' } }));
    const list = await rpcError(client.listResources());
    const [first, second] = records.map(({ reference }) => reference);
    expect(first).toMatch(REFERENCE);
    expect(second).toMatch(REFERENCE);
    expect([completion, list]).toEqual([
      {
        code: -32603,
        message: 'MCP error -32603: Access denied - path outside allowed directories: /etc/shadow',
        data: failureData(failureObject('internal', false, { correlationId: first })),
      },
      {
        code: -32603,
        message: 'MCP error -32603: request to https://api.example.com/v1/items?key=[REDACTED] failed, reason: socket hang up',
        data: failureData(failureObject('internal', false, { correlationId: second })),
      },
    ]);
    expect(records.map(({ level, kind, handler, name, report, thrownAt }) => ({ level, kind, handler, name, report, thrownAt }))).toEqual([
      { level: 'warn', kind: 'crash', handler: 'prompt', name: 'completion/complete', report: true, thrownAt: frameOf('checkPath') },
      { level: 'warn', kind: 'crash', handler: 'resource', name: 'resources/list', report: true, thrownAt: frameOf('callApi') },
    ]);
    expect(JSON.stringify(records)).not.toContain('AIza');
  });

  it('does the same for the list and completion handlers of a low-level Server', async () => {
    const { policy, records } = capture({ mode: 'report' });
    const server = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {}, completions: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => readEntity('tools'));
    applyErrorPolicy(server, policy);
    server.setRequestHandler(CompleteRequestSchema, () => callApi());
    const { client, close } = await link(server, new Client({ name: 'c', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
    try {
      const tools = await rpcError(client.listTools());
      const completion = await rpcError(client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'sheet', value: 'Q' } }));
      expect([tools.message, completion.message]).toEqual([
        'MCP error -32603: Entity with name tools not found',
        'MCP error -32603: request to https://api.example.com/v1/items?key=[REDACTED] failed, reason: socket hang up',
      ]);
      expect(records.map(({ level, handler, name, report, thrownAt }) => ({ level, handler, name, report, thrownAt }))).toEqual([
        { level: 'warn', handler: 'tool', name: 'tools/list', report: true, thrownAt: frameOf('readEntity') },
        { level: 'warn', handler: 'prompt', name: 'completion/complete', report: true, thrownAt: frameOf('callApi') },
      ]);
    } finally {
      await close();
    }
  });

  it('leaves deliberate errors, anticipated failures and protocol errors as under enforce', async () => {
    const { client, records, outcomes } = await reportingServer();
    expect(await client.callTool({ name: 'deliberate', arguments: {} })).toEqual(toolFailure('Error executing tool deliberate: Sheet name must not be empty', failureObject('tool_error', false)));
    expect(await client.callTool({ name: 'refused', arguments: {} })).toEqual(
      toolFailure('Error executing tool refused: Network error: connection refused (ECONNREFUSED)', failureObject('network', true, { unreached: true })),
    );
    // (SDK 1.x answers a protocol error a tool throws with an isError result of its text)
    expect(await client.callTool({ name: 'protocol', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'MCP error -32602: Unknown sheet' }], isError: true });
    expect(records.map(({ level, kind, report, correlationId }) => ({ level, kind, report, correlationId }))).toEqual([
      { level: 'info', kind: 'anticipated', report: undefined, correlationId: ANY_ID },
      { level: 'warn', kind: 'anticipated', report: undefined, correlationId: ANY_ID },
      { level: 'info', kind: 'protocol', report: undefined, correlationId: undefined },
    ]);
    expect(withoutDurations(outcomes).map(({ status }) => status)).toEqual([500, 502, 400]);
  });

  it("writes the default logger's report line to stderr, greppable as `WARN report:`", async () => {
    const server = applyErrorPolicy(newServer(), createErrorPolicy({ mode: 'report' }));
    server.registerTool('get_entity', {}, () => readEntity('Ada'));
    session = await connect(server);
    const { client } = session;
    const { value: answer, written } = await withStderr(() => client.callTool({ name: 'get_entity', arguments: {} }));
    expect(answer).toMatchObject({ content: [{ type: 'text', text: 'Entity with name Ada not found' }], isError: true });
    expect(written).toHaveLength(1);
    const [line, ...stack] = written[0]!.trimEnd().split('\n');
    expect(line).toMatch(/^\[mcp-error-policy\] WARN report: tool "get_entity" would be masked \(reference [0-9a-f]{12}\): Error "Entity with name Ada not found" at readEntity \(.*report\.test\.ts:\d+:\d+\)$/);
    expect(stack[0]).toMatch(/^ {4}at readEntity \(/);
  });

  it('is checked when the policy is made', () => {
    expect(() => createErrorPolicy({ mode: 'reprot' as 'report' })).toThrow(new TypeError('Expected `mode` to be \'enforce\' or \'report\', got the string "reprot"'));
    expect(() => createErrorPolicy({ mode: true as unknown as 'report' })).toThrow(new TypeError("Expected `mode` to be 'enforce' or 'report', got boolean"));
    expect(createErrorPolicy().mode).toBe('enforce');
    expect(createErrorPolicy({ mode: 'report' }).mode).toBe('report');
  });
});

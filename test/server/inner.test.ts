/**
 * applyErrorPolicy on an McpServer whose server code sets request handlers on `mcpServer.server` itself
 * (`setRequestHandler(CallToolRequestSchema, …)`, as many published servers do), before the line or after it: SDK v1's
 * McpServer with its Client, SDK v2's with the v2 Client, over the SDKs' in-memory transports. Those handlers are
 * guarded as a low-level Server's are; the McpServer's own handler still serves its registered tools alone (one record,
 * one outcome); report mode sends the bare server's bytes; a handler the policy cannot guard is named by a warning, and
 * a layout it does not know is refused.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import * as v2 from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyErrorPolicy, createErrorPolicy, ResourceNotFoundError, ToolError, type ErrorPolicy, type LogRecord } from '../../src/index.js';
import { capture, referenceIn, rpcError, textOf, withoutDurations } from '../support/calls.js';
import { crashRpcError, expectCorrelated, failureData, failureObject, toolFailure } from '../support/failure.js';
import { link, tap } from '../support/link.js';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.c2hlZXRzLXVzZXItNDI.Q2FOQVJZLWlubmVyLXRva2Vu';
const LEAK = `GET https://sheets.example/v1/q3 answered 401 for Authorization: Bearer ${TOKEN}`;
/** What a client or a log could show of the crashes: none of it may reach a client. */
const CRASH_TEXTS = [TOKEN, 'Cannot read properties', 'reading \'rows\'', 'sheets.example'];

const ok = (text: string) => ({ content: [{ type: 'text' as const, text }] });

/** A real TypeError of the runtime: `Cannot read properties of undefined (reading 'rows')`. */
function readRows(sheet: { rows: string[] } | undefined): number {
  return (sheet as { rows: string[] }).rows.length;
}

/** The server's code behind its tools/call handler: `ok`, `deliberate` (a ToolError), `crash` (a TypeError), `leak`. */
function callTool(name: string) {
  if (name === 'deliberate') throw new ToolError('Sheet name must not be empty');
  if (name === 'crash') return ok(String(readRows(undefined)));
  if (name === 'leak') throw new Error(LEAK);
  return ok('fine');
}

/** The code behind resources/read: `sheet://missing` (a ResourceNotFoundError), `sheet://crash` (a TypeError). */
function readResource(uri: string) {
  if (uri === 'sheet://missing') throw new ResourceNotFoundError(`No sheet at ${uri}`);
  if (uri === 'sheet://crash') return { contents: [{ uri, text: String(readRows(undefined)) }] };
  return { contents: [{ uri, text: 'fine' }] };
}

/** The code behind prompts/get: `crash` leaks the token, anything else answers. */
function getPrompt(name: string) {
  if (name === 'crash') throw new Error(LEAK);
  return { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `about ${name}` } }] };
}

/** What a test does with a connected server, whatever its SDK. */
interface Running {
  callTool(name: string): Promise<unknown>;
  readResource(uri: string): Promise<unknown>;
  getPrompt(name: string): Promise<unknown>;
  listTools(): Promise<unknown>;
  /** Every message the server sent, as JSON text. */
  readonly wire: string[];
  close(): Promise<void>;
}

/** When the handlers are set on `mcpServer.server`: before `applyErrorPolicy(mcpServer)`, or after it. */
type Order = 'before' | 'after';

const CAPABILITIES = { capabilities: { tools: {}, resources: {}, prompts: {} } };

/** The calls a v1 or v2 Client makes (their methods take the same parameters). */
interface SdkClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  readResource(params: { uri: string }): Promise<unknown>;
  getPrompt(params: { name: string }): Promise<unknown>;
  listTools(): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Sets the handlers on `mcpServer.server` (`setHandlers`) before or after `apply` (the policy's line, when there is a
 * policy), then connects `mcp` to `client` over `pair` with the server side tapped.
 */
async function run(
  order: Order,
  setHandlers: () => void,
  apply: () => void,
  connect: (serverSide: never) => Promise<void>,
  client: SdkClient & { connect(transport: never): Promise<void> },
  pair: readonly [{ send(message: unknown, options?: unknown): Promise<void> }, unknown],
): Promise<Running> {
  if (order === 'before') setHandlers();
  apply();
  if (order === 'after') setHandlers();
  const wire: string[] = [];
  await connect(tap(pair[0], wire) as never);
  await client.connect(pair[1] as never);
  return {
    callTool: (name) => client.callTool({ name, arguments: {} }),
    readResource: (uri) => client.readResource({ uri }),
    getPrompt: (name) => client.getPrompt({ name }),
    listTools: () => client.listTools(),
    wire,
    close: () => client.close(),
  };
}

/** An SDK v1 McpServer whose server code sets tools/list, tools/call, resources/read and prompts/get on `server.server`. */
function startV1(order: Order, policy?: ErrorPolicy): Promise<Running> {
  const mcp = new McpServer({ name: 'inner-v1', version: '1.0.0' }, CAPABILITIES);
  const setHandlers = () => {
    mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: 'crash', inputSchema: { type: 'object' as const } }] }));
    mcp.server.setRequestHandler(CallToolRequestSchema, (request) => callTool(request.params.name));
    mcp.server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(request.params.uri));
    mcp.server.setRequestHandler(GetPromptRequestSchema, (request) => getPrompt(request.params.name));
  };
  const apply = () => policy !== undefined && applyErrorPolicy(mcp, policy);
  return run(order, setHandlers, apply, (side) => mcp.connect(side), new Client({ name: 'inner-client', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
}

/** The same server on SDK v2 (`@modelcontextprotocol/server`), with the v2 Client. */
function startV2(order: Order, policy?: ErrorPolicy): Promise<Running> {
  const mcp = new v2.McpServer({ name: 'inner-v2', version: '1.0.0' }, CAPABILITIES);
  const setHandlers = () => {
    mcp.server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'crash', inputSchema: { type: 'object' as const } }] }));
    mcp.server.setRequestHandler('tools/call', (request) => callTool(request.params.name));
    mcp.server.setRequestHandler('resources/read', (request) => readResource(request.params.uri));
    mcp.server.setRequestHandler('prompts/get', (request) => getPrompt(request.params.name));
  };
  const apply = () => policy !== undefined && applyErrorPolicy(mcp, policy);
  return run(order, setHandlers, apply, (side) => mcp.connect(side), new ClientV2({ name: 'inner-client', version: '1.0.0' }), v2.InMemoryTransport.createLinkedPair());
}

/**
 * How each SDK's client shows a JSON-RPC error: v1 prefixes `MCP error <code>: `, v2 does not; v2 sends a handler's
 * -32002 as -32602 with `data: { uri }` alone (test/server/v2.test.ts).
 */
const SDKS = [
  {
    sdk: 'SDK v1',
    start: startV1,
    prefix: (code: number) => `MCP error ${code}: `,
    notFound: -32002,
    notFoundData: (uri: string): unknown => failureData(failureObject('resource_not_found', false), uri),
  },
  { sdk: 'SDK v2', start: startV2, prefix: () => '', notFound: -32602, notFoundData: (uri: string): unknown => ({ uri }) },
] as const;

const CASES = SDKS.flatMap((sdk) => (['before', 'after'] as const).map((order) => ({ ...sdk, order })));

/** A crash record's fields: at error, its reference, its stack from this file, the token scrubbed. */
function expectCrashRecord(record: LogRecord | undefined, handler: string, name: string, errorName: string): void {
  expect(record).toMatchObject({ level: 'error', kind: 'crash', handler, name, status: 500, errorName });
  expect(record?.reference).toMatch(/^[0-9a-f]{12}$/);
  expect(record?.stack).toMatch(/^ {4}at .*inner\.test\.ts:\d+:\d+/);
}

describe.each(CASES)('handlers set on mcpServer.server $order applyErrorPolicy ($sdk)', ({ start, prefix, notFound, notFoundData, order }) => {
  it('tools/call: a crash and a token are masked with a reference and logged once with the stack; a ToolError keeps its text; success unchanged', async () => {
    const { policy, records, outcomes } = capture();
    const running = await start(order, policy);
    try {
      expect(await running.callTool('ok')).toEqual(ok('fine'));
      const deliberate = await running.callTool('deliberate');
      expect(deliberate).toEqual(toolFailure('Error executing tool deliberate: Sheet name must not be empty', failureObject('tool_error', false)));
      const crashed = await running.callTool('crash');
      const reference = referenceIn(textOf(crashed));
      expect(crashed).toEqual(toolFailure(`Error executing tool crash (reference ${reference})`, failureObject('internal', false, { correlationId: reference })));
      const leaked = await running.callTool('leak');
      const leakReference = referenceIn(textOf(leaked));
      expect(leaked).toEqual(toolFailure(`Error executing tool leak (reference ${leakReference})`, failureObject('internal', false, { correlationId: leakReference })));
      expect(await running.listTools()).toEqual({ tools: [{ name: 'crash', inputSchema: { type: 'object' } }] });

      expect(records).toHaveLength(3);
      expect(records[0]).toMatchObject({ level: 'info', kind: 'anticipated', handler: 'tool', name: 'deliberate', rule: 'deliberate' });
      expectCorrelated(deliberate, records[0]);
      expectCrashRecord(records[1], 'tool', 'crash', 'TypeError');
      expect(records[1]?.reference).toBe(reference);
      expect(records[1]?.message).toBe(`tool "crash" crashed (reference ${reference}): TypeError "Cannot read properties of undefined (reading 'rows')"`);
      expectCrashRecord(records[2], 'tool', 'leak', 'Error');
      expect(records[2]?.reference).toBe(leakReference);
      // the log keeps the crash text, without the token
      expect(records[2]?.errorMessage).toBe('GET https://sheets.example/v1/q3 answered 401 for Authorization: [REDACTED]');
      expect(JSON.stringify(records)).not.toContain(TOKEN);
      expect(withoutDurations(outcomes)).toEqual([
        { kind: 'tool', name: 'ok', status: 200 },
        { kind: 'tool', name: 'deliberate', status: 500, classification: 'anticipated' },
        { kind: 'tool', name: 'crash', status: 500, classification: 'crash' },
        { kind: 'tool', name: 'leak', status: 500, classification: 'crash' },
      ]);
      for (const text of CRASH_TEXTS) expect(running.wire.join('\n')).not.toContain(text);
    } finally {
      await running.close();
    }
  });

  it('resources/read and prompts/get: JSON-RPC errors naming the URI or prompt, a ResourceNotFoundError keeps its text', async () => {
    const { policy, records, outcomes } = capture();
    const running = await start(order, policy);
    try {
      expect(await running.readResource('sheet://q3')).toEqual({ contents: [{ uri: 'sheet://q3', text: 'fine' }] });
      expect(await running.getPrompt('summarize')).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: 'about summarize' } }] });
      const missing = await rpcError(running.readResource('sheet://missing'));
      expect(missing).toEqual({
        code: notFound,
        message: `${prefix(notFound)}No sheet at sheet://missing`,
        data: notFoundData('sheet://missing'),
      });
      const read = await rpcError(running.readResource('sheet://crash'));
      expect(read).toEqual(crashRpcError(`${prefix(-32603)}Error reading resource sheet://crash`, referenceIn(read.message)));
      const prompt = await rpcError(running.getPrompt('crash'));
      expect(prompt).toEqual(crashRpcError(`${prefix(-32603)}Error getting prompt crash`, referenceIn(prompt.message)));

      expect(records).toHaveLength(3);
      expect(records[0]).toMatchObject({ level: 'info', kind: 'anticipated', handler: 'resource', name: 'sheet://missing' });
      expectCrashRecord(records[1], 'resource', 'sheet://crash', 'TypeError');
      expect(records[1]?.reference).toBe(referenceIn(read.message));
      expectCrashRecord(records[2], 'prompt', 'crash', 'Error');
      expect(records[2]?.reference).toBe(referenceIn(prompt.message));
      expect(withoutDurations(outcomes)).toEqual([
        { kind: 'resource', name: 'sheet://q3', status: 200 },
        { kind: 'prompt', name: 'summarize', status: 200 },
        { kind: 'resource', name: 'sheet://missing', status: 404, classification: 'anticipated' },
        { kind: 'resource', name: 'sheet://crash', status: 500, classification: 'crash' },
        { kind: 'prompt', name: 'crash', status: 500, classification: 'crash' },
      ]);
      for (const text of CRASH_TEXTS) expect(running.wire.join('\n')).not.toContain(text);
    } finally {
      await running.close();
    }
  });

  it("mode: 'report' sends the bytes the bare server sends, the token aside, and records each failure", async () => {
    const drive = async (running: Running) => {
      const settle = (p: Promise<unknown>) => p.then(() => undefined, () => undefined);
      for (const name of ['ok', 'deliberate', 'crash', 'leak']) await settle(running.callTool(name));
      for (const uri of ['sheet://q3', 'sheet://missing', 'sheet://crash']) await settle(running.readResource(uri));
      for (const name of ['summarize', 'crash']) await settle(running.getPrompt(name));
      await running.close();
      return running.wire;
    };
    const bare = await drive(await start(order));
    const records: LogRecord[] = [];
    const reported = await drive(await start(order, createErrorPolicy({ mode: 'report', logger: (record) => records.push(record) })));
    // the bare server does send the crash texts and the token
    for (const text of CRASH_TEXTS) expect(bare.join('\n')).toContain(text);
    expect(reported).toEqual(bare.map((line) => line.replaceAll(`Authorization: Bearer ${TOKEN}`, 'Authorization: [REDACTED]')));
    expect(records.map(({ kind, handler, name, report }) => ({ kind, handler, name, report }))).toEqual([
      { kind: 'anticipated', handler: 'tool', name: 'deliberate', report: true },
      { kind: 'crash', handler: 'tool', name: 'crash', report: true },
      { kind: 'crash', handler: 'tool', name: 'leak', report: true },
      { kind: 'anticipated', handler: 'resource', name: 'sheet://missing', report: true },
      { kind: 'crash', handler: 'resource', name: 'sheet://crash', report: true },
      { kind: 'crash', handler: 'prompt', name: 'crash', report: true },
    ]);
  });
});

describe("the McpServer's own handlers beside those set on mcpServer.server", () => {
  it('SDK v1: a registered tool is served by the McpServer alone (one record, one outcome); a resources/read handler set on mcpServer.server after the line is guarded', async () => {
    const { policy, records, outcomes } = capture();
    const mcp = new McpServer({ name: 'mixed', version: '1.0.0' }, CAPABILITIES);
    mcp.registerTool('registered', {}, () => ok(String(readRows(undefined))));
    mcp.server.setRequestHandler(GetPromptRequestSchema, (request) => getPrompt(request.params.name));
    applyErrorPolicy(mcp, policy);
    mcp.registerTool('later', {}, () => {
      throw new ToolError('Sheet name must not be empty');
    });
    mcp.server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(request.params.uri));
    const { client } = await link(mcp, new Client({ name: 'mixed-client', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
    try {
      const crashed = await client.callTool({ name: 'registered', arguments: {} });
      const reference = referenceIn(textOf(crashed));
      expect(crashed).toEqual(toolFailure(`Error executing tool registered (reference ${reference})`, failureObject('internal', false, { correlationId: reference })));
      expect(await client.callTool({ name: 'later', arguments: {} })).toEqual(
        toolFailure('Error executing tool later: Sheet name must not be empty', failureObject('tool_error', false)),
      );
      // the McpServer's own answer to an unknown tool: no record (a low-level wrapper would log it)
      expect(await client.callTool({ name: 'nope', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'MCP error -32602: Tool nope not found' }], isError: true });
      const read = await rpcError(client.readResource({ uri: 'sheet://crash' }));
      expect(read).toEqual(crashRpcError('MCP error -32603: Error reading resource sheet://crash', referenceIn(read.message)));
      const prompt = await rpcError(client.getPrompt({ name: 'crash' }));
      expect(prompt).toEqual(crashRpcError('MCP error -32603: Error getting prompt crash', referenceIn(prompt.message)));

      expect(records.map(({ level, kind, handler, name }) => ({ level, kind, handler, name }))).toEqual([
        { level: 'error', kind: 'crash', handler: 'tool', name: 'registered' },
        { level: 'info', kind: 'anticipated', handler: 'tool', name: 'later' },
        { level: 'error', kind: 'crash', handler: 'resource', name: 'sheet://crash' },
        { level: 'error', kind: 'crash', handler: 'prompt', name: 'crash' },
      ]);
      expect(withoutDurations(outcomes)).toEqual([
        { kind: 'tool', name: 'registered', status: 500, classification: 'crash' },
        { kind: 'tool', name: 'later', status: 500, classification: 'anticipated' },
        { kind: 'tool', name: 'nope', status: 404 },
        { kind: 'resource', name: 'sheet://crash', status: 500, classification: 'crash' },
        { kind: 'prompt', name: 'crash', status: 500, classification: 'crash' },
      ]);
    } finally {
      await client.close();
    }
  });

  it('SDK v2: a registered prompt with a completer and a template are served by the McpServer alone; a tools/call handler set on mcpServer.server is guarded', async () => {
    const { policy, records } = capture();
    const mcp = new v2.McpServer({ name: 'mixed-v2', version: '1.0.0' }, CAPABILITIES);
    applyErrorPolicy(mcp, policy);
    mcp.registerPrompt('registered', {}, () => getPrompt('crash'));
    mcp.registerResource('sheet', new v2.ResourceTemplate('sheet://{id}', { list: undefined }), {}, () => readResource('sheet://crash'));
    mcp.server.setRequestHandler('tools/call', (request) => callTool(request.params.name));
    const { client } = await link(mcp, new ClientV2({ name: 'mixed-client', version: '1.0.0' }), v2.InMemoryTransport.createLinkedPair());
    try {
      const prompt = await rpcError(client.getPrompt({ name: 'registered' }));
      expect(prompt).toEqual(crashRpcError('Error getting prompt registered', referenceIn(prompt.message)));
      const read = await rpcError(client.readResource({ uri: 'sheet://q3' }));
      expect(read).toEqual(crashRpcError('Error reading resource sheet://q3', referenceIn(read.message)));
      const crashed = await client.callTool({ name: 'crash', arguments: {} });
      expect(textOf(crashed)).toBe(`Error executing tool crash (reference ${referenceIn(textOf(crashed))})`);
      expect(records.map(({ kind, handler, name }) => ({ kind, handler, name }))).toEqual([
        { kind: 'crash', handler: 'prompt', name: 'registered' },
        { kind: 'crash', handler: 'resource', name: 'sheet://q3' },
        { kind: 'crash', handler: 'tool', name: 'crash' },
      ]);
    } finally {
      await client.close();
    }
  });

  it('SDK v1: made with its capabilities (its handlers set at once), registering after the line: its tools served by the McpServer alone', async () => {
    const { policy, records, outcomes } = capture();
    const mcp = new McpServer({ name: 'declared', version: '1.0.0' }, CAPABILITIES);
    applyErrorPolicy(mcp, policy);
    mcp.registerTool('registered', {}, () => ok(String(readRows(undefined))));
    const { client } = await link(mcp, new Client({ name: 'declared-client', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
    try {
      const crashed = await client.callTool({ name: 'registered', arguments: {} });
      const reference = referenceIn(textOf(crashed));
      expect(crashed).toEqual(toolFailure(`Error executing tool registered (reference ${reference})`, failureObject('internal', false, { correlationId: reference })));
      expect(await client.callTool({ name: 'nope', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'MCP error -32602: Tool nope not found' }], isError: true });
      expect(records.map(({ kind, name, reference: id }) => ({ kind, name, reference: id }))).toEqual([{ kind: 'crash', name: 'registered', reference }]);
      expect(withoutDurations(outcomes)).toEqual([
        { kind: 'tool', name: 'registered', status: 500, classification: 'crash' },
        { kind: 'tool', name: 'nope', status: 404 },
      ]);
    } finally {
      await client.close();
    }
  });

  it('SDK v1: a handler set on mcpServer.server that registered the capability itself, before the line, is guarded', async () => {
    const { policy, records } = capture();
    const mcp = new McpServer({ name: 'registers', version: '1.0.0' });
    mcp.server.registerCapabilities({ tools: {} });
    mcp.server.setRequestHandler(CallToolRequestSchema, (request) => callTool(request.params.name));
    applyErrorPolicy(mcp, policy);
    const { client } = await link(mcp, new Client({ name: 'registers-client', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
    try {
      const crashed = await client.callTool({ name: 'crash', arguments: {} });
      expect(textOf(crashed)).toBe(`Error executing tool crash (reference ${referenceIn(textOf(crashed))})`);
      expect(records.map(({ kind, name }) => ({ kind, name }))).toEqual([{ kind: 'crash', name: 'crash' }]);
    } finally {
      await client.close();
    }
  });

  it('SDK v1: a tools/call handler set on mcpServer.server after the line, replacing the McpServer\'s, is guarded', async () => {
    const { policy, records } = capture();
    const mcp = new McpServer({ name: 'replaced', version: '1.0.0' }, CAPABILITIES);
    mcp.registerTool('registered', {}, () => ok('fine'));
    applyErrorPolicy(mcp, policy);
    mcp.server.setRequestHandler(CallToolRequestSchema, (request) => callTool(request.params.name));
    const { client } = await link(mcp, new Client({ name: 'replaced-client', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
    try {
      const crashed = await client.callTool({ name: 'crash', arguments: {} });
      expect(textOf(crashed)).toBe(`Error executing tool crash (reference ${referenceIn(textOf(crashed))})`);
      expect(records.map(({ kind, name }) => ({ kind, name }))).toEqual([{ kind: 'crash', name: 'crash' }]);
    } finally {
      await client.close();
    }
  });
});

/** The policy's warnings emitted while `fn` runs (and the tick after it: Node emits warnings on the next tick). */
async function warningsDuring(fn: () => unknown): Promise<{ message: string; code: unknown }[]> {
  const seen: { message: string; code: unknown }[] = [];
  const listener = (warning: Error & { code?: unknown }): void => {
    if (warning.name === 'McpErrorPolicyWarning') seen.push({ message: warning.message, code: warning.code });
  };
  process.on('warning', listener);
  try {
    await fn();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listener);
  }
  return seen;
}

function unguarded(method: string): { message: string; code: string } {
  return {
    message:
      `applyErrorPolicy: the handler of "${method}" is not under the policy: it guards tools/call, resources/read, prompts/get, completion/complete and the list requests, ` +
      'and leaves the answers of other requests to the SDK, so what this handler throws reaches the client as its message. ' +
      'Catch its failures inside it and throw an McpError (ProtocolError in SDK v2) whose text is meant for the client.',
    code: 'MCP_ERROR_POLICY_UNGUARDED_HANDLER',
  };
}

const ReindexRequestSchema = z.object({ method: z.literal('acme/reindex'), params: z.object({ sheet: z.string() }).optional() });

describe('handlers applyErrorPolicy cannot guard', () => {
  it('a handler of another request set on mcpServer.server, before or after the line, is named by one warning (SDK v1), and keeps the SDK\'s answer', async () => {
    const mcp = new McpServer({ name: 'unguarded', version: '1.0.0' }, { capabilities: { resources: { subscribe: true } } });
    mcp.server.setRequestHandler(SubscribeRequestSchema, () => {
      throw new Error(LEAK);
    });
    const { policy, records } = capture();
    const warnings = await warningsDuring(() => {
      applyErrorPolicy(mcp, policy);
      mcp.server.setRequestHandler(ReindexRequestSchema, () => ({}));
      // set again: no second warning
      mcp.server.setRequestHandler(ReindexRequestSchema, () => ({}));
    });
    expect(warnings).toEqual([unguarded('resources/subscribe'), unguarded('acme/reindex')]);
    const { client } = await link(mcp, new Client({ name: 'unguarded-client', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
    try {
      // what the warning says: the SDK's answer, its message as thrown, and no record
      expect(await rpcError(client.subscribeResource({ uri: 'sheet://q3' }))).toEqual({ code: -32603, message: `MCP error -32603: ${LEAK}`, data: undefined });
      expect(records).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('SDK v2 (a custom method, with its schemas) and the low-level Server of SDK v1 warn alike', async () => {
    const v2Server = new v2.McpServer({ name: 'unguarded-v2', version: '1.0.0' });
    const low = new Server({ name: 'unguarded-low', version: '1.0.0' }, { capabilities: { resources: { subscribe: true } } });
    const warnings = await warningsDuring(() => {
      applyErrorPolicy(v2Server);
      v2Server.server.setRequestHandler('acme/reindex', { params: z.object({ sheet: z.string() }) }, () => ({}));
      applyErrorPolicy(low);
      low.setRequestHandler(SubscribeRequestSchema, () => ({}));
    });
    expect(warnings).toEqual([unguarded('acme/reindex'), unguarded('resources/subscribe')]);
  });

  it('no warning for servers with only the handlers the SDK and the McpServer set (logging, tasks, completions), applied before or after they register', async () => {
    const warnings = await warningsDuring(async () => {
      const low = new Server(
        { name: 'sdk-only', version: '1.0.0' },
        { capabilities: { tools: {}, logging: {}, completions: {}, tasks: { requests: { tools: { call: {} } } } }, taskStore: new InMemoryTaskStore() },
      );
      applyErrorPolicy(low);
      const before = new McpServer({ name: 'sdk-only', version: '1.0.0' }, { capabilities: { logging: {} } });
      const after = new McpServer({ name: 'sdk-only', version: '1.0.0' }, { capabilities: { logging: {} } });
      const v2Before = new v2.McpServer({ name: 'sdk-only', version: '1.0.0' }, { capabilities: { logging: {} } });
      const v2After = new v2.McpServer({ name: 'sdk-only', version: '1.0.0' }, { capabilities: { logging: {} } });
      applyErrorPolicy(after);
      applyErrorPolicy(v2After);
      for (const server of [before, after]) {
        server.registerTool('t', {}, () => ok('fine'));
        server.registerResource('r', new ResourceTemplate('r://{id}', { list: undefined, complete: { id: () => ['1'] } }), {}, (uri) => ({ contents: [{ uri: uri.href, text: 'x' }] }));
        server.registerPrompt('p', { argsSchema: { sheet: completable(z.string(), () => ['q3']) } }, () => ({ messages: [] }));
      }
      for (const server of [v2Before, v2After]) {
        server.registerTool('t', {}, () => ok('fine'));
        server.registerPrompt('p', { argsSchema: z.object({ sheet: v2.completable(z.string(), () => ['q3']) }) }, () => ({ messages: [] }));
      }
      applyErrorPolicy(before);
      applyErrorPolicy(v2Before);
      const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
      await after.connect(serverSide);
      const client = new Client({ name: 'sdk-only-client', version: '1.0.0' });
      await client.connect(clientSide);
      expect(await client.complete({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'sheet', value: 'q' } })).toEqual({ completion: { values: ['q3'], total: 1, hasMore: false } });
      await client.close();
    });
    expect(warnings).toEqual([]);
  });

  it('refuses an McpServer whose layout does not say which handlers it set, and leaves it as it was', async () => {
    const mcp = new McpServer({ name: 'unknown-layout', version: '1.0.0' }, CAPABILITIES);
    mcp.server.setRequestHandler(CallToolRequestSchema, (request) => callTool(request.params.name));
    // a future SDK that renamed the flag (simulated on the real instance)
    delete (mcp as unknown as Record<string, unknown>)['_toolHandlersInitialized'];
    expect(() => applyErrorPolicy(mcp, createErrorPolicy())).toThrow(
      /^applyErrorPolicy: this McpServer's internals are not a layout mcp-error-policy knows \(found @modelcontextprotocol\/sdk [^:]+: no `_toolHandlersInitialized`\)/,
    );
    const { client } = await link(mcp, new Client({ name: 'unknown-layout-client', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
    try {
      // unchanged: the bare SDK's answer (the handler is not wrapped)
      expect(await rpcError(client.callTool({ name: 'leak', arguments: {} }))).toEqual({ code: -32603, message: `MCP error -32603: ${LEAK}`, data: undefined });
    } finally {
      await client.close();
    }
  });
});

/**
 * The oldest SDK the package supports, 1.0.1 (pinned by published servers built on the low-level `Server`): a real
 * low-level Server of that SDK whose `tools/call` handler uses `withClientVisibleErrors`, `toToolResult` and
 * `classifyError`, answering a real Client of the same SDK over its in-memory transport. The matrix cell `sdk-1.0.1`
 * (scripts/matrix.sh) runs this file with the SDK installed in .tmp/matrix/sdk-1.0.1 and asks for that version; under
 * `npm test` it runs on the lock file's SDK.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyErrorPolicy, classifyError, createErrorPolicy, toToolResult, ToolError, withClientVisibleErrors, type LogRecord } from '../../src/index.js';
import { ANY_ID, failureObject, toolFailure } from '../support/failure.js';
import { REFERENCE } from '../support/calls.js';
import { thrownBy, versionOf } from './loaded.js';

const records: LogRecord[] = [];
const policy = createErrorPolicy({ logger: (record) => records.push(record) });

type Args = Record<string, unknown>;

// One wrapped callback per tool, as a low-level server dispatches them.
const tools: Record<string, (args: Args) => Promise<{ content: { type: 'text'; text: string }[] }>> = {
  divide: withClientVisibleErrors(
    async ({ a, b }: Args) => {
      if (b === 0) throw new ToolError('Cannot divide by zero');
      return { content: [{ type: 'text', text: String(Number(a) / Number(b)) }] };
    },
    { name: 'divide', policy },
  ),
  explain: withClientVisibleErrors(
    async ({ code }: Args) => {
      const table: Record<string, { text: string }> = {};
      return { content: [{ type: 'text', text: table[String(code)]!.text }] };
    },
    { name: 'explain', policy },
  ),
};

function makeServer(): Server {
  const server = new Server({ name: 'pinned', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: ['divide', 'explain', 'lookup'].map((name) => ({ name, inputSchema: { type: 'object' as const, properties: {} } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args = {} } = request.params;
    const tool = tools[name];
    if (tool !== undefined) return tool(args);
    try {
      if (name === 'lookup') throw new Error(`lookup failed: GET https://api.example.com/v1?api_key=sk-live-1234567890abcdef1234`);
      throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
    } catch (error) {
      if (classifyError(error, policy).kind === 'protocol') throw error;
      return toToolResult(error, name, policy);
    }
  });
  return server;
}

let client: Client;
let server: Server;

beforeAll(async () => {
  server = makeServer();
  client = new Client({ name: 'pinned-client', version: '1.0.0' }, { capabilities: {} });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
});

afterAll(async () => {
  await client.close();
  await server.close();
});

describe('a low-level Server of the oldest supported SDK', () => {
  it('is the version the matrix cell asked for', () => {
    const thrown = thrownBy(() => new Server({ name: 'probe', version: '1.0.0' }, { capabilities: {} }).setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [] })));
    const loaded = versionOf(thrown, '@modelcontextprotocol/sdk');
    expect(loaded).toMatch(/^1\.\d+\.\d+$/);
    const expected = process.env['COMPAT_EXPECT_SDK'];
    if (expected !== undefined && expected !== '') expect(loaded).toBe(expected);
  });

  it("takes SDK 1.0.x's McpError, which keeps the name Error, for a protocol error", () => {
    // as SDK 1.0.1 declares it (types.js): no `name` of its own
    class McpError extends Error {
      constructor(
        readonly code: number,
        message: string,
      ) {
        super(`MCP error ${code}: ${message}`);
      }
    }
    expect(new McpError(-32602, 'x').name).toBe('Error');
    expect(classifyError(new McpError(-32602, 'Tool nope not found'), policy)).toMatchObject({ kind: 'protocol', code: -32602, status: 400 });
  });

  it('answers a success, a ToolError, a masked crash, a toToolResult failure and a protocol error, each logged once', async () => {
    records.length = 0;
    expect(await client.callTool({ name: 'divide', arguments: { a: 6, b: 3 } })).toEqual({ content: [{ type: 'text', text: '2' }] });

    const divided = await client.callTool({ name: 'divide', arguments: { a: 1, b: 0 } });
    expect(divided).toEqual(toolFailure('Error executing tool divide: Cannot divide by zero', failureObject('tool_error', false)));

    const crashed = await client.callTool({ name: 'explain', arguments: { code: 'E42' } });
    const reference = records[1]?.reference;
    expect(reference).toMatch(REFERENCE);
    expect(crashed).toEqual(toolFailure(`Error executing tool explain (reference ${reference})`, failureObject('internal', false, { correlationId: reference })));

    const looked = await client.callTool({ name: 'lookup', arguments: {} });
    const lookupReference = records[2]?.reference;
    expect(looked).toEqual(toolFailure(`Error executing tool lookup (reference ${lookupReference})`, failureObject('internal', false, { correlationId: lookupReference })));

    // (the client prefixes the code to the message; newer SDKs once, older ones twice)
    const unknown = client.callTool({ name: 'nope', arguments: {} });
    await expect(unknown).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    await expect(unknown).rejects.toThrow(/^MCP error -32602: (?:MCP error -32602: )?Tool nope not found$/);

    expect(records.map(({ level, kind, name, message }) => ({ level, kind, name, message }))).toEqual([
      { level: 'info', kind: 'anticipated', name: 'divide', message: 'tool "divide" failed: ToolError "Cannot divide by zero"' },
      { level: 'error', kind: 'crash', name: 'explain', message: `tool "explain" crashed (reference ${reference}): TypeError "Cannot read properties of undefined (reading 'text')"` },
      { level: 'error', kind: 'crash', name: 'lookup', message: `tool "lookup" crashed (reference ${lookupReference}): Error "lookup failed: GET https://api.example.com/v1?api_key=[REDACTED]"` },
    ]);
    expect(records[0]?.correlationId).toEqual(ANY_ID);
    expect(JSON.stringify(records)).not.toContain('sk-live');
  });
});

describe('requests the SDK itself refuses, on a low-level Server under applyErrorPolicy', () => {
  /** The raw JSON-RPC answers to requests without the `name` their method needs, from a server bare or under the policy. */
  async function refusals(applied: boolean): Promise<{ wire: string[]; logged: LogRecord[] }> {
    const logged: LogRecord[] = [];
    const low = new Server({ name: 'refusing', version: '1.0.0' }, { capabilities: { tools: {}, prompts: {} } });
    if (applied) applyErrorPolicy(low, createErrorPolicy({ logger: (record) => logged.push(record) }));
    low.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text' as const, text: request.params.name }] }));
    low.setRequestHandler(GetPromptRequestSchema, async (request) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text: request.params.name } }] }));
    const wire: string[] = [];
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    const send = serverSide.send.bind(serverSide);
    serverSide.send = async (message) => {
      wire.push(JSON.stringify(message));
      return send(message);
    };
    await low.connect(serverSide);
    const raw = new Client({ name: 'raw', version: '1.0.0' }, { capabilities: {} });
    await raw.connect(clientSide);
    for (const method of ['tools/call', 'prompts/get']) {
      await raw.request({ method, params: { arguments: {} } } as never, CallToolRequestSchema as never).then(
        () => undefined,
        () => undefined,
      );
    }
    await raw.close();
    return { wire, logged };
  }

  it('answers `tools/call` and `prompts/get` without a name with the JSON-RPC error the bare server sends, logging nothing', async () => {
    const bare = await refusals(false);
    const applied = await refusals(true);
    const errors = bare.wire.map((line) => JSON.parse(line) as { id?: number; error?: { code: number } }).filter((message) => message.error !== undefined);
    // both refused as JSON-RPC errors, not as a tool's result: invalid params, or (where the SDK's schema error has no
    // code of its own) internal error
    expect(errors.map((message) => [-32602, -32603].includes(message.error?.code ?? 0))).toEqual([true, true]);
    expect(applied.wire).toEqual(bare.wire);
    expect(applied.logged).toEqual([]);
  });
});

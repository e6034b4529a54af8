/**
 * applyErrorPolicy on a low-level `Server` (no McpServer): SDK v1's `Server` of @modelcontextprotocol/sdk with its
 * Client, and SDK v2's `Server` of @modelcontextprotocol/server with the v2 Client, each over the SDK's in-memory
 * transport. Request handlers set before and after the call; names and URIs from the request; protocol errors passed
 * through and logged once at info; one record and one outcome per call; one policy per server.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import {
  InMemoryTransport as InMemoryTransportV2,
  McpServer as McpServerV2,
  ProtocolError,
  ProtocolErrorCode,
  Server as ServerV2,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  applyErrorPolicy,
  createErrorPolicy,
  ResourceNotFoundError,
  ToolError,
  withClientVisibleErrors,
  withClientVisibleResourceErrors,
} from '../../src/index.js';
import { crashRpcError, failureData, failureObject, toolFailure } from '../support/failure.js';
import { link } from '../support/link.js';
import { capture, referenceIn, rpcError, textOf, withoutDurations } from '../support/calls.js';

const CANARY = 'CANARY-low-5c1d: /srv/secret/path';
const ok = (text: string) => ({ content: [{ type: 'text' as const, text }] });

function newServer(): Server {
  return new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {}, resources: {}, prompts: {} } });
}

function connect(server: Server) {
  return link(server, new Client({ name: 'low-client', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
}

/** The outcomes of calling `ok`, `deliberate`, `crash` and `nope`, in that order. */
const TOOL_OUTCOMES = [
  { kind: 'tool', name: 'ok', status: 200 },
  { kind: 'tool', name: 'deliberate', status: 500, classification: 'anticipated' },
  { kind: 'tool', name: 'crash', status: 500, classification: 'crash' },
  { kind: 'tool', name: 'nope', status: 400, classification: 'protocol' },
];

/** A tools/call handler: `ok` answers, `deliberate` throws a ToolError, `crash` crashes, anything else is unknown. */
async function callTool(request: { params: { name: string } }) {
  const { name } = request.params;
  if (name === 'ok') return ok('fine');
  if (name === 'deliberate') throw new ToolError('Sheet name must not be empty');
  if (name === 'crash') throw new Error(CANARY);
  throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
}

/**
 * What a client (SDK v1 or v2) gets from `ok`, `deliberate` and `crash` of `callTool` under the policy; returns the
 * crash's reference.
 */
async function expectToolAnswers(call: (params: { name: string; arguments: Record<string, unknown> }) => Promise<unknown>): Promise<string> {
  expect(await call({ name: 'ok', arguments: {} })).toEqual(ok('fine'));
  expect(await call({ name: 'deliberate', arguments: {} })).toEqual(
    toolFailure('Error executing tool deliberate: Sheet name must not be empty', failureObject('tool_error', false)),
  );
  const crashed = await call({ name: 'crash', arguments: {} });
  const reference = referenceIn(textOf(crashed));
  expect(crashed).toEqual(toolFailure(`Error executing tool crash (reference ${reference})`, failureObject('internal', false, { correlationId: reference })));
  return reference;
}

describe('applyErrorPolicy on a low-level Server of @modelcontextprotocol/sdk 1.x', () => {
  it('tools/call set before the call: named by the request, crashes masked, protocol errors passed and logged at info', async () => {
    const { policy, records, outcomes } = capture();
    const server = newServer();
    server.setRequestHandler(CallToolRequestSchema, callTool);
    expect(applyErrorPolicy(server, policy)).toBe(server);
    const { client } = await connect(server);

    const reference = await expectToolAnswers((params) => client.callTool(params));
    // SDK v1's McpError message holds its prefix, and the client adds one
    expect(await rpcError(client.callTool({ name: 'nope', arguments: {} }))).toEqual({
      code: -32602,
      message: 'MCP error -32602: MCP error -32602: Tool nope not found',
      data: undefined,
    });

    expect(records.map(({ level, kind, handler, name, status }) => ({ level, kind, handler, name, status }))).toEqual([
      { level: 'info', kind: 'anticipated', handler: 'tool', name: 'deliberate', status: 500 },
      { level: 'error', kind: 'crash', handler: 'tool', name: 'crash', status: 500 },
      { level: 'info', kind: 'protocol', handler: 'tool', name: 'nope', status: 400 },
    ]);
    expect(records[1]?.message).toBe(`tool "crash" crashed (reference ${reference}): Error ${JSON.stringify(CANARY)}`);
    expect(records[1]?.reference).toBe(reference);
    expect(withoutDurations(outcomes)).toEqual(TOOL_OUTCOMES);
  });

  it('resources/read and prompts/get set after the call: the JSON-RPC errors of the resource and prompt wrappers', async () => {
    const { policy, records, outcomes } = capture();
    const server = applyErrorPolicy(newServer(), policy);
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      const { uri } = request.params;
      if (uri === 'sheet://missing') throw new ResourceNotFoundError(`No sheet at ${uri}`);
      if (uri === 'sheet://crash') throw new Error(CANARY);
      return { contents: [{ uri, text: 'fine' }] };
    });
    server.setRequestHandler(GetPromptRequestSchema, async () => {
      throw new Error(CANARY);
    });
    // a handler this package does not wrap: its answer and its errors are the SDK's
    server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [] }));
    const { client } = await connect(server);

    expect(await client.readResource({ uri: 'sheet://ok' })).toEqual({ contents: [{ uri: 'sheet://ok', text: 'fine' }] });
    expect(await rpcError(client.readResource({ uri: 'sheet://missing' }))).toEqual({
      code: -32002,
      message: 'MCP error -32002: No sheet at sheet://missing',
      data: failureData(failureObject('resource_not_found', false), 'sheet://missing'),
    });
    const read = await rpcError(client.readResource({ uri: 'sheet://crash' }));
    expect(read).toEqual(crashRpcError('MCP error -32603: Error reading resource sheet://crash', referenceIn(read.message)));
    const prompt = await rpcError(client.getPrompt({ name: 'summarize' }));
    expect(prompt).toEqual(crashRpcError('MCP error -32603: Error getting prompt summarize', referenceIn(prompt.message)));
    expect(await client.listResources()).toEqual({ resources: [] });

    expect(records.map(({ level, kind, handler, name }) => ({ level, kind, handler, name }))).toEqual([
      { level: 'info', kind: 'anticipated', handler: 'resource', name: 'sheet://missing' },
      { level: 'error', kind: 'crash', handler: 'resource', name: 'sheet://crash' },
      { level: 'error', kind: 'crash', handler: 'prompt', name: 'summarize' },
    ]);
    expect(withoutDurations(outcomes)).toEqual([
      { kind: 'resource', name: 'sheet://ok', status: 200 },
      { kind: 'resource', name: 'sheet://missing', status: 404, classification: 'anticipated' },
      { kind: 'resource', name: 'sheet://crash', status: 500, classification: 'crash' },
      { kind: 'prompt', name: 'summarize', status: 500, classification: 'crash' },
    ]);
  });

  it('is idempotent, keeps one policy per server; a hand-wrapped handler inside it with its own policy logs once to that policy', async () => {
    const server = capture();
    const own = capture();
    const low = newServer();
    low.setRequestHandler(CallToolRequestSchema, withClientVisibleErrors(callTool, { policy: own.policy }));
    applyErrorPolicy(low, server.policy);
    expect(applyErrorPolicy(low, server.policy)).toBe(low);
    expect(() => applyErrorPolicy(low, createErrorPolicy())).toThrow('applyErrorPolicy: this server already has another policy; apply one policy per server');
    const { client } = await connect(low);

    const crashed = await client.callTool({ name: 'crash', arguments: {} });
    const reference = referenceIn(textOf(crashed));
    expect(textOf(crashed)).toBe(`Error executing tool crash (reference ${reference})`);
    expect(own.records.map(({ kind, name, reference: id }) => ({ kind, name, reference: id }))).toEqual([{ kind: 'crash', name: 'crash', reference }]);
    // the server's policy does not log it again; its access log, around the whole handler, counts the call once
    expect(server.records).toEqual([]);
    expect(withoutDurations(server.outcomes)).toEqual([{ kind: 'tool', name: 'crash', status: 500, classification: 'crash' }]);
    expect(own.outcomes).toEqual([]);
  });

  it('refuses the low-level Server an McpServer holds once the McpServer registers a callback (both SDKs)', () => {
    const refusal = new TypeError(
      "applyErrorPolicy: this Server belongs to an McpServer, which sends a tool's crash text before the Server sees it: " +
        'apply the policy to the McpServer, `applyErrorPolicy(mcpServer)` (SDK 1.13.0 or later; on an older SDK, wrap each callback with withClientVisibleErrors)',
    );
    // each registration on a fresh McpServer (SDK v1, then v2), after `apply` was given it
    const v1: ((server: McpServer) => unknown)[] = [
      (server) => server.registerTool('crash', {}, () => ({ content: [] })),
      (server) => server.registerResource('r', 'file:///r', {}, () => ({ contents: [] })),
      (server) => server.registerPrompt('p', {}, () => ({ messages: [] })),
    ];
    const v2: ((server: McpServerV2) => unknown)[] = [
      (server) => server.registerTool('crash', {}, () => ({ content: [] })),
      (server) => server.registerResource('r', 'file:///r', {}, () => ({ contents: [] })),
      (server) => server.registerPrompt('p', {}, () => ({ messages: [] })),
    ];
    type Apply = (server: { server: object }) => void;
    const registrations: ((apply: Apply) => void)[] = [
      ...v1.map((register) => (apply: Apply) => {
        const server = new McpServer({ name: 'm', version: '1.0.0' });
        apply(server);
        register(server);
      }),
      ...v2.map((register) => (apply: Apply) => {
        const server = new McpServerV2({ name: 'm', version: '1.0.0' });
        apply(server);
        register(server);
      }),
    ];
    for (const register of registrations) {
      // the negative control: without the policy on its Server, the registration works
      expect(() => register(() => undefined)).not.toThrow();
      expect(() => register(({ server }) => applyErrorPolicy(server as Server))).toThrow(refusal);
    }
  });

  it('keeps one policy for an McpServer and the low-level Server it holds', () => {
    const first = createErrorPolicy();
    const mcp = new McpServer({ name: 'm', version: '1.0.0' });
    applyErrorPolicy(mcp, first);
    expect(applyErrorPolicy(mcp.server, first)).toBe(mcp.server);
    expect(() => applyErrorPolicy(mcp.server, createErrorPolicy())).toThrow(
      'applyErrorPolicy: this server already has another policy; apply one policy per server',
    );
    // its Server first, after a registration (which the Server alone cannot tell from its own), then the McpServer
    const late = new McpServer({ name: 'm', version: '1.0.0' });
    late.registerTool('echo', {}, () => ({ content: [] }));
    applyErrorPolicy(late.server, first);
    expect(() => applyErrorPolicy(late, first)).toThrow(
      'applyErrorPolicy: this server already has another policy; apply one policy per server',
    );
  });

  it('names what it cannot take', () => {
    const expected = 'Expected `server` to be an McpServer or a low-level Server of @modelcontextprotocol/sdk 1.x or @modelcontextprotocol/server 2.x, a FastMCP, tmcp or mcp-use server, or a Nuxt NitroApp, got ';
    // @ts-expect-error a framework's object that holds a server
    expect(() => applyErrorPolicy({ server: newServer() })).toThrow(
      new TypeError(`${expected}an object whose \`server\` property is a server (a framework's wrapper?): pass that property, \`applyErrorPolicy(x.server)\`, or see docs/frameworks.md`),
    );
    // an McpServer of an SDK older than 1.13 (tool(), resource() and prompt(), no registerResource or registerPrompt)
    // @ts-expect-error an McpServer too old for applyErrorPolicy
    expect(() => applyErrorPolicy({ server: newServer(), tool() {}, resource() {}, prompt() {} })).toThrow(
      new TypeError(
        `${expected}an McpServer of @modelcontextprotocol/sdk older than 1.13.0 (no registerResource or registerPrompt), which applyErrorPolicy does not take: ` +
          'update the SDK to 1.13.0 or later, or wrap each callback with withClientVisibleErrors',
      ),
    );
    // @ts-expect-error an object of another shape
    expect(() => applyErrorPolicy({ addTool() {} })).toThrow(
      new TypeError(`${expected}an object of another shape (a framework's server? see docs/frameworks.md; else wrap each handler with withClientVisibleErrors)`),
    );
  });
});

describe('the McpError of early SDK 1.x releases', () => {
  /** SDK 1.0.1's McpError, as it ships: it sets no `name`. */
  class McpError extends Error {
    constructor(
      readonly code: number,
      message: string,
      readonly data?: unknown,
    ) {
      super(`MCP error ${code}: ${message}`);
    }
  }

  it('passes through as a protocol error, logged once at info', async () => {
    const { policy, records } = capture();
    const server = applyErrorPolicy(newServer(), policy);
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      throw new McpError(-32602, `Tool ${request.params.name} not found`);
    });
    const { client } = await connect(server);
    const error = await rpcError(client.callTool({ name: 'nope', arguments: {} }));
    expect([error.code, error.message]).toEqual([-32602, 'MCP error -32602: MCP error -32602: Tool nope not found']);
    expect(records.map(({ level, kind, name }) => ({ level, kind, name }))).toEqual([{ level: 'info', kind: 'protocol', name: 'nope' }]);
  });
});

describe('wrappers around a low-level request handler, without applyErrorPolicy', () => {
  it('take the tool name and the resource URI from the request', async () => {
    const { policy, records } = capture();
    const server = newServer();
    server.setRequestHandler(CallToolRequestSchema, withClientVisibleErrors(async function call() {
      throw new Error(CANARY);
    }, { policy }));
    server.setRequestHandler(ReadResourceRequestSchema, withClientVisibleResourceErrors(async () => {
      throw new Error(CANARY);
    }, { policy }));
    const { client } = await connect(server);

    const crashed = await client.callTool({ name: 'get_sheet', arguments: {} });
    expect(textOf(crashed)).toBe(`Error executing tool get_sheet (reference ${referenceIn(textOf(crashed))})`);
    const read = await rpcError(client.readResource({ uri: 'sheet://q3' }));
    expect(read.message).toBe(`MCP error -32603: Error reading resource sheet://q3 (reference ${referenceIn(read.message)})`);
    expect(records.map(({ handler, name }) => ({ handler, name }))).toEqual([
      { handler: 'tool', name: 'get_sheet' },
      { handler: 'resource', name: 'sheet://q3' },
    ]);
  });
});

describe('applyErrorPolicy on a low-level Server of @modelcontextprotocol/server 2.x', () => {
  it('tools/call, resources/read and prompts/get, before and after the call', async () => {
    const { policy, records, outcomes } = capture();
    const server = new ServerV2({ name: 'low-v2', version: '1.0.0' }, { capabilities: { tools: {}, resources: {}, prompts: {} } });
    server.setRequestHandler('tools/call', async (request) => {
      const { name } = request.params;
      if (name === 'ok') return ok('fine');
      if (name === 'deliberate') throw new ToolError('Sheet name must not be empty');
      if (name === 'crash') throw new Error(CANARY);
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} not found`);
    });
    applyErrorPolicy(server, policy);
    server.setRequestHandler('resources/read', async (request) => {
      throw new ResourceNotFoundError(`No sheet at ${request.params.uri}`);
    });
    server.setRequestHandler('prompts/get', async () => {
      throw new Error(CANARY);
    });
    const { client } = await link(server, new ClientV2({ name: 'v2-client', version: '1.0.0' }), InMemoryTransportV2.createLinkedPair());

    await expectToolAnswers((params) => client.callTool(params));
    const unknown = await rpcError(client.callTool({ name: 'nope', arguments: {} }));
    expect([unknown.code, unknown.message]).toEqual([-32602, 'Tool nope not found']);
    // v2 encodes a handler-thrown -32002 as -32602 (see v2.test.ts)
    const missing = await rpcError(client.readResource({ uri: 'sheet://missing' }));
    expect([missing.code, missing.message]).toEqual([-32602, 'No sheet at sheet://missing']);
    const prompt = await rpcError(client.getPrompt({ name: 'summarize' }));
    const promptReference = referenceIn(prompt.message);
    expect([prompt.code, prompt.message]).toEqual([-32603, `Error getting prompt summarize (reference ${promptReference})`]);

    expect(records.map(({ level, kind, handler, name }) => ({ level, kind, handler, name }))).toEqual([
      { level: 'info', kind: 'anticipated', handler: 'tool', name: 'deliberate' },
      { level: 'error', kind: 'crash', handler: 'tool', name: 'crash' },
      { level: 'info', kind: 'protocol', handler: 'tool', name: 'nope' },
      { level: 'info', kind: 'anticipated', handler: 'resource', name: 'sheet://missing' },
      { level: 'error', kind: 'crash', handler: 'prompt', name: 'summarize' },
    ]);
    expect(withoutDurations(outcomes)).toEqual([
      ...TOOL_OUTCOMES,
      { kind: 'resource', name: 'sheet://missing', status: 404, classification: 'anticipated' },
      { kind: 'prompt', name: 'summarize', status: 500, classification: 'crash' },
    ]);
  });
});

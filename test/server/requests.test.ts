/**
 * Under applyErrorPolicy, the requests that run a server's code without being one tool, resource or prompt call:
 * completion/complete and the list requests, on an McpServer (SDK v1 and v2) and on a low-level Server; and a tool
 * result that fails its output schema. Real servers, real clients, in-memory transports; a real gaxios request to a
 * closed port on 127.0.0.1 for a list handler that fails as server-gdrive's does.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CompleteRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { InMemoryTransport as InMemoryTransportV2, McpServer as McpServerV2, Server as ServerV2 } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyErrorPolicy, ToolError } from '../../src/index.js';
import { crashRpcError, failureData, failureObject, toolFailure } from '../support/failure.js';
import { link } from '../support/link.js';
import { closedPortUrl } from '../support/fake-google.js';
import { capture, connect, newServer, referenceIn, rpcError, textOf, withoutDurations } from '../support/session.js';

const CANARY = 'CANARY-req-93ab: /srv/secret/path';
const API_KEY = 'AIzaSyDfakeKeyForTheListTest0123456789ab';

function crash(): never {
  throw new Error(CANARY);
}

/** The crash answer of a list or completion request, as SDK v1's client shows it. */
function crashAnswer(method: string, reference: string) {
  return crashRpcError(`MCP error -32603: Error handling ${method}`, reference);
}

describe('an McpServer (SDK v1): completions, list callbacks and output schemas', () => {
  it('masks a crashing completer and a crashing template list callback; one crash record each, no outcome', async () => {
    const { policy, records, outcomes } = capture();
    const server = newServer();
    server.registerPrompt('summarize', { argsSchema: { sheet: completable(z.string(), crash) } }, () => ({ messages: [] }));
    applyErrorPolicy(server, policy);
    server.registerResource('sheet', new ResourceTemplate('sheet://{id}', { list: crash }), {}, (uri) => ({ contents: [{ uri: uri.href, text: 'x' }] }));
    const { client } = await connect(server);

    const completion = await rpcError(client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'sheet', value: 'Q' } }));
    expect(completion).toEqual(crashAnswer('completion/complete', referenceIn(completion.message)));
    const list = await rpcError(client.listResources());
    expect(list).toEqual(crashAnswer('resources/list', referenceIn(list.message)));
    // the other lists still answer
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['summarize']);

    expect(records.map(({ level, kind, handler, name, reference }) => ({ level, kind, handler, name, reference }))).toEqual([
      { level: 'error', kind: 'crash', handler: 'prompt', name: 'completion/complete', reference: referenceIn(completion.message) },
      { level: 'error', kind: 'crash', handler: 'resource', name: 'resources/list', reference: referenceIn(list.message) },
    ]);
    // a completion's record names the prompt and argument it was about; a list's, the template whose list callback threw
    expect(records[0]?.about).toBe('prompt "summarize" argument "sheet"');
    expect(records[1]?.about).toBe('resource template "sheet"');
    expect(records[1]?.message).toBe(`resource "resources/list" (resource template "sheet") crashed (reference ${referenceIn(list.message)}): Error ${JSON.stringify(CANARY)}`);
    expect(records[0]?.message).toBe(`prompt "completion/complete" (prompt "summarize" argument "sheet") crashed (reference ${referenceIn(completion.message)}): Error ${JSON.stringify(CANARY)}`);
    expect(outcomes).toEqual([]);
  });

  it('a deliberate error in a completer keeps its text', async () => {
    const { policy, records } = capture();
    const server = applyErrorPolicy(newServer(), policy);
    server.registerPrompt('summarize', {
      argsSchema: {
        sheet: completable(z.string(), () => {
          throw new ToolError('Type at least one letter');
        }),
      },
    }, () => ({ messages: [] }));
    const { client } = await connect(server);
    const completion = await rpcError(client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'sheet', value: '' } }));
    expect(completion).toEqual({ code: -32603, message: 'MCP error -32603: Type at least one letter', data: failureData(failureObject('tool_error', false)) });
    expect(records.map(({ level, kind, name }) => ({ level, kind, name }))).toEqual([{ level: 'info', kind: 'anticipated', name: 'completion/complete' }]);
  });

  it('a tool result that fails its output schema: logged once as a crash, answered with the crash text and reference', async () => {
    const { policy, records, outcomes } = capture();
    const server = newServer();
    server.registerTool('totals', { outputSchema: { total: z.number() } }, () => ({
      content: [{ type: 'text', text: 'x' }],
      structuredContent: { total: 'not a number' },
    }));
    server.registerTool('plain', {}, () => ({ content: [{ type: 'text', text: 'fine' }] }));
    applyErrorPolicy(server, policy);
    const { client } = await connect(server);

    const result = await client.callTool({ name: 'totals', arguments: {} });
    const reference = referenceIn(textOf(result));
    // with the failure object, as any crash (server-memory's read_graph)
    expect(result).toEqual(toolFailure(`Error executing tool totals (reference ${reference})`, failureObject('internal', false, { correlationId: reference })));
    expect(textOf(await client.callTool({ name: 'plain', arguments: {} }))).toBe('fine');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level: 'error', kind: 'crash', handler: 'tool', name: 'totals', reference, errorName: 'OutputValidationError' });
    expect(records[0]?.errorMessage).toMatch(/^MCP error -32602: Output validation error: Invalid structured content for tool totals: /);
    // the callback itself succeeded: its call was counted before the SDK checked the result
    expect(withoutDurations(outcomes)).toEqual([
      { kind: 'tool', name: 'totals', status: 200 },
      { kind: 'tool', name: 'plain', status: 200 },
    ]);
  });
});

describe('an McpServer (SDK v2): completions and output schemas', () => {
  it('masks a crashing completer, and logs a result that fails its output schema once as a crash', async () => {
    const { policy, records } = capture();
    const server = applyErrorPolicy(new McpServerV2({ name: 'v2', version: '1.0.0' }), policy);
    const { completable: completableV2 } = await import('@modelcontextprotocol/server');
    server.registerPrompt('summarize', { argsSchema: z.object({ sheet: completableV2(z.string(), crash) }) }, () => ({ messages: [] }));
    server.registerTool('totals', { outputSchema: z.object({ total: z.number() }) }, () => ({
      content: [{ type: 'text' as const, text: 'x' }],
      structuredContent: { total: 'not a number' } as never,
    }));
    const { client } = await link(server, new ClientV2({ name: 'v2-client', version: '1.0.0' }), InMemoryTransportV2.createLinkedPair());

    const completion = await rpcError(client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'sheet', value: 'Q' } }));
    const completionReference = referenceIn(completion.message);
    expect([completion.code, completion.message]).toEqual([-32603, `Error handling completion/complete (reference ${completionReference})`]);
    const result = await client.callTool({ name: 'totals', arguments: {} });
    const reference = referenceIn(textOf(result));
    // with the failure object, as any crash (server-memory's read_graph)
    expect(result).toEqual(toolFailure(`Error executing tool totals (reference ${reference})`, failureObject('internal', false, { correlationId: reference })));
    expect(records.map(({ level, kind, name, reference: id }) => ({ level, kind, name, reference: id }))).toEqual([
      { level: 'error', kind: 'crash', name: 'completion/complete', reference: completionReference },
      { level: 'error', kind: 'crash', name: 'totals', reference },
    ]);
  });

  it('a resources/list failure names the template whose list callback threw, one registered after the first list too', async () => {
    const { policy, records } = capture();
    const server = applyErrorPolicy(new McpServerV2({ name: 'v2', version: '1.0.0' }), policy);
    const { ResourceTemplate: TemplateV2 } = await import('@modelcontextprotocol/server');
    const read = (uri: URL) => ({ contents: [{ uri: uri.href, text: 'x' }] });
    server.registerResource('files', new TemplateV2('file://{name}', { list: () => ({ resources: [{ uri: 'file://a', name: 'a' }] }) }), {}, read);
    const { client } = await link(server, new ClientV2({ name: 'v2-client', version: '1.0.0' }), InMemoryTransportV2.createLinkedPair());
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['file://a']);
    server.registerResource('sheets', new TemplateV2('sheet://{id}', { list: async () => Promise.reject(new ToolError('The sheet index is being rebuilt')) }), {}, read);
    const list = await rpcError(client.listResources());
    expect([list.code, list.message]).toEqual([-32603, 'The sheet index is being rebuilt']);
    expect(records.map(({ level, kind, name, about }) => ({ level, kind, name, about }))).toEqual([
      { level: 'info', kind: 'anticipated', name: 'resources/list', about: 'resource template "sheets"' },
    ]);
  });
});

describe('a low-level Server: list and completion handlers', () => {
  it('SDK v1: a resources/list handler failing like server-gdrive\'s (gaxios, a URL with an API key) shows no URL; crashes are masked', async () => {
    const { policy, records } = capture();
    const url = await closedPortUrl(`/drive/v3/files?key=${API_KEY}&pageSize=10`);
    const { Gaxios } = (await import('gaxios7')) as { Gaxios: new () => { request(options: object): Promise<unknown> } };
    const server = new Server({ name: 'gdrive', version: '1.0.0' }, { capabilities: { resources: {}, tools: {}, prompts: {}, completions: {} } });
    server.setRequestHandler(ListResourcesRequestSchema, async () => {
      await new Gaxios().request({ url, retry: false });
      return { resources: [] };
    });
    applyErrorPolicy(server, policy);
    server.setRequestHandler(ListToolsRequestSchema, crash);
    server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [] }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, crash);
    server.setRequestHandler(CompleteRequestSchema, crash);
    const { client } = await link(server, new Client({ name: 'c', version: '1.0.0' }), InMemoryTransport.createLinkedPair());

    const list = await rpcError(client.listResources());
    expect(list).toEqual({
      code: -32603,
      message: 'MCP error -32603: Network error: connection refused (ECONNREFUSED)',
      data: failureData(failureObject('network', true, { unreached: true })),
    });
    expect(JSON.stringify(list)).not.toMatch(/127\.0\.0\.1|AIza|drive\/v3/);
    const tools = await rpcError(client.listTools());
    expect(tools).toEqual(crashAnswer('tools/list', referenceIn(tools.message)));
    const templates = await rpcError(client.listResourceTemplates());
    expect(templates).toEqual(crashAnswer('resources/templates/list', referenceIn(templates.message)));
    const completion = await rpcError(client.complete({ ref: { type: 'ref/resource', uri: 'file:///{path}' }, argument: { name: 'path', value: 'a' } }));
    expect(completion).toEqual(crashAnswer('completion/complete', referenceIn(completion.message)));
    expect(await client.listPrompts()).toEqual({ prompts: [] });

    expect(records.map(({ level, kind, handler, name }) => ({ level, kind, handler, name }))).toEqual([
      { level: 'warn', kind: 'anticipated', handler: 'resource', name: 'resources/list' },
      { level: 'error', kind: 'crash', handler: 'tool', name: 'tools/list' },
      { level: 'error', kind: 'crash', handler: 'resource', name: 'resources/templates/list' },
      { level: 'error', kind: 'crash', handler: 'resource', name: 'completion/complete' },
    ]);
  });

  it('SDK v2: a crashing tools/list handler is masked and logged once', async () => {
    const { policy, records } = capture();
    const server = applyErrorPolicy(new ServerV2({ name: 'low-v2', version: '1.0.0' }, { capabilities: { tools: {} } }), policy);
    server.setRequestHandler('tools/list', crash);
    const { client } = await link(server, new ClientV2({ name: 'v2-client', version: '1.0.0' }), InMemoryTransportV2.createLinkedPair());
    const tools = await rpcError(client.listTools());
    const reference = referenceIn(tools.message);
    expect([tools.code, tools.message]).toEqual([-32603, `Error handling tools/list (reference ${reference})`]);
    expect(records.map(({ level, kind, name, reference: id }) => ({ level, kind, name, reference: id }))).toEqual([{ level: 'error', kind: 'crash', name: 'tools/list', reference }]);
  });
});

/**
 * Report mode changes nothing a client sees: the same server, bare (same SDK, no policy) and under
 * `createErrorPolicy({ mode: 'report' })`, driven through a real Client with the same calls, sends the same bytes on the
 * wire (every message the server sends, as JSON text), for every failure kind, through tools, resources, prompts,
 * completions and lists, on McpServer of SDK v1 and v2 and the low-level Server. The one difference allowed: a secret
 * in a crash's text is scrubbed. The records say what would show each failure.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import * as v2 from '@modelcontextprotocol/server';
import axios from 'axios';
import { request as gaxiosRequest } from 'gaxios7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyErrorPolicy, createErrorPolicy, ToolError, type LogRecord } from '../../src/index.js';
import { closedPort, startHttp } from '../support/loopback.js';
import { tap } from '../support/link.js';

let api: { url: string; close: () => Promise<void> };
let closedUrl: string;

beforeAll(async () => {
  api = await startHttp((req, res) => {
    const status = req.url === '/items/missing' ? 404 : 500;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `upstream says ${status}` } }));
  });
  closedUrl = `http://127.0.0.1:${await closedPort()}/`;
});
afterAll(async () => {
  await api.close();
});

const SECRET = 'AIzaSyA1234567890abcdefghijklmnopqrstu';

/** What each failure kind throws (or rejects with): real errors of real libraries. */
function failures(protocolError: (message: string) => Error): Record<string, () => unknown> {
  return {
    crash: () => {
      throw new Error('Entity with name Ada not found');
    },
    typeError: () => (null as unknown as { x: { y: number } }).x.y,
    deliberate: () => {
      throw new ToolError('Sheet name must not be empty');
    },
    fileSystem: () => readFile(join(tmpdir(), 'report-wire-missing', 'notes.txt')),
    network: () => fetch(closedUrl),
    gaxios: () => gaxiosRequest({ url: `${api.url}/items/missing` }),
    axios: () => axios.get(`${api.url}/items/broken`),
    protocol: () => {
      throw protocolError('Unknown sheet');
    },
    codeAndData: () => {
      throw Object.assign(new Error('quota exceeded'), { code: 4291, data: { retryAfter: 3 } });
    },
    string: () => {
      throw 'a thrown string';
    },
    object: () => {
      throw { status: 'broken' };
    },
    zod: () => z.object({ sheet: z.string() }).parse({}),
    secret: () => {
      throw new Error(`request to https://api.example.com/v1/items?key=${SECRET} failed`);
    },
  };
}

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

/** The calls every server gets, in order; each failure kind through a tool, a resource and a prompt. */
interface Calls {
  callTool(name: string): Promise<unknown>;
  readResource(uri: string): Promise<unknown>;
  getPrompt(name: string): Promise<unknown>;
  complete(): Promise<unknown>;
  listResources(): Promise<unknown>;
}

async function drive(calls: Calls, kinds: readonly string[]): Promise<void> {
  const settle = (p: Promise<unknown>) => p.then(() => undefined, () => undefined);
  for (const kind of kinds) {
    await settle(calls.callTool(`t_${kind}`));
    await settle(calls.readResource(`mem://r/${kind}`));
    await settle(calls.getPrompt(`p_${kind}`));
  }
  await settle(calls.complete());
  await settle(calls.listResources());
}

const v1Failures = failures((message) => new McpError(ErrorCode.InvalidParams, message));
const v2Failures = failures((message) => new v2.ProtocolError(v2.ProtocolErrorCode.InvalidParams, message));
const KINDS = Object.keys(v1Failures);

function registerV1(server: McpServer): void {
  for (const [kind, fail] of Object.entries(v1Failures)) {
    server.registerTool(`t_${kind}`, {}, async () => text(String(await fail())));
    server.registerResource(`r_${kind}`, `mem://r/${kind}`, {}, async () => ({ contents: [{ uri: `mem://r/${kind}`, text: String(await fail()) }] }));
    server.registerPrompt(`p_${kind}`, {}, async () => ({ messages: [{ role: 'user', content: { type: 'text', text: String(await fail()) } }] }));
  }
  server.registerPrompt('summarize', { argsSchema: { sheet: completable(z.string(), () => v1Failures['axios']?.() as never) } }, () => ({ messages: [] }));
  server.registerResource('sheet', new ResourceTemplate('sheet://{id}', { list: () => v1Failures['crash']?.() as never }), {}, (uri) => ({ contents: [{ uri: uri.href, text: 'x' }] }));
}

function v1Calls(client: Client): Calls {
  return {
    callTool: (name) => client.callTool({ name, arguments: {} }),
    readResource: (uri) => client.readResource({ uri }),
    getPrompt: (name) => client.getPrompt({ name }),
    complete: () => client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'sheet', value: 'Q' } }),
    listResources: () => client.listResources(),
  };
}

/** Runs the calls against an SDK v1 McpServer, bare or under `policy`: the wire. */
async function wireOfMcpServerV1(policy?: Parameters<typeof applyErrorPolicy>[1]): Promise<string[]> {
  const wire: string[] = [];
  const server = new McpServer({ name: 'report-wire', version: '1.0.0' });
  if (policy !== undefined) applyErrorPolicy(server, policy);
  registerV1(server);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(tap(serverSide, wire));
  const client = new Client({ name: 'report-wire-client', version: '1.0.0' });
  await client.connect(clientSide);
  await drive(v1Calls(client), KINDS);
  await client.close();
  return wire;
}

async function wireOfMcpServerV2(policy?: Parameters<typeof applyErrorPolicy>[1]): Promise<string[]> {
  const wire: string[] = [];
  const server = new v2.McpServer({ name: 'report-wire', version: '1.0.0' });
  if (policy !== undefined) applyErrorPolicy(server, policy);
  for (const [kind, fail] of Object.entries(v2Failures)) {
    server.registerTool(`t_${kind}`, {}, async () => text(String(await fail())));
    server.registerResource(`r_${kind}`, `mem://r/${kind}`, {}, async () => ({ contents: [{ uri: `mem://r/${kind}`, text: String(await fail()) }] }));
    server.registerPrompt(`p_${kind}`, {}, async () => ({ messages: [{ role: 'user', content: { type: 'text', text: String(await fail()) } }] }));
  }
  server.registerPrompt('summarize', { argsSchema: z.object({ sheet: v2.completable(z.string(), () => v2Failures['axios']?.() as never) }) }, () => ({ messages: [] }));
  server.registerResource('sheet', new v2.ResourceTemplate('sheet://{id}', { list: () => v2Failures['crash']?.() as never }), {}, (uri) => ({ contents: [{ uri: uri.href, text: 'x' }] }));
  const [serverSide, clientSide] = v2.InMemoryTransport.createLinkedPair();
  await server.connect(tap(serverSide, wire));
  const client = new ClientV2({ name: 'report-wire-client', version: '1.0.0' });
  await client.connect(clientSide);
  await drive(
    {
      callTool: (name) => client.callTool({ name, arguments: {} }),
      readResource: (uri) => client.readResource({ uri }),
      getPrompt: (name) => client.getPrompt({ name }),
      complete: () => client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'sheet', value: 'Q' } }),
      listResources: () => client.listResources(),
    },
    KINDS,
  );
  await client.close();
  return wire;
}

/** A low-level Server whose handlers run the failures by name. */
async function wireOfLowLevel(policy?: Parameters<typeof applyErrorPolicy>[1]): Promise<string[]> {
  const wire: string[] = [];
  const server = new Server({ name: 'report-wire', version: '1.0.0' }, { capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} } });
  if (policy !== undefined) applyErrorPolicy(server, policy);
  const run = async (kind: string) => String(await v1Failures[kind]?.());
  server.setRequestHandler(CallToolRequestSchema, async (request) => text(await run(request.params.name.slice(2))));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => ({ contents: [{ uri: request.params.uri, text: await run(request.params.uri.slice('mem://r/'.length)) }] }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => ({ messages: [{ role: 'user', content: { type: 'text', text: await run(request.params.name.slice(2)) } }] }));
  server.setRequestHandler(CompleteRequestSchema, async () => ({ completion: { values: [await run('axios')] } }));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: await run('crash'), inputSchema: { type: 'object' as const } }] }));
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(tap(serverSide, wire));
  const client = new Client({ name: 'report-wire-client', version: '1.0.0' });
  await client.connect(clientSide);
  await drive({ ...v1Calls(client), listResources: () => client.listTools() }, KINDS);
  await client.close();
  return wire;
}

/** The bare wire with the one change report mode makes: the secret scrubbed. */
function scrubbed(wire: readonly string[]): string[] {
  return wire.map((line) => line.replaceAll(`key=${SECRET}`, 'key=[REDACTED]'));
}

function reportPolicy() {
  const records: LogRecord[] = [];
  return { records, policy: createErrorPolicy({ mode: 'report', logger: (record) => records.push(record) }) };
}

describe.each([
  ['McpServer (SDK v1)', wireOfMcpServerV1],
  ['McpServer (SDK v2)', wireOfMcpServerV2],
  ['low-level Server (SDK v1)', wireOfLowLevel],
])("mode: 'report' on %s", (_, wireOf) => {
  it('sends the bytes the bare server sends, for every failure kind and handler, the secret aside', async () => {
    const bare = await wireOf();
    const { policy, records } = reportPolicy();
    const reported = await wireOf(policy);
    // the failures did reach the client: their own texts, the SDK's codes
    for (const shown of [SECRET, 'Entity with name Ada not found', 'Sheet name must not be empty', 'quota exceeded', '"code":4291']) {
      expect(bare.some((line) => line.includes(shown)), shown).toBe(true);
    }
    expect(reported.join('\n')).not.toContain(SECRET);
    expect(reported).toEqual(scrubbed(bare));
    // one record per failure but the protocol errors' (those are logged at info, as under 'enforce')
    expect(records.filter((record) => record.report === true).length).toBeGreaterThanOrEqual(3 * (KINDS.length - 1));
    expect(records.every((record) => record.report === true || record.kind === 'protocol')).toBe(true);
  });
});

describe("mode: 'report' records (McpServer, SDK v1)", () => {
  it('says which packaged rule would show each failure, or that it is a crash; a stack only where it may be a bug', async () => {
    const { policy, records } = reportPolicy();
    await wireOfMcpServerV1(policy);
    const tools = Object.fromEntries(records.filter((record) => record.handler === 'tool').map((record) => [record.name, record]));
    const frame = expect.stringMatching(/report-wire\.test\.ts:\d+:\d+\)?$/);
    expect(tools['t_crash']).toEqual({
      level: 'warn',
      message: expect.stringMatching(/^report: tool "t_crash" would be masked \(reference [0-9a-f]{12}\): Error "Entity with name Ada not found" at .*report-wire\.test\.ts:\d+:\d+\)?; a crash: fix it, or throw a ToolError$/),
      kind: 'crash',
      handler: 'tool',
      name: 't_crash',
      status: 500,
      errorName: 'Error',
      errorMessage: 'Entity with name Ada not found',
      reference: expect.stringMatching(/^[0-9a-f]{12}$/),
      correlationId: tools['t_crash']?.reference,
      report: true,
      thrownAt: frame,
      stack: expect.stringMatching(/^ {4}at .*report-wire\.test\.ts/),
    });
    // an API's error: the core's http-status rule shows its status under 'enforce' (httpRules adds the service's message)
    expect(tools['t_axios']).toEqual({
      level: 'warn',
      message: `report: tool "t_axios" failed (rule http-status: status 500): AxiosError "Request failed with status code 500"; 'enforce' would show "HTTP request failed with status 500"; rules: [...httpRules, ...coreRules] would name the request and, where safe, the service's message`,
      kind: 'anticipated',
      handler: 'tool',
      name: 't_axios',
      rule: 'http-status',
      status: 500,
      httpStatus: 500,
      errorName: 'AxiosError',
      errorMessage: 'Request failed with status code 500',
      correlationId: expect.stringMatching(/^[0-9a-f]{12}$/),
      report: true,
      wouldShowWith: '...httpRules',
      stack: expect.stringMatching(/^ {4}at /),
    });
    // a Google API's 4xx: http-status too, a routine failure at info (googleRules adds the API's message)
    expect(tools['t_gaxios']).toMatchObject({ level: 'info', kind: 'anticipated', rule: 'http-status', report: true, wouldShowWith: '...googleRules' });
    expect(tools['t_gaxios']?.stack).toBeUndefined();
    // a ZodError inside a handler is usually a bug: the pack, and the stack
    expect(tools['t_zod']).toMatchObject({ kind: 'crash', report: true, wouldShowWith: 'zodErrorRule', stack: expect.stringMatching(/^ {4}at /) });
    // anticipated failures: what 'enforce' would show
    expect(tools['t_deliberate']).toEqual({
      level: 'info',
      message: `report: tool "t_deliberate" failed: ToolError "Sheet name must not be empty"; 'enforce' would show "Sheet name must not be empty"`,
      kind: 'anticipated',
      handler: 'tool',
      name: 't_deliberate',
      status: 500,
      errorName: 'ToolError',
      errorMessage: 'Sheet name must not be empty',
      rule: 'deliberate',
      correlationId: expect.stringMatching(/^[0-9a-f]{12}$/),
      report: true,
    });
    expect(tools['t_fileSystem']).toMatchObject({ kind: 'anticipated', rule: 'file-system', report: true, message: expect.stringMatching(/^report: tool "t_fileSystem" failed \(rule file-system\): Error ".*ENOENT.*"; 'enforce' would show "File system error: /) });
    expect(tools['t_protocol']).toMatchObject({ level: 'info', kind: 'protocol' });
    expect(tools['t_protocol']?.report).toBeUndefined();
  });
});

/**
 * NestJS with `@rekog/mcp-nest` 2.x (its McpStrategy, a Nest microservice transport over `@modelcontextprotocol/server`
 * 2.x): the policy as an exception filter, `McpErrorPolicyFilter` from `mcp-error-policy/nestjs`. Two real Nest servers
 * run from a scratch install (scripts/frameworks.sh), with the real SDK client:
 * - servers/nest.ts: a pure microservice over stdio, the filter registered with `app.useGlobalFilters`, `APP_FILTER`
 *   (`useValue`, `useClass`), or not at all (what mcp-nest and Nest alone send);
 * - servers/nest-hybrid.ts: an HTTP app with plain routes and the MCP microservice connected with `inheritAppConfig`,
 *   MCP over Streamable HTTP on 127.0.0.1; its routes' errors stay Nest's.
 * The tools (servers/nest-tools.ts) call a local fake that answers 429 (axios) and the suite's fake Google (gaxios).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceIn, rpcError, textOf } from '../support/calls.js';
import { startFakeGoogle, GOOGLE_MESSAGES, type FakeGoogle } from '../support/fake-google.js';
import { failureData, failureObject, toolFailure } from '../support/failure.js';
import { FAILURE_KEY } from '../support/calls.js';
import { startHttp } from '../support/loopback.js';
import { recordLines, scratchOf, type RecordLines } from './scratch.js';
import { CANARY, expectCrash, expectShown, TOOL_ERROR } from './support.js';

const { dir, skip } = scratchOf('nest', '@rekog/mcp-nest');

/** How a server registers the filter (servers/nest.ts, servers/nest-hybrid.ts). */
type Registration = 'global' | 'app-filter' | 'use-class' | 'microservice' | 'off';

/** A running server, its client, the records it wrote and all it wrote to stderr. */
interface Running extends RecordLines {
  readonly client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/** What Nest itself logged at error level (its `[Nest] … ERROR` lines, colours removed). */
function nestErrors(stderr: string): string[] {
  // eslint-disable-next-line no-control-regex
  return stderr.replace(/\u001b\[[0-9;]*m/g, '').split('\n').filter((line) => line.startsWith('[Nest] ') && / ERROR /.test(line));
}

describe.skipIf(skip)('NestJS (@rekog/mcp-nest) with McpErrorPolicyFilter', () => {
  let google: FakeGoogle;
  let busy: { url: string; close: () => Promise<void> };
  const running: { close(): Promise<void> }[] = [];

  /** The environment every server gets: the scratch install, decorators for tsx, the fakes' addresses. */
  function serverEnv(registration: Registration): Record<string, string> {
    return {
      ...(process.env as Record<string, string>),
      NODE_ENV: 'production',
      FRAMEWORK_DEPS: dir,
      TSX_TSCONFIG_PATH: join(dir, 'tsconfig.run.json'),
      FAKE_HTTP: busy.url,
      FAKE_GOOGLE: google.origin,
      NEST_FILTER: registration,
    };
  }

  /** The stdio server's process parameters. */
  function stdioServer(registration: Registration, env: Record<string, string> = {}) {
    return {
      command: process.execPath,
      args: ['--import', 'tsx', '--import', './test/frameworks/redirect.mjs', 'test/frameworks/servers/nest.ts'],
      cwd: process.cwd(),
      env: { ...serverEnv(registration), ...env },
      stderr: 'pipe' as const,
    };
  }

  async function startStdio(registration: Registration, env: Record<string, string> = {}): Promise<Running> {
    const transport = new StdioClientTransport(stdioServer(registration, env));
    let text = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(transport);
    const out = { client, stderr: () => text, ...recordLines(() => text), close: () => client.close() };
    running.push(out);
    return out;
  }

  let withFilter: Running;
  let alone: Running;
  beforeAll(async () => {
    google = await startFakeGoogle();
    busy = await startHttp((_request, response) => {
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '30' }).end('{"error":"slow down","internal":"billing.internal:8443"}');
    });
    [withFilter, alone] = await Promise.all([startStdio('global'), startStdio('off')]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(running.map((server) => server.close()));
    await google.close();
    await busy.close();
  });

  it("without the filter: every failure is `Internal server error`, an RpcException shown raw (a token too), Nest's log lines (what the filter changes)", async () => {
    expect(await alone.client.callTool({ name: 'crash', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'Internal server error' }], isError: true });
    expect(await alone.client.callTool({ name: 'tool_error', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'Internal server error' }], isError: true });
    expect(textOf(await alone.client.callTool({ name: 'rpc_leak', arguments: {} }))).toContain('ghp_1234567890');
    expect(await rpcError(alone.client.readResource({ uri: 'file:///logs/today' }))).toEqual({ code: -32603, message: 'MCP error -32603: Internal server error', data: undefined });
    // an unknown exception of a tool: Nest's RPC filter (with the stack) and mcp-nest (its text); an RpcException:
    // mcp-nest; a resource's: Nest's RPC filter
    await expect.poll(() => nestErrors(alone.stderr()).length).toBe(6);
    expect(alone.records()).toEqual([]);
  });

  it('a crash: an isError result with a reference, one error record with its stack, nothing logged by Nest', async () => {
    const answer = await withFilter.client.callTool({ name: 'crash', arguments: {} });
    expectCrash(answer, await withFilter.takeRecords(1), 'crash');
    expect(nestErrors(withFilter.stderr())).toEqual([]);
  });

  it("a TypeError (`Cannot read properties of undefined (reading 'title')`) is masked the same way", async () => {
    const answer = await withFilter.client.callTool({ name: 'type_error', arguments: {} });
    const reference = referenceIn(textOf(answer));
    expect(answer).toEqual(toolFailure(`Error executing tool type_error (reference ${reference})`, failureObject('internal', false, { correlationId: reference })));
    const records = await withFilter.takeRecords(1);
    expect(records.map(({ level, kind, name, errorName, reference: id }) => ({ level, kind, name, errorName, reference: id }))).toEqual([
      { level: 'error', kind: 'crash', name: 'type_error', errorName: 'TypeError', reference },
    ]);
    expect(records[0]?.stack).toMatch(/^ {4}at SheetsTools\.typeError /);
  });

  it('a ToolError keeps its text (one info record)', async () => {
    const answer = await withFilter.client.callTool({ name: 'tool_error', arguments: {} });
    expectShown(answer, await withFilter.takeRecords(1), 'tool_error', { name: 'ToolError', message: TOOL_ERROR, rule: 'deliberate' });
  });

  it("Nest's RpcException is deliberate: its text shown, a string or { message } payload (one info record each)", async () => {
    const locked = await withFilter.client.callTool({ name: 'rpc_error', arguments: {} });
    expectShown(locked, await withFilter.takeRecords(1), 'rpc_error', { name: 'RpcException', message: 'Sheet Q3 is locked', rule: 'deliberate' });
    const archived = await withFilter.client.callTool({ name: 'rpc_object', arguments: {} });
    expectShown(archived, await withFilter.takeRecords(1), 'rpc_object', { name: 'RpcException', message: 'Sheet Q3 is archived', rule: 'deliberate' });
  });

  it("an RpcException's text passes the exit gate: one that carries a runtime error is masked, its token redacted in the record", async () => {
    const answer = await withFilter.client.callTool({ name: 'rpc_leak', arguments: {} });
    const reference = referenceIn(textOf(answer));
    expect(answer).toEqual(toolFailure(`Error executing tool rpc_leak (reference ${reference})`, failureObject('internal', false, { correlationId: reference })));
    const records = await withFilter.takeRecords(1);
    expect(records.map(({ level, kind, errorName, errorMessage, withheld }) => ({ level, kind, errorName, errorMessage, withheld }))).toEqual([
      {
        level: 'error',
        kind: 'crash',
        errorName: 'RpcException',
        errorMessage: "Cannot read properties of undefined (reading 'id') with token [REDACTED]",
        withheld: 'its text carries a runtime error',
      },
    ]);
    expect(JSON.stringify([answer, records])).not.toContain('ghp_');
  });

  it("a ProtocolError thrown by a tool: an isError result with its words (through the gate), one info record; Nest alone masks it", async () => {
    expect(await withFilter.client.callTool({ name: 'protocol_error', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'Unknown sheet Q3' }], isError: true });
    expect(await alone.client.callTool({ name: 'protocol_error', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'Internal server error' }], isError: true });
    const records = await withFilter.takeRecords(1);
    expect(records.map(({ level, kind, status, errorName }) => ({ level, kind, status, errorName }))).toEqual([{ level: 'info', kind: 'protocol', status: 400, errorName: 'ProtocolError' }]);
  });

  it('an HTTP 429 from axios keeps its status and retry delay, never the body (one warn record)', async () => {
    const answer = await withFilter.client.callTool({ name: 'rate_limited', arguments: {} });
    const text = 'Error executing tool rate_limited: HTTP request failed with status 429. Retry after 30 s.';
    expect(answer).toEqual(toolFailure(text, failureObject('rate_limited', true, { retryAfterMs: 30_000 })));
    const records = await withFilter.takeRecords(1);
    expect(records.map(({ level, kind, name, status }) => ({ level, kind, name, status }))).toEqual([{ level: 'warn', kind: 'anticipated', name: 'rate_limited', status: 429 }]);
    expect(JSON.stringify([answer, records])).not.toContain('billing.internal');
  });

  it('a Google API error (gaxios) keeps its message, the key redacted, the host dropped (one warn record)', async () => {
    const answer = await withFilter.client.callTool({ name: 'google', arguments: {} });
    expect(textOf(answer)).toBe(
      `Error executing tool google: ${GOOGLE_MESSAGES.permissionDenied} (403 PERMISSION_DENIED from Google API GET /v1/forbidden?key=[REDACTED]&fields=id)`,
    );
    const records = await withFilter.takeRecords(1);
    expect(records.map(({ level, kind, name, rule }) => ({ level, kind, name, rule }))).toEqual([{ level: 'warn', kind: 'anticipated', name: 'google', rule: 'google-api-error' }]);
    expect(JSON.stringify([answer, records])).not.toContain('AIzaSy');
  });

  it("successes, and mcp-nest's own input validation (outside Nest's pipeline), are byte-identical to the server without the filter; nothing logged", async () => {
    const calls = (client: Client) =>
      Promise.all([
        client.listTools(),
        client.callTool({ name: 'ok', arguments: {} }),
        client.callTool({ name: 'get_sheet', arguments: { name: 'Q3' } }),
        client.callTool({ name: 'get_sheet', arguments: {} }),
        client.readResource({ uri: 'file:///readme' }),
        client.getPrompt({ name: 'summary' }),
        client.listResources(),
        client.listResourceTemplates(),
        client.listPrompts(),
      ]);
    const [mine, theirs] = await Promise.all([calls(withFilter.client), calls(alone.client)]);
    expect(JSON.stringify(mine)).toBe(JSON.stringify(theirs));
    expect(mine[2]).toEqual({ content: [{ type: 'text', text: '{"name":"Q3","rows":3}' }], structuredContent: { name: 'Q3', rows: 3 } });
    expect(textOf(mine[3])).toMatch(/^Invalid parameters: /);
    expect(await withFilter.takeRecords(0)).toEqual([]);
  });

  it("a resource's crash is the policy's JSON-RPC error with a reference and the failure object (one error record)", async () => {
    const crashed = await rpcError(withFilter.client.readResource({ uri: 'file:///logs/today' }));
    const reference = referenceIn(crashed.message);
    expect(crashed).toEqual({
      code: -32603,
      message: `MCP error -32603: Error reading resource file:///logs/today (reference ${reference})`,
      data: failureData(failureObject('internal', false, { correlationId: reference })),
    });
    expect(await withFilter.takeRecords(1)).toEqual([
      expect.objectContaining({ level: 'error', kind: 'crash', handler: 'resource', name: 'file:///logs/today', reference, stack: expect.stringMatching(/^ {4}at SheetsTools\.today /) }),
    ]);
  });

  it('a resource template: ResourceNotFoundError, an RpcException (its text), a crash (masked), a ProtocolError (its code); one record each', async () => {
    expect(await rpcError(withFilter.client.readResource({ uri: 'file:///days/missing' }))).toEqual({
      code: -32602,
      message: 'MCP error -32602: No log for missing',
      data: { uri: 'file:///days/missing' },
    });
    expect(await rpcError(withFilter.client.readResource({ uri: 'file:///days/locked' }))).toEqual({
      code: -32603,
      message: 'MCP error -32603: The log for locked is locked',
      data: failureData(failureObject('resource_error', false)),
    });
    const crashed = await rpcError(withFilter.client.readResource({ uri: 'file:///days/monday' }));
    expect(crashed.message).toBe(`MCP error -32603: Error reading resource file:///days/monday (reference ${referenceIn(crashed.message)})`);
    const refused = await rpcError(withFilter.client.readResource({ uri: 'file:///days/refused' }));
    expect({ code: refused.code, message: refused.message }).toEqual({ code: -32602, message: 'MCP error -32602: Invalid day refused' });
    const records = await withFilter.takeRecords(4);
    expect(records.map(({ level, kind, name, errorName }) => ({ level, kind, name, errorName }))).toEqual([
      { level: 'info', kind: 'anticipated', name: 'file:///days/missing', errorName: 'ResourceNotFoundError' },
      { level: 'info', kind: 'anticipated', name: 'file:///days/locked', errorName: 'RpcException' },
      { level: 'error', kind: 'crash', name: 'file:///days/monday', errorName: 'Error' },
      { level: 'info', kind: 'protocol', name: 'file:///days/refused', errorName: 'ProtocolError' },
    ]);
  });

  it("a prompt's crash is masked with a reference, its RpcException shown (one record each)", async () => {
    const crashed = await rpcError(withFilter.client.getPrompt({ name: 'broken' }));
    const reference = referenceIn(crashed.message);
    expect(crashed).toEqual({
      code: -32603,
      message: `MCP error -32603: Error getting prompt broken (reference ${reference})`,
      data: failureData(failureObject('internal', false, { correlationId: reference })),
    });
    expect(await rpcError(withFilter.client.getPrompt({ name: 'refused' }))).toEqual({
      code: -32603,
      message: 'MCP error -32603: No summary for Q3 yet',
      data: failureData(failureObject('tool_error', false)),
    });
    const records = await withFilter.takeRecords(2);
    expect(records.map(({ level, kind, handler, name, errorName }) => ({ level, kind, handler, name, errorName }))).toEqual([
      { level: 'error', kind: 'crash', handler: 'prompt', name: 'broken', errorName: 'Error' },
      { level: 'info', kind: 'anticipated', handler: 'prompt', name: 'refused', errorName: 'RpcException' },
    ]);
    expect(nestErrors(withFilter.stderr())).toEqual([]);
  });

  it("tools registered at run time run outside Nest's pipeline: unseen by the filter (mcp-nest sends the text), covered when wrapped", async () => {
    expect(await withFilter.client.callTool({ name: 'dynamic_crash', arguments: {} })).toEqual({ content: [{ type: 'text', text: CANARY }], isError: true });
    await expect.poll(() => nestErrors(withFilter.stderr()).filter((line) => line.includes(CANARY)).length).toBe(1);
    expect(await withFilter.takeRecords(0)).toEqual([]);
    expectCrash(await withFilter.client.callTool({ name: 'dynamic_wrapped', arguments: {} }), await withFilter.takeRecords(1), 'dynamic_wrapped');
  });

  it('registered as APP_FILTER (useValue): the same answers and records', async () => {
    const server = await startStdio('app-filter');
    expectCrash(await server.client.callTool({ name: 'crash', arguments: {} }), await server.takeRecords(1), 'crash');
    expectShown(await server.client.callTool({ name: 'rpc_error', arguments: {} }), await server.takeRecords(1), 'rpc_error', {
      name: 'RpcException',
      message: 'Sheet Q3 is locked',
      rule: 'deliberate',
    });
    expect(nestErrors(server.stderr())).toEqual([]);
  });

  it('registered as APP_FILTER (useClass): Nest constructs it with the default policy, which logs to stderr', async () => {
    const server = await startStdio('use-class');
    const answer = await server.client.callTool({ name: 'crash', arguments: {} });
    const reference = referenceIn(textOf(answer));
    expect(answer).toEqual(toolFailure(`Error executing tool crash (reference ${reference})`, failureObject('internal', false, { correlationId: reference })));
    await expect.poll(() => server.stderr()).toContain(`[mcp-error-policy] ERROR tool "crash" crashed (reference ${reference}): Error ${JSON.stringify(CANARY)}\n    at SheetsTools.crash `);
    expect(nestErrors(server.stderr())).toEqual([]);
  });

  it('a client speaking protocol revision 2026-07-28 (SDK v2): the same answers, beside the server info the SDK adds', async () => {
    const transport = new StdioClientTransportV2(stdioServer('global'));
    let text = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    const client = new ClientV2({ name: 'test-client', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(transport);
    running.push(client);
    const { takeRecords } = recordLines(() => text);
    const serverInfo = { 'io.modelcontextprotocol/serverInfo': { name: 'sheets', version: '1.0.0' } };
    const crashed = await client.callTool({ name: 'crash', arguments: {} });
    const reference = referenceIn(textOf(crashed));
    expect(crashed).toEqual({
      _meta: { ...serverInfo, [FAILURE_KEY]: failureObject('internal', false, { correlationId: reference }) },
      content: [{ type: 'text', text: `Error executing tool crash (reference ${reference})` }],
      isError: true,
    });
    expect(await client.callTool({ name: 'rpc_error', arguments: {} })).toEqual({
      _meta: { ...serverInfo, [FAILURE_KEY]: failureObject('tool_error', false) },
      content: [{ type: 'text', text: 'Error executing tool rpc_error: Sheet Q3 is locked' }],
      isError: true,
    });
    const unread = await rpcError(client.readResource({ uri: 'file:///logs/today' }));
    expect(unread).toEqual({
      code: -32603,
      message: `Error reading resource file:///logs/today (reference ${referenceIn(unread.message)})`,
      data: failureData(failureObject('internal', false, { correlationId: referenceIn(unread.message) })),
    });
    expect((await takeRecords(3)).map(({ level, kind, name }) => ({ level, kind, name }))).toEqual([
      { level: 'error', kind: 'crash', name: 'crash' },
      { level: 'info', kind: 'anticipated', name: 'rpc_error' },
      { level: 'error', kind: 'crash', name: 'file:///logs/today' },
    ]);
  });

  it('report mode: the client gets what Nest sends without the filter, a token scrubbed; the record is written; Nest logs no raw exception', async () => {
    const server = await startStdio('global', { POLICY_MODE: 'report' });
    const calls = (client: Client) =>
      Promise.all([
        client.callTool({ name: 'crash', arguments: {} }),
        client.callTool({ name: 'rpc_error', arguments: {} }),
        rpcError(client.readResource({ uri: 'file:///logs/today' })),
      ]);
    const [mine, theirs] = await Promise.all([calls(server.client), calls(alone.client)]);
    expect(mine).toEqual(theirs);
    expect(mine[0]).toEqual({ content: [{ type: 'text', text: 'Internal server error' }], isError: true });
    // report mode records what the policy would mask at warn
    const records = await server.takeRecords(3);
    expect(records.map(({ level, kind, name }) => ({ level, kind, name }))).toEqual([
      { level: 'warn', kind: 'crash', name: 'crash' },
      { level: 'info', kind: 'anticipated', name: 'rpc_error' },
      { level: 'warn', kind: 'crash', name: 'file:///logs/today' },
    ]);
    // Nest's RPC filter, which logs the exception raw, does not run: no token of a text or of a request reaches the log
    const leak = async (client: Client) => [await client.callTool({ name: 'rpc_leak', arguments: {} }), await client.callTool({ name: 'google', arguments: {} })];
    const [reported, bare] = [await leak(server.client), await leak(alone.client)];
    expect(bare[0]).toEqual({ content: [{ type: 'text', text: "Cannot read properties of undefined (reading 'id') with token ghp_1234567890abcdefghijklmnopqrstuvwxyzAB" }], isError: true });
    expect(reported).toEqual([{ content: [{ type: 'text', text: "Cannot read properties of undefined (reading 'id') with token [REDACTED]" }], isError: true }, bare[1]]);
    expect((await server.takeRecords(2)).map(({ level, kind, name }) => ({ level, kind, name }))).toEqual([
      { level: 'warn', kind: 'crash', name: 'rpc_leak' },
      { level: 'warn', kind: 'anticipated', name: 'google' },
    ]);
    await expect.poll(() => alone.stderr()).toContain('AIzaSyA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tU1v');
    // mcp-nest's own line of each answer it sends stays (the scrubbed text); Nest's RpcExceptionsHandler writes none
    expect(nestErrors(alone.stderr()).some((line) => / ERROR \[RpcExceptionsHandler\] /.test(line))).toBe(true);
    expect(nestErrors(server.stderr()).filter((line) => !/ ERROR \[McpStrategy\] /.test(line))).toEqual([]);
    expect(server.stderr()).not.toContain('ghp_1234567890');
    expect(server.stderr()).not.toContain('AIzaSyA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tU1v');
  });

  describe('a hybrid app (HTTP routes, and the MCP microservice connected with inheritAppConfig)', () => {
    /** A hybrid server process, its origin, and a client connected to its MCP endpoint. */
    interface Hybrid extends Running {
      readonly origin: string;
    }

    async function startHybrid(registration: Registration): Promise<Hybrid> {
      const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', '--import', './test/frameworks/redirect.mjs', 'test/frameworks/servers/nest-hybrid.ts'], {
        env: serverEnv(registration),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
      });
      const origin = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout?.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          const match = /^LISTENING (\S+)$/m.exec(out);
          if (match?.[1] !== undefined) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`the Nest server exited (${String(code)}): ${text}`)));
      });
      const client = new Client({ name: 'test-client', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', origin)));
      const close = async (): Promise<void> => {
        await client.close();
        child.kill();
      };
      const out = { origin, client, stderr: () => text, ...recordLines(() => text), close };
      running.push(out);
      return out;
    }

    /** What a plain HTTP route answers: status, content type and body. */
    async function route(origin: string, path: string): Promise<{ status: number; type: string | null; body: string }> {
      const response = await fetch(new URL(path, origin));
      return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
    }

    let hybrid: Hybrid;
    let bare: Hybrid;
    beforeAll(async () => {
      [hybrid, bare] = await Promise.all([startHybrid('global'), startHybrid('off')]);
    }, 60_000);

    it('MCP over Streamable HTTP: a crash masked (one error record), an RpcException shown, a resource crash a JSON-RPC error', async () => {
      expectCrash(await hybrid.client.callTool({ name: 'crash', arguments: {} }), await hybrid.takeRecords(1), 'crash');
      expectShown(await hybrid.client.callTool({ name: 'rpc_error', arguments: {} }), await hybrid.takeRecords(1), 'rpc_error', {
        name: 'RpcException',
        message: 'Sheet Q3 is locked',
        rule: 'deliberate',
      });
      const crashed = await rpcError(hybrid.client.readResource({ uri: 'file:///logs/today' }));
      expect(crashed.message).toBe(`MCP error -32603: Error reading resource file:///logs/today (reference ${referenceIn(crashed.message)})`);
      expect((await hybrid.takeRecords(1)).map(({ level, kind, handler }) => ({ level, kind, handler }))).toEqual([{ level: 'error', kind: 'crash', handler: 'resource' }]);
      expect(nestErrors(hybrid.stderr())).toEqual([]);
    });

    it('MCP successes are byte-identical to the hybrid app without the filter', async () => {
      const calls = (client: Client) =>
        Promise.all([client.listTools(), client.callTool({ name: 'get_sheet', arguments: { name: 'Q3' } }), client.readResource({ uri: 'file:///readme' }), client.getPrompt({ name: 'summary' })]);
      const [mine, theirs] = await Promise.all([calls(hybrid.client), calls(bare.client)]);
      expect(JSON.stringify(mine)).toBe(JSON.stringify(theirs));
      expect(await hybrid.takeRecords(0)).toEqual([]);
    });

    it("a plain HTTP route's errors are left to Nest: the same status and body as without the filter, Nest's own log line, no record", async () => {
      for (const path of ['/sheets/broken', '/sheets/missing', '/sheets/fine']) {
        expect(await route(hybrid.origin, path), path).toEqual(await route(bare.origin, path));
      }
      expect(await route(hybrid.origin, '/sheets/broken')).toEqual({ status: 500, type: 'application/json; charset=utf-8', body: '{"statusCode":500,"message":"Internal server error"}' });
      expect(await route(hybrid.origin, '/sheets/missing')).toEqual({
        status: 404,
        type: 'application/json; charset=utf-8',
        body: '{"message":"No sheet named q3","error":"Not Found","statusCode":404}',
      });
      await expect.poll(() => nestErrors(hybrid.stderr()).filter((line) => line.includes('[ExceptionsHandler]')).length).toBe(2);
      expect(await hybrid.takeRecords(0)).toEqual([]);
    });

    it('registered as APP_FILTER in the hybrid app: MCP failures answered by the policy, HTTP routes left to Nest', async () => {
      const server = await startHybrid('app-filter');
      expectCrash(await server.client.callTool({ name: 'crash', arguments: {} }), await server.takeRecords(1), 'crash');
      expect(await route(server.origin, '/sheets/broken')).toEqual(await route(bare.origin, '/sheets/broken'));
      expect(await server.takeRecords(0)).toEqual([]);
    });

    it('registered on the microservice alone (no inheritAppConfig, deferInitialization): MCP failures answered by the policy, HTTP routes never see it', async () => {
      const server = await startHybrid('microservice');
      expectCrash(await server.client.callTool({ name: 'crash', arguments: {} }), await server.takeRecords(1), 'crash');
      expect(await route(server.origin, '/sheets/broken')).toEqual(await route(bare.origin, '/sheets/broken'));
      expect(await route(server.origin, '/sheets/missing')).toEqual(await route(bare.origin, '/sheets/missing'));
      expect(await server.takeRecords(0)).toEqual([]);
      expect(nestErrors(server.stderr()).filter((line) => !line.includes('[ExceptionsHandler]'))).toEqual([]);
    });
  });
});

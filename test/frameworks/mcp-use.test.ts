/**
 * mcp-use (`mcp-use` 2.5 MCPServer): `applyErrorPolicy(server, policy)` installs the policy as mcp-use's own MCP
 * middleware. The server (servers/mcp-use.ts) runs from a scratch install on Node 22 (mcp-use wants 22.22 or later),
 * serving Streamable HTTP on 127.0.0.1, twice: under the policy, and bare (POLICY=off), whose answers the successes
 * must equal byte for byte. Each is driven by the real v1 client (protocol 2025-11-25: mcp-use's stateless legacy
 * path) and the real v2 client on 2026-07-28. Its axios and gaxios tools call the suite's local fakes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client as ClientV2, StreamableHTTPClientTransport as StreamableHTTPClientTransportV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyErrorPolicy, createErrorPolicy, type LogRecord } from '../../src/index.js';
import { FAILURE_KEY, referenceIn, rpcError, textOf } from '../support/calls.js';
import { failureObject } from '../support/failure.js';
import { GOOGLE_MESSAGES, startFakeGoogle, type FakeGoogle } from '../support/fake-google.js';
import { startFakeApis, type FakeApis } from '../http/support/fake-apis.js';
import { recordLines, scratchOf, type RecordLines } from './scratch.js';

const { dir, skip } = scratchOf('mcp-use', 'mcp-use', 22);

/** A server process, its MCP URL and the records it wrote. */
interface Running extends RecordLines {
  readonly url: URL;
  readonly child: ChildProcess;
  /** The access-log outcomes written so far (`OUTCOME <json>` lines). */
  outcomes(): { kind: string; name: string; status: number }[];
}

/** Starts servers/mcp-use.ts (with `POLICY=off`, without the policy) and waits for the URL it listens on. */
async function startServer(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './test/frameworks/redirect.mjs', 'test/frameworks/servers/mcp-use.ts'], {
    env: { ...process.env, NODE_ENV: 'production', MCP_USE_ANONYMIZED_TELEMETRY: 'false', FRAMEWORK_DEPS: dir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString('utf8');
  });
  const url = await new Promise<URL>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /^LISTENING (\S+)$/m.exec(out);
      if (match?.[1] !== undefined) resolve(new URL(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the mcp-use server exited (${String(code)}): ${errors}`)));
  });
  const outcomes = (): { kind: string; name: string; status: number }[] =>
    errors
      .split('\n')
      .filter((line) => line.startsWith('OUTCOME '))
      .map((line) => JSON.parse(line.slice('OUTCOME '.length)) as { kind: string; name: string; status: number });
  return { url, child, outcomes, ...recordLines(() => errors) };
}

/** A connected client of either SDK, as these tests use it. */
interface TestClient {
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  readResource(request: { uri: string }): Promise<unknown>;
  getPrompt(request: { name: string; arguments?: Record<string, string> }): Promise<unknown>;
  close(): Promise<void>;
}

type Revision = '2025-11-25' | '2026-07-28';

async function connect(url: URL, revision: Revision): Promise<TestClient> {
  const info = { name: 'test-client', version: '1.0.0' };
  if (revision === '2025-11-25') {
    const client = new Client(info);
    await client.connect(new StreamableHTTPClientTransport(url));
    return client;
  }
  const client = new ClientV2(info, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransportV2(url));
  return client as unknown as TestClient;
}

/** The `_meta` SDK v2's client adds to every result on 2026-07-28 (the server's info); none on 2025-11-25. */
function serverMeta(revision: Revision): Record<string, unknown> {
  return revision === '2026-07-28' ? { 'io.modelcontextprotocol/serverInfo': { name: 'sheets', version: '1.0.0' } } : {};
}

/** A tool's isError result under the policy, as the client of `revision` shows it. */
function toolFailure(revision: Revision, text: string, object: Record<string, unknown>): Record<string, unknown> {
  return { _meta: { ...serverMeta(revision), [FAILURE_KEY]: object }, content: [{ type: 'text', text }], isError: true };
}

/** A crash record: error level, the TypeError's text, its stack starting in the server file. */
function crashRecord(handler: 'tool' | 'resource' | 'prompt', name: string, message: string, reference: string): Record<string, unknown> {
  const failed = handler === 'tool' ? `tool "${name}"` : `${handler} "${name}"`;
  return {
    level: 'error',
    message: `${failed} crashed (reference ${reference}): TypeError ${JSON.stringify(message)}`,
    kind: 'crash',
    handler,
    name,
    status: 500,
    errorName: 'TypeError',
    errorMessage: message,
    reference,
    correlationId: reference,
    stack: expect.stringMatching(/^ {4}at .*test\/frameworks\/servers\/mcp-use\.ts:\d+:\d+\)\n/),
  };
}

describe.skipIf(skip)('mcp-use MCPServer with applyErrorPolicy', () => {
  let apis: FakeApis;
  let google: FakeGoogle;
  let guarded: Running;
  let bare: Running;
  beforeAll(async () => {
    [apis, google] = await Promise.all([startFakeApis(), startFakeGoogle()]);
    const fakes = { FAKE_APIS: apis.origin, FAKE_GOOGLE: google.origin };
    [guarded, bare] = await Promise.all([startServer(fakes), startServer({ ...fakes, POLICY: 'off' })]);
  }, 60_000);
  afterAll(async () => {
    guarded?.child.kill();
    bare?.child.kill();
    await Promise.all([apis?.close(), google?.close()]);
  });

  describe.each(['2025-11-25', '2026-07-28'] as const)('a client on protocol revision %s', (revision) => {
    let client: TestClient;
    let bareClient: TestClient;
    beforeAll(async () => {
      [client, bareClient] = await Promise.all([connect(guarded.url, revision), connect(bare.url, revision)]);
    });
    afterAll(async () => {
      await Promise.all([client?.close(), bareClient?.close()]);
    });

    /** Nothing was logged by the calls before: the next failure's record is the only new one. */
    async function expectNothingLogged(): Promise<void> {
      await client.callTool({ name: 'tool_error', arguments: {} });
      expect((await guarded.takeRecords(1)).map((record) => record.name)).toEqual(['tool_error']);
    }

    it('masks a crashing tool (TypeError) with a reference: one error record with its stack', async () => {
      const answer = await client.callTool({ name: 'crash', arguments: {} });
      const reference = referenceIn(textOf(answer));
      expect(answer).toEqual(toolFailure(revision, `Error executing tool crash (reference ${reference})`, failureObject('internal', false, { correlationId: reference })));
      expect(await guarded.takeRecords(1)).toEqual([crashRecord('tool', 'crash', "Cannot read properties of undefined (reading 'title')", reference)]);
      // without the policy the client reads the crash text, and nothing is logged
      expect(textOf(await bareClient.callTool({ name: 'crash', arguments: {} }))).toBe("Cannot read properties of undefined (reading 'title')");
      expect(bare.records()).toEqual([]);
    });

    it('shows a ToolError as written: one info record', async () => {
      const answer = await client.callTool({ name: 'tool_error', arguments: {} });
      const [record] = await guarded.takeRecords(1);
      const id = record?.correlationId;
      expect(answer).toEqual(toolFailure(revision, 'Error executing tool tool_error: Sheet name must not be empty', failureObject('tool_error', false, { correlationId: id })));
      expect(record).toEqual({
        level: 'info',
        message: 'tool "tool_error" failed: ToolError "Sheet name must not be empty"',
        kind: 'anticipated',
        handler: 'tool',
        name: 'tool_error',
        status: 500,
        errorName: 'ToolError',
        errorMessage: 'Sheet name must not be empty',
        rule: 'deliberate',
        correlationId: expect.stringMatching(/^[0-9a-f]{12}$/),
      });
    });

    it("leaves mcp-use's own error() result as mcp-use sends it, nothing logged", async () => {
      const answer = await client.callTool({ name: 'own_error', arguments: {} });
      expect(answer).toEqual({ ...(revision === '2026-07-28' ? { _meta: serverMeta(revision) } : {}), content: [{ type: 'text', text: 'Sheet "q3" is locked' }], isError: true });
      expect(JSON.stringify(answer)).toBe(JSON.stringify(await bareClient.callTool({ name: 'own_error', arguments: {} })));
      await expectNothingLogged();
    });

    it("passes a thrown ProtocolError (mcp-use's SDK copy) on as the SDK answers it: one info record", async () => {
      const answer = await client.callTool({ name: 'protocol_error', arguments: {} });
      expect(JSON.stringify(answer)).toBe(JSON.stringify(await bareClient.callTool({ name: 'protocol_error', arguments: {} })));
      expect(textOf(answer)).toBe('Unknown sheet "q3"');
      expect(await guarded.takeRecords(1)).toEqual([
        {
          level: 'info',
          message: 'tool "protocol_error" failed with protocol error -32602: ProtocolError "Unknown sheet \\"q3\\""',
          kind: 'protocol',
          handler: 'tool',
          name: 'protocol_error',
          status: 400,
          errorName: 'ProtocolError',
          errorMessage: 'Unknown sheet "q3"',
        },
      ]);
    });

    it('shows an HTTP 429 from axios with its retry delay, never the body: one warn record', async () => {
      const answer = await client.callTool({ name: 'rate_limited', arguments: {} });
      const [record, ...more] = await guarded.takeRecords(1);
      expect(more).toEqual([]);
      expect(answer).toEqual(
        toolFailure(
          revision,
          'Error executing tool rate_limited: HTTP request failed with status 429. Retry after 7 s.',
          failureObject('rate_limited', true, { retryAfterMs: 7000, correlationId: record?.correlationId }),
        ),
      );
      expect(record).toMatchObject({ level: 'warn', kind: 'anticipated', name: 'rate_limited', status: 429, errorName: 'AxiosError', rule: 'http-status', httpStatus: 429 });
      expect(record?.stack).toMatch(/^ {4}at /);
    });

    it("shows a Google API error (gaxios) with the API's own message: one warn record", async () => {
      const answer = await client.callTool({ name: 'google_error', arguments: {} });
      const [record, ...more] = await guarded.takeRecords(1);
      expect(more).toEqual([]);
      expect(answer).toEqual(
        toolFailure(
          revision,
          `Error executing tool google_error: ${GOOGLE_MESSAGES.permissionDenied} (403 PERMISSION_DENIED from Google API GET /v1/forbidden)`,
          failureObject('permission_denied', false, { correlationId: record?.correlationId }),
        ),
      );
      expect(JSON.stringify(answer)).not.toContain('127.0.0.1');
      expect(record).toMatchObject({ level: 'warn', kind: 'anticipated', name: 'google_error', status: 403, rule: 'google-api-error', httpStatus: 403 });
    });

    it('leaves successes byte-identical to mcp-use without the policy, nothing logged', async () => {
      const calls: ((c: TestClient) => Promise<unknown>)[] = [
        (c) => c.callTool({ name: 'get_sheet', arguments: { name: 'q3' } }),
        (c) => c.readResource({ uri: 'about://app' }),
        (c) => c.getPrompt({ name: 'greeting', arguments: { who: 'Ann' } }),
      ];
      for (const call of calls) expect(JSON.stringify(await call(client))).toBe(JSON.stringify(await call(bareClient)));
      expect(await client.callTool({ name: 'get_sheet', arguments: { name: 'q3' } })).toMatchObject({ structuredContent: { name: 'q3', rows: 3 } });
      await expectNothingLogged();
    });

    it("leaves the SDK's own argument validation to mcp-use: the bare answer, nothing logged", async () => {
      const call = (c: TestClient): Promise<unknown> => c.callTool({ name: 'get_sheet', arguments: { name: 3 } });
      const answer = await call(client);
      expect(JSON.stringify(answer)).toBe(JSON.stringify(await call(bareClient)));
      expect(textOf(answer)).toMatch(/^Input validation error: Invalid arguments for tool get_sheet/);
      await expectNothingLogged();
    });

    it('masks a crashing resource: -32603 naming the URI, the failure object in data, one error record', async () => {
      const error = await rpcError(client.readResource({ uri: 'config://app' }));
      const reference = /\(reference ([0-9a-f]{12})\)$/.exec(error.message)?.[1] ?? '';
      const prefix = revision === '2025-11-25' ? 'MCP error -32603: ' : '';
      expect(error).toEqual({
        code: -32603,
        message: `${prefix}Error reading resource config://app (reference ${reference})`,
        data: { [FAILURE_KEY]: failureObject('internal', false, { correlationId: reference }) },
      });
      expect(await guarded.takeRecords(1)).toEqual([crashRecord('resource', 'config://app', "Cannot read properties of undefined (reading 'host')", reference)]);
    });

    it("answers a template's ResourceNotFoundError as the SDK's resource-not-found (-32602, data { uri }): one info record", async () => {
      const error = await rpcError(client.readResource({ uri: 'sheet://q3' }));
      const prefix = revision === '2025-11-25' ? 'MCP error -32602: ' : '';
      expect(error).toEqual({ code: -32602, message: `${prefix}No sheet named q3`, data: { uri: 'sheet://q3' } });
      expect(await guarded.takeRecords(1)).toEqual([
        {
          level: 'info',
          message: 'resource "sheet://q3" failed: ResourceNotFoundError "No sheet named q3"',
          kind: 'anticipated',
          handler: 'resource',
          name: 'sheet://q3',
          status: 404,
          errorName: 'ResourceNotFoundError',
          errorMessage: 'No sheet named q3',
          rule: 'resource-not-found',
          correlationId: expect.stringMatching(/^[0-9a-f]{12}$/),
        },
      ]);
    });

    it('reports each call to the access log once; calls the SDK answers itself (invalid arguments) are not reported', async () => {
      const before = guarded.outcomes().length;
      await client.callTool({ name: 'get_sheet', arguments: { name: 'q3' } });
      await client.callTool({ name: 'get_sheet', arguments: { name: 3 } });
      await client.callTool({ name: 'crash', arguments: {} });
      await rpcError(client.readResource({ uri: 'sheet://q3' }));
      await client.getPrompt({ name: 'greeting', arguments: { who: 'Ann' } });
      await client.callTool({ name: 'tool_error', arguments: {} });
      // the tool_error call's record is written after every outcome before it
      expect((await guarded.takeRecords(3)).map((record) => record.name)).toEqual(['crash', 'sheet://q3', 'tool_error']);
      const until = Date.now() + 10_000;
      while (guarded.outcomes().length < before + 5 && Date.now() < until) await new Promise((done) => setTimeout(done, 10));
      expect(guarded.outcomes().slice(before)).toEqual([
        { kind: 'tool', name: 'get_sheet', status: 200 },
        { kind: 'tool', name: 'crash', status: 500 },
        { kind: 'resource', name: 'sheet://q3', status: 404 },
        { kind: 'prompt', name: 'greeting', status: 200 },
        { kind: 'tool', name: 'tool_error', status: 500 },
      ]);
    });

    it('masks a crashing prompt: -32603 naming the prompt, one error record', async () => {
      const error = await rpcError(client.getPrompt({ name: 'summary' }));
      const reference = /\(reference ([0-9a-f]{12})\)$/.exec(error.message)?.[1] ?? '';
      const prefix = revision === '2025-11-25' ? 'MCP error -32603: ' : '';
      expect(error).toEqual({
        code: -32603,
        message: `${prefix}Error getting prompt summary (reference ${reference})`,
        data: { [FAILURE_KEY]: failureObject('internal', false, { correlationId: reference }) },
      });
      expect(await guarded.takeRecords(1)).toEqual([crashRecord('prompt', 'summary', "Cannot read properties of undefined (reading 'rows')", reference)]);
    });
  });

  describe('the line', () => {
    /** mcp-use's MCPServer class, loaded from the scratch install. */
    async function mcpUse(): Promise<new (config: { name: string; version: string }) => { listen(port: number, options: object): Promise<unknown>; close(): Promise<void> }> {
      const module = (await import(pathToFileURL(join(dir, 'node_modules/mcp-use/dist/index-node.js')).href)) as { MCPServer: never };
      return module.MCPServer;
    }

    it('applies once: the same policy again changes nothing, another one is refused', async () => {
      const MCPServer = await mcpUse();
      const server = new MCPServer({ name: 'sheets', version: '1.0.0' });
      const policy = createErrorPolicy({ logger: (_record: LogRecord) => undefined });
      expect(applyErrorPolicy(server as never, policy)).toBe(server);
      expect(applyErrorPolicy(server as never, policy)).toBe(server);
      expect(() => applyErrorPolicy(server as never, createErrorPolicy())).toThrow('applyErrorPolicy: this server already has another policy; apply one policy per server');
    });

    it('refuses a server that has started, saying to apply it before listen()', async () => {
      const MCPServer = await mcpUse();
      const server = new MCPServer({ name: 'sheets', version: '1.0.0' });
      await server.listen(0, { host: '127.0.0.1' });
      try {
        expect(() => applyErrorPolicy(server as never)).toThrow(
          /^applyErrorPolicy: this mcp-use MCPServer took no middleware \(.+\)\. Apply the policy before listen\(\) and before any other server\.use\('mcp:…'\): applyErrorPolicy\(new MCPServer\(\.\.\.\)\)$/,
        );
      } finally {
        await server.close();
      }
    });
  });
});

/**
 * tmcp (npm `tmcp`, its own JSON-RPC layer, not the SDK): `applyErrorPolicy(server)` on its McpServer. The server
 * (servers/tmcp.ts: @tmcp/transport-stdio, @tmcp/adapter-zod with zod 4) runs from a scratch install over stdio, with
 * the real SDK client; an axios 429 from a local fake and a Google API error from the suite's fake Google (gaxios).
 * Without the policy tmcp answers a tool's exception with a JSON-RPC error -32603 carrying its message.
 */
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogRecord } from '../../src/index.js';
import { referenceIn, rpcError, textOf } from '../support/calls.js';
import { startFakeGoogle, GOOGLE_MESSAGES, type FakeGoogle } from '../support/fake-google.js';
import { failureData, failureObject, toolFailure } from '../support/failure.js';
import { startHttp } from '../support/loopback.js';
import { scratchOf, startStdioServer, type ScratchServer } from './scratch.js';
import { CANARY, expectCrash, expectShown, TOOL_ERROR } from './support.js';

const { dir, skip } = scratchOf('tmcp', 'tmcp');
const SERVER_FILE = 'test/frameworks/servers/tmcp.ts';

interface Running {
  readonly server: ScratchServer;
  readonly client: Client;
}

describe.skipIf(skip)('tmcp McpServer under applyErrorPolicy', () => {
  let google: FakeGoogle;
  let busy: { url: string; close: () => Promise<void> };
  const running: Running[] = [];

  async function start(env: Record<string, string> = {}): Promise<Running> {
    const args = ['--import', 'tsx', '--import', './test/frameworks/redirect.mjs', SERVER_FILE];
    const server = await startStdioServer(args, { FRAMEWORK_DEPS: dir, FAKE_HTTP: busy.url, FAKE_GOOGLE: google.origin, ...env }, 'v1');
    const out = { server, client: server.client as unknown as Client };
    running.push(out);
    return out;
  }

  let withPolicy: Running;
  let alone: Running;
  beforeAll(async () => {
    google = await startFakeGoogle();
    busy = await startHttp((_request, response) => {
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '30' }).end('{"error":"slow down","internal":"billing.internal:8443"}');
    });
    [withPolicy, alone] = await Promise.all([start(), start({ TMCP_POLICY: 'off' })]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(running.map(({ server }) => server.close()));
    await google.close();
    await busy.close();
  });

  it('without the policy, tmcp sends a crash text as a JSON-RPC error (what the line changes)', async () => {
    expect(await rpcError(alone.client.callTool({ name: 'crash', arguments: {} }))).toEqual({ code: -32603, message: `MCP error -32603: ${CANARY}`, data: undefined });
  });

  it('a crash: an isError result with a reference, one error record with its stack', async () => {
    const answer = await withPolicy.client.callTool({ name: 'crash', arguments: {} });
    expectCrash(answer, await withPolicy.server.takeRecords(1), 'crash');
  });

  it('a ToolError keeps its text (one info record)', async () => {
    const answer = await withPolicy.client.callTool({ name: 'tool_error', arguments: {} });
    expectShown(answer, await withPolicy.server.takeRecords(1), 'tool_error', { name: 'ToolError', message: TOOL_ERROR, rule: 'deliberate' });
  });

  it("tmcp's deliberate McpError keeps its code and words (one info record); tool.error() is answered as tmcp answers it", async () => {
    const refused = await rpcError(withPolicy.client.callTool({ name: 'mcp_error', arguments: {} }));
    expect(refused).toEqual(await rpcError(alone.client.callTool({ name: 'mcp_error', arguments: {} })));
    expect(refused).toEqual({ code: -32602, message: 'MCP error -32602: MCP error -32602: Unknown sheet Q3', data: undefined });
    const records = await withPolicy.server.takeRecords(1);
    expect(records.map(({ level, kind, handler, name, errorName, stack }) => ({ level, kind, handler, name, errorName, stack }))).toEqual([
      { level: 'info', kind: 'protocol', handler: 'tool', name: 'mcp_error', errorName: 'McpError', stack: undefined },
    ]);
    const locked = { content: [{ type: 'text', text: 'Sheet Q3 is locked' }], isError: true };
    expect(await withPolicy.client.callTool({ name: 'error_result', arguments: {} })).toEqual(locked);
    expect(await alone.client.callTool({ name: 'error_result', arguments: {} })).toEqual(locked);
    expect(await withPolicy.server.takeRecords(0)).toEqual([]);
  });

  it('an HTTP 429 from axios keeps its status and retry delay, never the body (one warn record)', async () => {
    const answer = await withPolicy.client.callTool({ name: 'rate_limited', arguments: {} });
    const text = 'Error executing tool rate_limited: HTTP request failed with status 429. Retry after 30 s.';
    expect(answer).toEqual(toolFailure(text, failureObject('rate_limited', true, { retryAfterMs: 30_000 })));
    const records = await withPolicy.server.takeRecords(1);
    expect(records.map(({ level, kind, name, status }) => ({ level, kind, name, status }))).toEqual([{ level: 'warn', kind: 'anticipated', name: 'rate_limited', status: 429 }]);
    expect(JSON.stringify([answer, records])).not.toContain('billing.internal');
  });

  it('a Google API error (gaxios) keeps its message, the key redacted, the host dropped (one warn record)', async () => {
    expect(google.received('AIzaSyA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tU1v')).toBe(false);
    const answer = await withPolicy.client.callTool({ name: 'google', arguments: {} });
    expect(google.received('AIzaSyA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tU1v')).toBe(true);
    expect(textOf(answer)).toBe(
      `Error executing tool google: ${GOOGLE_MESSAGES.permissionDenied} (403 PERMISSION_DENIED from Google API GET /v1/forbidden?key=[REDACTED]&fields=id)`,
    );
    const records = await withPolicy.server.takeRecords(1);
    expect(records.map(({ level, kind, name, rule }) => ({ level, kind, name, rule }))).toEqual([{ level: 'warn', kind: 'anticipated', name: 'google', rule: 'google-api-error' }]);
    expect(JSON.stringify([answer, records])).not.toContain('AIzaSy');
  });

  it('successes are byte-identical to tmcp without the policy, and log nothing', async () => {
    const calls = (client: Client) =>
      Promise.all([
        client.listTools(),
        client.callTool({ name: 'get_sheet', arguments: { name: 'Q3' } }),
        client.callTool({ name: 'get_sheet', arguments: {} }),
        client.readResource({ uri: 'file:///readme' }),
        client.getPrompt({ name: 'summary' }),
        client.listResources(),
        client.listResourceTemplates(),
        client.listPrompts(),
      ]);
    const [mine, theirs] = await Promise.all([calls(withPolicy.client), calls(alone.client)]);
    expect(JSON.stringify(mine)).toBe(JSON.stringify(theirs));
    expect(mine[1]).toEqual({ content: [{ type: 'text', text: '{"name":"Q3","rows":3}' }], structuredContent: { name: 'Q3', rows: 3 } });
    expect(await withPolicy.server.takeRecords(0)).toEqual([]);
  });

  it("a resource's crash is the policy's JSON-RPC error with a reference and the failure object", async () => {
    const crashed = await rpcError(withPolicy.client.readResource({ uri: 'file:///logs/today' }));
    const reference = referenceIn(crashed.message);
    expect(crashed).toEqual({
      code: -32603,
      message: `MCP error -32603: Error reading resource file:///logs/today (reference ${reference})`,
      data: failureData(failureObject('internal', false, { correlationId: reference })),
    });
    expect(await withPolicy.server.takeRecords(1)).toEqual([
      expect.objectContaining({ level: 'error', kind: 'crash', handler: 'resource', name: 'file:///logs/today', reference, stack: expect.stringMatching(/^ {4}at /) }),
    ]);
  });

  it('a template: ResourceNotFoundError is -32002 with its text and the URI, a crash masked, an McpError kept', async () => {
    expect(await rpcError(withPolicy.client.readResource({ uri: 'file:///logs/missing' }))).toEqual({
      code: -32002,
      message: 'MCP error -32002: No log for missing',
      data: failureData(failureObject('resource_not_found', false), 'file:///logs/missing'),
    });
    const crashed = await rpcError(withPolicy.client.readResource({ uri: 'file:///logs/monday' }));
    expect(crashed.message).toBe(`MCP error -32603: Error reading resource file:///logs/monday (reference ${referenceIn(crashed.message)})`);
    expect(await rpcError(withPolicy.client.readResource({ uri: 'file:///logs/refused' }))).toEqual({
      code: -32602,
      message: 'MCP error -32602: MCP error -32602: Invalid day refused',
      data: undefined,
    });
    const records = await withPolicy.server.takeRecords(3);
    expect(records.map(({ level, kind, name }) => ({ level, kind, name }))).toEqual([
      { level: 'info', kind: 'anticipated', name: 'file:///logs/missing' },
      { level: 'error', kind: 'crash', name: 'file:///logs/monday' },
      { level: 'info', kind: 'protocol', name: 'file:///logs/refused' },
    ]);
  });

  it('an early tool (registered before the line): its failure is masked as a crash, logged once without a stack', async () => {
    const early = await start({ TMCP_EARLY: '1' });
    const answer = await early.client.callTool({ name: 'early', arguments: {} });
    const reference = referenceIn(textOf(answer));
    expect(answer).toEqual(toolFailure(`Error executing tool early (reference ${reference})`, failureObject('internal', false, { correlationId: reference })));
    expect(await early.server.takeRecords(1)).toEqual([
      {
        level: 'error',
        message: `tool "early" crashed (reference ${reference}): Error ${JSON.stringify(CANARY)}`,
        kind: 'crash',
        handler: 'tool',
        name: 'early',
        status: 500,
        errorName: 'Error',
        errorMessage: CANARY,
        reference,
        correlationId: reference,
        stack: '    (no stack: Error thrown)',
      },
    ]);
    // the tools registered after the line are covered as ever
    expectCrash(await early.client.callTool({ name: 'crash', arguments: {} }), await early.server.takeRecords(1), 'crash');
  });

  it("tmcp's input-required signal still reaches tmcp: a per-request (2026-07-28) elicitation is fulfilled and the call succeeds", async () => {
    const ask = async (env: Record<string, string>): Promise<unknown> => {
      const transport = new StdioClientTransportV2({
        command: process.execPath,
        args: ['--import', 'tsx', '--import', './test/frameworks/redirect.mjs', SERVER_FILE],
        cwd: process.cwd(),
        env: { ...(process.env as Record<string, string>), NODE_ENV: 'production', FRAMEWORK_DEPS: dir, ...env },
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      const client = new ClientV2({ name: 'test-client', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
      client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Q3' } }));
      await client.connect(transport);
      try {
        const answer = await client.callTool({ name: 'ask', arguments: {} });
        expect(stderr).not.toContain('RECORD ');
        return answer;
      } finally {
        await client.close();
      }
    };
    const [mine, theirs] = await Promise.all([ask({}), ask({ TMCP_POLICY: 'off' })]);
    expect(mine).toEqual(theirs);
    expect(textOf(mine)).toBe('chose {"name":"Q3"}');
  });

  it('tmcp logs nothing of its own for a failure the policy answered: stderr holds the records alone', async () => {
    await rpcError(withPolicy.client.callTool({ name: 'mcp_error', arguments: {} }));
    await rpcError(withPolicy.client.readResource({ uri: 'file:///logs/today' }));
    await rpcError(withPolicy.client.getPrompt({ name: 'broken' }));
    await withPolicy.client.callTool({ name: 'leaky', arguments: {} });
    expect((await withPolicy.server.takeRecords(4)).map(({ level, kind, name }) => [level, kind, name])).toEqual([
      ['info', 'protocol', 'mcp_error'],
      ['error', 'crash', 'file:///logs/today'],
      ['error', 'crash', 'broken'],
      ['error', 'crash', 'leaky'],
    ]);
    const other = (withPolicy.server.stderr?.() ?? 'no stderr').split('\n').filter((line) => line !== '' && !line.startsWith('RECORD '));
    expect(other).toEqual([]);
    // without the policy tmcp warns with the thrown value, its token and own fields included
    await rpcError(alone.client.callTool({ name: 'leaky', arguments: {} }));
    await expect.poll(() => alone.server.stderr?.() ?? '').toContain('sk-live-CANARY1234567890abcdef');
  });

  it('report mode: the client gets what tmcp answers alone, the token scrubbed; what tmcp logs carries no token', async () => {
    const report = await start({ TMCP_MODE: 'report' });
    const answered = await rpcError(report.client.callTool({ name: 'leaky', arguments: {} }));
    const alone_ = await rpcError(alone.client.callTool({ name: 'leaky', arguments: {} }));
    expect(alone_).toEqual({ code: -32603, message: 'MCP error -32603: upstream refused sk-live-CANARY1234567890abcdef', data: undefined });
    expect(answered).toEqual({ code: -32603, message: 'MCP error -32603: upstream refused [REDACTED]', data: undefined });
    expect((await report.server.takeRecords(1)).map(({ level, kind, name }) => [level, kind, name])).toEqual([['warn', 'crash', 'leaky']]);
    // tmcp's own warning, as without the policy, of a stand-in: the scrubbed message and stack, none of the own fields
    await expect.poll(() => report.server.stderr?.() ?? '').toContain('An unexpected error occurred while executing "tools/call"');
    const stderr = report.server.stderr?.() ?? '';
    expect(stderr).toContain('upstream refused [REDACTED]');
    expect(stderr).not.toContain('sk-live-CANARY');
    expect(stderr).not.toContain('api_key');
  });

  it("a prompt's crash is the policy's JSON-RPC error with a reference (one error record)", async () => {
    const crashed = await rpcError(withPolicy.client.getPrompt({ name: 'broken' }));
    const reference = referenceIn(crashed.message);
    expect(crashed).toEqual({
      code: -32603,
      message: `MCP error -32603: Error getting prompt broken (reference ${reference})`,
      data: failureData(failureObject('internal', false, { correlationId: reference })),
    });
    const records: LogRecord[] = await withPolicy.server.takeRecords(1);
    expect(records).toEqual([expect.objectContaining({ level: 'error', kind: 'crash', handler: 'prompt', name: 'broken', reference })]);
  });
});

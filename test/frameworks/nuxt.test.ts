/**
 * Nuxt with `@nuxtjs/mcp-toolkit` (0.21): `applyErrorPolicy(nitroApp, policy)` in a Nitro plugin covers every tool,
 * resource and prompt definition of server/mcp/ once, through the toolkit's `mcp:config:resolved` hook. The app
 * (servers/nuxt/) is built by `nuxt build` in a scratch install beside the packed package (scripts/frameworks.sh),
 * and its built server (.output/server/index.mjs) runs twice on 127.0.0.1: under the policy, and without it
 * (POLICY=off), whose answers the successes must equal byte for byte. Each is driven by the real v1 client over
 * Streamable HTTP (the toolkit serves SDK 1.x). Its axios and gaxios tools call the suite's local fakes. The h3 2.x
 * `HTTPError` (which Nitro 2 does not serve with) is classified from the scratch install's own h3.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withH3Rules } from '../../src/adapters/h3-errors.js';
import { classifyError, createErrorPolicy, type LogRecord } from '../../src/index.js';
import { rpcError, textOf } from '../support/calls.js';
import { expectCorrelated, failureData, failureObject, toolFailure } from '../support/failure.js';
import { GOOGLE_MESSAGES, startFakeGoogle, type FakeGoogle } from '../support/fake-google.js';
import { startFakeApis, type FakeApis } from '../http/support/fake-apis.js';
import { recordLines, scratchOf, type RecordLines } from './scratch.js';
import { CANARY, expectCrash, expectShown, TOOL_ERROR } from './support.js';

const scratch = scratchOf('nuxt', 'nuxt', 22);
const { dir } = scratch;
const entry = join(dir, '.output', 'server', 'index.mjs');
const skip = scratch.skip || (!existsSync(entry) && process.env['FRAMEWORKS_SCRATCH'] !== '1');

/** A built server's process, its MCP URL, what it wrote and a connected client. */
interface Running extends RecordLines {
  readonly child: ChildProcess;
  readonly client: Client;
  /** The access-log outcomes written so far (`OUTCOME <json>` lines). */
  outcomes(): { kind: string; name: string; status: number }[];
  /** Everything written to stderr so far. */
  stderr(): string;
}

/** Starts the built server on 127.0.0.1 (a port the system picks, read from its `Listening on` line) and connects a client. */
async function startServer(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, [entry], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'production', NITRO_HOST: '127.0.0.1', NITRO_PORT: '0', ...env },
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
      const match = /^Listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
      if (match?.[1] !== undefined) resolve(new URL('/mcp', match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the Nuxt server exited (${String(code)}): ${errors}`)));
  });
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url));
  const outcomes = (): { kind: string; name: string; status: number }[] =>
    errors
      .split('\n')
      .filter((line) => line.startsWith('OUTCOME '))
      .map((line) => JSON.parse(line.slice('OUTCOME '.length)) as { kind: string; name: string; status: number });
  return { child, client, outcomes, stderr: () => errors, ...recordLines(() => errors) };
}

/** An anticipated failure's record at info (one line, no stack). */
function infoRecord(handler: 'tool' | 'resource', name: string, message: string, status: number, rule: string, correlationId: unknown): LogRecord {
  const failed = handler === 'tool' ? `tool "${name}"` : `resource "${name}"`;
  return {
    level: 'info',
    message: `${failed} failed: Error ${JSON.stringify(message)}`,
    kind: 'anticipated',
    handler,
    name,
    status,
    errorName: 'Error',
    errorMessage: message,
    rule,
    correlationId,
  } as LogRecord;
}

describe.skipIf(skip)('Nuxt (@nuxtjs/mcp-toolkit) with applyErrorPolicy(nitroApp) in a Nitro plugin', () => {
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
    await Promise.all([guarded?.client.close(), bare?.client.close()]);
    guarded?.child.kill();
    bare?.child.kill();
    await Promise.all([apis?.close(), google?.close()]);
  });

  /** Nothing was logged by the calls before: the next failure's record is the only new one. */
  async function expectNothingLogged(): Promise<void> {
    await guarded.client.callTool({ name: 'tool_error', arguments: {} });
    expect((await guarded.takeRecords(1)).map((record) => record.name)).toEqual(['tool_error']);
  }

  it('masks a crash with a reference: one error record with its stack', async () => {
    expectCrash(await guarded.client.callTool({ name: 'crash', arguments: {} }), await guarded.takeRecords(1), 'crash');
    // without the policy the toolkit sends the crash text, and nothing is logged
    expect(await bare.client.callTool({ name: 'crash', arguments: {} })).toEqual({ content: [{ type: 'text', text: CANARY }], isError: true });
    expect(bare.records()).toEqual([]);
  });

  it('shows a ToolError as written: one info record', async () => {
    const answer = await guarded.client.callTool({ name: 'tool_error', arguments: {} });
    expectShown(answer, await guarded.takeRecords(1), 'tool_error', { name: 'ToolError', message: TOOL_ERROR, rule: 'deliberate' });
  });

  it("shows h3's createError with a 4xx status as written (not its data), its status in the record and failure object", async () => {
    const notFound = await guarded.client.callTool({ name: 'not_found', arguments: {} });
    const [record404] = await guarded.takeRecords(1);
    expect(notFound).toEqual(toolFailure('Error executing tool not_found: No sheet named q3', failureObject('not_found', false)));
    expect([record404]).toEqual([infoRecord('tool', 'not_found', 'No sheet named q3', 404, 'h3-not-found', expectCorrelated(notFound, record404))]);
    // the toolkit's own text: `[status] message` and the error's data
    expect(textOf(await bare.client.callTool({ name: 'not_found', arguments: {} }))).toBe('[404] No sheet named q3\n{\n  "sheet": "q3"\n}');

    const locked = await guarded.client.callTool({ name: 'locked', arguments: {} });
    const [record409] = await guarded.takeRecords(1);
    expect(locked).toEqual(toolFailure('Error executing tool locked: Sheet q3 is being edited', failureObject('conflict', false)));
    expect([record409]).toEqual([infoRecord('tool', 'locked', 'Sheet q3 is being edited', 409, 'h3-client-error', expectCorrelated(locked, record409))]);
  });

  it('masks an h3 error with a 5xx status (a crash text), and a 4xx one whose text carries its cause: error records', async () => {
    const serverError = await guarded.client.callTool({ name: 'server_error', arguments: {} });
    const reference = expectCrash(serverError, await guarded.takeRecords(1), 'server_error');
    expect(textOf(serverError)).toBe(`Error executing tool server_error (reference ${reference})`);
    expect(textOf(await bare.client.callTool({ name: 'server_error', arguments: {} }))).toBe(`[500] ${CANARY}`);

    const wrapped = await guarded.client.callTool({ name: 'wrapped_crash', arguments: {} });
    const [record, ...more] = await guarded.takeRecords(1);
    expect(more).toEqual([]);
    const id = expectCorrelated(wrapped, record);
    expect(wrapped).toEqual(toolFailure(`Error executing tool wrapped_crash (reference ${id})`, failureObject('internal', false, { correlationId: id })));
    expect(record).toMatchObject({ level: 'error', kind: 'crash', name: 'wrapped_crash', reference: id, withheld: "its text carries its cause's message" });
    expect(record?.stack).toMatch(/^ {4}at [^]*\n {2}caused by: Error "connection to db\.internal:5432 refused for user app_rw"\n/);
  });

  it('shows an HTTP 429 from axios with its retry delay, never the body: one warn record', async () => {
    const answer = await guarded.client.callTool({ name: 'rate_limited', arguments: {} });
    const [record, ...more] = await guarded.takeRecords(1);
    expect(more).toEqual([]);
    expect(answer).toEqual(
      toolFailure(
        'Error executing tool rate_limited: HTTP request failed with status 429. Retry after 7 s.',
        failureObject('rate_limited', true, { retryAfterMs: 7000, correlationId: record?.correlationId }),
      ),
    );
    expect(record).toMatchObject({ level: 'warn', kind: 'anticipated', name: 'rate_limited', status: 429, errorName: 'AxiosError', rule: 'http-status', httpStatus: 429 });
    expect(record?.stack).toMatch(/^ {4}at /);
  });

  it("shows a Google API error (gaxios) with the API's own message: one warn record", async () => {
    const answer = await guarded.client.callTool({ name: 'google_error', arguments: {} });
    const [record, ...more] = await guarded.takeRecords(1);
    expect(more).toEqual([]);
    expect(answer).toEqual(
      toolFailure(
        `Error executing tool google_error: ${GOOGLE_MESSAGES.permissionDenied} (403 PERMISSION_DENIED from Google API GET /v1/forbidden)`,
        failureObject('permission_denied', false, { correlationId: record?.correlationId }),
      ),
    );
    expect(JSON.stringify(answer)).not.toContain('127.0.0.1');
    expect(record).toMatchObject({ level: 'warn', kind: 'anticipated', name: 'google_error', status: 403, rule: 'google-api-error', httpStatus: 403 });
  });

  it('leaves successes byte-identical to the app without the policy, nothing logged', async () => {
    const calls: ((client: Client) => Promise<unknown>)[] = [
      (client) => client.callTool({ name: 'get-sheet', arguments: { name: 'q3' } }),
      (client) => client.readResource({ uri: 'about://app' }),
      (client) => client.getPrompt({ name: 'greeting', arguments: { who: 'Ann' } }),
    ];
    for (const call of calls) expect(JSON.stringify(await call(guarded.client))).toBe(JSON.stringify(await call(bare.client)));
    expect(await guarded.client.callTool({ name: 'get-sheet', arguments: { name: 'q3' } })).toEqual({ content: [{ type: 'text', text: '{\n  "name": "q3",\n  "rows": 3\n}' }] });
    await expectNothingLogged();
  });

  it('keeps a cached tool correct: its failure is not cached, its next success is, as without the policy', async () => {
    const call = (client: Client): Promise<unknown> => client.callTool({ name: 'cached_rows', arguments: { sheet: 'q3' } });
    // the first call fails: masked, logged once; without the policy the toolkit sends the text
    const failed = await call(guarded.client);
    const [record, ...more] = await guarded.takeRecords(1);
    expect(more).toEqual([]);
    const id = expectCorrelated(failed, record);
    expect(failed).toEqual(toolFailure(`Error executing tool cached_rows (reference ${id})`, failureObject('internal', false, { correlationId: id })));
    expect(record).toMatchObject({ level: 'error', kind: 'crash', name: 'cached_rows', reference: id, errorMessage: 'Cannot read /srv/app/cache/rows.db' });
    expect(await call(bare.client)).toEqual({ content: [{ type: 'text', text: 'Cannot read /srv/app/cache/rows.db' }], isError: true });
    // the second runs the handler again and succeeds; the third gets that success from the cache
    for (const expected of ['rows of q3 (call 2)', 'rows of q3 (call 2)']) {
      const answer = await call(guarded.client);
      expect(answer).toEqual({ content: [{ type: 'text', text: expected }] });
      expect(JSON.stringify(answer)).toBe(JSON.stringify(await call(bare.client)));
    }
    await expectNothingLogged();
  });

  it('masks a crashing resource: -32603 naming the URI, the failure object in data, one error record', async () => {
    const error = await rpcError(guarded.client.readResource({ uri: 'config://app' }));
    const reference = /\(reference ([0-9a-f]{12})\)$/.exec(error.message)?.[1] ?? '';
    expect(error).toEqual({
      code: -32603,
      message: `MCP error -32603: Error reading resource config://app (reference ${reference})`,
      data: failureData(failureObject('internal', false, { correlationId: reference })),
    });
    expect(await guarded.takeRecords(1)).toEqual([
      {
        level: 'error',
        message: `resource "config://app" crashed (reference ${reference}): TypeError "Cannot read properties of undefined (reading 'host')"`,
        kind: 'crash',
        handler: 'resource',
        name: 'config://app',
        status: 500,
        errorName: 'TypeError',
        errorMessage: "Cannot read properties of undefined (reading 'host')",
        reference,
        correlationId: reference,
        stack: expect.stringMatching(/^ {4}at /),
      },
    ]);
    // without the policy the SDK sends the crash text
    expect((await rpcError(bare.client.readResource({ uri: 'config://app' }))).message).toBe("MCP error -32603: Cannot read properties of undefined (reading 'host')");
  });

  it("answers a resource's h3 404 as resource-not-found (-32002, data { uri } and the failure object): one info record", async () => {
    const error = await rpcError(guarded.client.readResource({ uri: 'sheet://q3' }));
    const [record] = await guarded.takeRecords(1);
    expect(error).toEqual({ code: -32002, message: 'MCP error -32002: No sheet named q3', data: failureData(failureObject('not_found', false, { correlationId: record?.correlationId }), 'sheet://q3') });
    expect([record]).toEqual([infoRecord('resource', 'sheet://q3', 'No sheet named q3', 404, 'h3-not-found', expect.stringMatching(/^[0-9a-f]{12}$/))]);
  });

  it('masks a crashing prompt: -32603 naming the prompt, one error record', async () => {
    const error = await rpcError(guarded.client.getPrompt({ name: 'summary' }));
    const reference = /\(reference ([0-9a-f]{12})\)$/.exec(error.message)?.[1] ?? '';
    expect(error).toEqual({
      code: -32603,
      message: `MCP error -32603: Error getting prompt summary (reference ${reference})`,
      data: failureData(failureObject('internal', false, { correlationId: reference })),
    });
    expect(await guarded.takeRecords(1)).toMatchObject([{ level: 'error', kind: 'crash', handler: 'prompt', name: 'summary', reference, errorName: 'TypeError' }]);
  });

  it("names a resource served from a file (no handler to wrap) in one process warning; its failure stays the toolkit's", async () => {
    const uri = pathToFileURL(join(dir, 'notes', 'missing.md')).href;
    const error = await rpcError(guarded.client.readResource({ uri }));
    expect(error.message).toMatch(/^MCP error -32603: Failed to read file \//);
    expect(error.message).toBe((await rpcError(bare.client.readResource({ uri }))).message);
    const warnings = guarded.stderr().split('\n').filter((line) => line.includes('McpErrorPolicyWarning'));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^\(node:\d+\) McpErrorPolicyWarning: applyErrorPolicy: the resource "notes\/missing\.md" of @nuxtjs\/mcp-toolkit has no handler \(a resource served from a `file`\?\): its failures are not under the policy\. Give it a handler that reads the file$/,
      ),
    ]);
    expect(bare.stderr()).not.toContain('McpErrorPolicyWarning');
  });

  it('reports each call that runs a handler to the access log once', async () => {
    const before = guarded.outcomes().length;
    await guarded.client.callTool({ name: 'get-sheet', arguments: { name: 'q3' } });
    await guarded.client.callTool({ name: 'not_found', arguments: {} });
    await rpcError(guarded.client.readResource({ uri: 'sheet://q3' }));
    await guarded.client.getPrompt({ name: 'greeting', arguments: { who: 'Ann' } });
    await guarded.client.callTool({ name: 'tool_error', arguments: {} });
    expect((await guarded.takeRecords(3)).map((record) => record.name)).toEqual(['not_found', 'sheet://q3', 'tool_error']);
    const until = Date.now() + 10_000;
    while (guarded.outcomes().length < before + 5 && Date.now() < until) await new Promise((done) => setTimeout(done, 10));
    expect(guarded.outcomes().slice(before)).toEqual([
      { kind: 'tool', name: 'get-sheet', status: 200 },
      { kind: 'tool', name: 'not_found', status: 404 },
      { kind: 'resource', name: 'sheet://q3', status: 404 },
      { kind: 'prompt', name: 'greeting', status: 200 },
      { kind: 'tool', name: 'tool_error', status: 500 },
    ]);
  });

  it('wraps each definition once: every request after the first gets the same wrapped handler', async () => {
    for (let i = 0; i < 3; i += 1) await guarded.client.callTool({ name: 'crash', arguments: {} });
    await guarded.takeRecords(3);
    const spy = JSON.parse(textOf(await guarded.client.callTool({ name: 'wrap_spy', arguments: {} }))) as { requests: number; distinct: number; wrapped: boolean };
    // each MCP request (initialize, its notification, every call so far) resolved the config once
    expect(spy.requests).toBeGreaterThan(10);
    expect(spy).toEqual({ requests: spy.requests, distinct: 1, wrapped: true });
    // without the policy: the toolkit's own handler, never wrapped
    expect(JSON.parse(textOf(await bare.client.callTool({ name: 'wrap_spy', arguments: {} })))).toMatchObject({ distinct: 1, wrapped: false });
  });
});

describe.skipIf(skip)("h3's errors as the Nitro adapter's rules read them (the scratch install's h3 1.x and 2.x)", () => {
  type H3 = { createError(input: object): Error; HTTPError?: new (details: object) => Error };
  const load = async (path: string): Promise<H3> => (await import(pathToFileURL(join(dir, 'node_modules', path)).href)) as H3;
  const policy = withH3Rules(createErrorPolicy({ logger: () => undefined }));

  it('shows a 4xx of either major with its status; judges a 5xx, and a look-alike HTTPError of an HTTP client, as any error', async () => {
    const v1 = await load('nitropack/node_modules/h3/dist/index.mjs');
    const v2 = await load('h3/dist/_entries/node.mjs');
    const HTTPError = v2.HTTPError!;
    for (const error of [v1.createError({ statusCode: 404, message: 'No sheet named q3' }), new HTTPError({ status: 404, message: 'No sheet named q3' })]) {
      expect(classifyError(error, policy)).toMatchObject({ kind: 'anticipated', rule: { name: 'h3-not-found' }, message: 'No sheet named q3', status: 404, level: 'info', code: -32002 });
    }
    expect(classifyError(new HTTPError({ status: 422, message: 'Sheet name is too long' }), policy)).toMatchObject({ kind: 'anticipated', rule: { name: 'h3-client-error' }, status: 422 });
    for (const error of [v1.createError({ statusCode: 503, message: 'Sheet store is down' }), new HTTPError({ status: 500, message: 'Sheet store is down' })]) {
      expect(classifyError(error, policy).kind).toBe('crash');
    }
    // ky's HTTPError: named alike, without h3's fields
    const ky = Object.assign(new Error('Request failed with status code 404 Not Found: GET http://db.internal/x'), { name: 'HTTPError', status: 404 });
    expect(classifyError(ky, policy).kind).toBe('crash');
    // a policy that masks deliberate errors masks h3's too
    expect(classifyError(v1.createError({ statusCode: 404, message: 'No sheet named q3' }), withH3Rules(createErrorPolicy({ maskDeliberateErrors: true, logger: () => undefined }))).kind).toBe('crash');
  });
});

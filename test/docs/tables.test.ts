/**
 * The docs against a run: every table (and inline claim) of README.md and docs/*.md (but docs/frameworks.md) that
 * states what the client sees (a wire text, an isError result or JSON-RPC error, a code, a status) or what is logged
 * (a level, a record field), driven through a real McpServer (SDK v1; SDK v2 where the row is about v2) and the real
 * SDK Client over InMemoryTransport. Each case names the doc file and row it checks, and first checks that the doc
 * still says what the case asserts (`docSays`): a change to the code or to the doc that parts them fails here.
 *
 * Texts are written as the doc writes them: `…` stands for any text, `<id>` for a reference or correlation id.
 *
 * Rows not repeated here, asserted exactly elsewhere:
 * - README "Wrapping one handler", the quick start's client and stderr lines: test/examples/quickstart.test.ts.
 * - README "Try it", the demo's summary lines: test/examples/demo.test.ts.
 * - docs/http.md "What the client sees", per client and status (texts, codes, retryable, statuses, levels):
 *   test/http/mcp.test.ts and test/http/stdio.test.ts (table in test/http/support/expected.ts); Slack, GraphQL,
 *   OpenAPI, Microsoft Graph paragraphs: test/http/hostile.test.ts, graphql.test.ts, openapi.test.ts, msgraph.test.ts.
 *   Here: the table's status rows through axios and a thrown fetch `Response` (the `HTTP` service).
 * - docs/google.md "What the client sees", per gaxios / google-auth-library / googleapis-common version:
 *   test/google/mcp.test.ts and the gaxios, gal and googleapis-common suites. Here: the rows the fake Google reaches.
 * - docs/adopting.md, the `report:` line and the step 4 texts: test/adopt/adopting.test.ts and report.test.ts.
 * - docs/compatibility.md "Runtimes" (Bun, Deno, workerd): test/runtimes; "Supported versions": test/compat.
 * - docs/observability.md "OpenTelemetry": test/opentelemetry; "Sentry": test/examples/sentry-server.test.ts.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  applyErrorPolicy,
  coreRules,
  ownErrorRule,
  ResourceError,
  ResourceNotFoundError,
  ToolError,
  zodErrorRule,
  type ErrorPolicyOptions,
  type ErrorRule,
  type LogRecord,
  type Outcome,
} from '../../src/index.js';
import { capture, FAILURE_KEY, rpcError, settle, textOf, withStderr } from '../support/calls.js';
import { googleRules } from '../../src/google/index.js';
import { httpRules } from '../../src/http/index.js';
import { closedPortUrl, startFakeGoogle, type FakeGoogle } from '../support/fake-google.js';
import type { GalModule } from '../google/gal-suite.js';
import { isolateGoogleEnvironment, requestWithRevokedRefreshToken, serviceAccount } from '../google/support.js';
import { link, tap } from '../support/link.js';
import { startHttp } from '../support/loopback.js';

// --- the docs ---------------------------------------------------------------------------------------------------

const docs = new Map<string, string>();

/** Fails unless `file` still holds `text` (its whitespace as written, line breaks read as spaces). */
function docSays(file: string, text: string): void {
  let page = docs.get(file);
  if (page === undefined) {
    page = readFileSync(file, 'utf8').replace(/\s*\n\s*/g, ' ');
    docs.set(file, page);
  }
  expect(page.includes(text), `${file} no longer says ${JSON.stringify(text)}`).toBe(true);
}

/** The doc's text as a pattern of the whole string: `…` any text, `<id>` 12 hex digits. */
function asWritten(text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replaceAll('…', '[\\s\\S]*?').replaceAll('<id>', '[0-9a-f]{12}')}$`);
}

// --- a real server and client -----------------------------------------------------------------------------------

/** What one run left: the records and outcomes its policy wrote. */
interface Ran<T> {
  readonly value: T;
  readonly records: readonly LogRecord[];
  readonly outcomes: readonly Outcome[];
}

type Register = (server: McpServer) => void;

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const session of open.splice(0)) await session.close();
});

/**
 * An SDK v1 McpServer under `applyErrorPolicy` (a capturing policy made of `options`; `bare`: no policy at all), its
 * handlers set by `register`, connected to an SDK v1 Client; `act` is what the client does.
 */
async function run<T>(register: Register, act: (client: Client) => Promise<T>, options: Omit<ErrorPolicyOptions, 'logger' | 'onOutcome'> | 'bare' = {}): Promise<Ran<T>> {
  const server = new McpServer({ name: 'doc-tables', version: '1.0.0' });
  const captured = options === 'bare' ? undefined : capture(options);
  if (captured !== undefined) applyErrorPolicy(server, captured.policy);
  register(server);
  const session = await link(server, new Client({ name: 'doc-client', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
  open.push(session);
  const value = await act(session.client);
  return { value, records: captured?.records ?? [], outcomes: captured?.outcomes ?? [] };
}

/** The tool `name` (one optional string argument, `arg`) whose body is `body`. */
function tool(name: string, body: (arg: string | undefined, signal: AbortSignal) => Promise<CallToolResult>): Register {
  return (server) => {
    server.registerTool(name, { inputSchema: { arg: z.string().optional() } }, async ({ arg }, extra) => body(arg, extra.signal));
  };
}

/** The tool `name` that throws what `thrown` gives. */
function throwing(name: string, thrown: (arg: string | undefined, signal: AbortSignal) => unknown): Register {
  return tool(name, async (arg, signal) => {
    throw await thrown(arg, signal);
  });
}

/** Calls the tool `name` with `arg` (if any). */
function call(name: string, arg?: string): (client: Client) => Promise<CallToolResult> {
  return async (client) => (await client.callTool({ name, arguments: arg === undefined ? {} : { arg } })) as CallToolResult;
}

/** The one record of a run, its level, kind, rule and status, and whether it holds a stack. */
function only(records: readonly LogRecord[]): { level: string; kind: string; rule: string | undefined; status: number; stack: boolean; record: LogRecord } {
  expect(records).toHaveLength(1);
  const record = records[0]!;
  return { level: record.level, kind: record.kind, rule: record.rule, status: record.status, stack: record.stack !== undefined, record };
}

/** The failure object of a tool result or JSON-RPC error, without its correlation id. */
function failureOf(answer: unknown): Record<string, unknown> | undefined {
  const holder = answer as { _meta?: Record<string, unknown>; data?: Record<string, unknown> };
  const object = (holder._meta?.[FAILURE_KEY] ?? holder.data?.[FAILURE_KEY]) as Record<string, unknown> | undefined;
  if (object === undefined) return undefined;
  const { correlationId, ...rest } = object;
  expect(correlationId).toMatch(/^[0-9a-f]{12}$/);
  return rest;
}

// --- a local HTTP service and closed port -----------------------------------------------------------------------

/** Answers `/status/<n>` with that status and a JSON body (`Retry-After: 30` on 429 and 503; a rate limit on `/limited`); `/hang` never answers. */
function httpService(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? '/';
  if (path === '/hang') return;
  if (path === '/limited') {
    res.writeHead(403, { 'content-type': 'application/json', 'x-ratelimit-remaining': '0', 'retry-after': '120' });
    res.end(JSON.stringify({ message: 'API rate limit exceeded for user ID 1.' }));
    return;
  }
  const status = Number(/^\/status\/(\d{3})$/.exec(path)?.[1] ?? '404');
  const delay = status === 429 || status === 503 ? { 'retry-after': '30' } : {};
  res.writeHead(status, { 'content-type': 'application/json', ...delay });
  res.end(JSON.stringify({ error: { message: `status ${status} body: internal detail` } }));
}

let service: { url: string; close: () => Promise<void> };
let closed: string;
beforeAll(async () => {
  service = await startHttp(httpService);
  closed = await closedPortUrl('/v4/spreadsheets/s1');
});
afterAll(async () => {
  await service.close();
});

/** What a thrown fetch `Response` of `status` (from the local service) is. */
async function responseOf(path: string): Promise<Response> {
  const response = await fetch(`${service.url}${path}`);
  await response.arrayBuffer();
  return response;
}

/** What axios throws for the local service's `path`. */
async function axiosFailure(path: string): Promise<unknown> {
  const { default: axios } = await import('axios');
  return axios.get(`${service.url}${path}`).then(
    () => new Error('expected a failure'),
    (error: unknown) => error,
  );
}

/** What gaxios 6 (node-fetch) throws for a refused connection to `url`. */
async function gaxios6Refused(url: string): Promise<unknown> {
  const gaxios = (await import('gaxios6')) as unknown as { request(options: Record<string, unknown>): Promise<unknown> };
  return gaxios.request({ url, retry: false }).then(
    () => new Error('expected a failure'),
    (error: unknown) => error,
  );
}

const API_KEY = 'AIzaSyD-PLANTEDfake0KEY1fake2KEY3fake4K';

/**
 * `ownErrorRule()` for this folder: in this package's own repository the default root (the repository) holds the
 * package's code too, so nothing would be own (see src/rules/own-error.ts); a server's folder holds only its own.
 */
const ownHere = (): ErrorRule => ownErrorRule({ root: fileURLToPath(new URL('.', import.meta.url)) });

// =================================================================================================================

describe('README.md "What the client sees"', () => {
  interface Row {
    readonly row: string;
    readonly tool: string;
    readonly arg?: string;
    readonly thrown: (arg: string | undefined, signal: AbortSignal) => unknown;
    readonly options?: Omit<ErrorPolicyOptions, 'logger' | 'onOutcome'>;
    /** the policy's client text, as the README writes it */
    readonly text: string;
    readonly level: string;
    /** whether the record holds the stack ("one line": no) */
    readonly stack: boolean;
    /** the SDK alone: the text the client sees, as the README writes it (`the message`: the thrown message) */
    readonly bare?: string;
  }
  const rows: Row[] = [
    {
      row: "`new ToolError('Sheet name must not be empty')`",
      tool: 'get_sheet',
      thrown: () => new ToolError('Sheet name must not be empty'),
      text: 'Error executing tool get_sheet: Sheet name must not be empty',
      level: 'info',
      stack: false,
    },
    {
      row: "`TypeError: Cannot read properties of undefined (reading 'id')`",
      tool: 'get_sheet',
      thrown: () => new TypeError("Cannot read properties of undefined (reading 'id')"),
      text: 'Error executing tool get_sheet (reference <id>)',
      level: 'error',
      stack: true,
      bare: "Cannot read properties of undefined (reading 'id')",
    },
    {
      row: 'a request to `https://…?key=AIza…` is refused',
      tool: 'get_sheet',
      thrown: () => gaxios6Refused(`${closed}?key=${API_KEY}`),
      text: 'Error executing tool get_sheet: Network error: connection refused (ECONNREFUSED)',
      level: 'warn',
      stack: true,
      bare: 'request to …?key=AIza… failed, reason: connect ECONNREFUSED …',
    },
    {
      row: 'an HTTP API answers 429 (axios, ky, Octokit, OpenAI, a thrown fetch `Response`, …)',
      tool: 'get_sheet',
      thrown: () => axiosFailure('/status/429'),
      text: 'Error executing tool get_sheet: HTTP request failed with status 429. Retry after 30 s.',
      level: 'warn',
      stack: true,
      bare: 'Request failed with status code 429',
    },
    {
      row: "`ENOENT: no such file or directory, open 'docs/missing.txt'`, a path the caller passed",
      tool: 'read_file',
      arg: 'docs/missing.txt',
      thrown: (arg) => readFile(arg ?? '').then(() => new Error('expected a failure'), (error: unknown) => error),
      text: "Error executing tool read_file: File system error: no such file or directory (ENOENT, open 'docs/missing.txt')",
      level: 'info',
      stack: false,
      bare: "ENOENT: no such file or directory, open 'docs/missing.txt'",
    },
    {
      row: "`new Error('Entity with name Nobody not found')`, thrown by the server's own code",
      tool: 'open_nodes',
      thrown: () => new Error('Entity with name Nobody not found'),
      text: 'Error executing tool open_nodes (reference <id>)',
      level: 'error',
      stack: true,
      bare: 'Entity with name Nobody not found',
    },
    {
      row: 'with [`ownErrorRule()`](#servers-that-throw-plain-errors): `Error executing tool open_nodes: Entity with name Nobody not found`',
      tool: 'open_nodes',
      thrown: () => new Error('Entity with name Nobody not found'),
      options: { rules: [ownHere(), ...coreRules] },
      text: 'Error executing tool open_nodes: Entity with name Nobody not found',
      level: 'warn',
      stack: true,
    },
    {
      row: "``new McpError(ErrorCode.InternalError, `Tool execution failed: ${e.message}`)`` around a crash",
      tool: 'get_sheet',
      thrown: () => {
        try {
          return (undefined as unknown as { id: string }).id;
        } catch (e) {
          return new McpError(ErrorCode.InternalError, `Tool execution failed: ${(e as Error).message}`);
        }
      },
      text: 'Error executing tool get_sheet (reference <id>)',
      level: 'error',
      stack: true,
      bare: 'MCP error -32603: Tool execution failed: Cannot read properties of undefined (reading …)',
    },
    {
      row: '`[internal host]`, `[source]`',
      tool: 'get_sheet',
      thrown: () => new ToolError('Billing is down at billing.internal:8443 (raised in /srv/app/x.rb:42)'),
      text: 'Error executing tool get_sheet: Billing is down at [internal host] (raised in [source])',
      level: 'info',
      stack: false,
    },
    {
      row: 'a 5xx body cut after the status',
      tool: 'get_sheet',
      thrown: () => new ToolError('Ticketing API error 500 Internal Server Error on GET /tickets/9: PG::ConnectionBad could not connect to server'),
      text: 'Error executing tool get_sheet: Ticketing API error 500 Internal Server Error.',
      level: 'info',
      stack: false,
    },
  ];

  it.each(rows)('README.md, row $row: the client text and the record', async (row) => {
    docSays('README.md', row.row);
    const { value, records } = await run(throwing(row.tool, row.thrown), call(row.tool, row.arg), row.options);
    expect(value.isError).toBe(true);
    expect(textOf(value)).toMatch(asWritten(row.text));
    const record = only(records);
    expect({ level: record.level, stack: record.stack }).toEqual({ level: row.level, stack: row.stack });
    if (record.kind === 'crash') expect(textOf(value)).toContain(`(reference ${String(record.record.reference)})`);

    if (row.bare === undefined) return;
    // the SDK alone: the message, and nothing logged
    const { value: bare } = await withStderr(() => run(throwing(row.tool, row.thrown), call(row.tool, row.arg), 'bare'));
    expect(textOf(bare.value)).toMatch(asWritten(row.bare));
  });

  it('README.md, row "a request to `https://…?key=AIza…` is refused": the log has the stack, the key redacted', async () => {
    docSays('README.md', '`warn`, the stack, the key redacted');
    const { records } = await run(throwing('get_sheet', () => gaxios6Refused(`${closed}?key=${API_KEY}`)), call('get_sheet'));
    const text = JSON.stringify(records);
    expect(text).not.toContain(API_KEY);
    expect(records[0]?.stack).toContain('key=[REDACTED]');
  });

  it.each([400, 404, 409, 410, 422])('README.md, row "an HTTP API answers 429": a %i is `info`, one line', async (status) => {
    docSays('README.md', 'a 400, 404, 409, 410 or 422: `info`, one line');
    const { value, records } = await run(throwing('get_sheet', () => axiosFailure(`/status/${status}`)), call('get_sheet'));
    expect(textOf(value)).toBe(`Error executing tool get_sheet: HTTP request failed with status ${status}`);
    expect(only(records)).toMatchObject({ level: 'info', stack: false, rule: 'http-status', status });
  });

  it('README.md, row "ENOENT …": any other path stays hidden', async () => {
    docSays('README.md', 'any other path stays hidden');
    const { value } = await run(throwing('read_file', () => readFile('/srv/app/secret-dir/missing.txt').catch((error: unknown) => error)), call('read_file', 'docs/missing.txt'));
    expect(textOf(value)).not.toContain('secret-dir');
    expect(textOf(value)).toMatch(/^Error executing tool read_file: File system error: no such file or directory \(ENOENT/);
  });

  it('README.md, row "a resource callback throws an error with `code: 403`": -32603 naming the URI, with a reference; `error`, the stack', async () => {
    docSays('README.md', '| a resource callback throws an error with `code: 403` | JSON-RPC error **403**, the raw message; no log | JSON-RPC `-32603` naming the URI, with a reference | `error`, the stack |');
    const register: Register = (server) => {
      server.registerResource('budget', 'sheet://budget', {}, async () => {
        throw Object.assign(new Error('upstream said 403 for user 42 on db-3'), { code: 403 });
      });
    };
    const read = (client: Client) => rpcError(client.readResource({ uri: 'sheet://budget' }));
    const { value, records } = await run(register, read);
    expect(value).toMatchObject({ code: -32603, message: expect.stringMatching(asWritten('MCP error -32603: Error reading resource sheet://budget (reference <id>)')) });
    expect(only(records)).toMatchObject({ level: 'error', kind: 'crash', stack: true });

    const { value: bare } = await withStderr(() => run(register, read, 'bare'));
    expect(bare.value).toMatchObject({ code: 403, message: 'MCP error 403: upstream said 403 for user 42 on db-3' });
  });

  it('README.md, row "a deliberate protocol error": the same code and words, `info`, one line', async () => {
    docSays('README.md', "| ``new McpError(ErrorCode.InvalidParams, 'Unknown sheet Q3')``, a deliberate protocol error | the message, its code | the same code and words, through the [exit gate](docs/security.md#the-exit-gate) | `info`, one line |");
    const register = throwing('get_sheet', () => new McpError(ErrorCode.InvalidParams, 'Unknown sheet Q3'));
    const { value, records } = await run(register, call('get_sheet'));
    const { value: bare } = await run(register, call('get_sheet'), 'bare');
    expect(value).toEqual(bare);
    expect(textOf(value)).toBe('MCP error -32602: Unknown sheet Q3');
    expect(only(records)).toMatchObject({ level: 'info', kind: 'protocol', stack: false, status: 400 });
  });

  it('README.md, row "anything, once the client cancelled the call": nothing sent; `info`, one line, status 499', async () => {
    docSays('README.md', '`info`, one line `tool "slow_search" cancelled: …`, status 499');
    const { policy, records, outcomes } = capture();
    const server = applyErrorPolicy(new McpServer({ name: 'doc-tables', version: '1.0.0' }), policy);
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    server.registerTool('slow_search', {}, async (extra) => {
      started();
      await fetch(`${service.url}/hang`, { signal: extra.signal });
      return { content: [{ type: 'text', text: 'unreachable' }] };
    });
    const wire: string[] = [];
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    const session = await link(server, new Client({ name: 'doc-client', version: '1.0.0' }), [tap(serverSide, wire), clientSide]);
    open.push(session);
    const controller = new AbortController();
    const answer = session.client.callTool({ name: 'slow_search', arguments: {} }, undefined, { signal: controller.signal }).catch((error: unknown) => error);
    await running;
    const before = wire.length;
    controller.abort();
    expect(await answer).toBeInstanceOf(Error);
    for (let i = 0; i < 50 && records.length === 0; i += 1) await settle();
    await settle();
    expect(wire.slice(before)).toEqual([]);
    expect(only(records)).toMatchObject({ level: 'info', rule: 'cancelled', status: 499, stack: false });
    expect(records[0]?.message).toMatch(/^tool "slow_search" cancelled: string "AbortError: This operation was aborted"/);
    expect(outcomes.map((o) => o.status)).toEqual([499]);
  });
});

describe('README.md "Rules to add" and "Logs, access log, telemetry"', () => {
  it('README.md, row "validates client data with zod in handlers": the zod text', async () => {
    docSays('README.md', '| `zodErrorRule` | `Invalid data: name: Invalid input: expected string, received number` |');
    const { value } = await run(
      throwing('get_sheet', () => {
        const parsed = z.object({ name: z.string() }).safeParse({ name: 1 });
        return parsed.success ? new Error('expected a failure') : parsed.error;
      }),
      call('get_sheet'),
      { rules: [zodErrorRule, ...coreRules] },
    );
    expect(textOf(value)).toBe('Error executing tool get_sheet: Invalid data: name: Invalid input: expected string, received number');
  });

  it('README.md, "Logs": the caller\'s missing file and an API\'s 400, 404, 409, 410, 422 are one `info` line, no stack', async () => {
    docSays('README.md', "Failures the caller caused (its missing file, an API's 400, 404, 409, 410, 422) are one `info` line, no stack.");
    const { records } = await run(throwing('read_file', (arg) => readFile(arg ?? '').catch((error: unknown) => error)), call('read_file', 'docs/missing.txt'));
    expect(only(records)).toMatchObject({ level: 'info', stack: false, rule: 'file-system' });
  });
});

// =================================================================================================================

describe('docs/rules.md "What the policy handles itself"', () => {
  it('docs/rules.md, row `ToolError` (in a tool): the text, `info`, one line, 500', async () => {
    docSays('docs/rules.md', '| `ToolError` (in a tool) | `Error executing tool <name>: <message>` | `info`, one line | 500 |');
    const { value, records, outcomes } = await run(throwing('t', () => new ToolError('Sheet is locked')), call('t'));
    expect(textOf(value)).toBe('Error executing tool t: Sheet is locked');
    expect(only(records)).toMatchObject({ level: 'info', stack: false, status: 500, rule: 'deliberate' });
    expect(outcomes.map((o) => o.status)).toEqual([500]);
  });

  it.each([
    {
      row: '| `ResourceError` (in a resource or prompt) | JSON-RPC `-32603` with its message | `info`, one line | 500 |',
      thrown: () => new ResourceError('Sheet is locked'),
      code: -32603,
      data: undefined,
      status: 500,
    },
    {
      row: '| `ResourceNotFoundError` | JSON-RPC `-32002` with its message, `data: { uri }` | `info`, one line | 404 |',
      thrown: () => new ResourceNotFoundError('No sheet named budget'),
      code: -32002,
      data: { uri: 'sheet://budget' },
      status: 404,
    },
  ])('docs/rules.md, row $row', async ({ row, thrown, code, data, status }) => {
    docSays('docs/rules.md', row);
    const { value, records, outcomes } = await run(
      (server) => {
        server.registerResource('budget', 'sheet://budget', {}, async () => {
          throw thrown();
        });
        server.registerPrompt('summary', {}, async () => {
          throw thrown();
        });
      },
      async (client) => [await rpcError(client.readResource({ uri: 'sheet://budget' })), await rpcError(client.getPrompt({ name: 'summary' }))],
    );
    const [resource] = value;
    expect(resource?.code).toBe(code);
    expect(resource?.message).toBe(`MCP error ${code}: ${thrown().message}`);
    if (data !== undefined) expect(resource?.data).toMatchObject(data);
    expect(records[0]).toMatchObject({ level: 'info', status });
    expect(records[0]?.stack).toBeUndefined();
    expect(outcomes[0]?.status).toBe(status);
    // in a prompt: ResourceError as in a resource
    if (code === -32603) {
      expect(value[1]).toMatchObject({ code: -32603, message: `MCP error -32603: ${thrown().message}` });
      expect(records[1]).toMatchObject({ level: 'info', status: 500 });
    }
  });

  it.each([
    { code: ErrorCode.InvalidParams, status: 400 },
    { code: ErrorCode.MethodNotFound, status: 404 },
    { code: -32002, status: 404 },
    { code: -32099, status: 500 },
  ])('docs/rules.md, row "an MCP protocol error": what the SDK would answer without the policy, `info`, status by its code ($code)', async ({ code, status }) => {
    docSays('docs/rules.md', '| an MCP protocol error (`McpError`, `ProtocolError`, recognised by shape) | what the SDK would answer without the policy | `info` | by its JSON-RPC code |');
    const register: Register = (server) => {
      server.registerResource('budget', 'sheet://budget', {}, async () => {
        throw new McpError(code, 'No such range A1:B');
      });
    };
    const read = (client: Client) => rpcError(client.readResource({ uri: 'sheet://budget' }));
    const { value, records, outcomes } = await run(register, read);
    const { value: bare } = await run(register, read, 'bare');
    expect(value).toEqual(bare);
    expect(only(records)).toMatchObject({ level: 'info', kind: 'protocol', status });
    expect(outcomes.map((o) => o.status)).toEqual([status]);
  });
});

describe('docs/rules.md "The core rules"', () => {
  interface CoreRow {
    readonly row: string;
    readonly thrown: (arg: string | undefined) => unknown;
    readonly arg?: string;
    readonly text: string;
    readonly status: number;
    readonly level: string;
  }
  const rows: CoreRow[] = [
    {
      row: '`Network error: connection refused (ECONNREFUSED)`, never the URL | 502 |',
      thrown: () => fetch(closed).catch((error: unknown) => error),
      text: 'Network error: connection refused (ECONNREFUSED)',
      status: 502,
      level: 'warn',
    },
    {
      row: '| `timeout` | `TimeoutError` (by name or code: `AbortSignal.timeout`, gaxios 8)',
      thrown: () => fetch(`${service.url}/hang`, { signal: AbortSignal.timeout(20) }).catch((error: unknown) => error),
      text: 'The operation timed out',
      status: 504,
      level: 'warn',
    },
    {
      row: '| `abort` | `AbortError`, `ABORT_ERR`',
      thrown: () => {
        const controller = new AbortController();
        const pending = fetch(`${service.url}/hang`, { signal: controller.signal }).catch((error: unknown) => error);
        controller.abort();
        return pending;
      },
      text: 'The operation was aborted',
      status: 499,
      level: 'warn',
    },
    {
      row: '| `http-status` | a numeric `status`/`statusCode` from 300 up beside an object `headers`',
      thrown: () => responseOf('/status/404'),
      text: 'HTTP request failed with status 404',
      status: 404,
      level: 'info',
    },
    {
      row: "| `file-system` | Node's file-system errors",
      thrown: (arg) => readFile(arg ?? '').catch((error: unknown) => error),
      arg: 'docs/missing.txt',
      text: "File system error: no such file or directory (ENOENT, open 'docs/missing.txt')",
      status: 500,
      level: 'info',
    },
    {
      row: "| `file-system` | Node's file-system errors",
      thrown: () => readFile('test').catch((error: unknown) => error),
      // not the caller's path: `warn` (the text is not in the doc, which gives no example of it)
      text: 'File system error: is a directory (EISDIR, read)',
      status: 500,
      level: 'warn',
    },
  ];

  it.each(rows)('docs/rules.md, row $row: $text, $status, `$level`', async (row) => {
    docSays('docs/rules.md', row.row);
    docSays('docs/rules.md', row.level === 'warn' ? "Each logs at `warn` with the stack, except the caller's routine failures" : `\`${row.text}`);
    const { value, records, outcomes } = await run(throwing('t', row.thrown), call('t', row.arg));
    expect(textOf(value)).toBe(`Error executing tool t: ${row.text}`);
    expect(only(records)).toMatchObject({ level: row.level, status: row.status, stack: row.level === 'warn' });
    expect(outcomes.map((o) => o.status)).toEqual([row.status]);
  });

  it('docs/rules.md, "Each logs at `warn` with the stack, except …": an `http-status` 400, 404, 409, 410 or 422 has `httpStatus`, not the URL', async () => {
    docSays('docs/rules.md', 'under `http-status` a 400, 404, 409, 410 or 422 (the record has `httpStatus`, not the URL)');
    const { records } = await run(throwing('t', () => responseOf('/status/409')), call('t'));
    expect(only(records).record).toMatchObject({ httpStatus: 409, level: 'info' });
    expect(records[0]?.httpUrl).toBeUndefined();
  });
});

describe('docs/rules.md "A rule": the defaults', () => {
  it('docs/rules.md, rows `message`, `status`, `level`, `code`: the error\'s message, 500, `warn`, -32603', async () => {
    docSays('docs/rules.md', "| `message` | the accepted error's `message` |");
    docSays('docs/rules.md', '| `status` | `500` |');
    docSays('docs/rules.md', '| `code` | `-32603` | The JSON-RPC error code in a resource or prompt handler. |');
    class QuotaError extends Error {
      override name = 'QuotaError';
    }
    const rule: ErrorRule = { name: 'quota', predicate: (error) => error instanceof QuotaError };
    const { value, records, outcomes } = await run(
      (server) => {
        throwing('t', () => new QuotaError('Monthly quota used up'))(server);
        server.registerResource('budget', 'sheet://budget', {}, async () => {
          throw new QuotaError('Monthly quota used up');
        });
      },
      async (client) => ({ tool: await call('t')(client), resource: await rpcError(client.readResource({ uri: 'sheet://budget' })) }),
      { rules: [rule, ...coreRules] },
    );
    expect(textOf(value.tool)).toBe('Error executing tool t: Monthly quota used up');
    expect(value.resource).toMatchObject({ code: -32603, message: 'MCP error -32603: Monthly quota used up' });
    expect(records.map((r) => [r.level, r.rule, r.status, r.stack !== undefined])).toEqual([
      ['warn', 'quota', 500, true],
      ['warn', 'quota', 500, true],
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([500, 500]);
    expect(failureOf(value.tool)).toEqual({ code: 'quota', retryable: false });
  });
});

// =================================================================================================================

describe('docs/observability.md "Log records"', () => {
  it('docs/observability.md, rows deliberate / protocol / degraded: `info`, one line, no stack', async () => {
    docSays('docs/observability.md', '| deliberate (`ToolError`, `ResourceError`, `ResourceNotFoundError`), protocol error, a call refused while `degraded` | `info` | one line, no stack |');
    const deliberate = await run(throwing('t', () => new ToolError('no')), call('t'));
    const protocol = await run(throwing('t', () => new McpError(ErrorCode.InvalidParams, 'no')), call('t'));
    const degraded = await run(throwing('t', () => new Error('not run')), call('t'), { degraded: () => 'Not signed in' });
    for (const { records } of [deliberate, protocol, degraded]) {
      expect(only(records)).toMatchObject({ level: 'info', stack: false });
      expect(records[0]?.message).not.toContain('\n');
    }
    expect([deliberate, protocol, degraded].map((r) => r.records[0]?.kind)).toEqual(['anticipated', 'protocol', 'degraded']);
  });

  it('docs/observability.md, row "a rule matched": the rule\'s `level`, the stack at `warn`, the rule\'s name', async () => {
    docSays('docs/observability.md', "| a rule matched | the rule's `level` ([rules.md](rules.md)) | the line, the stack at `warn`, the rule's name |");
    const warn = await run(throwing('t', () => fetch(closed).catch((error: unknown) => error)), call('t'));
    const info = await run(throwing('t', () => responseOf('/status/404')), call('t'));
    expect(only(warn.records)).toMatchObject({ level: 'warn', rule: 'network', stack: true });
    expect(only(info.records)).toMatchObject({ level: 'info', rule: 'http-status', stack: false });
  });

  it('docs/observability.md, row "crash": `error`, the line, the stack, up to 8 causes with their frames, the reference', async () => {
    docSays('docs/observability.md', '| crash | `error` | the line, the stack, up to 8 causes with their frames, the reference |');
    const thrown = () => {
      let error = new Error('cause 0');
      for (let i = 1; i <= 10; i += 1) error = new Error(`cause ${i}`, { cause: error });
      return error;
    };
    const { value, records } = await run(throwing('t', thrown), call('t'));
    const record = only(records).record;
    expect(record).toMatchObject({ level: 'error', kind: 'crash', reference: expect.stringMatching(/^[0-9a-f]{12}$/) });
    expect(textOf(value)).toBe(`Error executing tool t (reference ${String(record.reference)})`);
    const causes = [...(record.stack ?? '').matchAll(/cause (\d+)/g)].map((m) => m[1]);
    // the thrown error's message is the line; its stack, then 8 causes (9 to 2) with their frames
    expect([...new Set(causes)]).toEqual(['9', '8', '7', '6', '5', '4', '3', '2']);
    expect(record.stack).toMatch(/cause 2[\s\S]*\n\s+at /);
  });

  it('docs/observability.md, row "report mode": `warn` for a crash, the rule\'s level otherwise, `report: true`', async () => {
    docSays('docs/observability.md', "| report mode | `warn` for a crash, the rule's level otherwise | as above, with `report: true` ([adopting.md](adopting.md)) |");
    const crash = await run(throwing('t', () => new TypeError('x is not a function')), call('t'), { mode: 'report' });
    const missing = await run(throwing('t', () => responseOf('/status/404')), call('t'), { mode: 'report' });
    expect(only(crash.records)).toMatchObject({ level: 'warn', kind: 'crash' });
    expect(crash.records[0]?.report).toBe(true);
    expect(only(missing.records)).toMatchObject({ level: 'info', rule: 'http-status' });
    expect(missing.records[0]?.report).toBe(true);
    // answers stay the bare server's
    expect(textOf(crash.value)).toBe('x is not a function');
  });

  it('docs/observability.md, the example `WARN` line: a rule\'s line on the default logger', async () => {
    docSays('docs/observability.md', '[mcp-error-policy] WARN tool "share_sheet" failed (rule google-api-error: GET http://127.0.0.1:38557/v1/forbidden?key=[REDACTED] -> 403): Error "The caller does not have permission" (correlation 8e07d5a2c913)');
    const { coreRules: core } = await import('../../src/index.js');
    const { googleRules } = await import('../../src/google/index.js');
    const { startFakeGoogle } = await import('../support/fake-google.js');
    const fake = await startFakeGoogle();
    try {
      const gaxios = (await import('gaxios7')) as unknown as { request(options: Record<string, unknown>): Promise<unknown> };
      const server = applyErrorPolicy(new McpServer({ name: 'doc-tables', version: '1.0.0' }), (await import('../../src/index.js')).createErrorPolicy({ rules: [...googleRules, ...core] }));
      throwing('share_sheet', () => gaxios.request({ url: fake.url(`/v1/forbidden?key=${API_KEY}`), retry: false }).catch((error: unknown) => error))(server);
      const session = await link(server, new Client({ name: 'doc-client', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
      open.push(session);
      const { written } = await withStderr(() => call('share_sheet')(session.client));
      expect(written.join('').split('\n')[0]).toMatch(
        asWritten(`[mcp-error-policy] WARN tool "share_sheet" failed (rule google-api-error: GET ${fake.origin}/v1/forbidden?key=[REDACTED] -> 403): Error "The caller does not have permission" (correlation <id>)`),
      );
    } finally {
      await fake.close();
    }
  });
});

describe('docs/observability.md "The access log"', () => {
  interface AccessRow {
    readonly row: string;
    readonly register: Register;
    readonly act: (client: Client) => Promise<unknown>;
    readonly options?: Omit<ErrorPolicyOptions, 'logger' | 'onOutcome'>;
    readonly status: number;
    readonly records: number;
  }
  const succeed: Register = tool('t', async () => ({ content: [{ type: 'text', text: 'ok' }] }));
  const rows: AccessRow[] = [
    { row: '| success | 200 |', register: succeed, act: call('t'), status: 200, records: 0 },
    { row: '| refused while `degraded`, or a failure whose rule has `reauthorize: true` | 401 |', register: succeed, act: call('t'), options: { degraded: () => 'Not signed in' }, status: 401, records: 1 },
    {
      row: '| refused while `degraded`, or a failure whose rule has `reauthorize: true` | 401 |',
      register: throwing('t', () => Object.assign(new Error('token revoked'), { name: 'RevokedError' })),
      act: call('t'),
      options: { rules: [{ name: 'revoked', predicate: (error) => (error as Error).name === 'RevokedError', reauthorize: true }, ...coreRules], reauthorize: 'Sign in again.' },
      status: 401,
      records: 1,
    },
    { row: 'network 502', register: throwing('t', () => fetch(closed).catch((e: unknown) => e)), act: call('t'), status: 502, records: 1 },
    { row: 'timeout 504', register: throwing('t', () => fetch(`${service.url}/hang`, { signal: AbortSignal.timeout(20) }).catch((e: unknown) => e)), act: call('t'), status: 504, records: 1 },
    { row: 'HTTP and Google rules the HTTP status', register: throwing('t', () => responseOf('/status/410')), act: call('t'), status: 410, records: 1 },
    { row: '| `ToolError` or `ResourceError`; `ResourceNotFoundError` | 500; 404 |', register: throwing('t', () => new ToolError('no')), act: call('t'), status: 500, records: 1 },
    { row: '| crash | 500 |', register: throwing('t', () => new TypeError('x is not a function')), act: call('t'), status: 500, records: 1 },
    { row: '| protocol error | 400, 403, 404 or 500 by its JSON-RPC code |', register: throwing('t', () => new McpError(ErrorCode.InvalidParams, 'no')), act: call('t'), status: 400, records: 1 },
    {
      row: '| a call the SDK refuses before any callback runs (unknown tool 404, invalid arguments 400) | as said; no log record |',
      register: succeed,
      act: (client) => client.callTool({ name: 'nope', arguments: {} }).catch((e: unknown) => e),
      status: 404,
      records: 0,
    },
    {
      row: '| a call the SDK refuses before any callback runs (unknown tool 404, invalid arguments 400) | as said; no log record |',
      register: succeed,
      act: (client) => client.callTool({ name: 't', arguments: { arg: 7 } }).catch((e: unknown) => e),
      status: 400,
      records: 0,
    },
  ];

  it.each(rows)('docs/observability.md, row $row: status $status', async (row) => {
    docSays('docs/observability.md', row.row);
    const { records, outcomes } = await run(row.register, row.act, row.options);
    expect(outcomes.map((o) => o.status)).toEqual([row.status]);
    expect(records).toHaveLength(row.records);
  });

  it('docs/observability.md, "`classification` is absent on success and degraded refusals"', async () => {
    docSays('docs/observability.md', '`classification` is absent on success and degraded refusals.');
    const success = await run(tool('t', async () => ({ content: [{ type: 'text', text: 'ok' }] })), call('t'));
    const degraded = await run(tool('t', async () => ({ content: [] })), call('t'), { degraded: () => 'Not signed in' });
    expect([...success.outcomes, ...degraded.outcomes].map((o) => o.classification)).toEqual([undefined, undefined]);
  });
});

describe('docs/observability.md "Cancellation" and "Degraded start"', () => {
  it('docs/observability.md, "Degraded start": tools answer the message, resources and prompts -32603; `info`, 401', async () => {
    docSays('docs/observability.md', 'tools answer `Error executing tool <name>: <message>`, resources and prompts a JSON-RPC -32603; each call is logged at `info`, status 401.');
    const message = 'Not signed in: run `drive-mcp login`, then retry.';
    const { value, records, outcomes } = await run(
      (server) => {
        throwing('t', () => new Error('not run'))(server);
        server.registerResource('budget', 'sheet://budget', {}, async () => ({ contents: [] }));
        server.registerPrompt('summary', {}, async () => ({ messages: [] }));
      },
      async (client) => [textOf(await call('t')(client)), await rpcError(client.readResource({ uri: 'sheet://budget' })), await rpcError(client.getPrompt({ name: 'summary' }))],
      { degraded: () => message },
    );
    expect(value[0]).toBe(`Error executing tool t: ${message}`);
    expect(value.slice(1)).toMatchObject([
      { code: -32603, message: `MCP error -32603: ${message}` },
      { code: -32603, message: `MCP error -32603: ${message}` },
    ]);
    expect(records.map((r) => [r.level, r.kind, r.status])).toEqual([
      ['info', 'degraded', 401],
      ['info', 'degraded', 401],
      ['info', 'degraded', 401],
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([401, 401, 401]);
  });
});

// =================================================================================================================

describe('docs/agents.md "The failure object"', () => {
  interface CodeRow {
    readonly row: string;
    readonly thrown: () => unknown;
    readonly options?: Omit<ErrorPolicyOptions, 'logger' | 'onOutcome'>;
    readonly failure: Record<string, unknown>;
  }
  const rows: CodeRow[] = [
    { row: '`tool_error` / `resource_error` / `resource_not_found`, or its `code` option', thrown: () => new ToolError('no'), failure: { code: 'tool_error', retryable: false } },
    { row: 'or its `code` option', thrown: () => new ToolError('busy', { code: 'recalculating' }), failure: { code: 'recalculating', retryable: false } },
    { row: 'true with a `retryAfterMs`', thrown: () => new ToolError('busy', { retryAfterMs: 30_000 }), failure: { code: 'tool_error', retryable: true, retryAfterMs: 30_000 } },
    { row: '| core rule `network` / `timeout` / `abort` | `network` / `timeout` / `aborted` | true / true / false |', thrown: () => fetch(closed).catch((e: unknown) => e), failure: { code: 'network', retryable: true, upstream: 'unreached' } },
    {
      row: '| core rule `network` / `timeout` / `abort` | `network` / `timeout` / `aborted` | true / true / false |',
      thrown: () => fetch(`${service.url}/hang`, { signal: AbortSignal.timeout(20) }).catch((e: unknown) => e),
      failure: { code: 'timeout', retryable: true },
    },
    {
      row: '| core rule `network` / `timeout` / `abort` | `network` / `timeout` / `aborted` | true / true / false |',
      thrown: () => Object.assign(new Error('This operation was aborted'), { name: 'AbortError' }),
      failure: { code: 'aborted', retryable: false },
    },
    { row: '| crash | `internal` | false |', thrown: () => new TypeError('x is not a function'), failure: { code: 'internal', retryable: false } },
    {
      row: '| another rule | its `failure.code`, else its `name` | its `failure.retryable`; true when it gives a delay |',
      thrown: () => Object.assign(new Error('quota'), { name: 'QuotaError' }),
      options: { rules: [{ name: 'quota', predicate: (e) => (e as Error).name === 'QuotaError', failure: { retryAfterMs: 5000 } }, ...coreRules] },
      failure: { code: 'quota', retryable: true, retryAfterMs: 5000 },
    },
    {
      row: '| another rule | its `failure.code`, else its `name` | its `failure.retryable`; true when it gives a delay |',
      thrown: () => Object.assign(new Error('quota'), { name: 'QuotaError' }),
      options: { rules: [{ name: 'quota', predicate: (e) => (e as Error).name === 'QuotaError', failure: { code: 'quota_spent', retryable: true } }, ...coreRules] },
      failure: { code: 'quota_spent', retryable: true },
    },
    { row: '| refused while `degraded` | `auth_required` | false |', thrown: () => new Error('not run'), options: { degraded: () => 'Not signed in' }, failure: { code: 'auth_required', retryable: false } },
  ];

  it.each(rows)('docs/agents.md, row $row: $failure.code', async (row) => {
    docSays('docs/agents.md', row.row);
    const { value, records } = await run(throwing('t', row.thrown), call('t'), row.options);
    expect(failureOf(value)).toEqual(row.failure);
    expect((value._meta?.[FAILURE_KEY] as { correlationId?: string }).correlationId).toBe(records[0]?.correlationId);
  });

  it('docs/agents.md, the `busy()` example: "Error executing tool <name>: The sheet is being recalculated. Retry after 30 s."', async () => {
    docSays('docs/agents.md', '// client text: "Error executing tool <name>: The sheet is being recalculated. Retry after 30 s."');
    const { value } = await run(throwing('t', () => new ToolError('The sheet is being recalculated', { code: 'recalculating', retryAfterMs: 30_000 })), call('t'));
    expect(textOf(value)).toBe('Error executing tool t: The sheet is being recalculated. Retry after 30 s.');
  });

  it.each([
    { status: 401, code: 'unauthorized', retryable: false },
    { status: 403, code: 'permission_denied', retryable: false },
    { status: 404, code: 'not_found', retryable: false },
    { status: 409, code: 'conflict', retryable: false },
    { status: 429, code: 'rate_limited', retryable: true, retryAfterMs: 30_000 },
    { status: 408, code: 'timeout', retryable: true },
    { status: 503, code: 'unavailable', retryable: true, retryAfterMs: 30_000 },
    { status: 500, code: 'server_error', retryable: true },
    { status: 400, code: 'invalid_request', retryable: false },
  ])('docs/agents.md, row "core rule `http-status`": $status is `$code`, retryable $retryable', async ({ status, code, retryable, retryAfterMs }) => {
    docSays('docs/agents.md', '| core rule `http-status` | from the status: `unauthorized`, `permission_denied`, `not_found`, `conflict`, `rate_limited`, `timeout`, `unavailable`, `server_error`, `invalid_request` | 408, 429, 5xx and 403 rate limits |');
    const { value } = await run(throwing('t', () => responseOf(`/status/${status}`)), call('t'));
    expect(failureOf(value)).toEqual({ code, retryable, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
  });

  it('docs/agents.md, row "core rule `http-status`": a 403 rate limit is retryable', async () => {
    docSays('docs/agents.md', '408, 429, 5xx and 403 rate limits');
    const { value } = await run(throwing('t', () => responseOf('/limited')), call('t'));
    expect(failureOf(value)).toEqual({ code: 'rate_limited', retryable: true, retryAfterMs: 120_000 });
  });

  it('docs/agents.md, "Protocol errors carry no object"', async () => {
    docSays('docs/agents.md', 'Protocol errors carry no object;');
    const { value } = await run(throwing('t', () => new McpError(ErrorCode.InvalidParams, 'no')), call('t'));
    expect(value._meta?.[FAILURE_KEY]).toBeUndefined();
  });
});

describe('docs/agents.md "Sign-in the client can follow"', () => {
  const reauthorize = { text: 'Sign in to continue.', url: 'https://auth.example.com/sign-in' };
  const rules: ErrorRule[] = [{ name: 'revoked', predicate: (error) => (error as Error).name === 'RevokedError', reauthorize: true }, ...coreRules];
  const revoked = () => Object.assign(new Error('Token has been revoked'), { name: 'RevokedError' });

  it('docs/agents.md, row "2025-11-25, declared `capabilities: { elicitation: { url: {} } }`": MCP error -32042 with one URL elicitation, no failure object; 401', async () => {
    docSays('docs/agents.md', '| 2025-11-25, declared `capabilities: { elicitation: { url: {} } }` | MCP error -32042 (`UrlElicitationRequiredError`) with one elicitation `{ mode: \'url\', elicitationId: <correlationId>, url, message }`; no failure object |');
    const { policy, records, outcomes } = capture({ rules, reauthorize });
    const server = applyErrorPolicy(new McpServer({ name: 'doc-tables', version: '1.0.0' }), policy);
    throwing('t', revoked)(server);
    const client = new Client({ name: 'doc-client', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } } });
    const session = await link(server, client, InMemoryTransport.createLinkedPair());
    open.push(session);
    const error = await rpcError(client.callTool({ name: 't', arguments: {} }));
    expect(error.code).toBe(-32042);
    const elicitations = (error.data as { elicitations?: unknown[] }).elicitations;
    expect(elicitations).toEqual([{ mode: 'url', elicitationId: records[0]?.correlationId, url: reauthorize.url, message: expect.any(String) }]);
    expect((error.data as Record<string, unknown>)[FAILURE_KEY]).toBeUndefined();
    expect(outcomes.map((o) => o.status)).toEqual([401]);
  });

  it('docs/agents.md, row "any other client …": the error text, a blank line, the text and the URL', async () => {
    docSays('docs/agents.md', '| any other client, a wrapper without `applyErrorPolicy`, a resource or a prompt | the error text, a blank line, the text and the URL |');
    const { value, outcomes } = await run(throwing('t', revoked), call('t'), { rules, reauthorize });
    expect(textOf(value)).toBe('Error executing tool t: Token has been revoked\n\nSign in to continue. https://auth.example.com/sign-in');
    expect(outcomes.map((o) => o.status)).toEqual([401]);
  });
});

describe('docs/agents.md "Resource not found on SDK v2" and docs/compatibility.md "SDKs, transports and protocol revisions"', () => {
  it('docs/agents.md and docs/compatibility.md: v2 sends -32602 for a missing resource; the v2 client shows the message alone, v1 `MCP error <code>: <message>`', async () => {
    docSays('docs/agents.md', 'SDK v2 sends -32602 for a missing resource, and its client raises `ResourceNotFoundError` only when `error.data` is exactly `{ uri }`: there it carries no failure object');
    docSays('docs/compatibility.md', 'The v1 client shows a JSON-RPC error as `MCP error <code>: <message>`, the v2 client the message alone; v2 sends -32602 for a missing resource');
    const v2 = await import('@modelcontextprotocol/server');
    const { Client: ClientV2 } = await import('@modelcontextprotocol/client');
    const { policy, records } = capture();
    const server = applyErrorPolicy(new v2.McpServer({ name: 'doc-tables', version: '1.0.0' }), policy);
    server.registerResource('budget', 'sheet://budget', {}, async () => {
      throw new ResourceNotFoundError('No sheet named budget');
    });
    server.registerResource('locked', 'sheet://locked', {}, async () => {
      throw new ResourceError('Sheet is locked');
    });
    const session = await link(server, new ClientV2({ name: 'doc-client', version: '1.0.0' }), v2.InMemoryTransport.createLinkedPair());
    open.push(session);
    const missing = await rpcError(session.client.readResource({ uri: 'sheet://budget' }));
    expect(missing).toMatchObject({ code: -32602, message: 'No sheet named budget', data: { uri: 'sheet://budget' } });
    expect(Object.keys(missing.data as object)).toEqual(['uri']);
    expect(records[0]?.correlationId).toMatch(/^[0-9a-f]{12}$/);
    const locked = await rpcError(session.client.readResource({ uri: 'sheet://locked' }));
    expect(locked).toMatchObject({ code: -32603, message: 'Sheet is locked' });

    // v1: the prefix, and -32002 with the object beside `uri`
    const v1 = await run(
      (s) => {
        s.registerResource('budget', 'sheet://budget', {}, async () => {
          throw new ResourceNotFoundError('No sheet named budget');
        });
      },
      (client) => rpcError(client.readResource({ uri: 'sheet://budget' })),
    );
    expect(v1.value).toMatchObject({ code: -32002, message: 'MCP error -32002: No sheet named budget', data: { uri: 'sheet://budget' } });
    expect(failureOf(v1.value)).toEqual({ code: 'resource_not_found', retryable: false });
  });
});

// =================================================================================================================

describe('docs/security.md: a crash\'s fixed texts and the exit gate\'s examples', () => {
  it.each([
    { row: '`Error executing tool <name> (reference <id>)`', kind: 'tool', text: 'MCP error 0: Error executing tool t (reference <id>)' },
    { row: '`Error reading resource <uri> …`', kind: 'resource', text: 'MCP error -32603: Error reading resource sheet://budget (reference <id>)' },
    { row: '`Error getting prompt <name> …`', kind: 'prompt', text: 'MCP error -32603: Error getting prompt summary (reference <id>)' },
    { row: '`Error handling <method> …`', kind: 'completion', text: 'MCP error -32603: Error handling completion/complete (reference <id>)' },
  ])('docs/security.md, "A crash\'s text never reaches the client": $row', async ({ row, kind, text }) => {
    docSays('docs/security.md', row);
    const crash = (): never => {
      throw new TypeError('secret internals');
    };
    const { value, records } = await run(
      (server) => {
        throwing('t', crash)(server);
        server.registerResource('budget', 'sheet://budget', {}, async () => crash());
        server.registerPrompt('summary', { argsSchema: { sheet: z.string() } }, async () => crash());
        server.registerResource('sheets', new ResourceTemplate('sheet://{name}', { list: undefined, complete: { name: () => crash() } }), {}, async () => ({ contents: [] }));
      },
      async (client) => {
        switch (kind) {
          case 'tool':
            return `MCP error 0: ${textOf(await call('t')(client))}`;
          case 'resource':
            return (await rpcError(client.readResource({ uri: 'sheet://budget' }))).message;
          case 'prompt':
            return (await rpcError(client.getPrompt({ name: 'summary', arguments: { sheet: 'x' } }))).message;
          default:
            return (await rpcError(client.complete({ ref: { type: 'ref/resource', uri: 'sheet://{name}' }, argument: { name: 'name', value: 'b' } }))).message;
        }
      },
    );
    expect(value).toMatch(asWritten(text));
    expect(value).not.toContain('secret internals');
    expect(only(records)).toMatchObject({ level: 'error', kind: 'crash' });
    expect(value).toContain(`(reference ${String(records[0]?.reference)})`);
  });

  it('docs/security.md, the exit gate step 4: an upstream 5xx answer in an own message is cut after the status', async () => {
    docSays('docs/security.md', '`Ticketing API error 500 Internal Server Error on GET …: PG::ConnectionBad …` is shown as `Ticketing API error 500 Internal Server Error.`');
    const { value } = await run(
      throwing('t', () => new Error('Ticketing API error 500 Internal Server Error on GET https://tickets.example.com/t/9: PG::ConnectionBad could not connect')),
      call('t'),
      { rules: [ownHere(), ...coreRules] },
    );
    expect(textOf(value)).toBe('Error executing tool t: Ticketing API error 500 Internal Server Error.');
  });

  it('docs/security.md, the exit gate step 2: a ToolError whose text carries a crash is answered as a crash, `error`, the stack, `withheld`', async () => {
    docSays('docs/security.md', 'its record at `error` with the stack and `withheld` saying why');
    const { value, records } = await run(throwing('t', () => new ToolError("Cannot read properties of undefined (reading 'rows')")), call('t'));
    expect(textOf(value)).toMatch(asWritten('Error executing tool t (reference <id>)'));
    expect(only(records)).toMatchObject({ level: 'error', stack: true });
    expect(records[0]).toHaveProperty('withheld');
  });

  it('docs/security.md, the exit gate step 3: a host the caller sent is shown back; a directory on its own stays', async () => {
    docSays('docs/security.md', 'it is in the call\'s arguments: `Cannot fetch http://10.0.0.9:8080/report`) is shown back to it');
    docSays('docs/security.md', "filesystem's `… not in /srv/allowed` stays as written");
    const sent = await run(throwing('t', (arg) => new ToolError(`Cannot fetch ${arg ?? ''}`)), call('t', 'http://10.0.0.9:8080/report'));
    expect(textOf(sent.value)).toBe('Error executing tool t: Cannot fetch http://10.0.0.9:8080/report');
    const dir = await run(throwing('t', () => new ToolError('Access denied - path outside allowed directories: /etc/x not in /srv/allowed')), call('t'));
    expect(textOf(dir.value)).toBe('Error executing tool t: Access denied - path outside allowed directories: /etc/x not in /srv/allowed');
  });
});

describe('docs/adopting.md', () => {
  it('docs/adopting.md, step 2: `Error executing tool open_nodes: Entity with name Ada not found`, one `info` line', async () => {
    docSays('docs/adopting.md', '`Error executing tool open_nodes: Entity with name Ada not found`, one `info` line.');
    const { value, records } = await run(throwing('open_nodes', () => new ToolError('Entity with name Ada not found')), call('open_nodes'));
    expect(textOf(value)).toBe('Error executing tool open_nodes: Entity with name Ada not found');
    expect(only(records)).toMatchObject({ level: 'info', stack: false });
  });

  it('docs/adopting.md, step 4: without such rules, the core `http-status` shows a class with `status` and `headers` by its status alone; one without headers is masked', async () => {
    docSays('docs/adopting.md', "the core's `http-status` takes a class with `status` and `headers` and shows its status alone (`HTTP request failed with status 409`), and one without headers is masked");
    class TicketApiError extends Error {
      constructor(
        readonly status: number,
        message: string,
        readonly headers?: Record<string, string>,
      ) {
        super(message);
        this.name = 'TicketApiError';
      }
    }
    const withHeaders = await run(throwing('t', () => new TicketApiError(409, 'Ticket TCK-1 is already closed', {})), call('t'));
    const without = await run(throwing('t', () => new TicketApiError(409, 'Ticket TCK-1 is already closed')), call('t'));
    expect(textOf(withHeaders.value)).toBe('Error executing tool t: HTTP request failed with status 409');
    expect(textOf(without.value)).toMatch(asWritten('Error executing tool t (reference <id>)'));
  });
});

// =================================================================================================================

describe('docs/google.md "What the client sees"', () => {
  const REAUTHORIZE = 'Sign in again: run `drive-mcp login`.';
  /** Google's API host, whose requests gaxios's fetch hands to the fake Google on 127.0.0.1. */
  const GOOGLE = 'https://sheets.googleapis.com';
  let fake: FakeGoogle;
  let env: { restore: () => void };
  type Request = (options: Record<string, unknown>) => Promise<unknown>;
  let gaxios: Request;
  let gal: GalModule;

  beforeAll(async () => {
    fake = await startFakeGoogle();
    env = isolateGoogleEnvironment(new URL(fake.origin).host);
    const module = (await import('gaxios7')) as unknown as { request: Request };
    const toFake: typeof fetch = (input, init) => fetch(String(input instanceof Request ? input.url : input).replace(GOOGLE, fake.origin), init);
    gaxios = (options) => module.request({ retry: false, fetchImplementation: toFake, ...options });
    gal = (await import('google-auth-library10')) as unknown as GalModule;
  });
  afterAll(async () => {
    env.restore();
    await fake.close();
  });

  interface GoogleRow {
    readonly rule: string;
    readonly thrown: () => Promise<unknown>;
    /** the client text, as the doc writes it (`…` any text) */
    readonly text: string;
    readonly status: number;
    readonly failure: Record<string, unknown>;
    readonly level?: string;
    /** what the doc's row says, where the run's text is not the doc's example */
    readonly doc?: string;
  }
  const caught = (promise: () => Promise<unknown>) => () => promise().then(() => new Error('expected a failure'), (error: unknown) => error);
  const rows: GoogleRow[] = [
    {
      rule: 'google-missing-credentials',
      thrown: caught(async () => (await new gal.GoogleAuth({ keyFile: '/nonexistent/doc-tables/key.json' }).getClient()).getAccessToken()),
      text: 'Unable to read the Google credential file: … (ENOENT).',
      status: 500,
      failure: { code: 'missing_credentials', retryable: false },
    },
    {
      rule: 'google-sign-in-required',
      thrown: caught(() => new gal.OAuth2Client({ clientId: 'c.apps.googleusercontent.com' }).getAccessToken()),
      text: `No refresh token or refresh handler callback is set.\n\n${REAUTHORIZE}`,
      status: 401,
      failure: { code: 'sign_in_required', retryable: false },
    },
    {
      rule: 'google-credential-config',
      thrown: caught(() => serviceAccount(gal, fake.url('/token/invalid_jwt')).getAccessToken()),
      text: "Google authorization failed (invalid_grant): Invalid JWT Signature. The service account's key was refused: …; signing in again will not help.",
      status: 500,
      failure: { code: 'invalid_grant', retryable: false },
    },
    {
      rule: 'google-oauth-refresh',
      thrown: caught(() => requestWithRevokedRefreshToken(gal, fake)),
      text: `Google authorization failed (invalid_grant): Token has been expired or revoked.\n\n${REAUTHORIZE}`,
      status: 401,
      failure: { code: 'invalid_grant', retryable: false },
    },
    {
      rule: 'google-unauthenticated',
      thrown: caught(() => gaxios({ url: `${GOOGLE}/v1/unauthenticated` })),
      text: `Request had invalid authentication credentials. … (401 UNAUTHENTICATED from Google API GET https://…)\n\n${REAUTHORIZE}`,
      status: 401,
      failure: { code: 'unauthenticated', retryable: false },
    },
    {
      rule: 'google-insufficient-scopes',
      thrown: caught(() => gaxios({ url: `${GOOGLE}/v1/scopes` })),
      text: `Request had insufficient authentication scopes. (403 PERMISSION_DENIED …)\n\n${REAUTHORIZE}`,
      status: 401,
      failure: { code: 'access_token_scope_insufficient', retryable: false },
    },
    {
      rule: 'google-quota',
      thrown: caught(() => gaxios({ url: `${GOOGLE}/v1/quota` })),
      text: 'Quota exceeded … (429 RESOURCE_EXHAUSTED RATE_LIMIT_EXCEEDED from Google API GET https://…). Retry after 30 s.',
      status: 429,
      failure: { code: 'rate_limit_exceeded', retryable: true, retryAfterMs: 30_000 },
    },
    {
      rule: 'google-api-error',
      thrown: caught(() => gaxios({ url: `${GOOGLE}/v1/forbidden?key=${API_KEY}` })),
      text: 'The caller does not have permission (403 PERMISSION_DENIED from Google API GET https://…/v1/forbidden?key=[REDACTED])',
      doc: '`The caller does not have permission (403 PERMISSION_DENIED from Google API GET https://…/files/1AbC?key=[REDACTED])`',
      status: 403,
      failure: { code: 'permission_denied', retryable: false },
    },
    {
      rule: 'google-api-error',
      thrown: caught(() => gaxios({ url: `${GOOGLE}/html502` })),
      text: 'Bad Gateway (502 from …)',
      status: 502,
      failure: { code: 'unavailable', retryable: true },
    },
    {
      rule: 'google-api-error',
      thrown: caught(() => gaxios({ url: `${GOOGLE}/v1/missing` })),
      text: 'File not found: 1AbCdEf. (404 NOT_FOUND from Google API GET https://…)',
      status: 404,
      failure: { code: 'not_found', retryable: false },
      level: 'info',
      doc: 'an API error the caller caused (`google-api-error` with 400, 404, 409, 410, 412 or 422) is one `info` line, without the stack',
    },
    {
      rule: 'google-timeout',
      thrown: caught(() => gaxios({ url: `${GOOGLE}/slow?ms=5000`, timeout: 20 })),
      text: 'The Google API request timed out.',
      status: 504,
      failure: { code: 'timeout', retryable: true },
    },
    {
      rule: 'google-abort',
      thrown: caught(() => {
        const controller = new AbortController();
        const pending = gaxios({ url: `${GOOGLE}/slow?ms=5000`, signal: controller.signal });
        setTimeout(() => controller.abort(), 10);
        return pending;
      }),
      text: 'The Google API request was aborted.',
      doc: '`The Google API request timed out.` / `… was aborted.`',
      status: 499,
      failure: { code: 'aborted', retryable: false },
    },
    {
      rule: 'google-network',
      thrown: caught(() => gaxios({ url: closed })),
      text: 'Network error while calling the Google API (ECONNREFUSED).',
      status: 502,
      failure: { code: 'network', retryable: true, upstream: 'unreached' },
    },
  ];

  it.each(rows)('docs/google.md, row `$rule`: $text', async (row) => {
    docSays('docs/google.md', ['google-timeout', 'google-abort'].includes(row.rule) ? '| `google-timeout` / `google-abort` |' : `| \`${row.rule}\` |`);
    docSays('docs/google.md', row.doc ?? `\`${row.text.replace(`\n\n${REAUTHORIZE}`, '`')}`.replace(/``$/, '`'));
    const { value, records, outcomes } = await run(throwing('t', row.thrown), call('t'), { rules: [...googleRules, ...coreRules], reauthorize: REAUTHORIZE });
    expect(textOf(value)).toMatch(asWritten(`Error executing tool t: ${row.text}`));
    expect(failureOf(value)).toEqual(row.failure);
    const level = row.level ?? 'warn';
    expect(only(records)).toMatchObject({ rule: row.rule, status: row.status, level, stack: level === 'warn' });
    expect(outcomes.map((o) => o.status)).toEqual([row.status]);
    expect(JSON.stringify([value, records])).not.toContain(API_KEY);
  });

  it('docs/google.md, "for an HTTP failure, `httpMethod`, `httpUrl`, `httpStatus`"', async () => {
    docSays('docs/google.md', 'All log at `warn` with the stack and, for an HTTP failure, `httpMethod`, `httpUrl`, `httpStatus`');
    const { records } = await run(throwing('t', caught(() => gaxios({ url: `${GOOGLE}/v1/forbidden?key=${API_KEY}` }))), call('t'), { rules: [...googleRules, ...coreRules] });
    expect(records[0]).toMatchObject({ httpMethod: 'GET', httpUrl: `${GOOGLE}/v1/forbidden?key=[REDACTED]`, httpStatus: 403 });
  });
});

// =================================================================================================================

describe('docs/http.md "What the client sees" (axios, the `HTTP` service)', () => {
  const REAUTHORIZE = 'Check the API token in the server configuration.';
  /** A public-looking host whose name axios resolves to the local service. */
  const HOST = 'api.example.com';
  let origin: string;
  beforeAll(() => {
    origin = `http://${HOST}:${new URL(service.url).port}`;
  });

  /** What axios throws for `path` on the local service, called as `HOST`. */
  async function axiosAt(path: string, config: Record<string, unknown> = {}): Promise<unknown> {
    const { default: axios } = await import('axios');
    const lookup = (_host: string, _options: object, done: (error: null, address: string, family: 4 | 6) => void) => done(null, '127.0.0.1', 4);
    return axios.get(`${origin}${path}`, { lookup, ...config }).then(
      () => new Error('expected a failure'),
      (error: unknown) => error,
    );
  }

  interface HttpRow {
    readonly row: string;
    readonly path: string;
    readonly config?: Record<string, unknown>;
    readonly text: string;
    readonly failure: Record<string, unknown>;
    readonly status: number;
    readonly level: string;
  }
  const rows: HttpRow[] = [
    { row: '| 401 (and AWS credential errors) |', path: '/status/401', text: `HTTP GET http://api.example.com:…/status/401 failed with 401 Unauthorized: Credentials rejected: status 401 body: internal detail\n\n${REAUTHORIZE}`, failure: { code: 'unauthorized', retryable: false }, status: 401, level: 'warn' },
    { row: '| 403 | `… failed with 403 Forbidden', path: '/status/403', text: 'HTTP GET http://api.example.com:…/status/403 failed with 403 Forbidden: Access denied: status 403 body: internal detail', failure: { code: 'permission_denied', retryable: false }, status: 403, level: 'warn' },
    { row: '| 403 rate limit |', path: '/limited', text: 'HTTP GET http://api.example.com:…/limited failed with 403 Forbidden: API rate limit exceeded for user ID 1. Retry after 120 s.', failure: { code: 'rate_limited', retryable: true, retryAfterMs: 120_000 }, status: 403, level: 'warn' },
    { row: '| 404, 410 |', path: '/status/404', text: 'HTTP GET http://api.example.com:…/status/404 failed with 404 Not Found: status 404 body: internal detail', failure: { code: 'not_found', retryable: false }, status: 404, level: 'info' },
    { row: '| 404, 410 |', path: '/status/410', text: 'HTTP GET http://api.example.com:…/status/410 failed with 410 Gone: status 410 body: internal detail', failure: { code: 'not_found', retryable: false }, status: 410, level: 'info' },
    { row: '| 400, 409, 422, other 4xx |', path: '/status/400', text: 'HTTP GET http://api.example.com:…/status/400 failed with 400 Bad Request: status 400 body: internal detail', failure: { code: 'invalid_request', retryable: false }, status: 400, level: 'info' },
    { row: '| 400, 409, 422, other 4xx |', path: '/status/409', text: 'HTTP GET http://api.example.com:…/status/409 failed with 409 Conflict: status 409 body: internal detail', failure: { code: 'conflict', retryable: false }, status: 409, level: 'info' },
    { row: '| 400, 409, 422, other 4xx |', path: '/status/408', text: 'HTTP GET http://api.example.com:…/status/408 failed with 408 Request Timeout: status 408 body: internal detail', failure: { code: 'timeout', retryable: true }, status: 408, level: 'warn' },
    { row: '| 429 |', path: '/status/429', text: 'HTTP GET http://api.example.com:…/status/429 failed with 429 Too Many Requests: status 429 body: internal detail. Retry after 30 s.', failure: { code: 'rate_limited', retryable: true, retryAfterMs: 30_000 }, status: 429, level: 'warn' },
    { row: '| 502, 503, 504, 529 |', path: '/status/502', text: 'HTTP GET http://api.example.com:…/status/502 failed with 502 Bad Gateway: The service failed to answer', failure: { code: 'unavailable', retryable: true }, status: 502, level: 'warn' },
    { row: '| 502, 503, 504, 529 |', path: '/status/504', text: 'HTTP GET http://api.example.com:…/status/504 failed with 504 Gateway Timeout: The service failed to answer', failure: { code: 'unavailable', retryable: true }, status: 504, level: 'warn' },
    // an upstream 5xx body is never shown, a 503's either
    { row: '| 502, 503, 504, 529 |', path: '/status/503', text: 'HTTP GET http://api.example.com:…/status/503 failed with 503 Service Unavailable: The service failed to answer. Retry after 30 s.', failure: { code: 'unavailable', retryable: true, retryAfterMs: 30_000 }, status: 503, level: 'warn' },
    { row: '| other 5xx |', path: '/status/500', text: 'HTTP GET http://api.example.com:…/status/500 failed with 500 Internal Server Error: The service failed to answer', failure: { code: 'server_error', retryable: true }, status: 500, level: 'warn' },
    { row: '| timeout | `The HTTP request timed out.` (axios)', path: '/hang', config: { timeout: 20 }, text: 'The HTTP request timed out.', failure: { code: 'timeout', retryable: true }, status: 504, level: 'warn' },
  ];

  it.each(rows)('docs/http.md, row $row ($path)', async (row) => {
    docSays('docs/http.md', row.row);
    const { value, records, outcomes } = await run(throwing('t', () => axiosAt(row.path, row.config)), call('t'), { rules: [...httpRules, ...coreRules], reauthorize: REAUTHORIZE });
    expect(textOf(value)).toMatch(asWritten(`Error executing tool t: ${row.text}`));
    expect(failureOf(value)).toEqual(row.failure);
    expect(only(records)).toMatchObject({ status: row.status, level: row.level, stack: row.level === 'warn' });
    expect(outcomes.map((o) => o.status)).toEqual([row.status]);
  });

  it('docs/http.md, row "refused, reset, DNS": the core `Network error: connection refused (ECONNREFUSED)`', async () => {
    docSays('docs/http.md', '| refused, reset, DNS | the core `Network error: connection refused (ECONNREFUSED)`');
    const { default: axios } = await import('axios');
    const { value, records } = await run(throwing('t', () => axios.get(closed).catch((e: unknown) => e)), call('t'), { rules: [...httpRules, ...coreRules] });
    expect(textOf(value)).toBe('Error executing tool t: Network error: connection refused (ECONNREFUSED)');
    expect(failureOf(value)).toEqual({ code: 'network', retryable: true, upstream: 'unreached' });
    expect(only(records)).toMatchObject({ status: 502, level: 'warn' });
  });
});

/**
 * The new user's server: axios loaded as CommonJS (`require('axios')`), a real McpServer under the one line alone
 * (`applyErrorPolicy(server)`, the default policy and its stderr logger), the real SDK Client over InMemoryTransport,
 * and a fake API on 127.0.0.1. Each HTTP failure is anticipated by the core `http-status` rule: the client sees the
 * status and, for 429 and 503, when to retry, never the body, the service's message, the URL or the loopback host; the
 * caller's 404 is one line at info, the others warn with their stack. Then the same server with `httpRules`, whose texts
 * add the method and the path but not the host, for a loopback address and for a single-label name (`billing`, mapped
 * to 127.0.0.1 by axios's `lookup` option), and a public-looking name (`api.example.com`, mapped the same way), whose
 * host is shown as before.
 */
import { createServer, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AxiosRequestConfig, AxiosStatic } from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyErrorPolicy, coreRules, createErrorPolicy, type LogRecord } from '../../src/index.js';
import { httpRules } from '../../src/http/index.js';
import { withStderr } from '../support/calls.js';
import { listenOnLoopback, type Listening } from '../support/loopback.js';
import { connect, textOf, type Session } from '../http/support/session.js';
import { FAILURE_KEY } from '../http/support/table.js';

const axios = createRequire(import.meta.url)('axios') as AxiosStatic;

/** In every body the fake sends: no answer under the core rules may hold it (`httpRules` show a JSON body's message). */
const BODY_CANARY = 'BODY-CANARY-internal-detail-7f3a';
/** The API key the tools send in the query. */
const API_KEY = 'PLANTEDkeyVALUE0123456789';

/** The fake's answers, by item id. */
function answer(id: string, res: ServerResponse): void {
  const json = (status: number, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ error: { message: `${BODY_CANARY} for ${id}`, code: 'E_FAKE' } }));
  };
  const html = (status: number, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'content-type': 'text/html', ...headers }).end(`<html><body><h1>${BODY_CANARY}</h1></body></html>`);
  };
  switch (id) {
    case 'missing':
      return json(404);
    case 'invalid':
      return json(422);
    case 'busy':
      return json(429, { 'retry-after': '30' });
    case 'broken':
      return json(500);
    case 'gateway':
      return html(502);
    case 'maintenance':
      return html(503, { 'retry-after': '45' });
    case 'page':
      return html(200);
    default:
      return json(200);
  }
}

/** A server whose one tool gets an item through axios from `base` (with `lookup`, where given), under `policy` or the one line alone. */
function itemServer(base: string, options: { rules?: 'http'; lookup?: AxiosRequestConfig['lookup'] } = {}): { server: McpServer; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const server = new McpServer({ name: 'items', version: '1.0.0' });
  if (options.rules === 'http') applyErrorPolicy(server, createErrorPolicy({ rules: [...httpRules, ...coreRules], logger: (record) => records.push(record) }));
  else applyErrorPolicy(server);
  server.registerTool('get_item', { inputSchema: { id: z.string() } }, async ({ id }) => {
    const { data } = await axios.get<unknown>(`${base}/items/${id}?api_key=${API_KEY}`, {
      responseType: 'json',
      transitional: { silentJSONParsing: false, forcedJSONParsing: true, clarifyTimeoutError: false },
      ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
    });
    return { content: [{ type: 'text' as const, text: JSON.stringify(data) }] };
  });
  return { server, records };
}

/** Resolves every name to 127.0.0.1: the requests never leave the loopback interface. */
const toLoopback: AxiosRequestConfig['lookup'] = (_host, _options, cb) => cb(null, '127.0.0.1', 4);

describe('axios (CommonJS) under the one line alone: status and retry delay, never a crash, body or host', () => {
  let fake: Listening;
  let session: Session;

  beforeAll(async () => {
    fake = await listenOnLoopback(createServer((req, res) => answer(/\/items\/([a-z]+)/.exec(req.url ?? '')?.[1] ?? '', res)));
    session = await connect(itemServer(fake.origin).server);
  });

  afterAll(async () => {
    await session.close();
    await fake.close();
  });

  const ROWS = [
    ['missing', 'HTTP request failed with status 404', { code: 'not_found', retryable: false }, 'info'],
    ['invalid', 'HTTP request failed with status 422', { code: 'invalid_request', retryable: false }, 'info'],
    ['busy', 'HTTP request failed with status 429. Retry after 30 s.', { code: 'rate_limited', retryable: true, retryAfterMs: 30_000 }, 'warn'],
    ['broken', 'HTTP request failed with status 500', { code: 'server_error', retryable: true }, 'warn'],
    ['gateway', 'HTTP request failed with status 502', { code: 'unavailable', retryable: true }, 'warn'],
    ['maintenance', 'HTTP request failed with status 503. Retry after 45 s.', { code: 'unavailable', retryable: true, retryAfterMs: 45_000 }, 'warn'],
  ] as const;

  it.each(ROWS)('%s: %s', async (id, text, failure, level) => {
    const { value: result, written } = await withStderr(() => session.client.callTool({ name: 'get_item', arguments: { id } }));
    expect({ isError: result.isError, text: textOf(result) }).toEqual({ isError: true, text: `Error executing tool get_item: ${text}` });
    const meta = (result._meta ?? {}) as Record<string, { correlationId?: string }>;
    expect(meta[FAILURE_KEY]).toEqual({ ...failure, correlationId: expect.stringMatching(/^[0-9a-f]{12}$/) });
    // One record on stderr, at the level of its kind: the caller's 4xx one line without a stack, the rest with it.
    const log = written.join('');
    const lines = log.trimEnd().split('\n');
    const code = /status (\d{3})/.exec(text)?.[1];
    const head = `[mcp-error-policy] ${level.toUpperCase()} tool "get_item" failed`;
    const correlation = `(correlation ${meta[FAILURE_KEY]?.correlationId ?? 'none'})`;
    // With strict JSON parsing, axios throws the parser's error (its name kept) for any HTML page, whatever the status.
    const thrown = ['gateway', 'maintenance'].includes(id)
      ? `SyntaxError ${JSON.stringify(`Unexpected token '<', "<html><bod"... is not valid JSON`)}`
      : `AxiosError "Request failed with status code ${code ?? ''}"`;
    expect(lines[0]).toBe(`${head} (rule http-status: status ${code ?? ''}): ${thrown} ${correlation}`);
    if (level === 'info') expect(lines).toHaveLength(1);
    else expect(lines.slice(1).some((line) => /^\s+at /.test(line))).toBe(true);
    // The wire holds no body, no loopback host or port, no key.
    const wire = JSON.stringify(result);
    for (const leak of [BODY_CANARY, '127.0.0.1', String(fake.port), API_KEY, 'E_FAKE']) expect(wire).not.toContain(leak);
    expect(log).not.toContain(API_KEY);
  });

  it('an HTML page sent with 200 is no HTTP status failure: a crash under the core rules (httpRules read it), its page unseen', async () => {
    const { value: result, written } = await withStderr(() => session.client.callTool({ name: 'get_item', arguments: { id: 'page' } }));
    expect({ isError: result.isError, text: textOf(result) }).toEqual({ isError: true, text: expect.stringMatching(/^Error executing tool get_item \(reference [0-9a-f]{12}\)$/) });
    expect(written.join('')).toMatch(/^\[mcp-error-policy\] ERROR tool "get_item" crashed/);
    expect(JSON.stringify(result)).not.toContain(BODY_CANARY);
  });
});

describe('with httpRules: the method and the path, never an internal host', () => {
  let fake: Listening;
  const sessions: Session[] = [];
  const records: LogRecord[] = [];

  beforeAll(async () => {
    fake = await listenOnLoopback(createServer((req, res) => answer(/\/items\/([a-z]+)/.exec(req.url ?? '')?.[1] ?? '', res)));
  });

  afterAll(async () => {
    for (const session of sessions) await session.close();
    await fake.close();
  });

  async function call(base: string, id: string): Promise<{ text: string; record: LogRecord | undefined }> {
    const made = itemServer(base, { rules: 'http', lookup: toLoopback });
    const session = await connect(made.server);
    sessions.push(session);
    const result = await session.client.callTool({ name: 'get_item', arguments: { id } });
    records.push(...made.records);
    expect(made.records).toHaveLength(1);
    return { text: textOf(result), record: made.records[0] };
  }

  it.each([
    ['a loopback address', () => fake.origin],
    ['a single-label name', () => `http://billing:${fake.port}`],
    ['a name with a port only', () => `http://api:${fake.port}`],
    ['a name under .internal', () => `http://orders.svc.internal:${fake.port}`],
  ])('%s: the text shows the path; the record keeps the URL', async (_, base) => {
    const { text, record } = await call(base(), 'missing');
    expect(text).toBe(`Error executing tool get_item: HTTP GET /items/missing?api_key=[REDACTED] failed with 404 Not Found (E_FAKE): ${BODY_CANARY} for missing`);
    expect(record).toMatchObject({ level: 'info', rule: 'axios-http-error', httpUrl: `${base()}/items/missing?api_key=[REDACTED]`, httpStatus: 404 });
    expect(record?.stack).toBeUndefined();
  });

  it('a public name keeps its host, as before', async () => {
    const base = `http://api.example.com:${fake.port}`;
    const { text, record } = await call(base, 'busy');
    expect(text).toBe(`Error executing tool get_item: HTTP GET ${base}/items/busy?api_key=[REDACTED] failed with 429 Too Many Requests (E_FAKE): ${BODY_CANARY} for busy. Retry after 30 s.`);
    expect(record).toMatchObject({ level: 'warn', rule: 'axios-http-error', httpStatus: 429 });
    expect(record?.stack).toMatch(/\n\s+at /);
  });

  it('an HTML page sent with 200: the method and path, what it most likely was, never the page', async () => {
    const { text, record } = await call(`http://billing:${fake.port}`, 'page');
    expect(text).toBe("Error executing tool get_item: HTTP GET /items/page?api_key=[REDACTED] failed: The service's answer was not JSON (most likely a proxy's or gateway's error page)");
    expect(record).toMatchObject({ level: 'warn', rule: 'axios-http-error', status: 502 });
    expect(JSON.stringify(records)).not.toContain(API_KEY);
    expect(text).not.toContain('<h1>');
  });
});

/**
 * The retry delay survives wherever a `Retry-After` (or a rate limit's reset) is readable, under the core rules alone:
 * a real McpServer whose tools call a fake API on 127.0.0.1 with real clients (fetch, axios, `node:http`) and throw
 * what servers throw with the answer (the Response attached, `{ status, headers }` with the headers as a `Headers`, a
 * `Map` or a plain object in the server's case (`Retry-After`), the status on the error and the headers on its `response`,
 * a `ToolError` whose cause holds the answer), answered to the real SDK Client. Each answer's text ends with
 * `Retry after N s.` and its failure object carries the delay. The fake writes its own `Date` header, from which an
 * HTTP-date `Retry-After` and an epoch `x-ratelimit-reset` are counted: the delays are exact.
 */
import { createServer, get, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AxiosStatic } from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyErrorPolicy, ToolError, type LogRecord } from '../../src/index.js';
import { retryAfterMsOf } from '../../src/kit/http.js';
import { capture, FAILURE_KEY, REFERENCE, textOf } from '../support/calls.js';
import { listenOnLoopback, type Listening } from '../support/loopback.js';
import { connect, newServer, type Session } from '../support/session.js';

const axios = createRequire(import.meta.url)('axios') as AxiosStatic;

/** The time the fake says it answered (its `Date` header). */
const SENT = Date.UTC(2026, 0, 5, 12, 0, 0);

/** The fake's answers, by path: status and headers, written in the case given (Node sends them as written). */
const ANSWERS: Readonly<Record<string, { status: number; headers: Record<string, string> }>> = {
  '/seconds': { status: 429, headers: { 'Retry-After': '30' } },
  '/date': { status: 429, headers: { 'Retry-After': new Date(SENT + 45_000).toUTCString() } },
  '/reset': { status: 429, headers: { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(SENT / 1000 + 20) } },
  '/maintenance': { status: 503, headers: { 'Retry-After': '120' } },
};

function answer(req: IncomingMessage, res: ServerResponse): void {
  const found = ANSWERS[req.url ?? ''] ?? { status: 200, headers: {} };
  res.sendDate = false;
  res.writeHead(found.status, { Date: new Date(SENT).toUTCString(), 'Content-Type': 'application/json', ...found.headers }).end('{"message":"slow down"}');
}

/** A GET through `node:http`: the answer's status and its headers as sent, names in the server's case (`rawHeaders`). */
function rawGet(url: string): Promise<{ statusCode: number; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      res.resume();
      const headers: Record<string, string> = {};
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers[res.rawHeaders[i]!] = res.rawHeaders[i + 1]!;
      resolve({ statusCode: res.statusCode ?? 0, headers });
    }).on('error', reject);
  });
}

/** The server's own error class for a failed answer: the status on it, the headers on its `response`. */
class UpstreamError extends Error {
  constructor(
    readonly status: number,
    readonly response: { readonly headers: Headers },
  ) {
    super(`upstream answered ${status}`);
    this.name = 'UpstreamError';
  }
}

let fake: Listening;
let session: Session;
let records: LogRecord[];

beforeAll(async () => {
  fake = await listenOnLoopback(createServer(answer));
  const observed = capture();
  records = observed.records;
  const server = applyErrorPolicy(newServer(), observed.policy);
  const url = (path: string): string => `${fake.origin}${path}`;
  const tools: Record<string, () => Promise<never>> = {
    // fetch: the Response attached to the server's Error
    fetch_response: async () => {
      const response = await fetch(url('/seconds'));
      throw Object.assign(new Error(`GET ${response.url} failed`), { response });
    },
    // fetch: `{ status, headers }` copied onto the Error, the headers a `Headers`; an HTTP-date Retry-After
    fetch_headers_date: async () => {
      const { status, headers } = await fetch(url('/date'));
      throw Object.assign(new Error('rate limited'), { status, headers });
    },
    // node:http: the headers as a Map in the server's case (`X-RateLimit-Reset`), a spent limit's reset only
    http_map_reset: async () => {
      const { statusCode, headers } = await rawGet(url('/reset'));
      throw Object.assign(new Error('rate limited'), { status: statusCode, headers: new Map(Object.entries(headers)) });
    },
    // node:http: `statusCode` and a plain object in the server's case (`Retry-After`)
    http_raw_case: async () => {
      const { statusCode, headers } = await rawGet(url('/seconds'));
      throw Object.assign(new Error('upstream refused'), { statusCode, headers });
    },
    // the server's own class: the status on the error, the headers on its `response`
    own_class: async () => {
      const response = await fetch(url('/maintenance'));
      throw new UpstreamError(response.status, { headers: response.headers });
    },
    // axios: a spent limit's reset only (no Retry-After)
    axios_reset: async () => {
      await axios.get(url('/reset'));
      throw new Error('unreachable');
    },
    // a ToolError whose cause holds the answer: the deliberate text, and the delay
    tool_error_cause: async () => {
      const { status, headers } = await fetch(url('/seconds'));
      throw new ToolError('The sheet service is busy', { cause: Object.assign(new Error('rate limited'), { status, headers }) });
    },
  };
  for (const [name, fn] of Object.entries(tools)) server.registerTool(name, {}, fn);
  session = await connect(server);
});

afterAll(async () => {
  await session.close();
  await fake.close();
});

describe('the retry delay of a failed answer, wherever its headers are readable', () => {
  it.each([
    ['fetch_response', 'HTTP request failed with status 429. Retry after 30 s.', { code: 'rate_limited', retryable: true, retryAfterMs: 30_000 }],
    ['fetch_headers_date', 'HTTP request failed with status 429. Retry after 45 s.', { code: 'rate_limited', retryable: true, retryAfterMs: 45_000 }],
    ['http_map_reset', 'HTTP request failed with status 429. Retry after 20 s.', { code: 'rate_limited', retryable: true, retryAfterMs: 20_000 }],
    ['http_raw_case', 'HTTP request failed with status 429. Retry after 30 s.', { code: 'rate_limited', retryable: true, retryAfterMs: 30_000 }],
    ['own_class', 'HTTP request failed with status 503. Retry after 120 s.', { code: 'unavailable', retryable: true, retryAfterMs: 120_000 }],
    ['axios_reset', 'HTTP request failed with status 429. Retry after 20 s.', { code: 'rate_limited', retryable: true, retryAfterMs: 20_000 }],
    ['tool_error_cause', 'The sheet service is busy. Retry after 30 s.', { code: 'tool_error', retryable: true, retryAfterMs: 30_000 }],
  ] as const)('%s: %s', async (tool, text, failure) => {
    const before = records.length;
    const result = await session.client.callTool({ name: tool, arguments: {} });
    expect({ isError: result.isError, text: textOf(result) }).toEqual({ isError: true, text: `Error executing tool ${tool}: ${text}` });
    const written = records.slice(before);
    expect(written.map(({ kind, rule }) => ({ kind, rule }))).toEqual([{ kind: 'anticipated', rule: tool === 'tool_error_cause' ? 'deliberate' : 'http-status' }]);
    expect(result._meta?.[FAILURE_KEY]).toEqual({ ...failure, correlationId: written[0]?.correlationId });
    expect(written[0]?.correlationId).toMatch(REFERENCE);
  });
});

describe('the header reader behind it', () => {
  it('reads a name in any case from a plain object, a Map or an array of pairs; a Headers and AxiosHeaders by their own get', () => {
    const forms: unknown[] = [
      { 'Retry-After': '30' },
      { 'retry-after': 30 },
      { 'RETRY-AFTER': ['30', '60'] },
      new Map([['Retry-After', '30']]),
      [['Retry-After', '30']],
      new Headers({ 'Retry-After': '30' }),
      new axios.AxiosHeaders({ 'Retry-After': '30' }),
    ];
    expect(forms.map((headers) => retryAfterMsOf(headers))).toEqual(forms.map(() => 30_000));
  });

  it('reads nothing, and never throws, from what is no headers: an endless or throwing iterator, a revoked Proxy, a name past the first 100', () => {
    const endless = {
      *[Symbol.iterator]() {
        for (;;) yield ['x-other', '1'];
      },
    };
    const throwing = {
      [Symbol.iterator]: () => ({
        next: () => {
          throw new Error('no');
        },
      }),
    };
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const late = Object.fromEntries([...Array.from({ length: 100 }, (_, i) => [`x-filler-${i}`, '1']), ['Retry-After', '30']]);
    for (const headers of [endless, throwing, proxy, late, 'retry-after: 30', null]) expect(retryAfterMsOf(headers)).toBeUndefined();
  });
});

/**
 * Plain fetch: Node's global `fetch` (undici) against the fake services (support/fake-apis.ts, its generic JSON API at
 * `/api/items/<case>`: RFC 9457 problem details, `x-request-id`, `Retry-After`) on 127.0.0.1, from the tools of a real
 * McpServer under `[...httpRules, ...coreRules]`, called by the real SDK Client. A failed Response reaches the policy
 * in each way servers throw it: thrown itself, in an error's `response` (with and without the parsed body as `data`),
 * as an error's `cause` (bare, and with fetch's `init`, whose method the text then names), and inside ofetch's
 * `FetchError`. (The shared per-client table, support/clients.ts, has plain fetch too: a `Request` kept beside the cause.) Each row: the exact client text, the failure object, one
 * log record (level, rule, status, the request) and one access-log outcome (support/table.ts's check). Secrets ride
 * in the query (`access_token`, `api_key`), in the `Authorization` header and in the thrown error's own message; none
 * reaches the wire or a record.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ofetch } from 'ofetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyError, coreRules, createErrorPolicy, withClientVisibleErrors, type LogRecord, type Outcome } from '../../src/index.js';
import { googleRules } from '../../src/google/index.js';
import { httpRules } from '../../src/http/index.js';
import { SECRETS } from './support/clients.js';
import { MESSAGES, REQUEST_IDS, startFakeApis, type FakeApis } from './support/fake-apis.js';
import { failureOf, HTTP_STATUS, REAUTHORIZE, sentence, withRetry, type Expected } from './support/expected.js';
import { connect, type Session } from './support/session.js';
import { checkRow } from './support/table.js';

/** The secrets this file plants: the query's `api_key` (the others are the shared table's). */
const API_KEY = 'PLANTEDfetchAPIkey0123456789abcdef';
const PLANTED = [SECRETS.queryToken, API_KEY, SECRETS.github] as const;

const CASES = ['unauthorized', 'forbidden', 'missing', 'invalid', 'limited', 'unavailable'] as const;
type Case = (typeof CASES)[number];

/** How the tool hands the failed Response to the policy. */
const PLACEMENTS = ['thrown', 'response', 'response-data', 'cause', 'cause-init', 'ofetch'] as const;
type Placement = (typeof PLACEMENTS)[number];

/** The URL each tool fetches: two query credentials around a harmless parameter. */
function urlOf(origin: string, which: string): string {
  return `${origin}/api/items/${which}?access_token=${SECRETS.queryToken}&view=full&api_key=${API_KEY}`;
}

/** The request options: the credential in the `Authorization` header. */
const INIT = { headers: { Authorization: `Bearer ${SECRETS.github}` } };

/** Calls the fake with plain fetch and throws the failed Response the placement's way. */
async function failing(origin: string, which: string, placement: Placement): Promise<never> {
  const url = urlOf(origin, which);
  if (placement === 'ofetch') {
    await ofetch(url, { ...INIT, retry: 0 });
    throw new Error('unreachable: ofetch resolved');
  }
  if (placement === 'cause-init') {
    const init = { ...INIT, method: 'PATCH' };
    const res = await fetch(url, init);
    throw Object.assign(new Error(`PATCH ${url} failed with ${res.status}`, { cause: res }), { init });
  }
  const res = await fetch(url, INIT);
  if (res.ok) throw new Error('unreachable: the fake answered 2xx');
  switch (placement) {
    case 'thrown':
      throw res;
    case 'response':
      throw Object.assign(new Error(`GET ${url} failed with ${res.status}`), { response: res });
    case 'response-data':
      throw Object.assign(new Error(`GET ${url} failed with ${res.status}`), { response: res, data: (await res.json()) as unknown });
    case 'cause':
      throw new Error(`GET ${url} failed with ${res.status}`, { cause: res });
  }
}

/**
 * What the client must see for one row, from the fake's answers, in the words of the shared table (./support/expected.ts):
 * the status line, the failure object (the status's code; 429 and 503 retryable with the fake's delay), the closing
 * sentence and the retry note.
 */
function expectedRow(origin: string, placement: Placement, which: Case): Expected {
  const line = HTTP_STATUS[which];
  const status = Number(line.slice(0, 3));
  const url = `${origin}/api/items/${which}?access_token=[REDACTED]&view=full&api_key=[REDACTED]`;
  // ofetch keeps its options (no method: fetch's GET), `cause-init` the init it fetched with; a bare Response or Error names none.
  const method = placement === 'ofetch' ? 'GET' : placement === 'cause-init' ? 'PATCH' : undefined;
  // Only a body someone read and attached (ofetch's data, the server's own) is shown.
  const said = sentence(which, placement === 'ofetch' || placement === 'response-data' ? MESSAGES.api[which] : undefined);
  const failure = failureOf(which, undefined);
  // The fake's origin is a loopback address: the text shows the path and query only, the record the whole URL.
  const text = withRetry(`HTTP ${method === undefined ? '' : `${method} `}${url.slice(origin.length)} failed with ${line}${said === undefined ? '' : `: ${said}`}`, failure);
  return {
    text: which === 'unauthorized' ? `${text}\n\n${REAUTHORIZE}` : text,
    rule: which === 'unauthorized' ? 'fetch-unauthorized' : 'fetch-http-error',
    status: which === 'unauthorized' ? 401 : status,
    request: { ...(method === undefined ? {} : { httpMethod: method }), httpUrl: url, httpStatus: status, httpRequestId: REQUEST_IDS.api },
    failure,
  };
}

describe('plain fetch through a real McpServer and Client', () => {
  let fake: FakeApis;
  let session: Session;
  const records: LogRecord[] = [];
  const outcomes: Outcome[] = [];
  const wire: string[] = [];

  beforeAll(async () => {
    fake = await startFakeApis();
    const policy = createErrorPolicy({
      rules: [...httpRules, ...coreRules],
      reauthorize: REAUTHORIZE,
      logger: (record: LogRecord) => records.push(record),
      onOutcome: (outcome) => outcomes.push(outcome),
    });
    const server = new McpServer({ name: 'fetch-test', version: '1.0.0' });
    for (const placement of PLACEMENTS) {
      for (const which of CASES) {
        const name = `${placement}-${which}`;
        server.registerTool(
          name,
          { description: `fails with ${which}, ${placement}` },
          withClientVisibleErrors(
            async (): Promise<CallToolResult> => {
              await failing(fake.origin, which, placement);
              return { content: [{ type: 'text', text: 'unreachable' }] };
            },
            { name, policy },
          ),
        );
      }
    }
    session = await connect(server);
  });

  afterAll(async () => {
    await session.close();
    await fake.close();
  });

  for (const placement of PLACEMENTS) {
    it.each(CASES)(`${placement}, %s: the exact text, the failure object, one record and one outcome`, async (which) => {
      const name = `${placement}-${which}`;
      const [records0, outcomes0] = [records.length, outcomes.length];
      const result = await session.client.callTool({ name, arguments: {} });
      wire.push(JSON.stringify(result));
      checkRow({ which: name, result, records: records.slice(records0), outcomes: outcomes.slice(outcomes0) }, expectedRow(fake.origin, placement, which));
    });
  }

  it('sent every planted secret, and none reached the wire or a record', () => {
    expect(wire).toHaveLength(PLACEMENTS.length * CASES.length);
    for (const secret of PLANTED) expect(fake.received(secret)).toBe(true);
    const everything = [wire.join('\n'), JSON.stringify(records), JSON.stringify(outcomes.map((o) => ({ ...o, classification: undefined })))].join('\n');
    for (const secret of PLANTED) expect(everything).not.toContain(secret);
    // The thrown errors' own messages held the raw URL: the records' copies of them were scrubbed.
    expect(records.filter((r) => r.errorMessage.includes('access_token=[REDACTED]') && r.errorMessage.includes('api_key=[REDACTED]')).length).toBeGreaterThanOrEqual(4 * CASES.length);
  });
});

describe('what the fetch rules leave to others', () => {
  let fake: FakeApis;
  const policy = createErrorPolicy({ rules: [...httpRules, ...coreRules], logger: () => {} });

  beforeAll(async () => {
    fake = await startFakeApis();
  });

  afterAll(async () => {
    await fake.close();
  });

  it("ky's HTTPError (which holds a failed Response too) still goes to the ky rule", async () => {
    const ky = ((await import('ky1')) as { default: { get(url: string, options: object): Promise<unknown> } }).default;
    const error = await ky.get(urlOf(fake.origin, 'missing'), { retry: 0 }).catch((e: unknown) => e);
    const c = classifyError(error, policy);
    expect(c.kind === 'anticipated' && c.rule.name).toBe('ky-http-error');
  });

  it('a gaxios 7 error (a real Response in `response`, with `config`) is left to the Google rules, whatever their place', async () => {
    const { Gaxios } = (await import('gaxios7')) as { Gaxios: new () => { request(options: object): Promise<unknown> } };
    const error = await new Gaxios().request({ url: urlOf(fake.origin, 'missing'), retry: false }).catch((e: unknown) => e);
    const httpFirst = createErrorPolicy({ rules: [...httpRules, ...googleRules, ...coreRules], logger: () => {} });
    const c = classifyError(error, httpFirst);
    expect(c.kind === 'anticipated' && c.rule.name).toBe('google-api-error');
  });

  it("the error text alone is still a crash: the policy needs the Response (the user's first try)", async () => {
    const url = urlOf(fake.origin, 'missing');
    const res = await fetch(url);
    const c = classifyError(new Error(`GET ${url} failed with ${res.status}`), policy);
    expect(c.kind).toBe('crash');
  });

  it('takes a Response made by hand (no URL) and a manual redirect; never an ok one', () => {
    const made = classifyError(new Response('{"message":"unread"}', { status: 404, headers: { 'retry-after': '3' } }), policy);
    expect(made.kind === 'anticipated' && { rule: made.rule.name, message: made.message, failure: made.failure }).toEqual({
      rule: 'fetch-http-error',
      message: 'HTTP request failed with 404 Not Found',
      failure: expect.objectContaining({ code: 'not_found', retryable: false }),
    });
    expect(classifyError(new Response('ok', { status: 200 }), policy).kind).toBe('crash');
    expect(classifyError(new Error('x', { cause: new Response(null, { status: 204 }) }), policy).kind).toBe('crash');
    // A 3xx that is not ok (fetch with `redirect: 'manual'`) counts, as with every client of this entry.
    const fake302 = { status: 302, ok: false, headers: new Headers(), url: `${fake.origin}/moved?token=abc`, type: 'basic' };
    const c = classifyError(fake302, policy);
    expect(c.kind === 'anticipated' && c.message).toBe('HTTP /moved?token=[REDACTED] failed with 302');
  });

  it('ignores Response look-alikes missing a part: ok, headers.get, url or type (the core rule sees a status and headers)', () => {
    const base = { status: 404, ok: false, headers: new Headers(), url: 'https://x.test/a', type: 'basic' };
    const ruleOf = (value: unknown): string | undefined => {
      const c = classifyError(value, policy);
      return c.kind === 'anticipated' ? c.rule.name : c.kind;
    };
    expect(ruleOf(base)).toBe('fetch-http-error');
    // Without a fetch Response's whole shape, the fetch rules leave it: a numeric status beside headers is the core
    // http-status rule's (the status alone), anything less a crash.
    for (const broken of [{ ...base, ok: undefined }, { ...base, headers: {} }, { ...base, url: undefined }, { ...base, type: undefined }]) {
      expect(ruleOf(broken)).toBe('http-status');
    }
    expect(ruleOf({ ...base, status: '404' })).toBe('crash');
    expect(ruleOf({ ...base, headers: undefined })).toBe('crash');
  });
});

/**
 * docs/adopting.md: each TypeScript block of the page is a fixture of test/adopt/fixtures, as written (readme.test.ts
 * compiles the blocks), and each fixture runs here through a real McpServer and the real SDK Client; the HTTP error
 * classes are thrown from real `fetch` calls to a fake API on 127.0.0.1.
 */
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyErrorPolicy, createErrorPolicy, type ErrorPolicy } from '../../src/index.js';
import { failureObject, toolFailure } from '../support/failure.js';
import { startHttp } from '../support/loopback.js';
import { connect, newServer, REFERENCE, withStderr, type Session } from '../support/session.js';
import { server as reportingServer } from './fixtures/report-mode.js';
import { findEntity } from './fixtures/tool-error.js';
import { policy as ownRulesPolicy, ValidationError } from './fixtures/own-rules.js';
import { GitHubError, HttpClientError, policy as httpClassPolicy } from './fixtures/http-class.js';
import { httpRulesFor } from '../../src/http/index.js';

const FIXTURES = ['report-mode', 'tool-error', 'own-rules', 'http-class'];

/** The TypeScript blocks of docs/adopting.md. */
function pageBlocks(): string[] {
  return [...readFileSync('docs/adopting.md', 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/** A fixture as the page shows it: without its first line (the comment naming the page). */
function fixtureText(name: string): string {
  return readFileSync(`test/adopt/fixtures/${name}.ts`, 'utf8').replace(/^\/\*\*.*\*\/\n/, '');
}

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe('docs/adopting.md', () => {
  it('shows the four fixtures, as written, and no other TypeScript', () => {
    expect(pageBlocks()).toEqual(FIXTURES.map(fixtureText));
  });
});

describe('step 1: report mode on the server as it was', () => {
  it('still shows the plain Error text, and reports it on stderr as what would be masked', async () => {
    reportingServer.registerTool('open_nodes', {}, () => {
      throw new Error('Entity with name Ada not found');
    });
    session = await connect(reportingServer);
    const { client } = session;
    const { value, written } = await withStderr(() => client.callTool({ name: 'open_nodes', arguments: {} }));
    const [line] = written.join('').split('\n');
    const reference = /\(reference ([0-9a-f]{12})\)/.exec(line!)?.[1];
    expect(reference).toMatch(REFERENCE);
    // the answer the SDK sends without the policy
    expect(value).toEqual({ content: [{ type: 'text', text: 'Entity with name Ada not found' }], isError: true });
    expect(line).toMatch(new RegExp(`^\\[mcp-error-policy\\] WARN report: tool "open_nodes" would be masked \\(reference ${reference}\\): Error "Entity with name Ada not found" at `));
  });
});

/** A server under `policy` with the tools of `tools`, connected to a client. */
async function serve(policy: ErrorPolicy, tools: Record<string, () => unknown>) {
  const records: unknown[] = [];
  const logged = createErrorPolicy({ ...policyOptions(policy), logger: (record) => records.push(record) });
  const server = applyErrorPolicy(newServer(), logged);
  for (const [name, fn] of Object.entries(tools)) server.registerTool(name, {}, fn as () => never);
  session = await connect(server);
  return { client: session.client, records: records as { level: string; kind: string; rule?: string; message: string; httpStatus?: number }[] };
}

/** The options a fixture's policy was made with (its rules and re-authorization text), to add a capturing logger. */
function policyOptions(policy: ErrorPolicy) {
  return { rules: policy.rules, ...(typeof policy.reauthorize === 'string' ? { reauthorize: policy.reauthorize } : {}) };
}

describe('step 2: a ToolError where the text is for users', () => {
  it('shows the text as written, logged at info', async () => {
    const { client, records } = await serve(createErrorPolicy(), { open_nodes: () => findEntity([{ name: 'Bob', observations: [] }], 'Ada') });
    expect(await client.callTool({ name: 'open_nodes', arguments: {} })).toEqual(
      toolFailure('Error executing tool open_nodes: Entity with name Ada not found', failureObject('tool_error', false)),
    );
    expect(records.map(({ level, message }) => ({ level, message }))).toEqual([{ level: 'info', message: 'tool "open_nodes" failed: ToolError "Entity with name Ada not found"' }]);
  });
});

describe("step 3: rules for the server's own class and message prefixes", () => {
  it('shows what the rules accept, at info with status 400, and masks any other plain Error', async () => {
    const { client, records } = await serve(ownRulesPolicy, {
      create_entities: () => {
        throw new ValidationError('Entity name must not be empty');
      },
      read_file: () => {
        throw new Error('Access denied - path outside allowed directories: /etc/passwd not in /srv/data');
      },
      read_graph: () => {
        throw new Error("ENOENT-like bug: cannot read properties of undefined (reading 'entities')");
      },
    });
    expect(await client.callTool({ name: 'create_entities', arguments: {} })).toEqual(
      toolFailure('Error executing tool create_entities: Entity name must not be empty', failureObject('validation', false)),
    );
    expect(await client.callTool({ name: 'read_file', arguments: {} })).toEqual(
      toolFailure('Error executing tool read_file: Access denied - path outside allowed directories: /etc/passwd not in /srv/data', failureObject('user-text', false)),
    );
    const masked = await client.callTool({ name: 'read_graph', arguments: {} });
    expect(masked).toMatchObject({ content: [{ type: 'text', text: expect.stringMatching(/^Error executing tool read_graph \(reference [0-9a-f]{12}\)$/) }] });
    expect(records.map(({ level, kind, rule }) => ({ level, kind, rule }))).toEqual([
      { level: 'info', kind: 'anticipated', rule: 'validation' },
      { level: 'info', kind: 'anticipated', rule: 'user-text' },
      { level: 'error', kind: 'crash', rule: undefined },
    ]);
  });
});

describe("step 4: httpRulesFor on the server's own HTTP error classes", () => {
  let api: { url: string; close: () => Promise<void> };
  beforeAll(async () => {
    api = await startHttp((req, res) => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      };
      if (path === '/repos/o/r/issues/9') json(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
      else if (path === '/user') json(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
      else if (path === '/v1/pages/p1') json(429, { object: 'error', status: 429, code: 'rate_limited', message: 'Rate limited' }, { 'retry-after': '7', 'x-request-id': 'req_42' });
      else json(500, { message: 'internal stack at /srv/app.js:12' });
    });
  });
  afterAll(() => api.close());

  // The GitHub server's request helper: fetch, then its error class on a failed status.
  async function github(path: string): Promise<never> {
    const response = await fetch(`${api.url}${path}?access_token=ghp_0123456789abcdefghijABCDEFGHIJ012345`);
    const body: unknown = await response.json();
    throw new GitHubError((body as { message?: string }).message ?? 'GitHub API error', response.status, body);
  }

  // Notion's HTTP client: the error carries the headers too.
  async function notion(path: string): Promise<never> {
    const response = await fetch(`${api.url}${path}`, { headers: { authorization: 'Bearer ntn_0123456789012345678901234567890123456789ab' } });
    throw new HttpClientError(response.statusText, response.status, await response.json(), response.headers);
  }

  it('gives the httpRules texts, failure object, re-authorization and records, with no secret', async () => {
    const { client, records } = await serve(httpClassPolicy, {
      get_issue: () => github('/repos/o/r/issues/9'),
      get_me: () => github('/user'),
      get_page: () => notion('/v1/pages/p1'),
      broken: () => github('/broken'),
    });
    expect(await client.callTool({ name: 'get_issue', arguments: {} })).toEqual(
      toolFailure('Error executing tool get_issue: GitHub API request failed with 404 Not Found: Not Found', failureObject('not_found', false)),
    );
    expect(await client.callTool({ name: 'get_me', arguments: {} })).toEqual(
      toolFailure(
        'Error executing tool get_me: GitHub API request failed with 401 Unauthorized: Credentials rejected: Bad credentials\n\nCheck the token in the server configuration.',
        failureObject('unauthorized', false),
      ),
    );
    expect(await client.callTool({ name: 'get_page', arguments: {} })).toEqual(
      toolFailure('Error executing tool get_page: Notion API request failed with 429 Too Many Requests (rate_limited): Rate limited. Retry after 7 s.', failureObject('rate_limited', true, { retryAfterMs: 7000 })),
    );
    expect(await client.callTool({ name: 'broken', arguments: {} })).toEqual(
      toolFailure('Error executing tool broken: GitHub API request failed with 500 Internal Server Error: The service failed to answer', failureObject('server_error', true)),
    );
    // the caller's 404 is routine: one line at info (httpRulesFor's rules are httpRules'); the rest warn
    expect(records.map(({ level, rule, httpStatus }) => ({ level, rule, httpStatus }))).toEqual([
      { level: 'info', rule: 'github-server-http-error', httpStatus: 404 },
      { level: 'warn', rule: 'github-server-unauthorized', httpStatus: 401 },
      { level: 'warn', rule: 'notion-server-http-error', httpStatus: 429 },
      { level: 'warn', rule: 'github-server-http-error', httpStatus: 500 },
    ]);
    expect(records[2]).toMatchObject({ httpRequestId: 'req_42' });
    // no token in the records; the 500's body (its own internals) in the record's error message only, not for the client
    const logged = JSON.stringify(records);
    expect(logged).not.toContain('ghp_');
    expect(logged).not.toContain('ntn_');
  });
});

describe('httpRulesFor', () => {
  const status = (error: GitHubError): number => error.status;
  const match = (error: unknown): boolean => error instanceof GitHubError;

  it('names the two rules after `name`, and takes only what `match` takes with a status from 300 up', () => {
    const [unauthorized, httpError] = httpRulesFor({ name: 'acme', match, status });
    expect([unauthorized.name, httpError.name]).toEqual(['acme-unauthorized', 'acme-http-error']);
    expect(httpError.predicate(new GitHubError('x', 404, undefined))).toBe(true);
    expect(httpError.predicate(new GitHubError('x', 200, undefined))).toBe(false);
    expect(httpError.predicate(Object.assign(new Error('x'), { status: 404 }))).toBe(false);
    const throwing = httpRulesFor({ name: 'acme', match: () => {
      throw new Error('match broke');
    }, status });
    expect(throwing[1].predicate(new GitHubError('x', 404, undefined))).toBe(false);
  });

  it('throws a TypeError naming a bad option', () => {
    expect(() => httpRulesFor({ name: 'a b', match, status })).toThrow(new TypeError('Expected `name` to be letters, digits and - (at most 48)'));
    expect(() => httpRulesFor({ name: 'acme', service: '', match, status })).toThrow(new TypeError('Expected `service` to be a non-empty string of at most 100 characters'));
    expect(() => httpRulesFor({ name: 'acme', match: true as unknown as typeof match, status })).toThrow(new TypeError('Expected `match` to be a function'));
    expect(() => httpRulesFor({ name: 'acme', match, status, body: 'data' as unknown as typeof status })).toThrow(new TypeError('Expected `body` to be a function'));
    expect(() => httpRulesFor({ name: 'acme', match } as unknown as Parameters<typeof httpRulesFor>[0])).toThrow(new TypeError('Expected `status` to be a function'));
  });
});

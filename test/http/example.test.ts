/**
 * examples/http-server.ts as a stdio subprocess (the real SDK Client over StdioClientTransport), its GitHub and OpenAI
 * clients pointed at the local fakes: the exact client text and failure object of a 404, a 401 with the
 * re-authorization text and a 429 with its retry delay, and one stderr record per failure naming the rule, the request
 * and the request id, with no planted secret on the wire or on stderr.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRETS } from './support/clients.js';
import { MESSAGES, REQUEST_IDS, startFakeApis, type FakeApis } from './support/fake-apis.js';
import { textOf } from './support/session.js';
import { failureObjectOf } from './support/table.js';
import { startExample, type RunningExample } from '../support/stdio.js';

const REAUTHORIZE = 'Check GITHUB_TOKEN and OPENAI_API_KEY in the server configuration.';

let fake: FakeApis;
let example: RunningExample;

beforeAll(async () => {
  fake = await startFakeApis();
  example = await startExample('examples/http-server.ts', {
    GITHUB_API_URL: `${fake.origin}/github`,
    GITHUB_TOKEN: SECRETS.github,
    OPENAI_BASE_URL: `${fake.origin}/openai/v1`,
    OPENAI_API_KEY: SECRETS.openai,
  });
});

afterAll(async () => {
  await example?.close();
  await fake?.close();
});

let failures: unknown[] = [];

/** Calls a tool that fails: its text; its failure object goes to `failures`. */
async function call(name: string, args: Record<string, string>): Promise<string> {
  const result = await example.client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  failures = [...failures, failureObjectOf(result)];
  return textOf(result);
}

/** The failure object of the last call, its correlation id checked for shape (12 hex digits) and left out. */
function lastFailure(): unknown {
  const { correlationId, ...rest } = failures.at(-1) as { correlationId: unknown };
  expect(correlationId).toMatch(/^[0-9a-f]{12}$/);
  return rest;
}

describe('examples/http-server.ts over stdio', () => {
  it('a GitHub 404: the method, the path (the fake is on a loopback address) and GitHub’s message', async () => {
    expect(await call('get_repo', { owner: 'octo-org', repo: 'missing' })).toBe(
      `Error executing tool get_repo: GitHub API GET /github/repos/octo-org/missing failed with 404 Not Found: ${MESSAGES.github.missing}`,
    );
    expect(lastFailure()).toEqual({ code: 'not_found', retryable: false });
  });

  it('a GitHub 401: credentials rejected, and the re-authorization text', async () => {
    expect(await call('get_repo', { owner: 'octo-org', repo: 'unauthorized' })).toBe(
      `Error executing tool get_repo: GitHub API GET /github/repos/octo-org/unauthorized failed with 401 Unauthorized: Credentials rejected: ${MESSAGES.github.unauthorized}\n\n${REAUTHORIZE}`,
    );
    expect(lastFailure()).toEqual({ code: 'unauthorized', retryable: false });
  });

  it('an OpenAI 429: the code, the message and the retry delay', async () => {
    expect(await call('describe_model', { model: 'limited' })).toBe(
      `Error executing tool describe_model: OpenAI API request failed with 429 Too Many Requests (rate_limit_exceeded): ${MESSAGES.openai.limited} Retry after 7 s.`,
    );
    expect(lastFailure()).toEqual({ code: 'rate_limit_exceeded', retryable: true, retryAfterMs: 7000 });
  });

  it('one stderr record per failure with the rule, the request and its id; no secret anywhere', async () => {
    await example.waitForStderr((text) => text.includes(REQUEST_IDS.openai));
    const stderr = example.stderr();
    const lines = stderr.split('\n').filter((line) => /rule/.test(line) && /get_repo|describe_model/.test(line));
    expect(lines.join('\n')).toContain('github-http-error');
    expect(lines.join('\n')).toContain('github-unauthorized');
    expect(lines.join('\n')).toContain('openai-http-error');
    expect(stderr).toContain(`GET ${fake.origin}/github/repos/octo-org/missing -> 404`);
    expect(stderr).toContain(REQUEST_IDS.github);
    expect(fake.received(SECRETS.github) && fake.received(SECRETS.openai)).toBe(true);
    for (const secret of Object.values(SECRETS)) expect(stderr).not.toContain(secret);
  });
});

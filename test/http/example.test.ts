/**
 * examples/http-server.ts as a stdio subprocess (the real SDK Client over StdioClientTransport), its GitHub and OpenAI
 * clients pointed at the local fakes: the exact client text and failure object of a 404, a 401 with the
 * re-authorization text and a 429 with its retry delay, and one stderr record per failure naming the rule, the request
 * and the request id, with no planted secret on the wire or on stderr.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRETS } from './support/clients.js';
import { MESSAGES, REQUEST_IDS, startFakeApis, type FakeApis } from './support/fake-apis.js';
import { textOf } from './support/session.js';
import { failureObjectOf } from './support/table.js';

const REAUTHORIZE = 'Check GITHUB_TOKEN and OPENAI_API_KEY in the server configuration.';

let fake: FakeApis;
let client: Client;
let stderr = '';

beforeAll(async () => {
  fake = await startFakeApis();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'examples/http-server.ts'],
    cwd: process.cwd(),
    env: {
      ...(process.env as Record<string, string>),
      NODE_ENV: 'production',
      GITHUB_API_URL: `${fake.origin}/github`,
      GITHUB_TOKEN: SECRETS.github,
      OPENAI_BASE_URL: `${fake.origin}/openai/v1`,
      OPENAI_API_KEY: SECRETS.openai,
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  client = new Client({ name: 'http-example-test', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await fake?.close();
});

let failures: unknown[] = [];

/** Calls a tool that fails: its text; its failure object goes to `failures`. */
async function call(name: string, args: Record<string, string>): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
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

async function stderrHas(needle: string): Promise<void> {
  const until = Date.now() + 10_000;
  while (!stderr.includes(needle)) {
    if (Date.now() > until) throw new Error(`stderr never contained ${needle}; it is: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('examples/http-server.ts over stdio', () => {
  it('a GitHub 404: the method, the URL and GitHub’s message', async () => {
    expect(await call('get_repo', { owner: 'octo-org', repo: 'missing' })).toBe(
      `Error executing tool get_repo: GitHub API GET ${fake.origin}/github/repos/octo-org/missing failed with 404 Not Found: ${MESSAGES.github.missing}`,
    );
    expect(lastFailure()).toEqual({ code: 'not_found', retryable: false });
  });

  it('a GitHub 401: credentials rejected, and the re-authorization text', async () => {
    expect(await call('get_repo', { owner: 'octo-org', repo: 'unauthorized' })).toBe(
      `Error executing tool get_repo: GitHub API GET ${fake.origin}/github/repos/octo-org/unauthorized failed with 401 Unauthorized: Credentials rejected: ${MESSAGES.github.unauthorized}\n\n${REAUTHORIZE}`,
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
    await stderrHas(REQUEST_IDS.openai);
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

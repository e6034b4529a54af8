import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import axios from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as z3 from 'zod/v3';
import { classifyError, coreRules, createErrorPolicy, zodErrorRule, type ErrorRule } from '../../src/index.js';
import { closedPort, rejectionOf, startHttp } from '../support/loopback.js';

const policy = createErrorPolicy({ logger: () => undefined });
const SECRET_KEY = 'AIzaSyA1234567890abcdefghijklmnopqrstu';

function anticipated(error: unknown, p = policy) {
  const c = classifyError(error, p);
  if (c.kind !== 'anticipated') throw new Error(`expected anticipated, got ${c.kind}`);
  return { rule: c.rule.name, message: c.message, status: c.status, level: c.level };
}

let slow: Awaited<ReturnType<typeof startHttp>>;
let reset: Awaited<ReturnType<typeof startHttp>>;
beforeAll(async () => {
  slow = await startHttp((_req, res) => {
    setTimeout(() => res.end('late'), 2_000).unref();
  });
  reset = await startHttp((req) => {
    req.socket.destroy();
  });
});
afterAll(async () => {
  await slow.close();
  await reset.close();
});

describe('network rule on real Node errors', () => {
  it('shows fetch to a closed port as a fixed text naming the code, never the URL', async () => {
    const port = await closedPort();
    const error = await rejectionOf(fetch(`http://127.0.0.1:${port}/v1/files?key=${SECRET_KEY}`));
    expect(error).toBeInstanceOf(TypeError);
    expect(anticipated(error)).toEqual({ rule: 'network', message: 'Network error: connection refused (ECONNREFUSED)', status: 502, level: 'warn' });
  });

  it('shows a peer that closes the socket', async () => {
    const error = await rejectionOf(fetch(`${reset.url}/x?access_token=ya29.secret`));
    const { message, rule } = anticipated(error);
    expect(rule).toBe('network');
    expect(message).toMatch(/^Network error: connection (closed by the other side \(UND_ERR_SOCKET\)|reset by peer \(ECONNRESET\))$/);
  });

  it('shows a node:http refusal (an AggregateError with an empty message on dual stack, or a plain Error)', async () => {
    const { request } = await import('node:http');
    const port = await closedPort();
    const error = await new Promise((resolve) => {
      request({ host: 'localhost', port, path: `/?key=${SECRET_KEY}` }).on('error', resolve).end();
    });
    expect(anticipated(error).message).toBe('Network error: connection refused (ECONNREFUSED)');
  });
});

describe('timeout and abort rules on real errors', () => {
  it('shows fetch with AbortSignal.timeout as a timeout', async () => {
    const error = await rejectionOf(fetch(slow.url, { signal: AbortSignal.timeout(20) }));
    expect(anticipated(error)).toEqual({ rule: 'timeout', message: 'The operation timed out', status: 504, level: 'warn' });
  });

  it('shows fetch aborted by its caller as an abort', async () => {
    const controller = new AbortController();
    const pending = fetch(slow.url, { signal: controller.signal });
    controller.abort();
    expect(anticipated(await rejectionOf(pending))).toEqual({ rule: 'abort', message: 'The operation was aborted', status: 499, level: 'warn' });
  });

  it('shows Node ABORT_ERR as an abort, and as a timeout when its reason is a timeout', async () => {
    const controller = new AbortController();
    const aborted = sleep(1_000, undefined, { signal: controller.signal });
    controller.abort();
    const plain = await rejectionOf(aborted);
    expect((plain as { code?: string }).code).toBe('ABORT_ERR');
    expect(anticipated(plain).rule).toBe('abort');
    const timedOut = await rejectionOf(sleep(1_000, undefined, { signal: AbortSignal.timeout(10) }));
    expect((timedOut as { code?: string }).code).toBe('ABORT_ERR');
    expect(anticipated(timedOut)).toMatchObject({ rule: 'timeout', message: 'The operation timed out' });
  });
});

describe('file-system rule on real errors', () => {
  it('shows code and syscall, never the path', async () => {
    const error = await rejectionOf(readFile('/nonexistent/secret-layout/CANARY.json'));
    expect(anticipated(error)).toEqual({ rule: 'file-system', message: 'File system error: no such file or directory (ENOENT, open)', status: 500, level: 'warn' });
  });

  it('shows EISDIR', async () => {
    expect(anticipated(await rejectionOf(readFile('/tmp'))).message).toBe('File system error: is a directory (EISDIR, read)');
  });

  it('shows a missing binary by syscall name only', async () => {
    const { spawn } = await import('node:child_process');
    const error = await new Promise((resolve) => spawn('gcloud-not-installed-canary').on('error', resolve));
    expect(anticipated(error).message).toBe('File system error: no such file or directory (ENOENT, spawn)');
  });
});

describe('zod rule (opt-in)', () => {
  const withZod = createErrorPolicy({ logger: () => undefined, rules: [...coreRules, zodErrorRule] });

  it('is not in the core rules: a ZodError is a crash by default', () => {
    const error = z.object({ name: z.string() }).safeParse({ name: 1 }).error;
    expect(classifyError(error, policy).kind).toBe('crash');
  });

  it('shows zod 4 issues by path and message', () => {
    const error = z.object({ name: z.string(), rows: z.number() }).safeParse({ name: 1, rows: 'x' }).error;
    expect(anticipated(error, withZod)).toEqual({
      rule: 'zod',
      message: 'Invalid data: name: Invalid input: expected string, received number; rows: Invalid input: expected number, received string',
      status: 500,
      level: 'warn',
    });
  });

  it('shows zod 3 issues by path and code, never the echoed input', () => {
    const error = z3.z.object({ mode: z3.z.enum(['read', 'write']) }).safeParse({ mode: 'ya29.secret-token' }).error;
    const { message } = anticipated(error, withZod);
    expect(message).toBe('Invalid data: mode: invalid_enum_value');
    expect(message).not.toContain('ya29');
  });
});

describe('Retry-After on the cause chain, from a real HTTP client error', () => {
  let limited: Awaited<ReturnType<typeof startHttp>>;
  beforeAll(async () => {
    limited = await startHttp((_req, res) => {
      res.writeHead(429, { 'Retry-After': '30', 'Content-Type': 'application/json' }).end('{"error":"rate limited"}');
    });
  });
  afterAll(async () => {
    await limited.close();
  });

  /** A rule of the server's own for axios's HTTP errors: fixed text, the status; no `failure`, so the header gives the delay. */
  const axiosStatusRule: ErrorRule = {
    name: 'upstream-http',
    predicate: (error) => axios.isAxiosError(error) && error.response !== undefined,
    message: (error) => `The upstream API answered ${String((error as { response: { status: number } }).response.status)}`,
    status: (error) => (error as { response: { status: number } }).response.status,
  };
  const axiosPolicy = createErrorPolicy({ logger: () => undefined, rules: [axiosStatusRule, ...coreRules] });

  it("axios's 429 with Retry-After: 30, wrapped in the server's own error: retryable, 30 s, said at the end of the text", async () => {
    const error = await rejectionOf(axios.get(`${limited.url}/v1/rows?key=${SECRET_KEY}`));
    expect((error as { response: { headers: unknown } }).response.headers).toMatchObject({ 'retry-after': '30' });
    const thrown = new Error('Sync failed', { cause: error });
    const c = classifyError(thrown, axiosPolicy);
    expect(c.kind === 'anticipated' && { rule: c.rule.name, message: c.message, status: c.status, failure: c.failure }).toEqual({
      rule: 'upstream-http',
      message: 'The upstream API answered 429. Retry after 30 s.',
      status: 429,
      failure: { code: 'upstream-http', retryable: true, retryAfterMs: 30_000, correlationId: expect.stringMatching(/^[0-9a-f]{12}$/) },
    });
    expect(JSON.stringify(c.kind === 'anticipated' && c.failure)).not.toContain(SECRET_KEY);
  });

  it("the rule's own facts win over the header", async () => {
    const error = await rejectionOf(axios.get(`${limited.url}/v1/rows`));
    const own = createErrorPolicy({ logger: () => undefined, rules: [{ ...axiosStatusRule, failure: { code: 'rate_limited', retryAfterMs: 5000 } }] });
    const c = classifyError(error, own);
    expect(c.kind === 'anticipated' && [c.message, c.failure.code, c.failure.retryAfterMs]).toEqual(['The upstream API answered 429. Retry after 5 s.', 'rate_limited', 5000]);
    const never = createErrorPolicy({ logger: () => undefined, rules: [{ ...axiosStatusRule, failure: { retryable: false } }] });
    const d = classifyError(error, never);
    expect(d.kind === 'anticipated' && [d.message, d.failure]).toEqual(['The upstream API answered 429', { code: 'upstream-http', retryable: false, correlationId: expect.any(String) }]);
  });
});

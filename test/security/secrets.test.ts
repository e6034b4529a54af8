/**
 * Secrets: every secret shape of secrets.ts, planted in the message, the cause, the URL, the headers,
 * the body and the stack of allowlisted errors (ToolError / ResourceError texts, network errors, custom rules that
 * echo the message) and of crashes, appears neither in the client's text nor in any log output: the records a
 * function logger gets (JSON.stringify), the text a console-shaped logger gets, and what the default logger writes
 * to stderr. Then real gaxios / google-auth-library errors carrying them, and a property that moves each secret
 * across the length bound.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  coreRules,
  createErrorPolicy,
  ResourceError,
  scrubSecrets,
  ToolError,
  withClientVisibleErrors,
  withClientVisiblePromptErrors,
  withClientVisibleResourceErrors,
  type ErrorPolicy,
  type ErrorRule,
} from '../../src/index.js';
import { googleRules } from '../../src/google/index.js';
import { FAILURE_KEY } from '../support/calls.js';
import { failureObject, toolFailure } from '../support/failure.js';
import { EMBEDDINGS, FORM_EMBEDDINGS, leakIn, ORDINARY_TEXTS, SECRET } from './secrets.js';
import { captureStderr, consoleLogger, openSession, recordLogger, runs, sdkWireError, settle, timeoutFor } from './support.js';

class UpstreamError extends Error {
  override name = 'UpstreamError';
}
class UpstreamSaidError extends Error {
  override name = 'UpstreamSaidError';
}

/** A custom rule without `message`: the client sees the error's own message (scrubbed). */
const echoRule: ErrorRule = { name: 'upstream-echo', predicate: (error) => error instanceof UpstreamError, status: 502 };
/** A custom rule whose `message` echoes the error's message inside its own words. */
const echoFunctionRule: ErrorRule = {
  name: 'upstream-said',
  predicate: (error) => error instanceof UpstreamSaidError,
  message: (error) => `Upstream said: ${(error as Error).message}`,
  status: 502,
};
const RULES = [...coreRules, echoRule, echoFunctionRule];

/** Every embedding: the Google shapes and the other forms. */
const ALL_EMBEDDINGS = { ...EMBEDDINGS, ...FORM_EMBEDDINGS };

/** An error whose every part holds `text`: message, stack frames, request config (URL, headers, body). */
function leakyCause(text: string): Error {
  return Object.assign(new Error(`upstream answered: ${text}`), {
    stack: `Error: upstream answered: ${text}\n    at request (${text})\n    at fetch (file:///srv/app/client.js:10:5)`,
    config: { url: text, headers: { authorization: `Bearer ${SECRET.opaqueBearer}`, 'x-goog-api-key': SECRET.apiKey }, data: text },
    response: { config: { url: text }, data: text, headers: { 'set-cookie': text } },
  });
}

/** A stack holding `text` in its frames (as a request URL does in node-fetch frames). */
function stackWith(head: string, text: string): string {
  return `${head}\n    at ClientRequest.<anonymous> (${text})\n    at Socket.emit (node:events:517:28)`;
}

/** The allowlisted carriers (and a crash), each with the exact client text for a scrubbed text. */
interface Carrier {
  readonly handler: 'tool' | 'resource' | 'prompt';
  make(text: string): unknown;
  /** The client text (tool) or JSON-RPC message (resource, prompt), given the scrubbed text; undefined for a crash. */
  client(scrubbed: string): string | undefined;
}

const CARRIERS: Readonly<Record<string, Carrier>> = {
  'ToolError message, cause and stack': {
    handler: 'tool',
    make: (text) => Object.assign(new ToolError(`Upstream rejected the request: ${text}`, { cause: leakyCause(text) }), { stack: stackWith('ToolError: x', text) }),
    client: (scrubbed) => `Error executing tool leaky: Upstream rejected the request: ${scrubbed}`,
  },
  'ResourceError (resource wrapper)': {
    handler: 'resource',
    make: (text) => new ResourceError(`Could not read ${text}`, { cause: leakyCause(text) }),
    client: (scrubbed) => `Could not read ${scrubbed}`,
  },
  'ToolError (prompt wrapper)': {
    handler: 'prompt',
    make: (text) => new ToolError(`Prompt source failed: ${text}`, { cause: leakyCause(text) }),
    client: (scrubbed) => `Prompt source failed: ${scrubbed}`,
  },
  'network error (node-fetch / gaxios 6 shape): URL in message and stack, config headers and body': {
    handler: 'tool',
    make: (text) =>
      Object.assign(new Error(`request to ${text} failed, reason: connect ECONNREFUSED 127.0.0.1:443`), {
        code: 'ECONNREFUSED',
        errno: 'ECONNREFUSED',
        type: 'system',
        stack: stackWith(`FetchError: request to ${text} failed`, text),
        config: { url: text, headers: { 'x-goog-api-key': SECRET.apiKey, authorization: `Bearer ${SECRET.accessToken}` }, data: `refresh_token=${SECRET.refreshToken}` },
        error: leakyCause(text),
      }),
    client: () => 'Error executing tool leaky: Network error: connection refused (ECONNREFUSED)',
  },
  'fetch failed: TypeError with an ECONNREFUSED cause naming the URL': {
    handler: 'tool',
    make: (text) =>
      new TypeError(`fetch failed: ${text}`, {
        cause: Object.assign(new Error(`connect ECONNREFUSED ${text}`), { code: 'ECONNREFUSED', syscall: 'connect', stack: stackWith('Error: connect', text) }),
      }),
    client: () => 'Error executing tool leaky: Network error: connection refused (ECONNREFUSED)',
  },
  'custom rule that echoes the message (no message option)': {
    handler: 'tool',
    make: (text) => Object.assign(new UpstreamError(`Upstream failed for ${text}`, { cause: leakyCause(text) }), { stack: stackWith('UpstreamError: x', text) }),
    client: (scrubbed) => `Error executing tool leaky: Upstream failed for ${scrubbed}`,
  },
  'custom rule whose message function echoes the message': {
    handler: 'tool',
    make: (text) => Object.assign(new UpstreamSaidError(text, { cause: leakyCause(text) }), { stack: stackWith('UpstreamSaidError: x', text) }),
    client: (scrubbed) => `Error executing tool leaky: Upstream said: ${scrubbed}`,
  },
  'crash with the secret in message, cause, stack and config': {
    handler: 'tool',
    make: (text) => Object.assign(new Error(`unexpected: ${text}`, { cause: leakyCause(text) }), { stack: stackWith(`Error: unexpected: ${text}`, text), config: { url: text } }),
    client: () => undefined,
  },
};

type LoggerKind = 'records' | 'console' | 'stderr';

/** A policy of the given logger kind, and a reader of everything it logged since the last read. */
function policyFor(kind: LoggerKind, maxMessageLength?: number): { policy: ErrorPolicy; take(): string } {
  const base = { rules: RULES, exposeCrashDetails: false, ...(maxMessageLength === undefined ? {} : { maxMessageLength }) };
  if (kind === 'records') {
    const { records, logger } = recordLogger();
    return { policy: createErrorPolicy({ ...base, logger }), take: () => JSON.stringify(records.splice(0)) };
  }
  if (kind === 'console') {
    const { lines, logger } = consoleLogger();
    return { policy: createErrorPolicy({ ...base, logger }), take: () => JSON.stringify(lines.splice(0)) };
  }
  return { policy: createErrorPolicy(base), take: () => '' };
}

/** Runs `carrier` with `text` through its wrapper, called directly; returns the client-visible JSON and the logs. */
async function run(carrier: Carrier, text: string, kind: LoggerKind, maxMessageLength?: number): Promise<{ client: string; logs: string; answer: string }> {
  const { policy, take } = policyFor(kind, maxMessageLength);
  let answer = '';
  let client = '';
  const call = async (): Promise<void> => {
    if (carrier.handler === 'tool') {
      const tool = withClientVisibleErrors(() => {
        throw carrier.make(text);
      }, { name: 'leaky', policy });
      const result = (await tool()) as { content: { text: string }[] };
      client = JSON.stringify(result);
      answer = result.content[0]!.text;
    } else {
      const wrapped =
        carrier.handler === 'resource'
          ? withClientVisibleResourceErrors((_uri: URL) => {
              throw carrier.make(text);
            }, { policy })
          : withClientVisiblePromptErrors(() => {
              throw carrier.make(text);
            }, { name: 'leaky', policy });
      const outcome = await settle(carrier.handler === 'resource' ? (wrapped as unknown as (uri: URL) => unknown)(new URL('leaky://doc/1')) : (wrapped as unknown as () => unknown)());
      const wire = sdkWireError(outcome.rejected ? outcome.error : undefined);
      client = JSON.stringify(wire);
      answer = wire.message;
    }
  };
  if (kind === 'stderr') {
    const written = await captureStderr(call);
    return { client, logs: written, answer };
  }
  await call();
  return { client, logs: take(), answer };
}

describe('the credential forms of secrets.ts, one by one', () => {
  it.each(Object.entries(FORM_EMBEDDINGS))('%s: scrubbed exactly, and the check finds the secret in the raw text', (_name, [raw, scrubbed]) => {
    // the negative control: the leak check does find the planted secret when nothing is scrubbed
    expect(leakIn(raw)).toBeDefined();
    expect(scrubSecrets(raw)).toBe(scrubbed);
    expect(leakIn(scrubbed)).toBeUndefined();
  });

  it('every ordered pair of secret forms in one text, side by side or apart: neither survives', () => {
    // Found by a property: a private key cut off before its END line used to stop at the first character outside
    // base64, so it took the head of a `ya29.` token that followed and left its tail.
    const raws = Object.values(ALL_EMBEDDINGS).map(([raw]) => raw);
    const leaks: string[] = [];
    for (const first of raws) {
      for (const second of raws) {
        for (const between of [' ', '\n', ' then ']) {
          const scrubbed = scrubSecrets(`${first}${between}${second}`);
          if (leakIn(scrubbed) !== undefined) leaks.push(`${JSON.stringify(first.slice(0, 40))} + ${JSON.stringify(second.slice(0, 40))}: ${leakIn(scrubbed)}`);
        }
      }
    }
    expect(leaks).toEqual([]);
    expect(raws.length).toBeGreaterThan(40);
  });

  it('leaves ordinary error texts and stack frames as they are', () => {
    for (const text of ORDINARY_TEXTS) expect(scrubSecrets(text)).toBe(text);
  });
});

describe('the secret shapes of secrets.ts in allowlisted errors and crashes', () => {
  for (const [carrierName, carrier] of Object.entries(CARRIERS)) {
    it(`${carrierName}: the exact scrubbed client text, and no secret in client text or any log output`, async () => {
      const problems: string[] = [];
      for (const [embeddingName, [raw, scrubbed]] of Object.entries(ALL_EMBEDDINGS)) {
        for (const kind of ['records', 'console', 'stderr'] as const) {
          const { client, logs, answer } = await run(carrier, raw, kind);
          const clientLeak = leakIn(client);
          const logLeak = leakIn(logs);
          if (clientLeak !== undefined) problems.push(`${embeddingName} [${kind}]: client text holds ${clientLeak}: ${client}`);
          if (logLeak !== undefined) problems.push(`${embeddingName} [${kind}]: log holds ${logLeak}: ${logs.slice(0, 400)}`);
          if (kind !== 'stderr' && logs === '[]') problems.push(`${embeddingName} [${kind}]: nothing was logged`);
          if (kind === 'stderr' && !logs.startsWith('[mcp-error-policy] ')) problems.push(`${embeddingName} [stderr]: nothing was written to stderr`);
          const expected = carrier.client(scrubbed);
          if (expected !== undefined && answer !== expected) problems.push(`${embeddingName} [${kind}]: client text ${JSON.stringify(answer)}, expected ${JSON.stringify(expected)}`);
          if (expected === undefined && !/^Error executing tool leaky \(reference [0-9a-f]{12}\)$/.test(answer)) problems.push(`${embeddingName}: crash text ${JSON.stringify(answer)}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }

  it('the failure object: a code shaped like a credential (from a rule, a ToolError option) falls back; a secret retry delay is ignored', async () => {
    const { records, logger } = recordLogger();
    class FactsError extends Error {
      override name = 'FactsError';
    }
    const policy = createErrorPolicy({
      logger,
      rules: [
        {
          name: 'upstream-facts',
          predicate: (error) => error instanceof FactsError,
          message: 'Upstream busy',
          failure: (error) => ({ code: (error as { reason?: string }).reason, retryAfterMs: (error as { delay?: unknown }).delay as number }),
        },
      ],
    });
    const tool = (thrown: () => unknown) => withClientVisibleErrors(() => { throw thrown(); }, { name: 'facts', policy })();
    const objectOf = (answer: unknown) => (answer as { _meta: Record<string, unknown> })._meta[FAILURE_KEY];
    // Every shape a secret pattern recognises. (An opaque token is indistinguishable from a code, in the failure
    // object as in client text: what a rule reads from an error is the rule's choice.)
    for (const secret of [SECRET.apiKey, SECRET.accessToken, SECRET.refreshToken, SECRET.clientSecret, SECRET.jwt]) {
      // a rule reading its code and delay from the error, and an HTTP Retry-After on the chain, all holding the secret
      const ruled = await tool(() => Object.assign(new FactsError('busy'), { reason: secret, delay: secret, response: { headers: { 'retry-after': secret, 'retry-after-ms': secret } } }));
      expect(ruled).toEqual(toolFailure('Error executing tool facts: Upstream busy', failureObject('upstream-facts', false)));
      // a deliberate error made with the secret as its code (the constructor refuses those that are no code at all)
      let made: ToolError | undefined;
      try {
        made = new ToolError('Not now', { code: secret });
      } catch (error) {
        expect(error).toEqual(new TypeError('Expected `code` to be a string of 1 to 64 letters, digits, `_`, `.`, `:` or `-`'));
      }
      const deliberate = made === undefined ? undefined : await tool(() => made);
      if (deliberate !== undefined) expect(objectOf(deliberate)).toEqual(failureObject('tool_error', false));
      expect(leakIn(JSON.stringify([ruled, deliberate]))).toBeUndefined();
    }
    // an opaque value: kept as the code the rule chose, but never a delay
    const opaque = await tool(() => Object.assign(new FactsError('busy'), { reason: 'busy', delay: SECRET.opaqueToken, response: { headers: { 'retry-after': SECRET.opaqueToken } } }));
    expect(objectOf(opaque)).toEqual(failureObject('busy', false));
    expect(records.every((r) => typeof r.correlationId === 'string' && leakIn(r.correlationId) === undefined)).toBe(true);
  });

  it('a resource URI carrying a key is scrubbed in the crash text and the record (real session)', async () => {
    const { records, logger } = recordLogger();
    const policy = createErrorPolicy({ logger, exposeCrashDetails: false });
    const { ResourceTemplate } = await import('@modelcontextprotocol/sdk/server/mcp.js');
    const session = await openSession((server) => {
      server.registerResource(
        'sheet',
        new ResourceTemplate('https://sheets.example.test/{id}', { list: undefined }),
        {},
        withClientVisibleResourceErrors(async () => {
          throw new Error('boom');
        }, { policy }),
      );
    });
    try {
      const uri = `https://sheets.example.test/1?key=${SECRET.apiKey}&access_token=${SECRET.accessToken}`;
      const outcome = await settle(session.client.readResource({ uri }));
      expect(outcome.rejected).toBe(true);
      const wire = session.wire.at(-1)!;
      expect(leakIn(wire)).toBeUndefined();
      expect(leakIn(JSON.stringify(records))).toBeUndefined();
      const reference = records[0]!.reference!;
      expect(JSON.parse(wire)).toEqual({
        jsonrpc: '2.0',
        id: expect.any(Number),
        error: {
          code: -32603,
          message: `Error reading resource https://sheets.example.test/1?key=[REDACTED]&access_token=[REDACTED] (reference ${reference})`,
          data: { [FAILURE_KEY]: { code: 'internal', retryable: false, correlationId: reference } },
        },
      });
      expect(records).toHaveLength(1);
      expect(records[0]!.name).toBe('https://sheets.example.test/1?key=[REDACTED]&access_token=[REDACTED]');
    } finally {
      await session.close();
    }
  });
});

describe('secrets across the length bound (property)', () => {
  const carrierNames = Object.keys(CARRIERS);
  const embeddingNames = Object.keys(ALL_EMBEDDINGS);
  const words = ['lorem', 'ipsum', 'dolor', 'sit', 'amet,', '(x)', '[42]', '\n', '\t', 'é', '😀', '"q"', "'s'", '{', '}', '&', '?', '#', ':', '='];
  it(
    'wherever the secret falls against maxMessageLength and the scrub margin, it never shows',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            carrier: fc.constantFrom(...carrierNames),
            embedding: fc.constantFrom(...embeddingNames),
            max: fc.constantFrom(32, 200, 4000),
            // The secret starts anywhere from the beginning to past the bound plus the 512-character scrub margin.
            offset: fc.nat({ max: 4700 }),
            seed: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 8 }),
            suffix: fc.array(fc.constantFrom(...words), { maxLength: 4 }),
            kind: fc.constantFrom<LoggerKind>('records', 'console', 'stderr'),
          }),
          async ({ carrier, embedding, max, offset, seed, suffix, kind }) => {
            const filler = seed.join(' ').padEnd(1, 'x');
            let prefix = '';
            while (prefix.length < Math.min(offset, max + 700)) prefix += `${filler} `;
            prefix = prefix.slice(0, Math.min(offset, max + 700));
            const text = `${prefix} ${ALL_EMBEDDINGS[embedding]![0]} ${suffix.join(' ')}`;
            const { client, logs } = await run(CARRIERS[carrier]!, text, kind, max);
            expect(leakIn(client), client).toBeUndefined();
            expect(leakIn(logs), logs.slice(0, 500)).toBeUndefined();
          },
        ),
        runs('secretsDirect'),
      );
    },
    timeoutFor('secretsDirect', 3),
  );
});

describe('real gaxios and google-auth-library errors carrying the secrets', () => {
  let server: Server;
  let origin = '';
  let closedPort = 0;
  const nodeMajor = Number(process.versions.node.split('.')[0]);

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.url?.startsWith('/token') === true) {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }));
          return;
        }
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** Every real error: transport failures (closed port) and HTTP 403s, by each gaxios this Node runs, and GAL refresh failures. */
  async function realErrors(): Promise<[string, unknown][]> {
    const out: [string, unknown][] = [];
    const query = `key=${SECRET.apiKey}&access_token=${SECRET.accessToken}&refresh_token=${SECRET.refreshToken}&token=${SECRET.opaqueToken}&client_secret=${SECRET.clientSecret}`;
    const headers = { 'x-goog-api-key': SECRET.apiKey, authorization: `Bearer ${SECRET.accessToken}` };
    const data = `grant_type=refresh_token&refresh_token=${SECRET.refreshToken}&client_secret=${SECRET.clientSecret}`;
    const gaxiosVersions = nodeMajor >= 22 ? (['gaxios6', 'gaxios7', 'gaxios8'] as const) : (['gaxios6', 'gaxios7'] as const);
    for (const name of gaxiosVersions) {
      const { Gaxios } = (await import(name)) as typeof import('gaxios7');
      const gaxios = new Gaxios();
      for (const [what, url] of [
        ['ECONNREFUSED', `http://127.0.0.1:${closedPort}/v1/files?${query}`],
        ['HTTP 403', `${origin}/v1/files?${query}`],
      ] as const) {
        try {
          await gaxios.request({ url, method: 'POST', headers, data, retry: false });
        } catch (error) {
          out.push([`${name} ${what}`, error]);
        }
      }
    }
    const gals = nodeMajor >= 22 ? (['google-auth-library9', 'google-auth-library10', 'google-auth-library11'] as const) : (['google-auth-library9', 'google-auth-library10'] as const);
    for (const name of gals) {
      const { OAuth2Client } = (await import(name)) as typeof import('google-auth-library10');
      const client = new OAuth2Client({ clientId: '123.apps.googleusercontent.com', clientSecret: SECRET.clientSecret, endpoints: { oauth2TokenUrl: `${origin}/token` } });
      client.setCredentials({ refresh_token: SECRET.refreshToken });
      try {
        await client.getAccessToken();
      } catch (error) {
        out.push([`${name} invalid_grant refresh`, error]);
      }
    }
    return out;
  }

  it('no secret in client text or logs, with core rules and with Google rules first', async () => {
    const errors = await realErrors();
    expect(errors.length).toBeGreaterThanOrEqual(nodeMajor >= 22 ? 9 : 6);
    const problems: string[] = [];
    for (const [label, error] of errors) {
      // The error really carries the secrets (in its message, config or body), or the test would prove nothing. GAL 9
      // alone redacts its whole (string) refresh body before throwing.
      if (!label.startsWith('google-auth-library9') && leakIn(inspect(error, { depth: 6 })) === undefined) problems.push(`${label}: carries no secret`);
      for (const rules of [coreRules, [...googleRules, ...coreRules]]) {
        for (const kind of ['records', 'console', 'stderr'] as const) {
          const { records, logger } = recordLogger();
          const consoleShaped = consoleLogger();
          const policy = createErrorPolicy({ rules, exposeCrashDetails: false, ...(kind === 'records' ? { logger } : kind === 'console' ? { logger: consoleShaped.logger } : {}) });
          const tool = withClientVisibleErrors(() => {
            throw error;
          }, { name: 'drive_list', policy });
          let client = '';
          const written = await captureStderr(async () => {
            client = JSON.stringify(await tool());
          });
          const logs = kind === 'records' ? JSON.stringify(records) : kind === 'console' ? JSON.stringify(consoleShaped.lines) : written;
          const where = `${label} [${rules === coreRules ? 'core' : 'google+core'} rules, ${kind}]`;
          if (leakIn(client) !== undefined) problems.push(`${where}: client ${client}`);
          if (leakIn(logs) !== undefined) problems.push(`${where}: logs ${logs.slice(0, 400)}`);
          if (logs === '' || logs === '[]') problems.push(`${where}: nothing logged`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

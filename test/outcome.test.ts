/**
 * The access log (onOutcome) and re-authorization, end to end through a real SDK v1 McpServer and Client:
 * exactly one outcome per call with its status, the re-authorization text on the wire, and an onOutcome or logger
 * that throws changes nothing the client sees.
 */
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyErrorPolicy, classifyError, coreRules, createErrorPolicy, ResourceNotFoundError, ToolError, withClientVisibleErrors, type ErrorPolicy, type ErrorPolicyOptions, type ErrorRule, type LogRecord } from '../src/index.js';
import { expectCorrelated, failureData, failureObject, toolFailure } from './support/failure.js';
import { capture, connect, correlationIdOf, newServer, referenceIn, rpcError, textOf, withoutDurations } from './support/session.js';

class RevokedError extends Error {
  override name = 'RevokedError';
}

class QuotaError extends Error {
  override name = 'QuotaError';
}

/** Custom rules: a revoked sign-in (re-authorization), a quota (its own status). */
const revokedRule: ErrorRule = { name: 'revoked', predicate: (e) => e instanceof RevokedError, message: 'The sign-in was revoked', reauthorize: true };
const quotaRule: ErrorRule = { name: 'quota', predicate: (e) => e instanceof QuotaError, message: 'Quota exceeded, retry in 30s', status: 429 };
const rules = [revokedRule, quotaRule, ...coreRules];
const HINT = 'Sign in again: run `acme auth login`.';

function fullServer(policy: ErrorPolicy) {
  const server = newServer();
  const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
  server.registerTool('ok', {}, () => text('fine'));
  server.registerTool('slow', {}, async () => {
    await new Promise((resolve) => setTimeout(resolve, 40));
    return text('late');
  });
  server.registerTool('deliberate', {}, () => {
    throw new ToolError('Sheet name must not be empty');
  });
  server.registerTool('quota', {}, () => {
    throw new QuotaError('429 from upstream, key=AIzaSyA-secret-0123456789abcdef');
  });
  server.registerTool('revoked', {}, () => {
    throw new RevokedError('invalid_grant');
  });
  server.registerTool('crash', {}, () => {
    throw new Error('boom');
  });
  server.registerTool('returns_error', {}, () => ({ content: [{ type: 'text' as const, text: 'my own failure' }], isError: true }));
  server.registerTool('typed', { inputSchema: { n: z.number() } }, ({ n }) => text(String(n)));
  server.registerResource('r', 'static://r', {}, (uri) => ({ contents: [{ uri: uri.href, text: 'x' }] }));
  server.registerResource('sheet', new ResourceTemplate('sheet://{name}', { list: undefined }), {}, (_uri, { name }) => {
    if (name === 'revoked') throw new RevokedError('invalid_grant');
    throw new ResourceNotFoundError(`No sheet named ${String(name)}`);
  });
  server.registerPrompt('p', {}, () => ({ messages: [] }));
  server.registerPrompt('p_revoked', {}, () => {
    throw new RevokedError('invalid_grant');
  });
  server.registerPrompt('p_crash', {}, () => {
    throw new Error('boom');
  });
  return applyErrorPolicy(server, policy);
}

describe('onOutcome', () => {
  it('is called exactly once per call, with the status of each kind of answer', async () => {
    const { policy, outcomes } = capture({ rules, reauthorize: HINT });
    const { client } = await connect(fullServer(policy));
    for (const name of ['ok', 'slow', 'deliberate', 'quota', 'revoked', 'crash', 'returns_error', 'nope']) await client.callTool({ name, arguments: {} });
    await client.callTool({ name: 'typed', arguments: { n: 'x' } });
    await client.readResource({ uri: 'static://r' });
    await rpcError(client.readResource({ uri: 'sheet://missing' }));
    await rpcError(client.readResource({ uri: 'sheet://revoked' }));
    await client.getPrompt({ name: 'p' });
    await rpcError(client.getPrompt({ name: 'p_revoked' }));
    await rpcError(client.getPrompt({ name: 'p_crash' }));
    expect(withoutDurations(outcomes)).toEqual([
      { kind: 'tool', name: 'ok', status: 200 },
      { kind: 'tool', name: 'slow', status: 200 },
      { kind: 'tool', name: 'deliberate', status: 500, classification: 'anticipated' },
      { kind: 'tool', name: 'quota', status: 429, classification: 'anticipated' },
      { kind: 'tool', name: 'revoked', status: 401, classification: 'anticipated' },
      { kind: 'tool', name: 'crash', status: 500, classification: 'crash' },
      { kind: 'tool', name: 'returns_error', status: 500 },
      { kind: 'tool', name: 'nope', status: 404 },
      { kind: 'tool', name: 'typed', status: 400 },
      { kind: 'resource', name: 'static://r', status: 200 },
      { kind: 'resource', name: 'sheet://missing', status: 404, classification: 'anticipated' },
      { kind: 'resource', name: 'sheet://revoked', status: 401, classification: 'anticipated' },
      { kind: 'prompt', name: 'p', status: 200 },
      { kind: 'prompt', name: 'p_revoked', status: 401, classification: 'anticipated' },
      { kind: 'prompt', name: 'p_crash', status: 500, classification: 'crash' },
    ]);
    expect(outcomes[1]?.durationMs).toBeGreaterThanOrEqual(35);
    const quota = outcomes[3]?.classification;
    expect(quota?.kind === 'anticipated' ? [quota.rule.name, quota.message] : quota).toEqual(['quota', 'Quota exceeded, retry in 30s']);
  });

  it('an onOutcome that throws changes nothing the client sees, and the record is still written', async () => {
    const records: LogRecord[] = [];
    let calls = 0;
    const policy = createErrorPolicy({
      logger: (r) => records.push(r),
      onOutcome: () => {
        calls += 1;
        throw new Error('access log down');
      },
    });
    const { client } = await connect(fullServer(policy));
    expect(textOf(await client.callTool({ name: 'ok', arguments: {} }))).toBe('fine');
    expect(textOf(await client.callTool({ name: 'deliberate', arguments: {} }))).toBe('Error executing tool deliberate: Sheet name must not be empty');
    expect(textOf(await client.callTool({ name: 'nope', arguments: {} }))).toBe('MCP error -32602: Tool nope not found');
    const crash = await rpcError(client.getPrompt({ name: 'p_crash' }));
    expect(crash.message).toBe(`MCP error -32603: Error getting prompt p_crash (reference ${referenceIn(crash.message)})`);
    expect(calls).toBe(4);
    expect(records.map((r) => r.name)).toEqual(['deliberate', 'p_crash']);
  });

  it("scrubs and bounds a resource URI in the outcome's name, as in the record", async () => {
    const { policy, records, outcomes } = capture({ rules, reauthorize: HINT });
    const { client } = await connect(fullServer(policy));
    await rpcError(client.readResource({ uri: `sheet://x?access_token=ya29.a0AfH6SMBsecret&${'p'.repeat(500)}` }));
    expect(records[0]?.name).toBe(`sheet://x?access_token=[REDACTED]&${'p'.repeat(165)}…`);
    expect(outcomes[0]?.name).toBe(records[0]?.name);
  });

  it("redacts the name of a call the SDK itself rejects once, as the name of a failed call's outcome", async () => {
    // a redactor that is not idempotent: each run adds a mark, so a second run would show
    const { policy, records, outcomes } = capture({ rules, redact: (text) => `${text}~` });
    const { client } = await connect(fullServer(policy));
    expect(textOf(await client.callTool({ name: 'nope', arguments: {} }))).toBe('MCP error -32602: Tool nope not found');
    await client.callTool({ name: 'deliberate', arguments: {} });
    expect(outcomes.map((o) => [o.name, o.status])).toEqual([
      ['nope~', 404],
      ['deliberate~', 500],
    ]);
    expect(records.map((r) => r.name)).toEqual(['deliberate~']);
  });

  describe('a logger that throws', () => {
    const write = process.stderr.write;
    afterEach(() => {
      process.stderr.write = write;
    });

    it('changes nothing the client sees; the record goes to stderr instead', async () => {
      const policy = createErrorPolicy({
        logger: () => {
          throw new Error('logger down');
        },
      });
      const { client } = await connect(fullServer(policy));
      const stderr: string[] = [];
      process.stderr.write = ((chunk: string) => {
        stderr.push(String(chunk));
        return true;
      }) as typeof process.stderr.write;
      const result = await client.callTool({ name: 'crash', arguments: {} });
      const error = await rpcError(client.readResource({ uri: 'sheet://missing' }));
      process.stderr.write = write;
      const reference = referenceIn(textOf(result));
      expect(result).toEqual(toolFailure(`Error executing tool crash (reference ${reference})`, failureObject('internal', false, { correlationId: reference })));
      expect(error).toEqual({
        code: -32002,
        message: 'MCP error -32002: No sheet named missing',
        data: failureData(failureObject('resource_not_found', false), 'sheet://missing'),
      });
      expect(stderr).toHaveLength(2);
      expect(stderr[0]).toMatch(
        new RegExp(`^\\[mcp-error-policy\\] ERROR tool "crash" crashed \\(reference ${reference}\\): Error "boom" \\(the configured logger threw\\)\\n {4}at `),
      );
      // a crash's line names its reference; any other line ends with the correlation id the client received
      expect(stderr[0]).not.toContain('(correlation ');
      const correlationId = correlationIdOf(error);
      expect(stderr[1]).toBe(
        `[mcp-error-policy] INFO resource "sheet://missing" failed: ResourceNotFoundError "No sheet named missing" (the configured logger threw) (correlation ${correlationId})\n`,
      );
    });
  });
});

describe('reauthorize', () => {
  it('appends the text to failures whose rule asks for it, on tools, resources and prompts, with status 401', async () => {
    const { policy, records } = capture({ rules, reauthorize: HINT });
    const { client } = await connect(fullServer(policy));
    const revoked = failureObject('revoked', false);
    const answers = [
      await client.callTool({ name: 'revoked', arguments: {} }),
      await rpcError(client.readResource({ uri: 'sheet://revoked' })),
      await rpcError(client.getPrompt({ name: 'p_revoked' })),
      await client.callTool({ name: 'quota', arguments: {} }),
    ];
    expect(answers).toEqual([
      toolFailure(`Error executing tool revoked: The sign-in was revoked\n\n${HINT}`, revoked),
      { code: -32603, message: `MCP error -32603: The sign-in was revoked\n\n${HINT}`, data: failureData(revoked) },
      { code: -32603, message: `MCP error -32603: The sign-in was revoked\n\n${HINT}`, data: failureData(revoked) },
      // other rules get no hint
      toolFailure('Error executing tool quota: Quota exceeded, retry in 30s', failureObject('quota', false)),
    ]);
    answers.forEach((answer, i) => expectCorrelated(answer, records[i]));
    expect(records.map((r) => [r.name, r.rule, r.status, r.level])).toEqual([
      ['revoked', 'revoked', 401, 'warn'],
      ['sheet://revoked', 'revoked', 401, 'warn'],
      ['p_revoked', 'revoked', 401, 'warn'],
      ['quota', 'quota', 429, 'warn'],
    ]);
  });

  it('a function gets the error and may return no text (status stays 401)', async () => {
    const seen: unknown[] = [];
    const { policy, outcomes } = capture({
      rules,
      reauthorize: (error) => {
        seen.push(error);
        return seen.length === 1 ? 'Run `acme auth login --account ops`.' : undefined;
      },
    });
    const server = newServer();
    server.registerTool('revoked', {}, withClientVisibleErrors(() => {
      throw new RevokedError('invalid_grant');
    }, { name: 'revoked', policy }));
    applyErrorPolicy(server, policy);
    const { client } = await connect(server);
    expect(textOf(await client.callTool({ name: 'revoked', arguments: {} }))).toBe(
      'Error executing tool revoked: The sign-in was revoked\n\nRun `acme auth login --account ops`.',
    );
    expect(textOf(await client.callTool({ name: 'revoked', arguments: {} }))).toBe('Error executing tool revoked: The sign-in was revoked');
    expect(seen.every((e) => e instanceof RevokedError)).toBe(true);
    expect(outcomes.map((o) => o.status)).toEqual([401, 401]);
  });

  describe('{ text, url }', () => {
    const URL_ = 'https://acme.example/login';
    /** The client text and failure object of a revoked sign-in through a hand-wrapped tool, under `reauthorize`. */
    async function revokedAnswer(reauthorize: NonNullable<ErrorPolicyOptions['reauthorize']>) {
      const { policy, records, outcomes } = capture({ rules, reauthorize });
      const server = newServer();
      server.registerTool('revoked', {}, withClientVisibleErrors(() => {
        throw new RevokedError('invalid_grant');
      }, { name: 'revoked', policy }));
      const { client } = await connect(server);
      const result = await client.callTool({ name: 'revoked', arguments: {} });
      expect(outcomes.map((o) => o.status)).toEqual([401]);
      expectCorrelated(result, records[0]);
      expect(result).toEqual(toolFailure(textOf(result), failureObject('revoked', false)));
      return textOf(result);
    }

    it('appends the text, a space and the URL (to a client without URL elicitation)', async () => {
      expect(await revokedAnswer({ text: 'Sign in to Acme again:', url: URL_ })).toBe(`Error executing tool revoked: The sign-in was revoked\n\nSign in to Acme again: ${URL_}`);
    });

    it('does not repeat a URL the text already holds; a text alone is the text', async () => {
      expect(await revokedAnswer({ text: `Sign in at ${URL_} again.`, url: URL_ })).toBe(`Error executing tool revoked: The sign-in was revoked\n\nSign in at ${URL_} again.`);
      expect(await revokedAnswer({ text: 'Run `acme auth login`.' })).toBe('Error executing tool revoked: The sign-in was revoked\n\nRun `acme auth login`.');
    });

    it('a function may return { text, url }, a string or nothing; an unusable URL is left out, an empty text gives no hint', async () => {
      const answers: unknown[] = [{ text: 'Sign in again:', url: URL_ }, 'Run `acme auth login`.', undefined, { text: 'Sign in again.', url: 'javascript:alert(1)' }, { text: '', url: URL_ }, { url: URL_ }];
      let i = 0;
      const fn = () => answers[i++] as never;
      const texts = [];
      for (let n = 0; n < answers.length; n += 1) texts.push(await revokedAnswer(fn));
      expect(texts).toEqual([
        `Error executing tool revoked: The sign-in was revoked\n\nSign in again: ${URL_}`,
        'Error executing tool revoked: The sign-in was revoked\n\nRun `acme auth login`.',
        'Error executing tool revoked: The sign-in was revoked',
        'Error executing tool revoked: The sign-in was revoked\n\nSign in again.',
        'Error executing tool revoked: The sign-in was revoked',
        'Error executing tool revoked: The sign-in was revoked',
      ]);
    });

    it('the classification names the sign-in page only when there is a URL', () => {
      const error = new RevokedError('invalid_grant');
      expect(classifyError(error, createErrorPolicy({ rules, reauthorize: { text: 'Sign in again:', url: URL_ } }))).toMatchObject({ signIn: { text: 'Sign in again:', url: URL_ } });
      expect(classifyError(error, createErrorPolicy({ rules, reauthorize: 'Sign in again.' }))).not.toHaveProperty('signIn');
      expect(classifyError(new QuotaError('429'), createErrorPolicy({ rules, reauthorize: { text: 'Sign in again:', url: URL_ } }))).not.toHaveProperty('signIn');
    });
  });

  it('without a reauthorize option, a rule marked reauthorize still reports 401 and shows only its message', async () => {
    const { policy, outcomes } = capture({ rules });
    const { client } = await connect(fullServer(policy));
    expect(textOf(await client.callTool({ name: 'revoked', arguments: {} }))).toBe('Error executing tool revoked: The sign-in was revoked');
    expect(outcomes.map((o) => o.status)).toEqual([401]);
  });
});

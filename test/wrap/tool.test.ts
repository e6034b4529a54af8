import { McpError, ErrorCode, UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { coreRules, createErrorPolicy, ToolError, toToolResult, withClientVisibleErrors, type LogRecord } from '../../src/index.js';
import type { ToolErrorResult } from '../../src/wrap/tool.js';
import { expectCorrelated, failureObject, toolFailure } from '../support/failure.js';
import { captureLogs, connect, correlationIdOf, DRAFT_TOOL_FAILURE_KEY, FAILURE_KEY, newServer, REFERENCE, textOf, withStderr, type Session } from '../support/session.js';

const CANARY = 'CANARY-7f3e-internal-detail';

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

/** Registers `tool` (throwing `thrown()` on every call) and calls it once through a real client. */
async function callFailing(thrown: () => unknown, options: { name?: string; exposeCrashDetails?: boolean } = {}) {
  const { records, logger } = captureLogs();
  const policy = createErrorPolicy({ logger, ...(options.exposeCrashDetails === undefined ? {} : { exposeCrashDetails: options.exposeCrashDetails }) });
  const server = newServer();
  server.registerTool(
    'sheet_get',
    { inputSchema: { name: z.string() } },
    withClientVisibleErrors(async () => {
      throw thrown();
    }, { name: options.name ?? 'sheet_get', policy }),
  );
  session = await connect(server);
  const result = await session.client.callTool({ name: 'sheet_get', arguments: { name: 'x' } });
  return { result, records };
}

function expectCrash(result: unknown, records: LogRecord[], name = 'sheet_get'): string {
  const text = textOf(result);
  const match = new RegExp(`^Error executing tool ${name} \\(reference ([0-9a-f]{12})\\)$`).exec(text);
  expect(match, text).not.toBeNull();
  const reference = match![1]!;
  // the failure object says `internal`, nothing else, and its correlation id is the reference
  expect(result).toEqual(toolFailure(text, failureObject('internal', false, { correlationId: reference })));
  expect(JSON.stringify(result)).not.toContain(CANARY);
  expect(records).toHaveLength(1);
  const record = records[0]!;
  expect(record.level).toBe('error');
  expect(record.kind).toBe('crash');
  expect(record.reference).toBe(reference);
  expect(record.correlationId).toBe(reference);
  expect(record.message).toContain(`(reference ${reference})`);
  expect(record.message.startsWith(`tool "${name}" crashed (reference ${reference}): `)).toBe(true);
  expect(record.stack).toBeTypeOf('string');
  return reference;
}

describe('withClientVisibleErrors through a real client', () => {
  it('shows a ToolError as an isError result and logs one info line without a stack', async () => {
    const { result, records } = await callFailing(() => new ToolError('Sheet name must not be empty'));
    expect(result).toEqual(toolFailure('Error executing tool sheet_get: Sheet name must not be empty', failureObject('tool_error', false)));
    const correlationId = expectCorrelated(result, records[0]);
    expect(records).toEqual([
      {
        level: 'info',
        message: 'tool "sheet_get" failed: ToolError "Sheet name must not be empty"',
        kind: 'anticipated',
        handler: 'tool',
        name: 'sheet_get',
        rule: 'deliberate',
        status: 500,
        errorName: 'ToolError',
        errorMessage: 'Sheet name must not be empty',
        correlationId,
      },
    ]);
  });

  it('masks a TypeError from undefined.x and logs it at error with its stack and the reference', async () => {
    const { result, records } = await callFailing(() => {
      try {
        const missing: { x?: { y: string } } = {};
        return missing.x!.y + CANARY;
      } catch (error) {
        return error;
      }
    });
    expectCrash(result, records);
    expect(records[0]!.errorName).toBe('TypeError');
    expect(records[0]!.errorMessage).toBe("Cannot read properties of undefined (reading 'y')");
    expect(records[0]!.stack).toMatch(/^ {4}at /);
  });

  it('masks a thrown string', async () => {
    const { result, records } = await callFailing(() => `${CANARY} as a string`);
    expectCrash(result, records);
    expect(records[0]!.errorName).toBe('string');
    expect(records[0]!.errorMessage).toBe(`${CANARY} as a string`);
    expect(records[0]!.stack).toBe('    (no stack: string thrown)');
  });

  it('masks throw undefined', async () => {
    const { result, records } = await callFailing(() => undefined);
    expectCrash(result, records);
    expect(records[0]!.errorName).toBe('undefined');
  });

  it('masks a Proxy whose every trap throws', async () => {
    const trap = () => {
      throw new Error(CANARY);
    };
    const hostile = new Proxy({}, { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap, apply: trap });
    const { result, records } = await callFailing(() => hostile);
    expectCrash(result, records);
  });

  it('masks a revoked Proxy', async () => {
    const { proxy, revoke } = Proxy.revocable(new Error(CANARY), {});
    revoke();
    const { result, records } = await callFailing(() => proxy);
    expectCrash(result, records);
  });

  it('masks an error whose cause chain is cyclic', async () => {
    const { result, records } = await callFailing(() => {
      const a = new Error(`${CANARY} a`);
      const b = new Error(`${CANARY} b`, { cause: a });
      (a as { cause?: unknown }).cause = b;
      return a;
    });
    expectCrash(result, records);
    expect(records[0]!.stack).toContain('caused by: Error');
  });

  it('shows the ToolError text when a ToolError is the cause of a plain Error', async () => {
    const { result, records } = await callFailing(() => new Error(`wrapper ${CANARY}`, { cause: new ToolError('Quota of 3 sheets reached') }));
    expect(result).toEqual(toolFailure('Error executing tool sheet_get: Quota of 3 sheets reached', failureObject('tool_error', false)));
    expect(records).toHaveLength(1);
    expectCorrelated(result, records[0]);
    expect(records[0]!.level).toBe('info');
  });

  it('shows only the ToolError text when its cause is a crash', async () => {
    const { result, records } = await callFailing(() => new ToolError('Could not open the sheet', { cause: new TypeError(CANARY) }));
    expect(result).toEqual(toolFailure('Error executing tool sheet_get: Could not open the sheet', failureObject('tool_error', false)));
    expect(records).toHaveLength(1);
    expectCorrelated(result, records[0]);
  });

  it('passes an McpError through untouched: the wire shows what the SDK shows without the policy', async () => {
    const server = newServer();
    const { records, logger } = captureLogs();
    const policy = createErrorPolicy({ logger });
    server.registerTool('bare', {}, () => {
      throw new McpError(ErrorCode.InvalidParams, 'Unknown sheet id');
    });
    server.registerTool('wrapped', {}, withClientVisibleErrors(() => {
      throw new McpError(ErrorCode.InvalidParams, 'Unknown sheet id');
    }, { name: 'wrapped', policy }));
    session = await connect(server);
    const bare = await session.client.callTool({ name: 'bare', arguments: {} });
    const wrapped = await session.client.callTool({ name: 'wrapped', arguments: {} });
    expect(wrapped).toEqual(bare);
    // no failure object on a protocol error, and no correlation id on its record
    expect(wrapped).toEqual({ content: [{ type: 'text', text: 'MCP error -32602: Unknown sheet id' }], isError: true });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level: 'info', kind: 'protocol', status: 400 });
    expect(records[0]).not.toHaveProperty('correlationId');
  });

  it('passes UrlElicitationRequired (-32042) through as a JSON-RPC error', async () => {
    const server = newServer();
    const { logger } = captureLogs();
    server.registerTool('needs_url', {}, withClientVisibleErrors(() => {
      throw new UrlElicitationRequiredError([{ mode: 'url', elicitationId: 'e1', url: 'https://example.test/consent', message: 'Consent needed' }]);
    }, { name: 'needs_url', policy: createErrorPolicy({ logger }) }));
    session = await connect(server);
    await expect(session.client.callTool({ name: 'needs_url', arguments: {} })).rejects.toMatchObject({ code: -32042 });
  });

  it('gives a failing tool with an outputSchema an isError result without structuredContent', async () => {
    const server = newServer();
    const { records, logger } = captureLogs();
    server.registerTool(
      'stats',
      { outputSchema: { rows: z.number() } },
      withClientVisibleErrors(async () => {
        throw new ToolError('The sheet is empty');
      }, { name: 'stats', policy: createErrorPolicy({ logger }) }),
    );
    session = await connect(server);
    const result = await session.client.callTool({ name: 'stats', arguments: {} });
    expect(result).toEqual(toolFailure('Error executing tool stats: The sheet is empty', failureObject('tool_error', false)));
    expect(result).not.toHaveProperty('structuredContent');
    expect(records).toHaveLength(1);
    expectCorrelated(result, records[0]);
  });

  it('leaves successful results as they are', async () => {
    const server = newServer();
    server.registerTool('echo', { inputSchema: { text: z.string() }, outputSchema: { text: z.string() } }, withClientVisibleErrors(({ text }) => ({
      content: [{ type: 'text' as const, text }],
      structuredContent: { text },
    })));
    session = await connect(server);
    expect(await session.client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({
      content: [{ type: 'text', text: 'hi' }],
      structuredContent: { text: 'hi' },
    });
  });

  it('works with one argument: the function name names the tool', async () => {
    const server = newServer();
    server.registerTool('named', {}, withClientVisibleErrors(function listSheets() {
      throw new ToolError('No spreadsheet open');
    }));
    session = await connect(server);
    const { client } = session;
    const { value: result, written } = await withStderr(() => client.callTool({ name: 'named', arguments: {} }));
    expect(textOf(result)).toBe('Error executing tool listSheets: No spreadsheet open');
    // the default policy's logger: one line on stderr
    expect(written).toEqual([`[mcp-error-policy] INFO tool "listSheets" failed: ToolError "No spreadsheet open" (correlation ${correlationIdOf(result)})\n`]);
  });
});

describe('dev mode (exposeCrashDetails)', () => {
  const saved = process.env.NODE_ENV;
  afterEach(() => {
    if (saved === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved;
  });

  it('reveals the crash text when NODE_ENV is exactly development', async () => {
    process.env.NODE_ENV = 'development';
    const { result, records } = await callFailing(() => new RangeError('index 7 out of range'));
    const reference = records[0]!.reference!;
    expect(textOf(result)).toBe(`Error executing tool sheet_get: RangeError: index 7 out of range (reference ${reference})`);
  });

  it.each(['production', 'Development', 'development ', 'dev', 'test', ''])('masks it when NODE_ENV is %j', async (value) => {
    process.env.NODE_ENV = value;
    const { result, records } = await callFailing(() => new RangeError(CANARY));
    expectCrash(result, records);
  });

  it('masks it when NODE_ENV is unset', async () => {
    delete process.env.NODE_ENV;
    const { result, records } = await callFailing(() => new RangeError(CANARY));
    expectCrash(result, records);
  });

  it('follows an explicit exposeCrashDetails over NODE_ENV', async () => {
    process.env.NODE_ENV = 'development';
    const { result, records } = await callFailing(() => new RangeError(CANARY), { exposeCrashDetails: false });
    expectCrash(result, records);
  });

  it('scrubs secrets from revealed crash text', async () => {
    const { result } = await callFailing(() => new Error('GET https://api.test/v1?key=AIzaSyA1234567890abcdefghijklmnopqrstu failed'), { exposeCrashDetails: true });
    expect(textOf(result)).toMatch(/^Error executing tool sheet_get: Error: GET https:\/\/api\.test\/v1\?key=\[REDACTED\] failed \(reference [0-9a-f]{12}\)$/);
  });
});

describe('toToolResult', () => {
  it('gives a tool that catches errors itself the same text and log record', async () => {
    const { records, logger } = captureLogs();
    const policy = createErrorPolicy({ logger });
    const server = newServer();
    server.registerTool('safe', {}, async () => {
      try {
        throw new ToolError('Range A1:B is not valid');
      } catch (error) {
        return toToolResult(error, 'safe', policy);
      }
    });
    session = await connect(server);
    const result = await session.client.callTool({ name: 'safe', arguments: {} });
    expect(result).toEqual(toolFailure('Error executing tool safe: Range A1:B is not valid', failureObject('tool_error', false)));
    expect(records).toHaveLength(1);
    expect(records[0]!.message).toBe('tool "safe" failed: ToolError "Range A1:B is not valid"');
    expectCorrelated(result, records[0]);
  });

  it('masks a caught crash with a reference that is in the log', () => {
    const { records, logger } = captureLogs();
    const result = toToolResult(new Error(CANARY), 'safe', createErrorPolicy({ logger }));
    const reference = /\(reference ([0-9a-f]{12})\)$/.exec(textOf(result))?.[1];
    expect(reference).toMatch(REFERENCE);
    expect(records[0]!.reference).toBe(reference);
    expect(result._meta).toEqual({ 'mcp-error-policy/failure': failureObject('internal', false, { correlationId: reference }) });
  });

  it('reports the caught failure status to the access log of the wrapping tool', async () => {
    const statuses: number[] = [];
    const policy = createErrorPolicy({ logger: () => undefined, onOutcome: ({ status }) => statuses.push(status) });
    const wrapped = withClientVisibleErrors(async () => toToolResult(new Error(CANARY), 'safe', policy), { name: 'safe', policy });
    await wrapped();
    expect(statuses).toEqual([500]);
  });

  it('rejects a policy that is not one', () => {
    expect(() => toToolResult(new Error('x'), 'safe', {} as never)).toThrow(new TypeError('Expected `policy` to be a policy made by createErrorPolicy(), got object'));
  });
});

describe('wrapper arguments', () => {
  it('keeps the type of the handler', () => {
    const handler = async (args: { name: string }) => ({ content: [{ type: 'text' as const, text: args.name }] });
    const wrapped: typeof handler = withClientVisibleErrors(handler, { name: 'x' });
    expect(wrapped).toBeTypeOf('function');
  });

  it('throws a TypeError naming a bad handler, name or policy', () => {
    expect(() => withClientVisibleErrors('nope' as never)).toThrow(new TypeError('Expected `handler` to be a function, got string'));
    expect(() => withClientVisibleErrors(() => 1, { name: 3 as never })).toThrow(new TypeError('Expected `name` to be a non-empty string, got number'));
    expect(() => withClientVisibleErrors(() => 1, { policy: { rules: [] } as never })).toThrow(
      new TypeError('Expected `policy` to be a policy made by createErrorPolicy(), got object'),
    );
  });

  it('returns a function already wrapped as it is, so a failure is logged once', async () => {
    const { records, logger } = captureLogs();
    const policy = createErrorPolicy({ logger });
    const once = withClientVisibleErrors(() => {
      throw new Error(CANARY);
    }, { name: 'twice', policy });
    const twice = withClientVisibleErrors(once, { name: 'twice', policy });
    expect(twice).toBe(once);
    await twice();
    expect(records).toHaveLength(1);
  });

  it('answers a synchronous throw and a synchronous value', async () => {
    const policy = createErrorPolicy({ logger: () => undefined });
    const fails = withClientVisibleErrors((): never => {
      throw new ToolError('sync');
    }, { name: 'sync', policy });
    await expect(fails()).resolves.toEqual(toolFailure('Error executing tool sync: sync', failureObject('tool_error', false)));
    const value = { content: [] };
    expect(withClientVisibleErrors(() => value, { policy })()).toBe(value);
  });
});

describe('the failure object on tool results', () => {
  class RevokedError extends Error {
    override name = 'RevokedError';
  }
  const rules = [
    { name: 'revoked', predicate: (e: unknown) => e instanceof RevokedError, message: 'The sign-in was revoked.', reauthorize: true },
    ...coreRules,
  ];
  const refused = () => Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:443'), { code: 'ECONNREFUSED', syscall: 'connect' });

  /** Calls a tool wrapped under a policy made with `options` that throws `thrown()`: its result and record. */
  async function answer(thrown: () => unknown, options: Parameters<typeof createErrorPolicy>[0] = {}) {
    const { records, logger } = captureLogs();
    const policy = createErrorPolicy({ logger, rules, reauthorize: 'Sign in again.', ...options });
    const result = await withClientVisibleErrors(() => {
      throw thrown();
    }, { name: 't', policy })();
    return { result: result as ToolErrorResult, record: records[0]! };
  }

  it('failureObject: false: no _meta at all, for any failure; the record keeps its correlation id', async () => {
    for (const thrown of [() => new ToolError('No.', { code: 'no', retryAfterMs: 1000 }), () => new Error(CANARY), refused, () => new RevokedError()]) {
      const { result, record } = await answer(thrown, { failureObject: false, draftToolFailure: true });
      expect(Object.keys(result)).toEqual(['content', 'isError']);
      expect(record.correlationId).toMatch(REFERENCE);
    }
    // the text is unchanged, delay included
    expect(textOf((await answer(() => new ToolError('No.', { retryAfterMs: 1000 }), { failureObject: false })).result)).toBe('Error executing tool t: No. Retry after 1 s.');
  });

  it('failureObject: false on a degraded answer: no _meta either', async () => {
    const policy = createErrorPolicy({ logger: () => undefined, degraded: () => 'Not signed in.', failureObject: false });
    expect(await withClientVisibleErrors(() => ({ content: [] }), { name: 't', policy })()).toEqual({ content: [{ type: 'text', text: 'Error executing tool t: Not signed in.' }], isError: true });
  });

  describe('draftToolFailure: true', () => {
    it('reliability with a delay: retryable, retryNotBefore in epoch ms, the retry text as guidance', async () => {
      const before = Date.now();
      const { result, record } = await answer(() => new ToolError('Busy.', { code: 'busy', retryAfterMs: 30_000 }), { draftToolFailure: true });
      const after = Date.now();
      const draft = result._meta?.[DRAFT_TOOL_FAILURE_KEY] as Record<string, unknown>;
      expect(result._meta).toEqual({
        [FAILURE_KEY]: failureObject('busy', true, { retryAfterMs: 30_000, correlationId: record.correlationId }),
        [DRAFT_TOOL_FAILURE_KEY]: {
          class: 'reliability',
          code: 'busy',
          correlationId: record.correlationId,
          retryable: true,
          retryNotBefore: expect.any(Number),
          agentGuidance: 'Retry after 30 s.',
        },
      });
      expect(Object.keys(result._meta!)).toEqual([FAILURE_KEY, DRAFT_TOOL_FAILURE_KEY]);
      expect(Object.keys(draft)).toEqual(['class', 'code', 'correlationId', 'retryable', 'retryNotBefore', 'agentGuidance']);
      expect(draft.retryNotBefore).toBeGreaterThanOrEqual(before + 30_000);
      expect(draft.retryNotBefore).toBeLessThanOrEqual(after + 30_000);
    });

    it('reliability without a delay (a network failure): retryable, nothing else', async () => {
      const { result, record } = await answer(refused, { draftToolFailure: true });
      expect(result._meta?.[DRAFT_TOOL_FAILURE_KEY]).toEqual({ class: 'reliability', code: 'network', correlationId: record.correlationId, retryable: true });
      expect(Object.keys(result._meta?.[DRAFT_TOOL_FAILURE_KEY] as object)).toEqual(['class', 'code', 'correlationId', 'retryable']);
    });

    it('governance for a failure that asks for a sign-in, and for a degraded answer', async () => {
      const { result, record } = await answer(() => new RevokedError(), { draftToolFailure: true });
      expect(result).toEqual({
        content: [{ type: 'text', text: 'Error executing tool t: The sign-in was revoked.\n\nSign in again.' }],
        isError: true,
        _meta: {
          [FAILURE_KEY]: failureObject('revoked', false, { correlationId: record.correlationId }),
          [DRAFT_TOOL_FAILURE_KEY]: { class: 'governance', code: 'revoked', correlationId: record.correlationId, agentGuidance: 'Ask the user to sign in again.' },
        },
      });
      const { records, logger } = captureLogs();
      const degraded = createErrorPolicy({ logger, degraded: () => 'Not signed in.', draftToolFailure: true });
      const refusedCall = (await withClientVisibleErrors(() => ({ content: [] }), { name: 't', policy: degraded })()) as unknown as ToolErrorResult;
      const id = records[0]!.correlationId;
      expect(refusedCall._meta).toEqual({
        [FAILURE_KEY]: failureObject('auth_required', false, { correlationId: id }),
        [DRAFT_TOOL_FAILURE_KEY]: { class: 'governance', code: 'auth_required', correlationId: id, agentGuidance: 'Ask the user to sign in again.' },
      });
    });

    it('capability for a deliberate error and for a crash (whose object says nothing else)', async () => {
      const deliberate = await answer(() => new ToolError('Sheet names are at most 31 characters', { code: 'invalid_input' }), { draftToolFailure: true });
      expect(deliberate.result._meta?.[DRAFT_TOOL_FAILURE_KEY]).toEqual({ class: 'capability', code: 'invalid_input', correlationId: deliberate.record.correlationId });
      const crash = await answer(() => new Error(CANARY), { draftToolFailure: true });
      const reference = crash.record.reference;
      expect(crash.result._meta).toEqual({
        [FAILURE_KEY]: failureObject('internal', false, { correlationId: reference }),
        [DRAFT_TOOL_FAILURE_KEY]: { class: 'capability', code: 'internal', correlationId: reference },
      });
      expect(JSON.stringify(crash.result)).not.toContain(CANARY);
    });

    it('reaches a real client as it is', async () => {
      const server = newServer();
      const { records, logger } = captureLogs();
      server.registerTool('busy', {}, withClientVisibleErrors(() => {
        throw new ToolError('Busy.', { retryAfterMs: 2000 });
      }, { name: 'busy', policy: createErrorPolicy({ logger, draftToolFailure: true }) }));
      session = await connect(server);
      const before = Date.now();
      const result = await session.client.callTool({ name: 'busy', arguments: {} });
      const after = Date.now();
      const id = records[0]!.correlationId;
      expect(result).toEqual({
        content: [{ type: 'text', text: 'Error executing tool busy: Busy. Retry after 2 s.' }],
        isError: true,
        _meta: {
          [FAILURE_KEY]: failureObject('tool_error', true, { retryAfterMs: 2000, correlationId: id }),
          [DRAFT_TOOL_FAILURE_KEY]: { class: 'reliability', code: 'tool_error', correlationId: id, retryable: true, retryNotBefore: expect.any(Number), agentGuidance: 'Retry after 2 s.' },
        },
      });
      const notBefore = (result._meta as Record<string, { retryNotBefore: number }>)[DRAFT_TOOL_FAILURE_KEY]!.retryNotBefore;
      expect(notBefore).toBeGreaterThanOrEqual(before + 2000);
      expect(notBefore).toBeLessThanOrEqual(after + 2000);
    });
  });

  it('toToolResult: the same object (and draft) as the wrapper, tied to its record', () => {
    const { records, logger } = captureLogs();
    const policy = createErrorPolicy({ logger, rules, draftToolFailure: true });
    const result = toToolResult(new ToolError('Later.', { code: 'later', retryAfterMs: 5000 }), 'safe', policy);
    expect(result.content).toEqual([{ type: 'text', text: 'Error executing tool safe: Later. Retry after 5 s.' }]);
    expect(result._meta?.[FAILURE_KEY]).toEqual(failureObject('later', true, { retryAfterMs: 5000, correlationId: records[0]!.correlationId }));
    expect(result._meta?.[DRAFT_TOOL_FAILURE_KEY]).toMatchObject({ class: 'reliability', code: 'later', correlationId: records[0]!.correlationId });
    expect(Object.keys(toToolResult(refused(), 'safe', createErrorPolicy({ logger, rules, failureObject: false })))).toEqual(['content', 'isError']);
    const network = toToolResult(refused(), 'safe', createErrorPolicy({ logger, rules }));
    expect(network._meta).toEqual({ [FAILURE_KEY]: failureObject('network', true, { unreached: true, correlationId: records.at(-1)!.correlationId }) });
  });
});

import { Console } from 'node:console';
import { PassThrough, Writable } from 'node:stream';
import pino from 'pino';
import winston from 'winston';
import { describe, expect, it } from 'vitest';
import { createErrorPolicy, ToolError, withClientVisibleErrors, type LogRecord } from '../src/index.js';
import { failureObjectOf, REFERENCE, withStderr } from './support/calls.js';
import { expectCorrelated, failureObject, toolFailure } from './support/failure.js';

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** A deliberate failure, then a crash: the crash's reference, and the correlation id the deliberate answer carried. */
async function failTwice(logger: never): Promise<{ reference: string; correlationId: unknown }> {
  const policy = createErrorPolicy({ logger });
  const deliberate = withClientVisibleErrors(() => { throw new ToolError('Sheet name must not be empty'); }, { name: 'sheet_get', policy });
  const crash = withClientVisibleErrors(() => { throw new TypeError('CANARY bad'); }, { name: 'sheet_get', policy });
  const correlationId = failureObjectOf(await deliberate())?.['correlationId'];
  const result = (await crash()) as { content: { text: string }[] };
  return { reference: /reference ([0-9a-f]{12})/.exec(result.content[0]!.text)![1]!, correlationId };
}

describe('logger shapes', () => {
  it('writes to a console-shaped logger: one call per failure, the info one on one line', async () => {
    const out = sink();
    const err = sink();
    const logger = new Console({ stdout: out.stream, stderr: err.stream });
    const { reference, correlationId } = await failTwice(logger as never);
    expect(correlationId).toMatch(REFERENCE);
    expect(out.text()).toBe(`tool "sheet_get" failed: ToolError "Sheet name must not be empty" (correlation ${String(correlationId)})\n`);
    const lines = err.text().trimEnd().split('\n');
    expect(lines[0]).toBe(`tool "sheet_get" crashed (reference ${reference}): TypeError "CANARY bad"`);
    expect(lines.slice(1).every((line) => line.startsWith('    at ') || line.startsWith('  caused by: '))).toBe(true);
  });

  it('writes to pino: structured fields and the message', async () => {
    const out = sink();
    const logger = pino({ base: null, timestamp: false }, out.stream);
    const { reference, correlationId } = await failTwice(logger as never);
    expect(correlationId).toMatch(REFERENCE);
    await new Promise((resolve) => setImmediate(resolve));
    const lines = out.text().trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toEqual({
      level: 30,
      component: 'mcp-error-policy',
      handlerName: 'sheet_get',
      kind: 'anticipated',
      handler: 'tool',
      rule: 'deliberate',
      status: 500,
      errorName: 'ToolError',
      errorMessage: 'Sheet name must not be empty',
      correlationId,
      msg: 'tool "sheet_get" failed: ToolError "Sheet name must not be empty"',
    });
    expect(lines[1]).toMatchObject({ level: 50, kind: 'crash', reference, correlationId: reference, msg: `tool "sheet_get" crashed (reference ${reference}): TypeError "CANARY bad"` });
    expect(lines[1]!.stack).toMatch(/^ {4}at /);
  });

  it('writes to winston: level, message and fields', async () => {
    const entries: Record<string, unknown>[] = [];
    const stream = new Writable({ objectMode: true, write(entry: Record<string, unknown>, _enc, done) { entries.push(entry); done(); } });
    const logger = winston.createLogger({ level: 'info', transports: [new winston.transports.Stream({ stream })] });
    const { reference, correlationId } = await failTwice(logger as never);
    await new Promise((resolve) => setImmediate(resolve));
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ level: 'info', message: 'tool "sheet_get" failed: ToolError "Sheet name must not be empty"', rule: 'deliberate', correlationId });
    expect(entries[1]).toMatchObject({ level: 'error', reference, correlationId: reference, kind: 'crash' });
  });

  it('contains a logger that throws: the client still gets its answer, and the record goes to stderr', async () => {
    const policy = createErrorPolicy({ logger: () => { throw new Error('logger down'); } });
    const written: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => { written.push(String(chunk)); return true; }) as typeof process.stderr.write;
    let result: unknown;
    try {
      result = await withClientVisibleErrors(() => { throw new ToolError('still answered'); }, { name: 't', policy })();
    } finally {
      process.stderr.write = original;
    }
    expect(result).toEqual(toolFailure('Error executing tool t: still answered', failureObject('tool_error', false)));
    const correlationId = String(failureObjectOf(result)?.['correlationId']);
    expect(correlationId).toMatch(REFERENCE);
    expect(written).toEqual([`[mcp-error-policy] INFO tool "t" failed: ToolError "still answered" (the configured logger threw) (correlation ${correlationId})\n`]);
  });
});

const NOT_SIGNED_IN = 'Not signed in: run `sheets login`.';

/** What the client was given for each kind of failure: the correlation ids it reads, and the crash's reference. */
interface Answered {
  readonly anticipated: string;
  readonly warned: string;
  readonly degraded: string;
  readonly reference: string;
}

/**
 * Four failures through policies logging to `logger` (`undefined`: the default, stderr): a deliberate failure, an
 * allowlisted foreign error (warn, with a stack), a call refused while degraded, and a crash. Returns the ids the
 * client received, each checked to be 12 hex digits; the crash's correlation id is its reference.
 */
async function failFourWays(logger?: never): Promise<Answered> {
  const logging = logger === undefined ? {} : { logger };
  const policy = createErrorPolicy({
    ...logging,
    rules: [{ name: 'sheet-locked', predicate: (error) => (error as { locked?: unknown }).locked === true, level: 'warn' }],
  });
  const degradedPolicy = createErrorPolicy({ ...logging, degraded: () => NOT_SIGNED_IN });
  const idOf = (answer: unknown): string => {
    const id = failureObjectOf(answer)?.['correlationId'];
    expect(id).toMatch(REFERENCE);
    return id as string;
  };
  const anticipated = idOf(await withClientVisibleErrors(() => { throw new ToolError('Sheet name must not be empty'); }, { name: 'sheet_get', policy })());
  const warned = idOf(await withClientVisibleErrors(() => { throw Object.assign(new Error('Sheet is locked'), { locked: true }); }, { name: 'sheet_get', policy })());
  const degraded = idOf(await withClientVisibleErrors(() => ({ content: [] }), { name: 'sheet_get', policy: degradedPolicy })());
  const crash = (await withClientVisibleErrors(() => { throw new TypeError('CANARY bad'); }, { name: 'sheet_get', policy })()) as { content: { text: string }[] };
  const reference = /\(reference ([0-9a-f]{12})\)$/.exec(crash.content[0]!.text)?.[1];
  expect(idOf(crash)).toBe(reference);
  return { anticipated, warned, degraded, reference: reference! };
}

/** The first lines of the four failures of {@link failFourWays}, without the `[mcp-error-policy] LEVEL ` prefix. */
function firstLines(ids: Answered): string[] {
  return [
    `tool "sheet_get" failed: ToolError "Sheet name must not be empty" (correlation ${ids.anticipated})`,
    `tool "sheet_get" failed (rule sheet-locked): Error "Sheet is locked" (correlation ${ids.warned})`,
    `tool "sheet_get" refused (degraded): ${JSON.stringify(NOT_SIGNED_IN)} (correlation ${ids.degraded})`,
    // a crash's line names its reference, which is its correlation id: no suffix
    `tool "sheet_get" crashed (reference ${ids.reference}): TypeError "CANARY bad"`,
  ];
}

/** Checks that the text after a first line is stack lines only (warn and error records), and none for info. */
function expectStack(level: string, rest: readonly string[]): void {
  if (level === 'info') expect(rest).toEqual([]);
  else {
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((line) => line.startsWith('    at ') || line.startsWith('  caused by: ')), rest.join('\n')).toBe(true);
  }
}

describe('the text line names the correlation id', () => {
  it('the default stderr logger ends the first line of every failure but a crash with (correlation <id>), the id the client got', async () => {
    const { value: ids, written } = await withStderr(() => failFourWays());
    expect(written).toHaveLength(4);
    const levels = ['INFO', 'WARN', 'INFO', 'ERROR'];
    expect(written.map((text) => text.split('\n')[0])).toEqual(firstLines(ids).map((line, i) => `[mcp-error-policy] ${levels[i]!} ${line}`));
    written.forEach((text, i) => {
      expect(text.endsWith('\n')).toBe(true);
      expectStack(levels[i]!.toLowerCase(), text.slice(0, -1).split('\n').slice(1));
    });
    expect(written[3]).not.toContain('(correlation ');
  });

  it('a plain text logger (info, warn, error) gets the same text, without the prefix', async () => {
    const calls: [level: string, text: string][] = [];
    const logger = {
      info: (text: string) => calls.push(['info', text]),
      warn: (text: string) => calls.push(['warn', text]),
      error: (text: string) => calls.push(['error', text]),
    };
    const ids = await failFourWays(logger as never);
    expect(calls.map(([level]) => level)).toEqual(['info', 'warn', 'info', 'error']);
    expect(calls.map(([, text]) => text.split('\n')[0])).toEqual(firstLines(ids));
    for (const [level, text] of calls) expectStack(level, text.split('\n').slice(1));
    expect(calls[3]![1]).not.toContain('(correlation ');
  });

  it('a function logger gets the record: its message has no suffix, its correlationId is the id', async () => {
    const records: LogRecord[] = [];
    const ids = await failFourWays(((record: LogRecord) => records.push(record)) as never);
    expect(records.map((r) => r.message)).toEqual(firstLines(ids).map((line) => line.replace(/ \(correlation [0-9a-f]{12}\)$/, '')));
    expect(records.map((r) => r.correlationId)).toEqual([ids.anticipated, ids.warned, ids.degraded, ids.reference]);
  });

  it('pino gets no suffix in msg: the id is its correlationId field', async () => {
    const out = sink();
    const ids = await failFourWays(pino({ base: null, timestamp: false }, out.stream) as never);
    await new Promise((resolve) => setImmediate(resolve));
    const entries = out.text().trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.map((e) => e['msg'])).toEqual(firstLines(ids).map((line) => line.replace(/ \(correlation [0-9a-f]{12}\)$/, '')));
    expect(entries.map((e) => e['correlationId'])).toEqual([ids.anticipated, ids.warned, ids.degraded, ids.reference]);
    for (const entry of entries) expect(String(entry['msg'])).not.toContain('(correlation ');
  });

  it('winston gets no suffix in message: the id is its correlationId field', async () => {
    const entries: Record<string, unknown>[] = [];
    const stream = new Writable({ objectMode: true, write(entry: Record<string, unknown>, _enc, done) { entries.push(entry); done(); } });
    const ids = await failFourWays(winston.createLogger({ level: 'info', transports: [new winston.transports.Stream({ stream })] }) as never);
    await new Promise((resolve) => setImmediate(resolve));
    expect(entries.map((e) => e['message'])).toEqual(firstLines(ids).map((line) => line.replace(/ \(correlation [0-9a-f]{12}\)$/, '')));
    expect(entries.map((e) => e['correlationId'])).toEqual([ids.anticipated, ids.warned, ids.degraded, ids.reference]);
    for (const entry of entries) expect(String(entry['message'])).not.toContain('(correlation ');
  });
});

describe('what a rule knows of the HTTP request', () => {
  it('goes into the record, scrubbed and bounded: method, URL, status, request id, and the first line names them', async () => {
    const records: LogRecord[] = [];
    class ApiError extends Error {
      constructor(readonly status: number, readonly requestId: string) {
        super(`API answered ${status}`);
        this.name = 'ApiError';
      }
    }
    const policy = createErrorPolicy({
      logger: (record) => records.push(record),
      rules: [
        {
          name: 'api',
          predicate: (error) => error instanceof ApiError,
          status: (error) => (error as ApiError).status,
          request: (error) => ({ method: 'DELETE', url: 'https://api.example/v1/rows/7?access_token=[REDACTED]', status: (error as ApiError).status, requestId: (error as ApiError).requestId }),
        },
      ],
    });
    const tool = withClientVisibleErrors(
      () => {
        throw new Error('Row delete failed', { cause: new ApiError(409, 'req-7 Bearer ya29.a0AfB_LEAKEDtoken0123456789') });
      },
      { name: 'rows_delete', policy },
    );
    const result = await tool();
    expect(result).toEqual(toolFailure('Error executing tool rows_delete: API answered 409', failureObject('api', false)));
    expect(records).toHaveLength(1);
    const { stack, ...record } = records[0]!;
    expect(stack).toMatch(/^ {4}at /);
    expect(record).toEqual({
      level: 'warn',
      kind: 'anticipated',
      handler: 'tool',
      name: 'rows_delete',
      rule: 'api',
      status: 409,
      errorName: 'Error',
      errorMessage: 'Row delete failed',
      httpMethod: 'DELETE',
      httpUrl: 'https://api.example/v1/rows/7?access_token=[REDACTED]',
      httpStatus: 409,
      httpRequestId: 'req-7 Bearer [REDACTED]',
      matchedErrorName: 'ApiError',
      matchedErrorMessage: 'API answered 409',
      correlationId: expectCorrelated(result, records[0]),
      message:
        'tool "rows_delete" failed (rule api: DELETE https://api.example/v1/rows/7?access_token=[REDACTED] -> 409 request-id "req-7 Bearer [REDACTED]"): Error "Row delete failed"; matched cause ApiError "API answered 409"',
    });
  });

  it('a request reader that throws or returns nonsense adds nothing', async () => {
    for (const request of [() => { throw new Error('boom'); }, () => 42, () => ({ method: 7, url: null, status: 1000, requestId: {} })]) {
      const records: LogRecord[] = [];
      const policy = createErrorPolicy({
        logger: (record) => records.push(record),
        rules: [{ name: 'teapot', predicate: (error) => (error as { teapot?: unknown }).teapot === true, request: request as never }],
      });
      const result = await withClientVisibleErrors(() => { throw Object.assign(new Error('short and stout'), { teapot: true }); }, { name: 'brew', policy })();
      const { stack: _stack, ...record } = records[0]!;
      expect(record).toEqual({
        level: 'warn', kind: 'anticipated', handler: 'tool', name: 'brew', rule: 'teapot', status: 500, errorName: 'Error', errorMessage: 'short and stout',
        correlationId: expectCorrelated(result, records[0]),
        message: 'tool "brew" failed (rule teapot): Error "short and stout"',
      });
    }
  });
});

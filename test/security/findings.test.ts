/**
 * Regression tests for bugs a security review found in src/, all fixed since: each test states the contract with the
 * minimal value that once broke it, and fails again if the bug comes back. The comment of each test says what the
 * bug was and how it was fixed. The file and function names below are those of the review; where the code has moved
 * since, its place now is given in brackets.
 *
 * FINDING 1  src/text.ts SECRET_PATTERNS [now src/scrub.ts] + src/report.ts frames(): quadratic scrubbing and
 *            unbounded stack lines: a message with a line starting `at ` (peer text inside an error message is
 *            enough) makes one failure cost seconds to hours of CPU and puts megabytes in a record.
 * FINDING 2  src/report.ts errorLabel(): the error `name` is neither scrubbed nor redacted (record.errorName, the
 *            headline, `caused by:` lines).
 * FINDING 3  src/report.ts frames(): the policy's own `redact` is not applied to stack frames.
 * FINDING 4  src/read.ts linkedErrors() [now src/kit/chain.ts]: `Array.isArray` on an `errors` field that is a
 *            revoked Proxy throws outside the try: the walk stops (an allowlisted cause is missed) and the record is
 *            the fallback one, which also drops the call's name (src/report.ts fallbackRecord()).
 * FINDING 5  src/text.ts [now src/scrub.ts]: util.inspect forms (`client_secret: '…'`, `'client_secret' => '…'`,
 *            `token: '…'`) of credentials without a recognisable value shape are not scrubbed (google-auth-library's
 *            refresh bodies are shown by util.inspect).
 * FINDING 6  src/wrap/guard.ts handledErrors [now the per-call state of src/wrap/calls.ts]: a protocol error object
 *            thrown a second time (a module-level `new McpError(...)` constant) is never logged again.
 * FINDING 7  src/wrap/guard.ts guard(): a handler returning a promise whose `constructor` getter throws makes the
 *            wrapper throw synchronously; the SDK then puts that error's message on the wire, and nothing is logged.
 * FINDING 8  src/report.ts frames(): the message's own lines that start with `at ` are logged as stack frames (a
 *            message can forge frames of the stack section).
 * FINDING 9  src/wrap/guard.ts firstReport() [now the per-call state of src/wrap/calls.ts]: a call is reported to the
 *            access log once per last-argument object; wrapped functions called directly with the same arguments
 *            object (no SDK `extra`) lose every outcome after the first, across different wrapped functions too.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createErrorPolicy, scrubSecrets, ToolError, withClientVisibleErrors, type Outcome } from '../../src/index.js';
import { build, caseArb, failWith, type Mode } from './arbitraries.js';
import { INSPECT_EMBEDDINGS, leakIn, SECRET } from './secrets.js';
import { FAILURE_KEY, REFERENCE } from '../support/calls.js';
import { CANARY, expectToolAnswer, openSession, recordLogger, recordProblems } from './support.js';

/**
 * Milliseconds `body` takes: the fastest of three runs, so that a busy machine (another test process on the same
 * core, a GC pause) does not count; the quadratic cost these bounds catch takes seconds on every run.
 */
function timed(body: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i += 1) {
    const started = performance.now();
    body();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

describe('FINDING 1: scrubbing and stack lines must cost linear time and stay bounded', () => {
  // Measured: scrubSecrets of 40,000 letters 1.7 s, of 'eyJ' x 13,333 2.5 s (x4 the length, x16 the time); a crash
  // whose message holds "\n    at " + 40,000 letters 1.8 s, and its record holds the 40,000 letters; 1 MB: ~20 min.
  // Cause: /([a-z][a-z0-9+.-]*:\/\/).../gi (userinfo) and /eyJ[A-Za-z0-9_-]{2,}\.eyJ.../g (JWT) retry from every
  // start position of a long run; frames() scrubs each stack line whole, unbounded.
  // Fix (text.ts): anchor the starts so a run is scanned once: (?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,31}:\/\/ and
  // (?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{2,}\.eyJ... . Fix (report.ts): read at most the first 64 KB of a stack,
  // and bound each frame line: boundLength(line, policy.maxMessageLength) before scrubbing (like safeText does).
  it('scrubSecrets of 30,000 letters takes well under 200 ms', () => {
    expect(timed(() => scrubSecrets('a'.repeat(30_000)))).toBeLessThan(200);
  });

  it("scrubSecrets of 'eyJ' x 10,000 takes well under 200 ms", () => {
    expect(timed(() => scrubSecrets('eyJ'.repeat(10_000)))).toBeLessThan(200);
  });

  it('a message holding a 50,000-character line that starts with "at " is bounded in the record', async () => {
    const { records, logger } = recordLogger();
    const policy = createErrorPolicy({ logger, exposeCrashDetails: false });
    // Words, not one run of letters: this test is about the bound, not the regex cost.
    const tool = withClientVisibleErrors(() => {
      throw new Error(`bad input\n    at ${'peer '.repeat(10_000)}`);
    }, { name: 't', policy });
    await tool();
    expect(records).toHaveLength(1);
    expect(recordProblems(records[0]!, 4000)).toEqual([]);
  });

  it('a crash whose message holds "\\n    at " and 30,000 letters is answered within 500 ms', async () => {
    const policy = createErrorPolicy({ logger: () => {}, exposeCrashDetails: false });
    const tool = withClientVisibleErrors(() => {
      throw new Error(`bad input\n    at ${'a'.repeat(30_000)}`);
    }, { name: 't', policy });
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i += 1) {
      const started = performance.now();
      await tool();
      best = Math.min(best, performance.now() - started);
    }
    expect(best).toBeLessThan(500);
  });
});

describe('FINDING 2: a secret in an error name never reaches a log record', () => {
  // src/report.ts errorLabel(): escapeControls(describeThrown(error)).slice(0, 100): no scrubSecrets, no redact.
  // Fix: escapeControls(safeText(describeThrown(error), MAX_ERROR_NAME_LENGTH, policy.redact)) (pass the policy in).
  it('an error named with an access token (and a cause named with an API key)', async () => {
    const { records, logger } = recordLogger();
    const policy = createErrorPolicy({ logger, exposeCrashDetails: false });
    const cause = Object.assign(new Error('cause'), { name: `KeyError ${SECRET.apiKey}` });
    const error = Object.assign(new Error('boom', { cause }), { name: `HttpError Bearer ${SECRET.accessToken}` });
    const tool = withClientVisibleErrors(() => {
      throw error;
    }, { name: 't', policy });
    await tool();
    expect(records).toHaveLength(1);
    expect(leakIn(JSON.stringify(records))).toBeUndefined();
  });
});

describe('FINDING 3: the policy redact runs on stack frames too', () => {
  // src/report.ts frames(): escapeControls(scrubSecrets(line.trim())): policy.redact is not applied.
  // Fix: pass the policy to frames() and use applyRedactor (or safeText) per line.
  it('a customer id the redactor removes is not in the stack of the record', async () => {
    const { records, logger } = recordLogger();
    const policy = createErrorPolicy({ logger, exposeCrashDetails: false, redact: (text) => text.replaceAll(/cust_[0-9a-f]{16}/g, 'cust_…') });
    const error = new Error('lookup failed for cust_0123456789abcdef');
    error.stack = 'Error: lookup failed\n    at lookup (https://billing.example.test/customers/cust_0123456789abcdef:1:1)';
    const tool = withClientVisibleErrors(() => {
      throw error;
    }, { name: 't', policy });
    await tool();
    expect(records).toHaveLength(1);
    expect(records[0]!.errorMessage).toBe('lookup failed for cust_…');
    expect(JSON.stringify(records)).not.toContain('cust_0123456789abcdef');
  });
});

describe('FINDING 4: an `errors` field that is a revoked Proxy does not stop the cause walk', () => {
  // src/read.ts linkedErrors() [now src/kit/chain.ts]: Array.isArray(errors) throws for a revoked Proxy, outside the
  // try. classifyError catches it and calls the failure a crash (the ToolError cause is missed); reportFailure catches
  // it and writes fallbackRecord(), whose name is '' (src/report.ts fallbackRecord: `name: ''`).
  // Fix: move `Array.isArray(errors)` inside the try of linkedErrors; in fallbackRecord use
  // safeText(context.name ?? '', MAX_NAME_LENGTH) for `name`.
  function revokedArray(): unknown {
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    return proxy;
  }

  it('a ToolError cause beside a revoked `errors` is found; the record is the full one', async () => {
    const { records, logger } = recordLogger();
    const policy = createErrorPolicy({ logger, exposeCrashDetails: false });
    const tool = withClientVisibleErrors(() => {
      throw Object.assign(new Error(`wrapper ${CANARY}`, { cause: new ToolError('Sheet is locked') }), { errors: revokedArray() });
    }, { name: 'sheet_get', policy });
    const result = await tool();
    expect(result).toEqual({
      _meta: { [FAILURE_KEY]: { code: 'tool_error', retryable: false, correlationId: records[0]?.correlationId } },
      content: [{ type: 'text', text: 'Error executing tool sheet_get: Sheet is locked' }],
      isError: true,
    });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ kind: 'anticipated', rule: 'deliberate', name: 'sheet_get', correlationId: expect.stringMatching(REFERENCE) });
  });

  it('a crash with a revoked `errors`: the record keeps the name and the error', async () => {
    const { records, logger } = recordLogger();
    const policy = createErrorPolicy({ logger, exposeCrashDetails: false });
    const tool = withClientVisibleErrors(() => {
      throw Object.assign(new TypeError('x is undefined'), { errors: revokedArray() });
    }, { name: 'sheet_get', policy });
    await tool();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ kind: 'crash', name: 'sheet_get', errorName: 'TypeError', errorMessage: 'x is undefined' });
  });

  it('property: hostile values with revoked `errors` siblings (the full generator of arbitraries.ts)', async () => {
    const { records, logger } = recordLogger();
    const policy = createErrorPolicy({ logger, exposeCrashDetails: false });
    let current: { value: unknown; mode: Mode } = { value: undefined, mode: 'throw' };
    const tool = withClientVisibleErrors(() => failWith(current.value, current.mode), { name: 'hostile', policy });
    await fc.assert(
      fc.asyncProperty(caseArb({ includeFindings: true }), async (spec) => {
        const { value, expected } = build(spec, 4000);
        current = { value, mode: spec.mode };
        records.length = 0;
        expectToolAnswer(await tool(), records, expected, 'hostile', 4000);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('FINDING 5: util.inspect forms of credentials are scrubbed', () => {
  // src/text.ts [now src/scrub.ts]: the key=value pattern needs `=`, the JSON pattern needs `"key"`: `client_secret: 'GOCSPX-…'` and
  // `'client_secret' => 'GOCSPX-…'` pass, and a client secret has no value pattern.
  // Fix: a pattern for quoted inspect forms, e.g.
  //   (['"]?\b(?:SECRET_KEYS)['"]?\s*(?::|=>)\s*)'(?:[^'\\]|\\.)*'  ->  $1'[REDACTED]'
  // and a value pattern for Google client secrets: GOCSPX-[A-Za-z0-9_-]{10,}.
  for (const [name, text] of Object.entries(INSPECT_EMBEDDINGS)) {
    it(`${name}: neither client text nor log`, async () => {
      const { records, logger } = recordLogger();
      const policy = createErrorPolicy({ logger, exposeCrashDetails: false });
      const tool = withClientVisibleErrors(() => {
        throw new ToolError(`token refresh failed: ${text}`);
      }, { name: 't', policy });
      const result = await tool();
      expect(leakIn(JSON.stringify(result))).toBeUndefined();
      expect(leakIn(JSON.stringify(records))).toBeUndefined();
    });
  }
});

describe('FINDING 6: a protocol error object thrown twice is logged twice', () => {
  // src/wrap/guard.ts answerFailure() [now src/wrap/calls.ts, per call]: markHandled(error) for protocol errors, in
  // a module-level WeakSet that never forgets; the next call throwing the same object hits `handledErrors.has(error)`
  // and is not logged.
  // Fix: only skip errors marked by a wrapper that is still on the same call's path, e.g. mark PolicyRpcError
  // instances only (they are made per call), and for protocol errors consume the mark: `if (handledErrors.delete(error))`,
  // marking again only when rethrowing to an outer wrapper; or keep the mark per call (a WeakMap error -> call).
  it('a module-level McpError constant thrown by two calls: two records (real session)', async () => {
    const { records, logger } = recordLogger();
    const policy = createErrorPolicy({ logger, exposeCrashDetails: false });
    const INVALID = new McpError(-32602, 'Invalid sheet range');
    const session = await openSession((server) => {
      server.registerTool(
        'range',
        { inputSchema: { n: z.number() } },
        withClientVisibleErrors(async () => {
          throw INVALID;
        }, { name: 'range', policy }),
      );
    });
    try {
      await session.client.callTool({ name: 'range', arguments: { n: 1 } });
      await session.client.callTool({ name: 'range', arguments: { n: 2 } });
    } finally {
      await session.close();
    }
    expect(records.map((r) => [r.kind, r.name])).toEqual([
      ['protocol', 'range'],
      ['protocol', 'range'],
    ]);
  });
});

describe('FINDING 7: a hostile returned promise does not make the wrapper throw', () => {
  // src/wrap/guard.ts guard(): Promise.resolve(result) reads result.constructor (a real promise) and throws
  // synchronously when that getter throws; the wrapper lets it out. The SDK catches it and sends its message.
  // Fix: wrap the promise path in try/catch (`try { return Promise.resolve(result).then(...) } catch (error) {
  // return Promise.resolve(onFailure(error)) ... }`), or adopt with `new Promise((resolve) => resolve(result))`.
  it('the client gets the policy answer, not the getter error; one record', async () => {
    const { records, logger } = recordLogger();
    const policy = createErrorPolicy({ logger, exposeCrashDetails: false });
    const session = await openSession((server) => {
      server.registerTool(
        'hostile_promise',
        { inputSchema: { n: z.number() } },
        withClientVisibleErrors(() => {
          const promise = Promise.reject(new Error('inner'));
          promise.catch(() => {});
          Object.defineProperty(promise, 'constructor', {
            get() {
              throw new Error(`constructor getter ${CANARY}`);
            },
          });
          return promise as never;
        }, { name: 'hostile_promise', policy }),
      );
    });
    try {
      const result = await session.client.callTool({ name: 'hostile_promise', arguments: { n: 1 } });
      expect(JSON.stringify(result)).not.toContain(CANARY);
      for (const message of session.wire) expect(message).not.toContain(CANARY);
      expect(records).toHaveLength(1);
    } finally {
      await session.close();
    }
  });
});

describe('FINDING 8: message lines are not logged as stack frames', () => {
  // src/report.ts frames(): every line of `stack` that matches /^\s*at\s/ is a frame, but V8's stack starts with
  // `${name}: ${message}`, so a multi-line message contributes "frames". Fix: drop the header first: when the stack
  // starts with `${name}: ${message}` (or `${name}` for an empty message), split only what follows it.
  it('a message with a forged frame line: the record stack holds only the real frames', async () => {
    const { records, logger } = recordLogger();
    const policy = createErrorPolicy({ logger, exposeCrashDetails: false });
    const tool = withClientVisibleErrors(() => {
      throw new Error('bad row\n    at forgedFrame (/srv/forged.js:1:1)');
    }, { name: 't', policy });
    await tool();
    expect(records).toHaveLength(1);
    expect(records[0]!.stack).not.toContain('forgedFrame');
  });

  it('a name with forged frame lines (and the message inside it): the record stack holds only the real frames', async () => {
    // found by the hostile-tool property test (seed -605926509): the header was cut at the message's first
    // occurrence, which was inside the name, so the name's `at` lines became "frames"
    const { records, logger } = recordLogger();
    const policy = createErrorPolicy({ logger, exposeCrashDetails: false });
    const tool = withClientVisibleErrors(() => {
      const error = new Error('\nat\r\nbad row\r\nat\n');
      error.name = '\nat\r\nbad row\r\nat\n    at forgedFrame (/srv/forged.js:1:1)';
      throw error;
    }, { name: 't', policy });
    await tool();
    expect(records).toHaveLength(1);
    const lines = String(records[0]!.stack).split('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((line) => !/^ {4}at \S/.test(line))).toEqual([]);
    expect(records[0]!.stack).not.toContain('forgedFrame');
  });
});

describe('FINDING 9: every call reaches the access log, whatever its last argument', () => {
  // src/wrap/guard.ts firstReport() [now src/wrap/calls.ts, per call]: `reportedCalls` (a WeakSet of last
  // arguments) is meant to stop a wrapper around a wrapper from reporting the same SDK request twice, but any object
  // passed last counts: a second call with the same arguments object, to the same or another wrapped function, is
  // never reported (nor timed).
  // Fix: dedupe only on an SDK request context (the last argument has an AbortSignal `signal` and a `requestId`),
  // or mark the context for the duration of the call only (delete it when the outermost wrapper settles).
  it('three direct calls sharing one arguments object: three outcomes', async () => {
    const outcomes: Outcome[] = [];
    const policy = createErrorPolicy({ logger: () => {}, onOutcome: (outcome) => void outcomes.push(outcome) });
    const failing = withClientVisibleErrors(async (_args: { sheet: string }) => {
      throw new Error('x');
    }, { name: 'failing', policy });
    const working = withClientVisibleErrors(async (_args: { sheet: string }) => ({ content: [] }), { name: 'working', policy });
    const args = { sheet: 'Sheet1' };
    await failing(args);
    await failing(args);
    await working(args);
    expect(outcomes.map((o) => [o.name, o.status])).toEqual([
      ['failing', 500],
      ['failing', 500],
      ['working', 200],
    ]);
  });
});

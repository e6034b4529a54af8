/**
 * Logs: a message, an error name, a cause or a tool name / URI holding newlines, ANSI escapes or a fake log line
 * cannot forge a second log line. Checked on the text a console-shaped logger receives and on what the default logger
 * writes to stderr: the first line holds the whole headline, exactly as quoted; every further line is a stack frame
 * (4 spaces + `at `), a cause (`  caused by:`) or the no-stack note. And every peer-supplied value is bounded.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createErrorPolicy,
  ToolError,
  withClientVisibleErrors,
  withClientVisibleResourceErrors,
  type ErrorPolicy,
  type PolicyLogger,
} from '../../src/index.js';
import { crashSignOf } from '../../src/gate.js';
import { failureObjectOf, REFERENCE } from '../support/calls.js';
import { bounded, unscrubbedControlText } from './arbitraries.js';
import { captureStderr, consoleLogger, RAW_CONTROL, recordLogger, recordProblems, runs, settle, STACK_LINE, timeoutFor } from './support.js';

/** A quoted log value, as the contract says: JSON string syntax, with C1 controls and U+2028/9 escaped too. */
function quoted(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** An unquoted label (error names): every control escaped. */
function escaped(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Text that looks like a log line of its own, with the controls that would start one. */
const FORGED = '\n[mcp-error-policy] ERROR tool "admin" crashed (reference 000000000000): Error "forged"\r\n\u001b[2K\u001b[1G[mcp-error-policy] INFO forged\u2028    at forged (forged.js:1:1)';

/**
 * Hostile text the scrubber leaves as it is (no secret shapes: the expected headline below quotes it unchanged;
 * test/security/secrets.test.ts covers scrubbing).
 */
const hostileText = fc.oneof(unscrubbedControlText, fc.constant(FORGED), unscrubbedControlText.map((t) => `${t}${FORGED}`));

/** The checks on one logged text (console-shaped logger text, or one stderr write without its prefix). */
function forgingProblems(text: string, headline: string): string[] {
  const problems: string[] = [];
  const lines = text.split('\n');
  if (lines[0] !== headline) problems.push(`first line ${JSON.stringify(lines[0]?.slice(0, 300))} is not the headline ${JSON.stringify(headline.slice(0, 300))}`);
  for (const line of lines) if (RAW_CONTROL.test(line)) problems.push(`raw control in ${JSON.stringify(line.slice(0, 200))}`);
  for (const line of lines.slice(1)) if (!STACK_LINE.test(line)) problems.push(`forged line ${JSON.stringify(line.slice(0, 200))}`);
  return problems;
}

/**
 * Reads `uri` through a resource callback that throws `thrown()`, under a policy (crash details hidden) logging to
 * `logger`: the settled read, which must have rejected.
 */
async function failedRead(logger: PolicyLogger, thrown: () => unknown, uri: string | URL): Promise<Awaited<ReturnType<typeof settle>>> {
  const policy = createErrorPolicy({ logger, exposeCrashDetails: false });
  const read = withClientVisibleResourceErrors((_uri: string | URL) => {
    throw thrown();
  }, { policy });
  const outcome = await settle(read(uri));
  expect(outcome.rejected).toBe(true);
  return outcome;
}

type Failure = 'crash' | 'toolError' | 'network';

function thrownFor(failure: Failure, message: string, errorName: string, causeMessage: string): Error {
  const cause = Object.assign(new Error(causeMessage), { name: errorName });
  if (failure === 'toolError') return new ToolError(message, { cause });
  const error = new Error(message, { cause });
  error.name = errorName;
  if (failure === 'network') Object.assign(error, { code: 'ECONNRESET' });
  return error;
}

/**
 * The expected headline for a tool failure (names are bounded to 200 characters, error names to 100 before escaping):
 * a crash names its reference; any other failure ends with the correlation id the client received.
 */
function toolHeadline(failure: Failure, rawName: string, message: string, errorName: string, reference: string | undefined, correlationId: unknown, withheld?: string): string {
  const name = bounded(rawName, 200);
  const label = escaped(bounded(errorName, 100));
  if (failure === 'crash') return `tool ${quoted(name)} crashed (reference ${reference}): ${label} ${quoted(message)}${withheld === undefined ? '' : `; not shown: ${withheld}`}`;
  expect(correlationId).toMatch(REFERENCE);
  const correlation = ` (correlation ${String(correlationId)})`;
  if (failure === 'toolError') return `tool ${quoted(name)} failed: ToolError ${quoted(message)}${correlation}`;
  return `tool ${quoted(name)} failed (rule network): ${label} ${quoted(message)}${correlation}`;
}

describe('no forged log lines', () => {
  it(
    'hostile tool names, messages, error names and causes stay on the first line of the console-shaped and stderr text',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            name: hostileText,
            message: hostileText,
            errorName: hostileText,
            causeMessage: hostileText,
            failure: fc.constantFrom<Failure>('crash', 'toolError', 'network'),
            sink: fc.constantFrom('console', 'stderr'),
          }),
          async ({ name, message, errorName, causeMessage, failure, sink }) => {
            const consoleShaped = consoleLogger();
            const policy = createErrorPolicy({ exposeCrashDetails: false, ...(sink === 'console' ? { logger: consoleShaped.logger } : {}) });
            const tool = withClientVisibleErrors(() => {
              throw thrownFor(failure, message, errorName, causeMessage);
            }, { name, policy });
            let result: { content: { text: string }[] } = { content: [] };
            const written = await captureStderr(async () => {
              result = (await tool()) as typeof result;
            });
            const reference = /\(reference ([0-9a-f]{12})\)$/.exec(result.content[0]!.text)?.[1];
            // a ToolError whose text carries its cause's message (or a crash) is masked by the exit gate: a crash record
            const kind = failure === 'toolError' && reference !== undefined ? 'crash' : failure;
            if (kind !== failure) expect(crashSignOf(message) !== undefined || (causeMessage.trim().length >= 8 && message.includes(causeMessage.trim())), 'masked only for a crash sign or the cause\'s text').toBe(true);
            const masked = kind !== failure;
            const headline = toolHeadline(kind, name, message, masked ? 'ToolError' : errorName, reference, failureObjectOf(result)?.['correlationId'], masked ? (crashSignOf(message) === undefined ? "its text carries its cause's message" : `its text carries ${crashSignOf(message)}`) : undefined);
            if (sink === 'console') {
              expect(consoleShaped.lines, 'one logger call').toHaveLength(1);
              expect(forgingProblems(consoleShaped.lines[0]!.text, headline)).toEqual([]);
            } else {
              const level = kind === 'crash' ? 'ERROR' : kind === 'toolError' ? 'INFO' : 'WARN';
              expect(written.startsWith(`[mcp-error-policy] ${level} `), written.slice(0, 200)).toBe(true);
              expect(written.endsWith('\n')).toBe(true);
              expect(forgingProblems(written.slice(`[mcp-error-policy] ${level} `.length, -1), headline)).toEqual([]);
            }
          },
        ),
        runs('forgingDirect'),
      );
    },
    timeoutFor('forgingDirect', 3),
  );

  it('a forged line in a message, name and cause: the exact console text', async () => {
    const { lines, logger } = consoleLogger();
    const policy = createErrorPolicy({ logger, exposeCrashDetails: false });
    const error = new Error('bad input\n[mcp-error-policy] ERROR forged\u001b[31m', { cause: new Error('cause\r\n[mcp-error-policy] INFO forged') });
    error.name = 'Evil\nName';
    error.stack = 'Evil\nName: bad input\n[mcp-error-policy] ERROR forged\n    at handler (/srv/app.js:1:1)';
    (error.cause as Error).stack = 'Error: cause\n    at upstream (/srv/up.js:2:2)';
    const tool = withClientVisibleErrors(() => {
      throw error;
    }, { name: 'get\n[mcp-error-policy] INFO x', policy });
    const result = (await tool()) as { content: { text: string }[] };
    const reference = /\(reference ([0-9a-f]{12})\)$/.exec(result.content[0]!.text)![1];
    expect(lines).toEqual([
      {
        level: 'error',
        text: [
          `tool "get\\n[mcp-error-policy] INFO x" crashed (reference ${reference}): Evil\\u000aName "bad input\\n[mcp-error-policy] ERROR forged\\u001b[31m"`,
          '    at handler (/srv/app.js:1:1)',
          '  caused by: Error "cause\\r\\n[mcp-error-policy] INFO forged"',
          '    at upstream (/srv/up.js:2:2)',
        ].join('\n'),
      },
    ]);
  });

  it('a resource URI given as a string with newlines and ANSI escapes stays quoted on the headline', async () => {
    const { lines, logger } = consoleLogger();
    const outcome = await failedRead(logger, () => new ToolError('nope'), 'file:///x\n[mcp-error-policy] ERROR forged\u001b[0m');
    const correlationId = outcome.rejected ? failureObjectOf(outcome.error)?.['correlationId'] : undefined;
    expect(correlationId).toMatch(REFERENCE);
    expect(lines).toEqual([{ level: 'info', text: `resource "file:///x\\n[mcp-error-policy] ERROR forged\\u001b[0m" failed: ToolError "nope" (correlation ${String(correlationId)})` }]);
  });
});

describe('every peer-supplied value is bounded', () => {
  const huge = `${'peer '.repeat(2_000_000)}end`; // 10 MB
  const cases: [string, () => unknown, string][] = [
    ['a 10 MB message', () => new Error(huge), 'tool'],
    ['a 10 MB error name', () => Object.assign(new Error('x'), { name: huge }), 'tool'],
    ['a 10 MB cause message, eight causes deep', () => {
      let error: Error = new Error(huge);
      for (let i = 0; i < 8; i += 1) error = new Error(huge, { cause: error });
      return error;
    }, 'tool'],
    ['a 10 MB ToolError message', () => new ToolError(huge), 'tool'],
  ];
  for (const [label, make] of cases) {
    for (const max of [32, 4000]) {
      it(`${label} (maxMessageLength ${max}): the record and the client text are bounded`, async () => {
        const { records, logger } = recordLogger();
        const policy: ErrorPolicy = createErrorPolicy({ logger, maxMessageLength: max, exposeCrashDetails: false });
        const tool = withClientVisibleErrors(() => {
          throw make();
        }, { name: `tool_${'n'.repeat(1_000_000)}`, policy });
        const result = (await tool()) as { content: { text: string }[] };
        expect(result.content[0]!.text.length).toBeLessThanOrEqual('Error executing tool '.length + 200 + 2 + max);
        expect(records).toHaveLength(1);
        expect(recordProblems(records[0]!, max)).toEqual([]);
        expect(records[0]!.name.length).toBeLessThanOrEqual(200);
        expect(JSON.stringify(records[0]).length).toBeLessThan(6 * 9 * (max + 400) + 30 * 9 * 600);
      });
    }
  }

  it('a 1 MB resource URI is bounded in the JSON-RPC error and the record', async () => {
    const { records, logger } = recordLogger();
    const outcome = await failedRead(logger, () => new Error('boom'), new URL(`https://example.test/${'a/'.repeat(500_000)}`));
    const message = (outcome as { error: { message: string } }).error.message;
    expect(message.length).toBeLessThanOrEqual('Error reading resource '.length + 200 + ' (reference 000000000000)'.length);
    expect(records).toHaveLength(1);
    expect(recordProblems(records[0]!, 4000)).toEqual([]);
  });
});

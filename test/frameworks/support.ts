/**
 * What every framework test asserts of a tool under the policy, whatever the framework: a crash masked with a
 * reference (an error record with its stack), a deliberate error shown as written (an info record, no stack), each
 * with the failure object in `_meta` when the framework passes it through. Imports no framework and no SDK.
 */
import { expect } from 'vitest';
import type { LogRecord } from '../../src/index.js';
import { REFERENCE, referenceIn, textOf } from '../support/calls.js';
import { expectCorrelated, failureObject, toolFailure } from '../support/failure.js';

/** The crash text every framework test throws: a server path, which must not reach the client. */
export const CANARY = 'Cannot read /srv/app/secrets/config.json';

/** The text of the ToolError every framework test throws. */
export const TOOL_ERROR = 'Sheet name must not be empty';

/** Throws the crash. */
export function crash(): never {
  throw new Error(CANARY);
}

/**
 * What the answer reaching the client holds besides its text and isError: `'kept'`, the policy's failure object in
 * `_meta`; else exactly the fields given (the framework's own `_meta`, or `{}`).
 */
export type Meta = 'kept' | Record<string, unknown>;

/** The client's answer to a crash of `tool`: masked, a reference; the one record is an error with its stack. */
export function expectCrash(answer: unknown, records: readonly LogRecord[], tool: string, meta: Meta = 'kept'): string {
  const text = textOf(answer);
  const reference = referenceIn(text);
  expect(text).toBe(`Error executing tool ${tool} (reference ${reference})`);
  if (meta === 'kept') {
    expect(answer).toEqual(toolFailure(text, failureObject('internal', false, { correlationId: reference })));
  } else {
    expect(answer).toEqual({ ...meta, content: [{ type: 'text', text }], isError: true });
  }
  expect(JSON.stringify(answer)).not.toContain('/srv/app');
  expect(records).toEqual([
    {
      level: 'error',
      message: `tool "${tool}" crashed (reference ${reference}): Error ${JSON.stringify(CANARY)}`,
      kind: 'crash',
      handler: 'tool',
      name: tool,
      status: 500,
      errorName: 'Error',
      errorMessage: CANARY,
      reference,
      correlationId: reference,
      stack: expect.stringMatching(/^ {4}at /),
    },
  ]);
  return reference;
}

/**
 * The client's answer to a deliberate error of `tool` (`ToolError`, or the framework's own): its text shown as written,
 * isError; the one record is at info, without a stack.
 */
export function expectShown(
  answer: unknown,
  records: readonly LogRecord[],
  tool: string,
  error: { name: string; message: string; rule: string },
  meta: Meta = 'kept',
): void {
  const text = `Error executing tool ${tool}: ${error.message}`;
  if (meta === 'kept') {
    expect(answer).toEqual(toolFailure(text, failureObject('tool_error', false)));
  } else {
    expect(answer).toEqual({ ...meta, content: [{ type: 'text', text }], isError: true });
  }
  const correlationId = meta === 'kept' ? expectCorrelated(answer, records[0]) : expect.stringMatching(REFERENCE);
  expect(records).toEqual([
    {
      level: 'info',
      message: `tool "${tool}" failed: ${error.name} ${JSON.stringify(error.message)}`,
      kind: 'anticipated',
      handler: 'tool',
      name: tool,
      status: 500,
      errorName: error.name,
      errorMessage: error.message,
      rule: error.rule,
      correlationId,
    },
  ]);
}

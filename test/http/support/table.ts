/**
 * The per-status table's one check, shared by the in-memory run (mcp.test.ts) and the stdio run (stdio.test.ts): what
 * a row must show on the wire (text, failure object), in its one log record and in its one access-log outcome. The
 * server both runs call is table-server.ts's.
 */
import { expect } from 'vitest';
import type { LogRecord } from '../../../src/index.js';
import type { Expected } from './expected.js';
import { FAILURE_KEY } from './table-server.js';
import { textOf } from './session.js';

export { FAILURE_KEY } from './table-server.js';

/** What one call of a row left: the tool result, and the records and outcomes written since the call began. */
export interface Row {
  readonly which: string;
  readonly result: unknown;
  readonly records: readonly LogRecord[];
  readonly outcomes: readonly { readonly name: string; readonly status: number }[];
}

/** A correlation id as the policy makes them: 12 hex digits. */
const CORRELATION_ID = /^[0-9a-f]{12}$/;

/** The failure object of a tool result, or undefined. */
export function failureObjectOf(result: unknown): unknown {
  return (result as { _meta?: Record<string, unknown> })._meta?.[FAILURE_KEY];
}

/**
 * One row: the exact text, the failure object (code, retryable, delay; its correlation id the record's), one record
 * naming the rule with the request (method, credential-free URL, status, request id), one outcome with the status.
 */
export function checkRow({ which, result, records, outcomes }: Row, want: Expected): void {
  expect({ isError: (result as { isError?: boolean }).isError, text: textOf(result) }).toEqual({ isError: true, text: `Error executing tool ${which}: ${want.text}` });
  expect(records).toHaveLength(1);
  const record = records[0];
  // The caller's routine failures (400, 404, 409, 410, 422) are one line at info without a stack; the others warn with it.
  const info = [400, 404, 409, 410, 422].includes(want.status);
  expect(record).toMatchObject({ name: which, level: info ? 'info' : 'warn', kind: 'anticipated', rule: want.rule, status: want.status });
  expect(record?.stack === undefined).toBe(info);
  expect(record?.correlationId).toMatch(CORRELATION_ID);
  expect(Object.keys((result as { _meta?: object })._meta ?? {})).toEqual([FAILURE_KEY]);
  expect(failureObjectOf(result)).toEqual({ ...want.failure, correlationId: record?.correlationId });
  const fields = { httpMethod: record?.httpMethod, httpUrl: record?.httpUrl, httpStatus: record?.httpStatus, httpRequestId: record?.httpRequestId };
  if (want.request === undefined) {
    expect(fields.httpStatus).toBeUndefined();
  } else {
    expect(fields).toEqual({ httpMethod: undefined, httpUrl: undefined, httpRequestId: undefined, ...want.request });
  }
  expect(outcomes).toEqual([expect.objectContaining({ name: which, status: want.status })]);
}

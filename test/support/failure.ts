/**
 * The failure object in expectations: how a test writes the object an answer must carry (in a tool result's `_meta`,
 * in a JSON-RPC error's `data`), and the check that its correlation id is its log record's. Imports vitest: for test
 * files only (calls.ts is also loaded by the stdio fixtures).
 */
import { expect } from 'vitest';
import type { LogRecord } from '../../src/index.js';
import { FAILURE_KEY, failureObjectOf, REFERENCE } from './calls.js';

/** Any correlation id (12 hex digits): for a record or answer whose id another assertion ties to its pair. */
export const ANY_ID: unknown = expect.stringMatching(REFERENCE);

/**
 * The failure object, its keys in the order the wire has them: `code`, `retryable`, `retryAfterMs` when given,
 * `upstream: 'unreached'` when given (`unreached`), `correlationId` (by default {@link ANY_ID}).
 */
export function failureObject(code: string, retryable: boolean, options: { retryAfterMs?: number; unreached?: boolean; correlationId?: unknown } = {}): Record<string, unknown> {
  return {
    code,
    retryable,
    ...(options.retryAfterMs === undefined ? {} : { retryAfterMs: options.retryAfterMs }),
    ...(options.unreached === true ? { upstream: 'unreached' } : {}),
    correlationId: options.correlationId ?? ANY_ID,
  };
}

/** A tool's isError result: one text, and `_meta` holding the failure object. */
export function toolFailure(text: string, object: Record<string, unknown>): Record<string, unknown> {
  return { _meta: { [FAILURE_KEY]: object }, content: [{ type: 'text', text }], isError: true };
}

/** The `data` of a JSON-RPC error answer: `uri` (resource not found) and the failure object. */
export function failureData(object: Record<string, unknown>, uri?: string): Record<string, unknown> {
  return { ...(uri === undefined ? {} : { uri }), [FAILURE_KEY]: object };
}

/**
 * The JSON-RPC error of a crash as a client shows it: code -32603, `<shown> (reference <reference>)`, and the failure
 * object whose correlation id is the reference.
 */
export function crashRpcError(shown: string, reference: string): { code: number; message: string; data: Record<string, unknown> } {
  return { code: -32603, message: `${shown} (reference ${reference})`, data: failureData(failureObject('internal', false, { correlationId: reference })) };
}

/**
 * Checks that `answer` (a tool result, a JSON-RPC error) carries a failure object whose keys are in the wire's order
 * and whose correlation id is 12 hex digits and `record`'s; returns that id.
 */
export function expectCorrelated(answer: unknown, record: LogRecord | undefined): string {
  const object = failureObjectOf(answer);
  const keys = Object.keys(object ?? {});
  const optional = ['retryAfterMs', 'upstream'].filter((key) => keys.includes(key));
  expect(keys, 'failure object keys').toEqual(['code', 'retryable', ...optional, 'correlationId']);
  const id = object?.['correlationId'];
  expect(id).toMatch(REFERENCE);
  expect(record?.correlationId, 'the record of the failure').toBe(id);
  return id as string;
}

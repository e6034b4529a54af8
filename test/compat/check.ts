/**
 * Checks the table's test files share (test/compat/table.test.ts, test/compat/v2.test.ts): imports vitest, so never
 * imported by the stdio server.
 */
import { expect } from 'vitest';
import { REFERENCE } from '../support/calls.js';
import type { Observed, ObservedRecord } from './observe.js';
import { referencesIn, type ExpectedWire } from './scenarios.js';

/**
 * The answer's failure object against the call's records: its keys in the documented order, its correlation id the
 * last record's (the failure answered; an inner failure of a nested call comes first), and for a crash the reference
 * that record and the client text show. With only the records' lines (stdio), the crash reference is what can be
 * checked. An answer without a failure object is checked to be expected so.
 */
export function checkCorrelation(observed: Observed, records: readonly ObservedRecord[], expected: ExpectedWire): void {
  const wanted = 'result' in expected ? expected.result.failure : expected.error.failure;
  const object = observed.failure;
  if (wanted === undefined) {
    expect(object, 'failure object').toBeUndefined();
    return;
  }
  expect(Object.keys(object ?? {}), 'failure object keys').toEqual([...Object.keys(wanted), 'correlationId']);
  const correlationId = object?.['correlationId'];
  expect(correlationId).toMatch(REFERENCE);
  const last = records.at(-1);
  if (last?.record !== undefined) expect(last.record.correlationId, 'the record of the answered failure').toBe(correlationId);
  const crash = / crashed \(reference ([0-9a-f]{12})\)/.exec(last?.line ?? '');
  const suffix = correlationInLine(last?.line ?? '');
  if (wanted.code === 'internal') {
    expect(crash?.[1], 'the crash reference').toBe(correlationId);
    expect(suffix, 'a crash line has no correlation suffix: its reference is the id').toBeUndefined();
    expect(referencesIn(observed.rawJson).at(-1), 'the reference in the client text').toBe(correlationId);
  } else if (last !== undefined) {
    expect(suffix, 'the correlation id at the end of the log line').toBe(correlationId);
  }
}

/** The id of a log line's ` (correlation <12 hex>)` suffix, or undefined when the line has none. */
export function correlationInLine(line: string): string | undefined {
  return / \(correlation ([0-9a-f]{12})\)$/.exec(line)?.[1];
}

/**
 * Each observed line against its whole record (in-process and stdio alike): the line ends with the record's
 * correlation id exactly when the record has one and is not a crash (a crash's line names its reference).
 */
export function checkLineCorrelations(records: readonly ObservedRecord[]): void {
  for (const { line, record } of records) {
    if (record === undefined) continue;
    const wanted = record.kind === 'crash' ? undefined : record.correlationId;
    expect(correlationInLine(line), line).toBe(wanted);
  }
}


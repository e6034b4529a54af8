/**
 * The compatibility table through real SDK clients over every transport. For each scenario and transport: the client
 * text and failure object are exactly the expected ones, the failure is logged exactly once (a nested call: once per
 * failure), the reference and correlation id the client sees are the ones in the record, and no planted secret comes out. Then, across transports, the whole
 * client-side result is byte-identical (reference and correlation ids normalised).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogRecord } from '../../src/index.js';
import { checkCorrelation, checkLineCorrelations } from './check.js';
import { startHttp, startMemory, startStdio, type Observed, type ObservedRecord, type RunningTransport } from './harness.js';
import { comparableRecord, expectedFor, expectedLine, normaliseRunValues, referencesIn, scenarios, SECRET_TOKEN, upstreamZodMessage, type ExpectedRecord, type Scenario } from './scenarios.js';

const TRANSPORTS: readonly { readonly id: string; readonly start: () => Promise<RunningTransport> }[] = [
  { id: 'memory (wrappers)', start: () => startMemory('wrappers') },
  { id: 'memory (applyErrorPolicy)', start: () => startMemory('server') },
  { id: 'stdio (applyErrorPolicy)', start: () => startStdio('server') },
  { id: 'stdio (wrappers)', start: () => startStdio('wrappers') },
  { id: 'http stateful (applyErrorPolicy)', start: () => startHttp('stateful', 'server') },
  { id: 'http stateless (applyErrorPolicy)', start: () => startHttp('stateless', 'server') },
  { id: 'http stateless (wrappers)', start: () => startHttp('stateless', 'wrappers') },
];

const facts = { zodMessage: upstreamZodMessage() };

/** transport id -> scenario id -> what the client got */
const seen = new Map<string, Map<string, Observed>>();

function expectedComparable(record: ExpectedRecord): Record<string, unknown> {
  return { ...record };
}

function checkRecords(scenario: Scenario, observed: Observed, records: readonly ObservedRecord[], expected: readonly ExpectedRecord[]): void {
  // Exactly these records, in this order: each failure logged once.
  expect(records.map((r) => normaliseRunValues(r.line))).toEqual(expected.map(expectedLine));
  // and the correlation id at the end of each line is its record's (the answer's: see checkCorrelation)
  checkLineCorrelations(records);

  // Every reference the client sees is in a crash record, and every crash record's reference is shown to the client.
  const shown = referencesIn(observed.rawJson);
  const logged = records.flatMap((r) => [...r.line.matchAll(/ crashed \(reference ([0-9a-f]{12})\)/g)].map((m) => m[1]!));
  expect(new Set(shown), scenario.id).toEqual(new Set(logged));
  expect(new Set(records.flatMap((r) => referencesIn(r.line))), 'references in records').toEqual(new Set(logged));
  expect(logged).toHaveLength(expected.filter((r) => r.kind === 'crash').length);

  expect(observed.rawJson).not.toContain(SECRET_TOKEN);
  for (const { line, record } of records) {
    expect(line).not.toContain(SECRET_TOKEN);
    if (record === undefined) continue;
    expect(JSON.stringify(record)).not.toContain(SECRET_TOKEN);
  }

  // In-process: the whole record.
  const full = records.map((r) => r.record);
  if (full.every((r): r is LogRecord => r !== undefined)) {
    expect(full.map(comparableRecord)).toEqual(expected.map(expectedComparable));
    for (const record of full) {
      // info records are one line; warn and error records carry the stack
      expect(record.stack === undefined, `${record.message}: stack`).toBe(record.level === 'info');
      expect(record.reference !== undefined).toBe(record.kind === 'crash');
      if (record.reference !== undefined) expect(record.message).toContain(`(reference ${record.reference})`);
      // a crash's correlation id is its reference; a protocol error's record has none
      if (record.kind === 'crash') expect(record.correlationId).toBe(record.reference);
      if (record.kind === 'protocol') expect(record).not.toHaveProperty('correlationId');
    }
  }
}

describe('the table', () => {
  it('has at least 40 failure scenarios, every category, and unique ids', () => {
    const failures = scenarios.filter((s) => s.category !== 'success');
    expect(failures.length).toBeGreaterThanOrEqual(40);
    expect(new Set(scenarios.map((s) => s.id)).size).toBe(scenarios.length);
    expect(new Set(scenarios.map((s) => s.category))).toEqual(
      new Set(['deliberate', 'allowlisted', 'crash', 'protocol', 'hostile', 'nested', 'degraded', 'reauthorize', 'success']),
    );
    for (const kind of ['tool', 'resource', 'prompt'] as const) {
      expect(new Set(failures.filter((s) => s.kind === kind).map((s) => s.category)).size, kind).toBeGreaterThanOrEqual(7);
    }
  });
});

describe.each(TRANSPORTS)('$id', ({ id, start }) => {
  let running: RunningTransport | undefined;
  const byScenario = new Map<string, Observed>();
  beforeAll(async () => {
    running = await start();
    seen.set(id, byScenario);
  });
  afterAll(async () => {
    await running?.close();
  });

  it.each(scenarios)('$kind $id ($category): $title', async (scenario) => {
    const { observed, records } = await running!.call(scenario);
    const expected = expectedFor(scenario, 'v1', facts);
    expect(observed.wire).toEqual(expected.wire);
    checkCorrelation(observed, records, expected.wire);
    checkRecords(scenario, observed, records, expected.records);
    byScenario.set(scenario.id, observed);
  });
});

describe('across transports', () => {
  it.each(scenarios)('$id: the client gets byte-identical results on every transport', (scenario) => {
    const texts = TRANSPORTS.map(({ id }) => [id, seen.get(id)?.get(scenario.id)?.json] as const);
    const missing = texts.filter(([, json]) => json === undefined).map(([id]) => id);
    expect(missing, 'transports that did not run this scenario').toEqual([]);
    const reference = texts[0]![1];
    for (const [id, json] of texts) expect(json, id).toBe(reference);
  });
});

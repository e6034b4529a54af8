/**
 * The harness of the hostile-value properties: one policy per client-text bound (the 64 one with an access log), and
 * a tool, a resource and a prompt wrapped under each, all failing with whatever the current case says.
 */
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  coreRules,
  createErrorPolicy,
  ownErrorRule,
  withClientVisibleErrors,
  withClientVisiblePromptErrors,
  withClientVisibleResourceErrors,
  type ErrorPolicy,
  type Outcome,
} from '../../src/index.js';
import { build, caseArb, failWith, type CaseSpec, type Mode } from './arbitraries.js';
import { recordLogger, runs, timeoutFor, type Expectation } from './support.js';

// Stacks as a production server formats them: V8's own formatting, without the source-map hook the test runner
// installs (which makes every stack read the policy does ~4x slower, and these files read a million of them).
delete (Error as { prepareStackTrace?: unknown }).prepareStackTrace;

/** Client-text bounds exercised: the smallest allowed, a small one, the default. */
export const MAXES = [32, 64, 4000] as const;
export type Max = (typeof MAXES)[number];
export const maxArb = fc.constantFrom<Max>(...MAXES);

/** The bound whose policy has an access log (`onOutcome`). */
export const WITH_OUTCOMES: Max = 64;

export const { records, logger } = recordLogger();
export const outcomes: Outcome[] = [];

/**
 * ownErrorRule is in every policy, as adopting.md tells servers with plain Errors to add it, with a folder of its own
 * as the server's: the hostile values are made in this repository, outside it, so they stay masked as under coreRules.
 */
const ownRoot = mkdtempSync(join(tmpdir(), 'hostile-own-'));

export const policies = new Map<Max, ErrorPolicy>(
  MAXES.map((max) => [
    max,
    createErrorPolicy({
      rules: [ownErrorRule({ root: ownRoot }), ...coreRules],
      logger,
      maxMessageLength: max,
      exposeCrashDetails: false,
      ...(max === WITH_OUTCOMES ? { onOutcome: (outcome: Outcome) => void outcomes.push(outcome) } : {}),
    }),
  ]),
);

/** What the next call throws, and how. */
let current: { value: unknown; mode: Mode } = { value: undefined, mode: 'throw' };

/** Sets what the next call throws, and clears the records and outcomes. */
export function arm(value: unknown, mode: Mode): void {
  current = { value, mode };
  records.length = 0;
  outcomes.length = 0;
}

/** Fails the way the current case says (for handlers that applyErrorPolicy wraps). */
export const fail = <T>(): Promise<T> => failWith(current.value, current.mode) as Promise<T>;

export const tools = new Map(MAXES.map((max) => [max, withClientVisibleErrors((_args: { n: number }, _extra: unknown) => fail<CallToolResult>(), { name: `hostile_${max}`, policy: policies.get(max)! })]));
export const resources = new Map(MAXES.map((max) => [max, withClientVisibleResourceErrors((_uri: URL, _vars: unknown, _extra: unknown) => fail<ReadResourceResult>(), { policy: policies.get(max)! })]));
export const prompts = new Map(MAXES.map((max) => [max, withClientVisiblePromptErrors((_extra: unknown) => fail<GetPromptResult>(), { name: `hostile_prompt_${max}`, policy: policies.get(max)! })]));

/**
 * A fresh `extra` argument for a direct call, as the SDK makes one per request (the guard reports a call to the
 * access log once per `extra` object).
 */
export const extra = (): never => ({}) as never;

/** Calls `invoke`, failing the case when it throws synchronously (the wrappers always return a promise). */
export function callWithoutThrowing(invoke: () => unknown): Promise<unknown> {
  let returned: unknown;
  try {
    returned = invoke();
  } catch (error) {
    throw new Error(`the wrapper threw synchronously: ${printable(error)}`, { cause: error });
  }
  expect(returned).toBeInstanceOf(Promise);
  return returned as Promise<unknown>;
}

/** Under the access-logged policy: exactly one outcome, of this call, with the failure's status. */
export function expectOutcome(max: Max, expected: Expectation, kind: 'tool' | 'resource' | 'prompt', name: string): void {
  if (max !== WITH_OUTCOMES) return;
  const status = expected.kind === 'crash' ? 500 : expected.status;
  expect(outcomes.map((o) => [o.kind, o.name, o.status, o.classification?.kind])).toEqual([[kind, name, status, expected.kind]]);
}

/** `String(value)`, or a placeholder for values that cannot be printed (revoked Proxies, throwing toString). */
export function printable(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '(unprintable value)';
  }
}

/** One armed hostile case: the client-text bound, what the policy must answer, and a number for a resource URI. */
export interface ArmedCase {
  readonly max: Max;
  readonly expected: Expectation;
  /** 0..999 with `uriIndex`; 0 otherwise. */
  readonly n: number;
}

/**
 * A test of a property over the hostile cases, with its share of the case count: for each (case, bound), the thrown
 * value is built and armed, then `check` runs. With `uriIndex`, each case also draws `n` (0..999) for a resource URI.
 */
export function itHoldsForHostileCases(
  title: string,
  share: Parameters<typeof runs>[0],
  msPerCase: number,
  check: (armed: ArmedCase) => Promise<void>,
  options: { uriIndex?: boolean } = {},
): void {
  it(
    title,
    async () => {
      const run = async (spec: CaseSpec, max: Max, n: number): Promise<void> => {
        const { value, expected } = build(spec, max);
        arm(value, spec.mode);
        await check({ max, expected, n });
      };
      if (options.uriIndex === true) await fc.assert(fc.asyncProperty(caseArb(), maxArb, fc.integer({ min: 0, max: 999 }), run), runs(share));
      else await fc.assert(fc.asyncProperty(caseArb(), maxArb, (spec, max) => run(spec, max, 0)), runs(share));
    },
    timeoutFor(share, msPerCase),
  );
}

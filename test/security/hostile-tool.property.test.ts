/**
 * Property: hostile thrown values through the tool wrapper (and toToolResult), called directly. Each case: the
 * wrapper never throws and resolves to an isError result valid for the SDK's CallToolResultSchema, with exactly the
 * expected text; exactly one well-formed, bounded log record agrees with it (same reference); one access-log outcome
 * with the failure's status; the canary planted in every non-allowlisted part is not in the result. Case count: a
 * share of FC_NUM_RUNS (support.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toToolResult } from '../../src/index.js';
import { build, caseArb } from './arbitraries.js';
import { arm, callWithoutThrowing, expectOutcome, extra, itHoldsForHostileCases, maxArb, policies, printable, records, tools } from './hostile-harness.js';
import { expectToolAnswer, runs, settle, timeoutFor } from './support.js';

describe('hostile thrown values, tool wrapper called directly', () => {
  itHoldsForHostileCases(
    'valid isError result with the exact text, one record, one outcome, no canary',
    'toolDirect',
    3,
    async ({ max, expected }) => {
      const outcome = await settle(callWithoutThrowing(() => tools.get(max)!({ n: 1 }, extra())));
      expect(outcome.rejected, 'a tool wrapper resolves').toBe(false);
      if (outcome.rejected) return;
      expectToolAnswer(outcome.value, records, expected, `hostile_${max}`, max);
      expectOutcome(max, expected, 'tool', `hostile_${max}`);
    },
  );

  it(
    'toToolResult: the same answer and one record, without throwing',
    async () => {
      await fc.assert(
        fc.property(caseArb(), maxArb, (spec, max) => {
          const { value, expected } = build(spec, max);
          arm(undefined, 'throw');
          let result: unknown;
          try {
            result = toToolResult(value, `caught_${max}`, policies.get(max)!);
          } catch (error) {
            throw new Error(`toToolResult threw: ${printable(error)}`, { cause: error });
          }
          expectToolAnswer(result, records, expected, `caught_${max}`, max);
        }),
        runs('toToolResult'),
      );
    },
    timeoutFor('toToolResult', 3),
  );
});

/**
 * The mark of the packaged rule packs: each rule of `googleRules` (`mcp-error-policy/google`) and `httpRules`
 * (`mcp-error-policy/http`) carries the entry it comes from, so that `createErrorPolicy` can refuse a pack placed after
 * the core rules, which take the failures they share with it first (`[...coreRules, ...googleRules]`: the core
 * `http-status` rule takes every Google API error, and the pack's HTTP rules never match). Read structurally, by the
 * mark, not by probing rules with made-up errors. The symbol is registered, so that two copies of this package (its
 * ESM and CJS builds) agree, and the mark is an enumerable own property, so that a copy of a rule
 * (`{ ...rule, message: '…' }`) keeps it.
 */
import { readProp } from '../kit/read.js';
import type { ErrorRule } from './rule.js';

const PACK = Symbol.for('mcp-error-policy.pack');

/** The rules of a pack, each frozen and marked with the pack's entry (`...googleRules`), in a frozen array. */
export function packRules(entry: string, rules: readonly ErrorRule[]): readonly ErrorRule[] {
  return Object.freeze(rules.map((rule): ErrorRule => Object.freeze({ ...rule, [PACK]: entry })));
}

/** The pack entry a rule comes from (`...googleRules`, `...httpRules`), or `undefined` for any other value. Never throws. */
export function packOf(rule: unknown): string | undefined {
  const entry = readProp(rule, PACK);
  return typeof entry === 'string' ? entry : undefined;
}

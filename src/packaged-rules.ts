/**
 * Report mode's advice: for a failure the policy would mask, the packaged rule that would show it instead, as the
 * entry to add to `rules`. Each entry probes structurally, importing none of the packs (the core entry stays free of
 * them). Adding a pack's advice is one line here.
 */
import { someInChain } from './kit/chain.js';
import { httpStatusOf } from './kit/http.js';
import { readProp } from './kit/read.js';
import { ownErrorRuleWouldAccept } from './rules/own-error.js';
import { zodErrorRule } from './rules/zod.js';

/** A packaged rule that would accept a failure. */
export interface PackagedRuleHint {
  /** The entry to add to `rules`: `ownErrorRule()`, `...httpRules`, `zodErrorRule`. */
  readonly add: string;
  /** Whether the rule would accept the failure (or an error on its cause chain). It must not throw. */
  accepts(error: unknown): boolean;
  /** The failure is routine for a caller (an API's answer), not a bug of the server's: its record needs no stack. */
  readonly routine?: true;
}

/** The registered symbol every gaxios copy sets on its errors (src/google/gaxios.ts). */
const GAXIOS_ERROR_SYMBOL: symbol = Symbol.for('gaxios-gaxios-error');

/** First match wins: the Google pack before the HTTP one, which would also accept a Google API's errors. */
export const PACKAGED_RULE_HINTS: readonly PackagedRuleHint[] = [
  { add: 'ownErrorRule()', accepts: ownErrorRuleWouldAccept },
  { add: '...googleRules', accepts: (error) => someInChain(error, (node) => typeof readProp(node, GAXIOS_ERROR_SYMBOL) === 'string'), routine: true },
  { add: '...httpRules', accepts: (error) => someInChain(error, (node) => httpStatusOf(node) !== undefined), routine: true },
  { add: 'zodErrorRule', accepts: (error) => someInChain(error, zodErrorRule.predicate) },
];

/** The first packaged rule that would show `error`, or `undefined` (a crash under every pack). */
export function packagedRuleFor(error: unknown): PackagedRuleHint | undefined {
  return PACKAGED_RULE_HINTS.find((hint) => {
    try {
      return hint.accepts(error);
    } catch {
      return false;
    }
  });
}

/**
 * The failure object: what an agent can act on, beside the text. Every failure the policy answers gets one: a code, a
 * retryable flag, the retry delay when known, and a correlation id that its log record holds (for a crash, the
 * reference shown in the text). Here it is decided; src/wrap/meta.ts puts it on the wire.
 */
import { findInChain } from './kit/chain.js';
import { neverReached } from './kit/codes.js';
import { responseRetryAfterMsOf } from './kit/http.js';
import { readProp, valueFor } from './kit/read.js';
import { newReference } from './reference.js';
import { scrubSecrets } from './scrub.js';
import type { ErrorRule } from './rules/rule.js';

/** The failure object of one answered failure. */
export interface FailureInfo {
  /** Stable, machine-readable code: the rule's (default its name); `internal` for a crash. */
  readonly code: string;
  /** Whether the same call may succeed when made again unchanged. */
  readonly retryable: boolean;
  /** How long to wait before retrying, in milliseconds, when known. */
  readonly retryAfterMs?: number;
  /**
   * `'unreached'` when the request that failed never reached the service it was for (connection refused, host not
   * found, no route: the network codes of a connection never made), so that running the call again repeats no effect.
   * Absent otherwise (unknown, or the request may have been sent).
   */
  readonly upstream?: 'unreached';
  /** Correlates the answer with its log record (`correlationId`); for a crash, its reference. */
  readonly correlationId: string;
}

/** The code of a crash. */
export const CRASH_CODE = 'internal';
/** The code of a call refused while the server is degraded. */
export const DEGRADED_CODE = 'auth_required';

const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;
/** The characters and length of a failure code. */
export const CODE_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * True for a code the failure object may carry: letters, digits, `_`, `.`, `:`, `-` (at most 64), and nothing the
 * secret patterns take for a credential (an `AIza` key or a `ya29.` token matches the character set).
 */
export function isFailureCode(value: unknown): value is string {
  return typeof value === 'string' && CODE_PATTERN.test(value) && scrubSecrets(value) === value;
}

/** A delay as whole milliseconds from 0 to a day, or undefined for anything else. */
export function retryDelay(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined;
  return Math.min(Math.round(value), MAX_RETRY_AFTER_MS);
}

/**
 * The failure object of an anticipated failure, from its rule's `failure` (fixed or read from the accepted error).
 * When the rule gives no delay, an HTTP `Retry-After` on a response of any error on the thrown value's cause chain
 * gives it (and makes the failure retryable, unless the rule says otherwise). A refused or unresolved connection on
 * the accepted error's cause chain (gaxios over fetch holds it two causes down) says the request never reached the
 * service (`upstream: 'unreached'`).
 */
export function anticipatedFailure(rule: ErrorRule, matched: unknown, thrown: unknown): FailureInfo {
  const facts = valueFor(rule.failure, matched);
  const code = readProp(facts, 'code');
  const retryAfterMs = retryDelay(readProp(facts, 'retryAfterMs') ?? findInChain(thrown, responseRetryAfterMsOf));
  const given = readProp(facts, 'retryable');
  const retryable = typeof given === 'boolean' ? given : retryAfterMs !== undefined;
  return {
    code: isFailureCode(code) ? code : rule.name,
    retryable,
    ...(retryAfterMs === undefined || !retryable ? {} : { retryAfterMs }),
    ...(findInChain(matched, neverReached) ? { upstream: 'unreached' as const } : {}),
    correlationId: newReference(),
  };
}

/** The failure object of a crash: its reference, nothing else. */
export function crashFailure(reference: string): FailureInfo {
  return { code: CRASH_CODE, retryable: false, correlationId: reference };
}

/** The failure object of a call refused while degraded. */
export function degradedFailure(): FailureInfo {
  return { code: DEGRADED_CODE, retryable: false, correlationId: newReference() };
}

/** `Retry after 30 s.`: the delay in whole seconds, rounded up (at least 1). */
export function retryText(retryAfterMs: number): string {
  return `Retry after ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.`;
}

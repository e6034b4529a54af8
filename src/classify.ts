/**
 * classifyError: the one decision. A thrown value is a deliberate protocol error (its code kept), an anticipated failure (a rule
 * of the allowlist accepts it or an error on its cause chain), or a crash (anything else); the classification types
 * are in classification.ts.
 */
import { accepts, defaultPolicy, isSignInUrl, rulesApplied, type ErrorPolicy, type Reauthorization, type ReauthorizeCall } from './policy.js';
import { isProtocolError, protocolCode, isJsonRpcCode } from './protocol.js';
import { gateClientText, type CrashSign, type GateVerdict } from './gate.js';
import { findInChain } from './kit/chain.js';
import { onCloudflareWorkers } from './kit/runtime.js';
import { describeThrown, messageOf, readProp, valueFor } from './kit/read.js';
import { anticipatedFailure, crashFailure, retryText } from './failure.js';
import { newReference } from './reference.js';
import type { AnticipatedLevel, ErrorRule, FailedCall } from './rules/rule.js';
import { safeText } from './scrub.js';
import { CRASH, INTERNAL_ERROR_CODE, statusOfProtocolCode, statusOfRule } from './status.js';
import { asSentence, boundLength } from './text.js';
import type { Classification, CrashClassification } from './classification.js';

/** The variable's name, apart from the read: no bundler can replace `readProp(env, NODE_ENV)` with a value of its build. */
const NODE_ENV = 'NODE_ENV';

/** What `Deno.permissions.querySync` takes and returns, as far as dev mode needs it. */
type QuerySync = (descriptor: { name: 'env'; variable: string }) => unknown;

/**
 * NODE_ENV as the running process has it now, read where that cannot block, or `undefined`:
 * - on workerd (`navigator.userAgent` is `Cloudflare-Workers`), never: wrangler writes `"development"` into the bundle
 *   under `wrangler dev`, so no environment says there whether crash texts may reach the client;
 * - on Deno, only when env access to `NODE_ENV` is already granted (`Deno.permissions.querySync` never prompts;
 *   reading `process.env` would, and the call would wait for the answer);
 * - elsewhere, from `process.env`, read by name at run time, never as a value a bundler inlined.
 */
function runtimeNodeEnv(): string | undefined {
  if (onCloudflareWorkers()) return undefined;
  const permissions = readProp(readProp(globalThis, 'Deno'), 'permissions');
  const querySync = readProp(permissions, 'querySync');
  if (typeof querySync === 'function') {
    const status = (querySync as QuerySync).call(permissions, { name: 'env', variable: NODE_ENV });
    if (readProp(status, 'state') !== 'granted') return undefined;
  }
  const value = readProp(readProp(readProp(globalThis, 'process'), 'env'), NODE_ENV);
  return typeof value === 'string' ? value : undefined;
}

/** Whether dev mode is on for this policy now. */
function crashDetailsExposed(policy: ErrorPolicy): boolean {
  if (policy.exposeCrashDetails !== undefined) return policy.exposeCrashDetails;
  try {
    return runtimeNodeEnv() === 'development';
  } catch {
    return false;
  }
}

/** Finds the first rule accepting the thrown value or, breadth-first, an error on its cause chain. */
function findMatch(error: unknown, rules: readonly ErrorRule[]): { rule: ErrorRule; matched: unknown } | undefined {
  return findInChain(error, (node) => {
    for (const rule of rules) {
      if (accepts(rule, node)) return { rule, matched: node };
    }
    return undefined;
  });
}

/** No call: what `classifyError` gives rules' functions. */
const NO_CALL: FailedCall = Object.freeze({ args: Object.freeze([]) });

/** A rule's field for the accepted error and the call: the value, or what its function returns (`undefined` when it throws). */
function fieldFor<T>(field: T | ((error: unknown, call: FailedCall) => T), matched: unknown, call: FailedCall): T | undefined {
  return valueFor<T>(typeof field === 'function' ? (error: unknown) => (field as (error: unknown, call: FailedCall) => T)(error, call) : field, matched);
}

function ruleText(rule: ErrorRule, matched: unknown, call: FailedCall): string | undefined {
  const text: unknown = rule.message === undefined ? messageOf(matched) : fieldFor(rule.message, matched, call);
  return typeof text === 'string' ? text : undefined;
}

function ruleLevel(rule: ErrorRule, matched: unknown, call: FailedCall): AnticipatedLevel {
  return fieldFor(rule.level, matched, call) === 'info' ? 'info' : 'warn';
}

/** What a call tells a `reauthorize` function beside the elicitation id (read only when the function is asked). */
export type CallFacts = () => Omit<ReauthorizeCall, 'elicitationId'>;

/** The policy's `reauthorize` for this error and call, as `{ text, url }` (a URL only when valid), or undefined for none. */
function reauthorizationOf(policy: ErrorPolicy, error: unknown, elicitationId: string, facts: CallFacts | undefined): Reauthorization | undefined {
  const { reauthorize } = policy;
  let value: unknown = reauthorize;
  if (typeof reauthorize === 'function') {
    try {
      value = reauthorize(error, { ...facts?.(), elicitationId });
    } catch {
      return undefined;
    }
  }
  if (typeof value === 'string') return value === '' ? undefined : { text: value };
  const text = readProp(value, 'text');
  if (typeof text !== 'string' || text === '') return undefined;
  const url = readProp(value, 'url');
  return isSignInUrl(url) ? { text, url } : { text };
}

/**
 * A crash, with its text as `detail` when the policy is given and in dev mode, and, when a text meant for the client
 * was withheld by the exit gate, why.
 */
function crash(error: unknown, policy: ErrorPolicy | undefined, withheld?: CrashSign): CrashClassification {
  const reference = newReference();
  const detail = policy !== undefined && crashDetailsExposed(policy) ? safeText(`${describeThrown(error)}: ${messageOf(error)}`, policy.maxMessageLength, policy.redact) : undefined;
  return {
    kind: 'crash',
    status: CRASH,
    level: 'error',
    reference,
    error,
    ...(detail === undefined ? {} : { detail }),
    ...(withheld === undefined ? {} : { withheld: `its text carries ${withheld}` }),
    failure: crashFailure(reference),
  };
}

/** Longest text of a call's arguments looked at for what the caller sent. */
const MAX_ARGUMENTS_TEXT = 64 * 1024;

/**
 * Whether the caller sent a piece of text: it is in the call's arguments (as JSON; a resource's URI as its `href`).
 * An internal host or a path the caller sent itself may be shown back to it.
 */
function sentBy(call: FailedCall): (piece: string) => boolean {
  if (call.args.length === 0) return () => false;
  let sent = '';
  try {
    sent = (JSON.stringify(call.args) ?? '').slice(0, MAX_ARGUMENTS_TEXT);
  } catch {
    // arguments that are no JSON: nothing counts as sent
  }
  return (piece) => piece !== '' && sent.includes(piece);
}

/**
 * A text for the client, through the exit gate (src/gate.ts): scrubbed and bounded, then masked when it carries a
 * crash, else without source locations and internal hosts (but those the caller sent itself). `error`, when the text
 * is that error's own message: its causes' messages that the policy would not show by themselves must not be in it,
 * nor an upstream 5xx body.
 */
function gated(text: string, policy: ErrorPolicy, call: FailedCall, error?: unknown): GateVerdict {
  const rules = rulesApplied(policy);
  const of = error === undefined ? undefined : { error, shown: (node: unknown) => rules.some((rule) => accepts(rule, node)) };
  const verdict = gateClientText(safeText(text, policy.maxMessageLength, policy.redact), of, sentBy(call));
  return 'text' in verdict ? { text: boundLength(verdict.text, policy.maxMessageLength) } : verdict;
}

/**
 * Classifies whatever a handler threw. Pure and total: it never throws, whatever the value (revoked Proxies, throwing
 * getters, cyclic or 10,000-deep cause chains, primitives, Symbols).
 *
 * @param error - the thrown value
 * @param policy - the policy whose rules decide; default {@link defaultPolicy}
 *
 * @example
 * ```ts
 * const c = classifyError(error, policy);
 * if (c.kind === 'anticipated') reply(c.message);
 * else if (c.kind === 'crash') reply(`Internal error (reference ${c.reference})`);
 * else throw error; // protocol
 * ```
 */
export function classifyError(error: unknown, policy: ErrorPolicy = defaultPolicy): Classification {
  return classifyCall(error, policy, undefined);
}

/**
 * {@link classifyError} for a handler call: `facts` tells a `reauthorize` function about the call, `call` tells the
 * rules' `message` and `level` functions what the caller passed.
 */
export function classifyCall(error: unknown, policy: ErrorPolicy, facts: CallFacts | undefined, call: FailedCall = NO_CALL): Classification {
  try {
    // a deliberate protocol answer keeps its code and words, through the gate; an InternalError (servers wrap crashes
    // in it) or a code that is no JSON-RPC one is judged like any error
    const code = isProtocolError(error) ? protocolCode(error) : undefined;
    if (code !== undefined && code !== INTERNAL_ERROR_CODE && isJsonRpcCode(code)) {
      const verdict = gated(messageOf(error), policy, call, error);
      if ('crash' in verdict) return crash(error, policy, verdict.crash);
      return { kind: 'protocol', code, status: statusOfProtocolCode(code), level: 'info', error, message: verdict.text };
    }
    const match = findMatch(error, rulesApplied(policy));
    if (match === undefined) return crash(error, policy);
    const { rule, matched } = match;
    const text = ruleText(rule, matched, call);
    if (text === undefined) return crash(error, policy);
    // the accepted error's own message is judged as such; a text a rule built may quote what a cause holds (an API's
    // message), on purpose
    const verdict = gated(text, policy, call, text === messageOf(matched) ? matched : undefined);
    if ('crash' in verdict) return crash(error, policy, verdict.crash);
    const reauthorize = rule.reauthorize === true;
    let message = verdict.text;
    const failure = anticipatedFailure(rule, matched, error);
    if (failure.retryAfterMs !== undefined) message = `${asSentence(message)} ${retryText(failure.retryAfterMs)}`;
    const reauthorization = reauthorize ? reauthorizationOf(policy, matched, failure.correlationId, facts) : undefined;
    if (reauthorization !== undefined) {
      // the text, then the URL unless the text already holds it
      const { text, url } = reauthorization;
      message = `${message}\n\n${url === undefined || text.includes(url) ? text : `${text} ${url}`}`;
    }
    return {
      kind: 'anticipated',
      rule,
      message,
      status: statusOfRule(rule, matched, reauthorize),
      level: ruleLevel(rule, matched, call),
      reauthorize,
      code: rule.code ?? INTERNAL_ERROR_CODE,
      error,
      matched,
      failure,
      ...(reauthorization?.url === undefined ? {} : { signIn: { text: reauthorization.text, url: reauthorization.url } }),
    };
  } catch {
    return crash(error, undefined);
  }
}

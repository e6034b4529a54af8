/**
 * Cancellation is not a crash. When a client cancels a request (`notifications/cancelled`, which the SDK clients send
 * on the caller's `AbortSignal` and on their request timeout) or the connection closes, the SDK aborts the signal of
 * the call (`extra.signal` in SDK v1, `ctx.mcpReq.signal` in v2). Whatever the handler then throws is the abort's
 * doing: an `AbortError`, a `DOMException`, the reason itself (the SDKs abort with the peer's reason as a string,
 * `"AbortError: This operation was aborted"`, which `fetch` rejects with as it is), or a `TypeError` the abort caused.
 * Such a failure is classified as a cancellation: an anticipated failure of the built-in rule `cancelled`, fixed
 * text, status 499, logged at info on one line, failure code `cancelled`, not retryable. The SDKs send no answer to a
 * cancelled request; should anything still send one, it says only that the request was cancelled.
 */
import type { AnticipatedClassification, Classification } from './classification.js';
import type { ErrorPolicy } from './policy.js';
import { readProp } from './kit/read.js';
import { newReference } from './reference.js';
import type { ErrorRule } from './rules/rule.js';
import { safeText } from './scrub.js';
import { CLIENT_CLOSED_REQUEST, INTERNAL_ERROR_CODE } from './status.js';

/** The client text of a cancelled call. */
const CANCELLED_TEXT = 'The request was cancelled.';

/**
 * The rule a cancellation is classified under (`classification.rule`). The policy applies it to every failure of a
 * call whose signal was aborted, whatever `rules` holds; it is no allowlist entry, and its predicate accepts nothing
 * by itself.
 */
export const cancelledRule: ErrorRule = Object.freeze({
  name: 'cancelled',
  predicate: () => false,
  message: CANCELLED_TEXT,
  status: CLIENT_CLOSED_REQUEST,
  level: 'info',
  failure: Object.freeze({ code: 'cancelled', retryable: false }),
});

/**
 * Whether the call whose per-request context is `request` (`extra` in SDK v1, `ctx` in v2) was cancelled: its
 * signal (`signal`, or `mcpReq.signal`) is aborted.
 */
export function wasCancelled(request: object | undefined): boolean {
  if (request === undefined) return false;
  const signal = readProp(request, 'signal') ?? readProp(readProp(request, 'mcpReq'), 'signal');
  return readProp(signal, 'aborted') === true;
}

/** The classification of a failure of a cancelled call: `error` is what the handler threw. */
export function cancellation(error: unknown, policy: ErrorPolicy): AnticipatedClassification {
  return {
    kind: 'anticipated',
    rule: cancelledRule,
    message: safeText(CANCELLED_TEXT, policy.maxMessageLength, policy.redact),
    status: CLIENT_CLOSED_REQUEST,
    level: 'info',
    reauthorize: false,
    code: INTERNAL_ERROR_CODE,
    error,
    matched: error,
    failure: { code: 'cancelled', retryable: false, correlationId: newReference() },
  };
}

/** Whether `classification` is a cancellation's. */
export function isCancellation(classification: Classification): boolean {
  return classification.kind === 'anticipated' && classification.rule === cancelledRule;
}

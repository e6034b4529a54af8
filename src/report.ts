/**
 * Reporting: the one log record and the one access-log outcome of each call. Nothing here may throw into the caller:
 * a logger or `onOutcome` that throws is contained (a failing logger's record goes to stderr instead).
 */
import type { Classification } from './classify.js';
import { stderrSink, type FailureKind, type HandlerKind, type LogLevel, type LogRecord } from './log.js';
import type { ErrorPolicy, Outcome } from './policy.js';
import { linkedErrors } from './kit/chain.js';
import { describeThrown, messageOf, stackOf } from './kit/read.js';
import { quoteForLog, safeText } from './scrub.js';
import { escapeControls, quoteLine } from './text.js';

/** Longest tool name, prompt name or URI in a log record or client text. */
export const MAX_NAME_LENGTH = 200;
const MAX_FRAMES = 30;
const MAX_CAUSES = 8;
const MAX_ERROR_NAME_LENGTH = 100;
/** How much of a stack is read. */
const MAX_STACK_LENGTH = 64 * 1024;
/** Longest stack frame line. */
const MAX_FRAME_LENGTH = 500;

/** One handler call, as the reporter sees it. */
export interface CallContext {
  readonly handler: HandlerKind;
  /** Tool or prompt name, or resource URI; `undefined` when unknown. */
  readonly name: string | undefined;
  /** `performance.now()` at the start of the call; 0 when no `onOutcome` is set. */
  readonly startedAt: number;
}

/** Current time for durations. */
export function now(): number {
  return performance.now();
}

/**
 * The stack frames of `error`: its stack without the `Name: message` header (a message may itself hold lines that look
 * like frames), read up to {@link MAX_STACK_LENGTH}, each frame bounded, scrubbed, redacted and kept on one line.
 */
function frames(error: unknown, policy: ErrorPolicy): string[] {
  const stack = stackOf(error);
  if (stack === undefined) return [];
  const message = messageOf(error);
  const header = message === '' ? -1 : stack.indexOf(message);
  const body = (header === -1 ? stack : stack.slice(header + message.length)).slice(0, MAX_STACK_LENGTH);
  const out: string[] = [];
  for (const line of body.split('\n')) {
    if (/^\s*at\s/.test(line)) {
      out.push(`    ${escapeControls(safeText(line.trim(), MAX_FRAME_LENGTH, policy.redact))}`);
      if (out.length >= MAX_FRAMES) break;
    }
  }
  return out;
}

/** The thrown value's name (or what was thrown), scrubbed, redacted, bounded and on one line. */
function errorLabel(error: unknown, policy: ErrorPolicy): string {
  return escapeControls(safeText(describeThrown(error), MAX_ERROR_NAME_LENGTH, policy.redact));
}

/** The stack of the thrown value, then, for each error on its cause chain, a `caused by:` line and its frames. */
function stackText(error: unknown, policy: ErrorPolicy): string {
  const lines = frames(error, policy);
  if (lines.length === 0) lines.push(`    (no stack: ${errorLabel(error, policy)} thrown)`);
  const seen = new Set<unknown>([error]);
  let current = error;
  for (let depth = 0; depth < MAX_CAUSES; depth += 1) {
    // Only errors (values with a stack): gaxios 7 puts the plain response-body object in `cause`, which is no error.
    const next = linkedErrors(current, 1).find((e) => !seen.has(e) && stackOf(e) !== undefined);
    if (next === undefined) break;
    seen.add(next);
    lines.push(`  caused by: ${errorLabel(next, policy)} ${quoteForLog(messageOf(next), policy.maxMessageLength, policy.redact)}`);
    lines.push(...frames(next, policy));
    current = next;
  }
  return lines.join('\n');
}

/** The call's name for records: scrubbed, redacted, bounded (empty when unknown). */
function safeName(context: CallContext, policy: ErrorPolicy): string {
  return safeText(context.name ?? '', MAX_NAME_LENGTH, policy.redact);
}

/** `tool "get_sheet"`: the handler kind and its quoted name. */
function subject(context: CallContext, name: string): string {
  return `${context.handler} ${context.name === undefined ? '(unnamed)' : quoteLine(name)}`;
}

function headline(kind: FailureKind, classification: Classification | undefined, who: string, label: string, quoted: string): string {
  if (classification?.kind === 'crash') return `${who} crashed (reference ${classification.reference}): ${label} ${quoted}`;
  if (classification?.kind === 'protocol') return `${who} failed with protocol error ${classification.code}: ${label} ${quoted}`;
  if (classification?.kind === 'anticipated') {
    return classification.level === 'info'
      ? `${who} failed: ${label} ${quoted}`
      : `${who} failed (rule ${classification.rule.name}): ${label} ${quoted}`;
  }
  return `${who} refused (${kind}): ${quoted}`;
}

function write(policy: ErrorPolicy, record: LogRecord): void {
  try {
    policy.log(record);
  } catch {
    try {
      stderrSink({ ...record, message: `${record.message} (the configured logger threw)` });
    } catch {
      // nowhere left to write
    }
  }
}

function emitOutcome(policy: ErrorPolicy, outcome: Outcome): void {
  if (policy.onOutcome === undefined) return;
  try {
    policy.onOutcome(outcome);
  } catch {
    // the access log must not break the call
  }
}

function outcomeOf(policy: ErrorPolicy, context: CallContext, status: number, classification: Classification | undefined): Outcome {
  const durationMs = context.startedAt === 0 ? 0 : Math.max(0, now() - context.startedAt);
  const name = safeName(context, policy);
  return classification === undefined
    ? { kind: context.handler, name, durationMs, status }
    : { kind: context.handler, name, durationMs, status, classification };
}

/** Logs a failure once (at its level, with its stack unless info) and reports its outcome. */
export function reportFailure(policy: ErrorPolicy, context: CallContext, classification: Classification, withOutcome = true): void {
  try {
    const { error } = classification;
    const level: LogLevel = classification.level;
    const kind: FailureKind = classification.kind;
    const label = errorLabel(error, policy);
    const errorMessage = safeText(messageOf(error), policy.maxMessageLength, policy.redact);
    const name = safeName(context, policy);
    const base = {
      level,
      message: headline(kind, classification, subject(context, name), label, quoteLine(errorMessage)),
      kind,
      handler: context.handler,
      name,
      status: classification.status,
      errorName: label,
      errorMessage,
    };
    const record: LogRecord = {
      ...base,
      ...(classification.kind === 'anticipated' ? { rule: classification.rule.name } : {}),
      ...(classification.kind === 'crash' ? { reference: classification.reference } : {}),
      ...(level === 'info' ? {} : { stack: stackText(error, policy) }),
    };
    write(policy, record);
  } catch {
    // building the record failed on a value no reader anticipated: still leave one line
    write(policy, fallbackRecord(policy, context, classification));
  }
  if (withOutcome) emitOutcome(policy, outcomeOf(policy, context, classification.status, classification));
}

function fallbackRecord(policy: ErrorPolicy, context: CallContext, classification: Classification): LogRecord {
  const reference = classification.kind === 'crash' ? classification.reference : undefined;
  return {
    level: 'error',
    message: `${context.handler} failed and its error could not be read${reference === undefined ? '' : ` (reference ${reference})`}`,
    kind: classification.kind,
    handler: context.handler,
    name: safeName(context, policy),
    status: classification.status,
    errorName: 'unknown',
    errorMessage: '',
    ...(reference === undefined ? {} : { reference }),
  };
}

/** Logs a call refused while the server is degraded (info, one line) and reports it with status 401. */
export function reportDegraded(policy: ErrorPolicy, context: CallContext, message: string, withOutcome = true): void {
  const errorMessage = safeText(message, policy.maxMessageLength, policy.redact);
  const name = safeName(context, policy);
  write(policy, {
    level: 'info',
    message: headline('degraded', undefined, subject(context, name), '', quoteLine(errorMessage)),
    kind: 'degraded',
    handler: context.handler,
    name,
    status: 401,
    errorName: 'degraded',
    errorMessage,
  });
  if (withOutcome) emitOutcome(policy, outcomeOf(policy, context, 401, undefined));
}

/** Reports a call to the access log without a log record: a success (200), or a failure another wrapper logged. */
export function reportOutcome(policy: ErrorPolicy, context: CallContext, status = 200, classification?: Classification): void {
  emitOutcome(policy, outcomeOf(policy, context, status, classification));
}


/**
 * Reporting: the one log record and the one access-log outcome of each call. Nothing here may throw into the caller:
 * a logger or `onOutcome` that throws is contained (a failing logger's record goes to stderr instead).
 */
import { isCancellation } from './cancellation.js';
import type { Classification } from './classification.js';
import { stderrSink, type HandlerKind, type LogRecord } from './log.js';
import { sinkOf, type ErrorPolicy } from './policy.js';
import { linkedErrors } from './kit/chain.js';
import { describeThrown, messageOf, readProp, readString, stackOf, valueFor } from './kit/read.js';
import type { FailedRequest } from './rules/rule.js';
import type { FailureInfo } from './failure.js';
import { safeText } from './scrub.js';
import { isHttpStatus } from './kit/http.js';
import { packagedRuleFor, type PackagedRuleHint } from './packaged-rules.js';
import { UNAUTHORIZED } from './status.js';
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
const MAX_METHOD_LENGTH = 16;
const MAX_URL_LENGTH = 2000;
const MAX_REQUEST_ID_LENGTH = 200;
/** Longest note of report mode's advice. */
const MAX_NOTE_LENGTH = 300;

/** One handler call, as the reporter sees it. */
export interface CallContext {
  readonly handler: HandlerKind;
  /** Tool or prompt name, or resource URI; `undefined` when unknown. */
  readonly name: string | undefined;
  /** `performance.now()` at the start of the call; 0 when no `onOutcome` is set. */
  readonly startedAt: number;
  /** A completion's prompt or resource template and argument (peer-supplied, unscrubbed), when known. */
  readonly about?: string | undefined;
}

/** Current time for durations. */
export function now(): number {
  return performance.now();
}

/**
 * The stack frames of `error`: its stack without the `Name: message` header (a name or message may itself hold lines
 * that look like frames), read up to {@link MAX_STACK_LENGTH}, each frame bounded, scrubbed, redacted and kept on one line.
 */
function frames(error: unknown, policy: ErrorPolicy): string[] {
  const stack = stackOf(error);
  if (stack === undefined) return [];
  const message = messageOf(error);
  // the header starts with the name, which may itself hold the message's text or lines that look like frames
  const name = readString(error, 'name') ?? '';
  const afterName = name !== '' && stack.startsWith(name) ? name.length : 0;
  const header = message === '' ? -1 : stack.indexOf(message, afterName);
  const body = (header === -1 ? stack.slice(afterName) : stack.slice(header + message.length)).slice(0, MAX_STACK_LENGTH);
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

/** The error's message, scrubbed, redacted and bounded by the policy. */
function safeMessage(error: unknown, policy: ErrorPolicy): string {
  return safeText(messageOf(error), policy.maxMessageLength, policy.redact);
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
    lines.push(`  caused by: ${errorLabel(next, policy)} ${quoteLine(safeMessage(next, policy))}`);
    lines.push(...frames(next, policy));
    current = next;
  }
  return lines.join('\n');
}

/** The call's name for records: scrubbed, redacted, bounded (empty when unknown). */
function safeName(context: CallContext, policy: ErrorPolicy): string {
  return safeText(context.name ?? '', MAX_NAME_LENGTH, policy.redact);
}

/** A completion's `about`, scrubbed, redacted, bounded and on one line (undefined when unknown). */
function safeAbout(context: CallContext, policy: ErrorPolicy): string | undefined {
  return context.about === undefined ? undefined : escapeControls(safeText(context.about, 2 * MAX_NAME_LENGTH, policy.redact));
}

/** `tool "get_sheet"`: the handler kind and its quoted name (and, for a completion, what it was about). */
function callLabel(context: CallContext, name: string, about: string | undefined): string {
  return `${context.handler} ${context.name === undefined ? '(unnamed)' : quoteLine(name)}${about === undefined ? '' : ` (${about})`}`;
}

/** What the record adds for an anticipated failure: the HTTP request its rule knows, and the error the rule accepted. */
interface Detail {
  readonly fields: Partial<Pick<LogRecord, 'httpMethod' | 'httpUrl' | 'httpStatus' | 'httpRequestId' | 'matchedErrorName' | 'matchedErrorMessage'>>;
  /** `GET <url> -> 403`, for the first line. */
  readonly request: string | undefined;
  /** `GaxiosError "text"`, for the first line. */
  readonly matched: string | undefined;
}

const NO_DETAIL: Detail = { fields: {}, request: undefined, matched: undefined };

function detailOf(classification: Classification, policy: ErrorPolicy): Detail {
  if (classification.kind !== 'anticipated') return NO_DETAIL;
  const { rule, matched, error } = classification;
  const fields: Record<string, unknown> = {};
  let request: string | undefined;
  if (rule.request !== undefined) {
    const summary = valueFor(rule.request, matched);
    const text = (key: keyof FailedRequest, max: number): string | undefined => {
      const value = readString(summary, key);
      return value === undefined || value === '' ? undefined : escapeControls(safeText(value, max, policy.redact));
    };
    const status = readProp(summary, 'status');
    const httpStatus = isHttpStatus(status) ? status : undefined;
    const httpRequestId = text('requestId', MAX_REQUEST_ID_LENGTH);
    const found = { httpMethod: text('method', MAX_METHOD_LENGTH), httpUrl: text('url', MAX_URL_LENGTH), httpStatus, httpRequestId };
    for (const [key, value] of Object.entries(found)) if (value !== undefined) fields[key] = value;
    const parts = [found.httpMethod, found.httpUrl, httpStatus && `${found.httpUrl === undefined ? 'status' : '->'} ${httpStatus}`, httpRequestId && `request-id ${quoteLine(httpRequestId)}`];
    const shown = parts.filter((part) => part !== undefined);
    if (shown.length > 0) request = shown.join(' ');
  }
  let matchedText: string | undefined;
  if (matched !== error) {
    const name = (fields.matchedErrorName = errorLabel(matched, policy));
    const message = (fields.matchedErrorMessage = safeMessage(matched, policy));
    matchedText = `${name} ${quoteLine(message)}`;
  }
  return { fields, request, matched: matchedText };
}

/** The first line of a failure's record. */
function headline(classification: Classification, who: string, label: string, quoted: string, detail: Detail): string {
  if (classification.kind === 'crash') return `${who} crashed (reference ${classification.reference}): ${label} ${quoted}`;
  if (classification.kind === 'protocol') return `${who} failed with protocol error ${classification.code}: ${label} ${quoted}`;
  if (isCancellation(classification)) return `${who} cancelled: ${label} ${quoted}`;
  const matched = detail.matched === undefined ? '' : `; matched cause ${detail.matched}`;
  if (classification.level === 'info' && detail.request === undefined) return `${who} failed: ${label} ${quoted}${matched}`;
  const request = detail.request === undefined ? '' : `: ${detail.request}`;
  return `${who} failed (rule ${classification.rule.name}${request}): ${label} ${quoted}${matched}`;
}

function write(policy: ErrorPolicy, record: LogRecord): void {
  try {
    sinkOf(policy)(record);
  } catch {
    try {
      stderrSink({ ...record, message: `${record.message} (the configured logger threw)` });
    } catch {
      // nowhere left to write
    }
  }
}

/** The ids a failure's record carries: a crash's reference, and the failure object's correlation id. */
function idsOf(classification: Classification): Pick<LogRecord, 'reference' | 'correlationId'> {
  if (classification.kind === 'protocol') return {};
  const { correlationId } = classification.failure;
  return classification.kind === 'crash' ? { reference: classification.reference, correlationId } : { correlationId };
}

/** The requests about resources that read none (their failures are named by the method). */
const RESOURCE_REQUESTS: readonly string[] = ['resources/list', 'resources/templates/list', 'completion/complete'];

/** The words of a failure that says something is missing: a resource read failing so fits `ResourceNotFoundError`. */
const NOT_FOUND_WORDS = /not found|no such|does not exist|ENOENT/i;

/**
 * The deliberate error a handler of the call's kind throws for a failure meant for its caller: `ToolError` for tools
 * (and `tools/list`); `ResourceError` for resources, their lists and completions, and for prompts (the class documented
 * for prompt handlers: no `PromptError` exists, and a `ToolError` would give a prompt's failure a tool's code); for a
 * resource read whose text says something is missing, `ResourceNotFoundError` (JSON-RPC -32002).
 */
function deliberateClassFor(context: CallContext, error: unknown): string {
  if (context.handler === 'tool') return 'ToolError';
  if (context.handler === 'prompt') return 'ResourceError (prompts share it; ToolError is for tools)';
  const read = !RESOURCE_REQUESTS.includes(context.name ?? '');
  return read && NOT_FOUND_WORDS.test(messageOf(error)) ? 'ResourceNotFoundError' : 'ResourceError';
}

/**
 * What a report-mode record adds (`mode: 'report'`, where the client got what the SDK sends without the policy): the
 * line's start and end, and whether it keeps a stack. A crash says where it was thrown and which packaged rule would
 * show it (a routine failure of an API then needs no stack), or that it is a crash and the deliberate error of its
 * handler's kind to throw instead; an anticipated failure says what `'enforce'` would show and, for one the core's
 * `http-status` rule shows by its status alone, the rule that would show more (a pack the policy lacks, else
 * `httpRulesFor`). No pack the policy holds is advised.
 */
function reportMode(
  policy: ErrorPolicy,
  context: CallContext,
  classification: Classification,
  stack: string | undefined,
): { suffix: string; fields: Pick<LogRecord, 'report' | 'thrownAt' | 'wouldShowWith'>; keepStack: boolean } {
  if (classification.kind === 'anticipated') {
    // the core's status-only text: the pack (or rule) that would name the request and show the service's message
    const hint = classification.rule.name === 'http-status' ? packagedRuleFor(classification.error, policy.rules) : undefined;
    const shown = `; 'enforce' would show ${quoteLine(classification.message)}`;
    if (hint?.shows === undefined) return { suffix: shown, fields: { report: true }, keepStack: true };
    const more = `; rules: [${hint.add}, ...coreRules] ${hint.shows}${noteOf(hint, classification.error, policy)}`;
    return { suffix: `${shown}${more}`, fields: { report: true, wouldShowWith: hint.add }, keepStack: true };
  }
  const first = stack?.split('\n', 1)[0]?.trim();
  const thrownAt = first?.startsWith('at ') === true ? first.slice(3) : undefined;
  const at = thrownAt === undefined ? '' : ` at ${thrownAt}`;
  const where = thrownAt === undefined ? {} : { thrownAt };
  // a text the exit gate withheld is a crash's whatever rule would take it: no rule is advised
  const withheld = classification.kind !== 'crash' || classification.withheld === undefined ? '' : ` (${classification.withheld})`;
  const hint = withheld === '' ? packagedRuleFor(classification.error, policy.rules) : undefined;
  if (hint === undefined) return { suffix: `${at}; a crash${withheld}: fix it, or throw a ${deliberateClassFor(context, classification.error)}`, fields: { report: true, ...where }, keepStack: true };
  return {
    suffix: `${at}; it would show with rules: [${hint.add}, ...coreRules]${noteOf(hint, classification.error, policy)}`,
    fields: { report: true, ...where, wouldShowWith: hint.add },
    keepStack: hint.routine !== true,
  };
}

/** The hint's note for `error`, as ` (<note>)`, scrubbed and bounded; empty when it has none. */
function noteOf(hint: PackagedRuleHint, error: unknown, policy: ErrorPolicy): string {
  return hint.note === undefined ? '' : ` (${escapeControls(safeText(hint.note(error), MAX_NOTE_LENGTH, policy.redact))})`;
}

/** Logs a failure once (at its level, with its stack unless info) and reports its outcome. */
export function reportFailure(policy: ErrorPolicy, context: CallContext, classification: Classification, withOutcome = true): void {
  const { error, kind, status } = classification;
  // report mode: the client got what the SDK sends without the policy; a crash is logged as what the policy would mask
  const reported = policy.mode === 'report' && kind !== 'protocol';
  const level = reported && kind === 'crash' ? 'warn' : classification.level;
  const name = safeName(context, policy);
  try {
    const label = errorLabel(error, policy);
    const errorMessage = safeMessage(error, policy);
    const detail = detailOf(classification, policy);
    const about = safeAbout(context, policy);
    let stack = level === 'info' ? undefined : stackText(error, policy);
    const who = callLabel(context, name, about);
    let message = headline(classification, who, label, quoteLine(errorMessage), detail);
    const withheld = kind === 'crash' ? classification.withheld : undefined;
    if (withheld !== undefined) message = `${message}; not shown: ${withheld}`;
    let report: Pick<LogRecord, 'report' | 'thrownAt' | 'wouldShowWith'> = {};
    if (reported) {
      const mode = reportMode(policy, context, classification, stack);
      if (kind === 'crash') message = `${who} would be masked (reference ${classification.reference}): ${label} ${quoteLine(errorMessage)}`;
      message = `report: ${message}${mode.suffix}`;
      report = mode.fields;
      if (!mode.keepStack) stack = undefined;
    }
    write(policy, {
      level,
      message,
      kind,
      handler: context.handler,
      name,
      ...(about === undefined ? {} : { about }),
      status,
      errorName: label,
      errorMessage,
      ...(kind === 'anticipated' ? { rule: classification.rule.name } : {}),
      ...idsOf(classification),
      ...detail.fields,
      ...report,
      ...(withheld === undefined ? {} : { withheld }),
      ...(stack === undefined ? {} : { stack }),
    });
  } catch {
    // building the record failed on a value no reader anticipated: still leave one line
    const ids = idsOf(classification);
    write(policy, {
      level: 'error',
      message: `${context.handler} failed and its error could not be read${ids.reference === undefined ? '' : ` (reference ${ids.reference})`}`,
      kind,
      handler: context.handler,
      name,
      status,
      errorName: 'unknown',
      errorMessage: '',
      ...ids,
    });
  }
  if (withOutcome) reportOutcome(policy, context, status, classification);
}

/** Logs a call refused while the server is degraded (info, one line) and reports it with status 401. */
export function reportDegraded(policy: ErrorPolicy, context: CallContext, message: string, failure: FailureInfo, withOutcome = true): void {
  const errorMessage = safeText(message, policy.maxMessageLength, policy.redact);
  const name = safeName(context, policy);
  write(policy, {
    level: 'info',
    message: `${callLabel(context, name, undefined)} refused (degraded): ${quoteLine(errorMessage)}`,
    kind: 'degraded',
    handler: context.handler,
    name,
    status: UNAUTHORIZED,
    errorName: 'degraded',
    errorMessage,
    correlationId: failure.correlationId,
  });
  if (withOutcome) reportOutcome(policy, context, UNAUTHORIZED);
}

/** Reports a call to the access log (`onOutcome`, which may throw: that is contained), with or without a log record. */
export function reportOutcome(policy: ErrorPolicy, context: CallContext, status: number, classification?: Classification): void {
  if (policy.onOutcome === undefined) return;
  const durationMs = context.startedAt === 0 ? 0 : Math.max(0, now() - context.startedAt);
  const outcome = { kind: context.handler, name: safeName(context, policy), durationMs, status, ...(classification === undefined ? {} : { classification }) };
  try {
    policy.onOutcome(outcome);
  } catch {
    // the access log must not break the call
  }
}

/** A crash's exception for telemetry: its name, message and stack, scrubbed and bounded as in its log record. */
export function crashException(policy: ErrorPolicy, error: unknown): { type: string; message: string; stacktrace: string } {
  try {
    return { type: errorLabel(error, policy), message: safeMessage(error, policy), stacktrace: stackText(error, policy) };
  } catch {
    return { type: 'unknown', message: '', stacktrace: '' };
  }
}

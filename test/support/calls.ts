/**
 * What tests observe of a call, whatever the SDK: the log records and outcomes a policy writes, the text of a tool result,
 * the JSON-RPC error a request rejects with, reference ids. Imports no SDK (see link.ts).
 */
import { vi } from 'vitest';
import { createErrorPolicy, type ErrorPolicyOptions, type LogRecord, type Outcome } from '../../src/index.js';

/** A logger that keeps every record. */
export function captureLogs(): { records: LogRecord[]; logger: (record: LogRecord) => void } {
  const records: LogRecord[] = [];
  return { records, logger: (record) => records.push(record) };
}

/** Runs `fn` with `process.stderr.write` captured (the default logger's channel): its value and every chunk written. */
export async function withStderr<T>(fn: () => Promise<T>): Promise<{ value: T; written: string[] }> {
  const written: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  try {
    return { value: await fn(), written };
  } finally {
    spy.mockRestore();
  }
}

/** Captured log records and outcomes, with the policy that writes them. */
export function capture(options: Omit<ErrorPolicyOptions, 'logger' | 'onOutcome'> = {}) {
  const records: LogRecord[] = [];
  const outcomes: Outcome[] = [];
  const policy = createErrorPolicy({
    ...options,
    logger: (record) => {
      records.push(record);
    },
    onOutcome: (outcome) => {
      outcomes.push(outcome);
    },
  });
  return { policy, records, outcomes };
}

/** The one text of a tool result: fails unless the result has exactly one content, a text. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: unknown }[] }).content;
  const only = content?.length === 1 ? content[0] : undefined;
  if (only?.type !== 'text' || typeof only.text !== 'string') throw new Error(`expected one text content, got ${JSON.stringify(result)}`);
  return only.text;
}

/** The JSON-RPC error a client request rejects with: its code and message, as the client shows them. */
export async function rpcError(promise: Promise<unknown>): Promise<{ code: unknown; message: string; data: unknown }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown; data?: unknown };
    return { code: e.code, message: String(e.message), data: e.data };
  }
  throw new Error('expected the request to fail');
}

/** Matches a crash reference id (and a correlation id: the same form). */
export const REFERENCE = /^[0-9a-f]{12}$/;

/** The key of the failure object, in a tool result's `_meta` and in a JSON-RPC error's `data`. */
export const FAILURE_KEY = 'mcp-error-policy/failure';
/** The key of the draft MCP ToolFailure extension's object in a tool result's `_meta`. */
export const DRAFT_TOOL_FAILURE_KEY = 'io.modelcontextprotocol/toolFailure';

/**
 * The failure object an answer carries: under {@link FAILURE_KEY} in `_meta` (a tool result) or `data` (a JSON-RPC
 * error, or an object holding its `data`); undefined when there is none.
 */
export function failureObjectOf(answer: unknown): Readonly<Record<string, unknown>> | undefined {
  const holder = answer as { _meta?: Record<string, unknown>; data?: Record<string, unknown> } | undefined;
  const object = holder?._meta?.[FAILURE_KEY] ?? holder?.data?.[FAILURE_KEY];
  return object === undefined ? undefined : (object as Record<string, unknown>);
}

/**
 * The failure object of `answer` split from its correlation id (random: tests tie it to the log record apart), or
 * `{}` when the answer carries none.
 */
export function splitFailure(answer: unknown): { failure?: Readonly<Record<string, unknown>>; correlationId?: unknown } {
  const object = failureObjectOf(answer);
  if (object === undefined) return {};
  const { correlationId, ...failure } = object;
  return { failure, correlationId };
}

/**
 * The correlation id of the failure object `answer` carries (what a client reports, and what the default logger's line
 * ends with: `(correlation <id>)`); throws unless there is one of 12 hex digits.
 */
export function correlationIdOf(answer: unknown): string {
  const id = failureObjectOf(answer)?.['correlationId'];
  if (typeof id !== 'string' || !REFERENCE.test(id)) throw new Error(`no correlation id in ${JSON.stringify(answer)}`);
  return id;
}

/** The reference id at the end of a crash text. */
export function referenceIn(text: string): string {
  const match = /\(reference ([0-9a-f]{12})\)$/.exec(text);
  if (match?.[1] === undefined) throw new Error(`no reference in ${JSON.stringify(text)}`);
  return match[1];
}

/**
 * The text with every `(reference <12 hex>)` written `(reference <id>)`, every log line's `(correlation <12 hex>)`
 * written `(correlation <id>)`, and every JSON `"correlationId":"<12 hex>"` written `"correlationId":"<id>"`: a search
 * for a short literal (`403`, say) in text holding a random id must not find it inside the id.
 */
export function withoutReferences(text: string): string {
  return text
    .replace(/\(reference [0-9a-f]{12}\)/g, '(reference <id>)')
    .replace(/\(correlation [0-9a-f]{12}\)/g, '(correlation <id>)')
    .replace(/"correlationId":"[0-9a-f]{12}"/g, '"correlationId":"<id>"');
}

/** Waits for in-flight notifications to arrive. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** Outcomes without their (variable) durations, for exact comparison. */
export function withoutDurations(outcomes: readonly Outcome[]) {
  return outcomes.map(({ durationMs, classification, ...rest }) => {
    if (!(typeof durationMs === 'number' && durationMs >= 0 && Number.isFinite(durationMs))) throw new Error(`bad durationMs ${String(durationMs)}`);
    return classification === undefined ? rest : { ...rest, classification: classification.kind };
  });
}

/**
 * Support for the security tests: a real McpServer and the real SDK Client over InMemoryTransport with every message
 * the server sends captured as raw JSON (the wire), capturing loggers of each shape, the canary, the case-count
 * configuration, and the assertions every hostile case shares.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolResultSchema, JSONRPCErrorResponseSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { LogRecord } from '../../src/index.js';
import { FAILURE_KEY, failureObjectOf, REFERENCE } from '../support/calls.js';
import { link } from '../support/link.js';
import type { Session } from '../support/session.js';

export { CallToolResultSchema };

/**
 * Planted in every part of a thrown value that the policy must not show: it must never be on the wire. Its shape
 * matches none of the secret patterns, so that scrubbing cannot hide a leak.
 */
export const CANARY = 'CANARY-5e1f-hostile-internal';

// ---------------------------------------------------------------------------------------------------------------
// How many cases: FC_NUM_RUNS is the total of every property of test/security; each property runs its share of it.
// vitest.config.ts sets it: 5,000 for `npm test`, 100,000 for `npm run test:heavy` and `test:full` (CI runs both).
// FC_SEED replays a failure fast-check reported.
// ---------------------------------------------------------------------------------------------------------------

/** Total cases of all properties in test/security (`FC_NUM_RUNS`; 100,000 when unset). */
export const TOTAL_RUNS = readPositiveInt('FC_NUM_RUNS', 100_000);

function readPositiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new TypeError(`Expected ${name} to be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * The shares of TOTAL_RUNS, per property. They add up to 1: most cases run directly against the wrapped function, a
 * smaller share through the real session.
 */
export const SHARES = {
  toolDirect: 0.24,
  toToolResult: 0.05,
  googleDirect: 0.03,
  resourceDirect: 0.2,
  promptDirect: 0.2,
  protocolDirect: 0.03,
  secretsDirect: 0.07,
  forgingDirect: 0.05,
  toolSession: 0.04,
  resourceSession: 0.03,
  promptSession: 0.03,
  applySession: 0.03,
} as const;

/** fast-check parameters for a property with the given share of TOTAL_RUNS (failures are shrunk to a minimal case). */
export function runs(share: keyof typeof SHARES): { numRuns: number; seed?: number } {
  const numRuns = Math.max(1, Math.round(TOTAL_RUNS * SHARES[share]));
  const seed = process.env.FC_SEED;
  return seed === undefined || seed === '' ? { numRuns } : { numRuns, seed: Number(seed) };
}

/**
 * A vitest timeout that grows with the case count: a guard against a hang, not a speed check, so it leaves room for a
 * machine several times slower than a quiet one (a shared CI runner, other test files in parallel): three times the
 * cases at `msPerCase`, plus a minute.
 */
export function timeoutFor(share: keyof typeof SHARES, msPerCase: number): number {
  return Math.round(TOTAL_RUNS * SHARES[share] * msPerCase * 3) + 60_000;
}

// ---------------------------------------------------------------------------------------------------------------
// Sessions and loggers.
// ---------------------------------------------------------------------------------------------------------------

/** A server and a client over InMemoryTransport; `wire` holds every message the server sent, as JSON text. */
export interface WireSession extends Session {
  readonly wire: string[];
}

/** Connects a fresh McpServer, set up by `register`, to the real SDK Client, capturing the server's messages. */
export async function openSession(register: (server: McpServer) => void): Promise<WireSession> {
  const server = new McpServer({ name: 'security-test-server', version: '1.0.0' });
  register(server);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  const wire: string[] = [];
  const send = serverSide.send.bind(serverSide);
  serverSide.send = async (message, options) => {
    wire.push(JSON.stringify(message));
    return send(message, options);
  };
  const session = await link(server, new Client({ name: 'security-test-client', version: '1.0.0' }), [serverSide, clientSide]);
  return { ...session, wire };
}

/** A function logger that keeps every record (captureLogs of test/support/calls.ts). */
export { captureLogs as recordLogger } from '../support/calls.js';

/** A console-shaped logger (info/warn/error taking one text) that keeps what it was given. */
export function consoleLogger(): { lines: { level: string; text: string }[]; logger: { info(text: string): void; warn(text: string): void; error(text: string): void } } {
  const lines: { level: string; text: string }[] = [];
  return {
    lines,
    logger: {
      info: (text: string) => void lines.push({ level: 'info', text }),
      warn: (text: string) => void lines.push({ level: 'warn', text }),
      error: (text: string) => void lines.push({ level: 'error', text }),
    },
  };
}

/**
 * Runs `body` with process.stderr.write capturing (the default logger's channel); returns what was written. The
 * failure paths of the wrappers log synchronously for handlers that throw synchronously, so a synchronous body
 * captures exactly its own records.
 */
export async function captureStderr(body: () => Promise<void>): Promise<string> {
  const chunks: string[] = [];
  const original = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }) as typeof process.stderr.write;
  try {
    await body();
  } finally {
    process.stderr.write = original;
  }
  return chunks.join('');
}

// ---------------------------------------------------------------------------------------------------------------
// Shared assertions.
// ---------------------------------------------------------------------------------------------------------------

/** What the policy should answer for a case; an anticipated one with its failure object's code and retryable flag. */
export type Expectation =
  | { readonly kind: 'crash' }
  | {
      readonly kind: 'anticipated';
      readonly rule: string;
      readonly text: string;
      readonly code: number;
      readonly status: number;
      readonly level: 'info' | 'warn';
      readonly failure: { readonly code: string; readonly retryable: boolean; readonly upstream?: 'unreached' };
    };

/**
 * The failure object the answer must carry: for a crash `internal` with the reference as its correlation id; else the
 * expected code and flag, and the record's correlation id (a case's values hold no retry delay).
 */
function expectedFailureObject(expected: Expectation, record: LogRecord, reference: string | undefined): Record<string, unknown> {
  if (expected.kind === 'crash') return { code: 'internal', retryable: false, correlationId: reference };
  return { ...expected.failure, correlationId: record.correlationId };
}

/**
 * The failure object (`_meta` or `data`) holds no canary, nor does the record's correlation id (the record itself may
 * quote a crash's message: it is the operator's), the object's keys are in the wire's order, and the record's
 * correlation id is 12 hex digits (one `expect`).
 */
function expectCleanFailureObject(object: unknown, record: LogRecord): void {
  const json = `${JSON.stringify(object)} ${String(record.correlationId)}`;
  const keys = Object.keys(object ?? {}).join(',');
  const problems = [
    ...(json.includes(CANARY) ? [`canary in the failure object or the record's correlation id: ${json.slice(0, 300)}`] : []),
    ...(/^code,retryable,(upstream,)?correlationId$/.test(keys) ? [] : [`failure object keys ${keys}`]),
    ...(typeof record.correlationId === 'string' && REFERENCE.test(record.correlationId) ? [] : [`record correlationId ${String(record.correlationId)}`]),
  ];
  if (problems.length > 0) expect(problems).toEqual([]);
}

/** Raw control characters (C0, DEL, C1) and the Unicode line separators: none may stand in a one-line log text. */
// eslint-disable-next-line no-control-regex
export const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** A stack line of a record: a frame, a cause, or the note for a value without a stack. */
export const STACK_LINE = /^( {4}at | {2}caused by: | {4}\(no stack: )/;

/** Most frames per error, causes per record (src/report.ts), for the bounds checked below. */
const MAX_STACK_LINES = (30 + 1) * 9;

/**
 * The ways one log record is not well formed and bounded (empty when it is): a one-line headline without raw
 * controls, a bounded error message, error name and name, and a stack (warn and error only) whose every line is a
 * frame, a cause or the no-stack note, each bounded and without raw controls. Plain checks, one `expect` at the end:
 * this runs for every one of the 100,000 cases.
 */
export function recordProblems(record: LogRecord, maxMessageLength: number): string[] {
  const problems: string[] = [];
  const show = (text: string): string => JSON.stringify(text.slice(0, 200));
  // A quoted value may grow six-fold (\u0000 escapes); the headline holds a name, an error name and a message.
  const bound = 6 * (maxMessageLength + 200 + 100) + 200;
  if (typeof record.message !== 'string' || record.message.length > bound) problems.push(`headline longer than ${bound}`);
  else if (RAW_CONTROL.test(record.message)) problems.push(`raw control in headline ${show(record.message)}`);
  if (typeof record.errorMessage !== 'string' || record.errorMessage.length > maxMessageLength) problems.push(`errorMessage longer than ${maxMessageLength}`);
  if (typeof record.errorName !== 'string' || record.errorName.length > 600) problems.push('errorName longer than 600');
  if (typeof record.name !== 'string' || record.name.length > 200) problems.push('name longer than 200');
  if (record.level === 'info') {
    if (record.stack !== undefined) problems.push('an info record carries a stack');
    return problems;
  }
  if (typeof record.stack !== 'string') return [...problems, 'a warn/error record without a stack'];
  const lines = record.stack.split('\n');
  if (lines.length > MAX_STACK_LINES) problems.push(`${lines.length} stack lines`);
  for (const line of lines) {
    if (!STACK_LINE.test(line)) problems.push(`stack line not a frame, cause or note: ${show(line)}`);
    if (RAW_CONTROL.test(line)) problems.push(`raw control in stack line ${show(line)}`);
    if (line.length > bound) problems.push(`stack line of ${line.length} characters: ${show(line)}`);
  }
  return problems;
}

/** {@link recordProblems}, asserted. */
export function expectWellFormedRecord(record: LogRecord, maxMessageLength: number): void {
  const problems = recordProblems(record, maxMessageLength);
  if (problems.length > 0) expect(problems, `record ${JSON.stringify(record).slice(0, 500)}`).toEqual([]);
}

/** The record agrees with the expectation and, for a crash, carries `reference` (one `expect`). */
export function expectRecordFor(record: LogRecord, expected: Expectation, handler: 'tool' | 'resource' | 'prompt', name: string, reference: string | undefined): void {
  const actual = {
    handler: record.handler,
    name: record.name,
    kind: record.kind,
    level: record.level,
    status: record.status,
    rule: record.rule,
    reference: record.reference,
    correlationId: record.correlationId,
    headline: expected.kind === 'crash' ? record.message.startsWith(`${handler} ${JSON.stringify(name)} crashed (reference ${reference}): `) : true,
  };
  const wanted =
    expected.kind === 'crash'
      ? { handler, name, kind: 'crash', level: 'error', status: 500, rule: undefined, reference, correlationId: reference, headline: true }
      : { handler, name, kind: 'anticipated', level: expected.level, status: expected.status, rule: expected.rule, reference: undefined, correlationId: record.correlationId, headline: true };
  expect(actual, record.message.slice(0, 300)).toEqual(wanted);
}

/** The reference of a crash text ending in `(reference <id>)`. */
export function referenceIn(text: string): string {
  const match = / \(reference ([0-9a-f]{12})\)$/.exec(text);
  expect(match, `no reference in ${JSON.stringify(text.slice(0, 300))}`).not.toBeNull();
  return match![1]!;
}

/**
 * A tool result answered by the policy: valid for the SDK's CallToolResultSchema, exactly the expected text and
 * failure object (its correlation id the record's), no canary (in `_meta` neither), and exactly one well-formed
 * record that agrees with it.
 */
export function expectToolAnswer(result: unknown, records: readonly LogRecord[], expected: Expectation, name: string, maxMessageLength: number): void {
  expect(CallToolResultSchema.safeParse(result).success, 'CallToolResultSchema').toBe(true);
  const json = JSON.stringify(result);
  expect(json.includes(CANARY), `canary on the wire: ${json.slice(0, 300)}`).toBe(false);
  expect(records, 'exactly one record').toHaveLength(1);
  const record = records[0]!;
  const text = (result as { content: { text: string }[] }).content[0]!.text;
  let reference: string | undefined;
  if (expected.kind === 'crash') reference = referenceIn(text);
  const shown = expected.kind === 'crash' ? `Error executing tool ${name} (reference ${reference})` : `Error executing tool ${name}: ${expected.text}`;
  const object = failureObjectOf(result);
  expect(result).toEqual({ _meta: { [FAILURE_KEY]: expectedFailureObject(expected, record, reference) }, content: [{ type: 'text', text: shown }], isError: true });
  expectCleanFailureObject(object, record);
  expectRecordFor(record, expected, 'tool', name, reference);
  expectWellFormedRecord(record, maxMessageLength);
}

/** What the SDK's Protocol puts on the wire for an error a request handler threw (shared/protocol.js _onrequest). */
export function sdkWireError(thrown: unknown): { code: number; message: string; data?: unknown } {
  const e = thrown as { code?: unknown; message?: unknown; data?: unknown };
  const code = Number.isSafeInteger(e.code) ? (e.code as number) : -32603;
  const message = (e.message ?? 'Internal error') as string;
  return e.data === undefined ? { code, message } : { code, message, data: e.data };
}

/**
 * A resource or prompt failure answered by the policy: the thrown JSON-RPC error is valid for the SDK's
 * JSONRPCErrorResponseSchema as the SDK would send it, carries exactly the expected code and text, no `data` except
 * the policy's own (the failure object, and `{ uri }` on a resource-not-found answer), no canary (in the failure
 * object neither), and exactly one well-formed record that agrees with it. `failed`: what a crash's text says failed
 * (default `Error reading resource <name>` or `Error getting prompt <name>`; `Error handling <method>` for a
 * completion or list request).
 */
export function expectRpcAnswer(
  thrown: unknown,
  records: readonly LogRecord[],
  expected: Expectation,
  handler: 'resource' | 'prompt',
  name: string,
  maxMessageLength: number,
  failed?: string,
): void {
  const wire = sdkWireError(thrown);
  expect(JSONRPCErrorResponseSchema.safeParse({ jsonrpc: '2.0', id: 1, error: wire }).success, 'JSONRPCErrorResponseSchema').toBe(true);
  const json = JSON.stringify(wire);
  expect(json.includes(CANARY), `canary on the wire: ${json.slice(0, 300)}`).toBe(false);
  expect(records, 'exactly one record').toHaveLength(1);
  let reference: string | undefined;
  const what = handler === 'resource' ? 'Error reading resource' : 'Error getting prompt';
  const record = records[0]!;
  if (expected.kind === 'crash') reference = referenceIn(wire.message);
  const object = expectedFailureObject(expected, record, reference);
  if (expected.kind === 'crash') {
    expect(wire).toEqual({ code: -32603, message: `${failed ?? `${what} ${name}`} (reference ${reference})`, data: { [FAILURE_KEY]: object } });
  } else if (handler === 'resource' && expected.code === -32002) {
    expect(wire).toEqual({ code: expected.code, message: expected.text, data: { uri: name, [FAILURE_KEY]: object } });
  } else {
    expect(wire).toEqual({ code: expected.code, message: expected.text, data: { [FAILURE_KEY]: object } });
  }
  expectCleanFailureObject(failureObjectOf(wire), record);
  expectRecordFor(record, expected, handler, name, reference);
  expectWellFormedRecord(records[0]!, maxMessageLength);
}

/** Awaits `promise`; returns `{ rejected }` or `{ value }`. */
export async function settle(promise: unknown): Promise<{ rejected: true; error: unknown } | { rejected: false; value: unknown }> {
  try {
    return { rejected: false, value: await promise };
  } catch (error) {
    return { rejected: true, error };
  }
}

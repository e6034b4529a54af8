/**
 * Observing one call of the compatibility table: what the client got (result or JSON-RPC error, reference ids
 * normalised) and the log records it produced. Imports no SDK, so that SDK v1 and v2 runs share it.
 */
import type { LogRecord } from '../../src/index.js';
import { toLogSink } from '../../src/log.js';
import { failureObjectOf, splitFailure } from '../support/calls.js';
import { normaliseRunValues, type ExpectedFailure, type ExpectedWire, type Scenario } from './scenarios.js';

/** What a client got from one call. */
export interface Observed {
  /** The text (and isError) of a result, or the code and message of a JSON-RPC error; references as `<ref>`. */
  readonly wire: ExpectedWire;
  /** The whole result or error as JSON, references as `<ref>`: compared byte for byte across transports. */
  readonly json: string;
  /** The same JSON with the real reference ids. */
  readonly rawJson: string;
  /** The failure object as received (`_meta` or `error.data`), correlation id included; absent when there is none. */
  readonly failure?: Readonly<Record<string, unknown>>;
}

/** One log record as observed: the full record in-process, the stderr text for the subprocess. */
export interface ObservedRecord {
  /** `[mcp-error-policy] LEVEL <message>`: what both kinds of observation share. */
  readonly line: string;
  readonly record?: LogRecord;
}

export interface RunningTransport {
  readonly id: string;
  call(scenario: Scenario): Promise<{ observed: Observed; records: ObservedRecord[] }>;
  close(): Promise<void>;
}

/** The client calls the table makes (SDK v1 and v2 clients both have them). */
export interface LooseClient {
  callTool(params: { name: string; arguments: Record<string, string> }): Promise<unknown>;
  readResource(params: { uri: string }): Promise<unknown>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<unknown>;
}

/** Calls `scenario` through `client` and captures what came back, result or error. */
export async function observe(client: LooseClient, scenario: Scenario): Promise<Observed> {
  let raw: unknown;
  let wire: ExpectedWire;
  try {
    if (scenario.kind === 'tool') {
      raw = await client.callTool({ name: scenario.id, arguments: { ...scenario.args } });
    } else if (scenario.kind === 'resource') {
      raw = await client.readResource({ uri: scenario.uri ?? `compat://sheets/${scenario.id}` });
    } else {
      raw = await client.getPrompt({ name: scenario.id, ...(scenario.args === undefined ? {} : { arguments: { ...scenario.args } }) });
    }
    const result = raw as { content?: { type: string; text?: string }[]; isError?: boolean };
    const first = result.content?.[0];
    const text = normaliseRunValues(first?.type === 'text' ? (first.text ?? '') : JSON.stringify(raw));
    wire = { result: { text, isError: result.isError === true, ...failureOf(raw) } };
  } catch (error) {
    const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
    raw = { code, message, data };
    const uri = (data as { uri?: unknown } | undefined)?.uri;
    wire = {
      error: {
        code: typeof code === 'number' ? code : NaN,
        message: normaliseRunValues(String(message)),
        ...(typeof uri === 'string' ? { uri } : {}),
        ...failureOf(raw),
      },
    };
  }
  const rawJson = JSON.stringify(raw);
  const failure = failureObjectOf(raw);
  return { wire, json: normaliseRunValues(rawJson), rawJson, ...(failure === undefined ? {} : { failure }) };
}

/** `{ failure }` without its correlation id (checked against the record instead), or nothing when there is none. */
function failureOf(answer: unknown): { failure?: ExpectedFailure } {
  const { failure } = splitFailure(answer);
  return failure === undefined ? {} : { failure: failure as unknown as ExpectedFailure };
}

/**
 * The first line the default logger writes for `record` (`[mcp-error-policy] LEVEL <message>`, and the correlation
 * suffix), made by the policy's own text formatting: a plain text logger gets the same text as stderr.
 */
export function lineOf(record: LogRecord): string {
  let text = '';
  const keep = (value: string): void => {
    text = value;
  };
  toLogSink({ info: keep, warn: keep, error: keep })?.(record);
  return `[mcp-error-policy] ${record.level.toUpperCase()} ${text.split('\n')[0]!}`;
}

/** Calls through `client`, taking the records the call appended to `records`. */
export function inProcessCall(client: LooseClient, records: LogRecord[]) {
  return async (scenario: Scenario) => {
    const before = records.length;
    const observed = await observe(client, scenario);
    return { observed, records: records.slice(before).map((record) => ({ line: lineOf(record), record })) };
  };
}


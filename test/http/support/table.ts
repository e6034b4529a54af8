/**
 * The per-status table's one server and one check, shared by the in-memory run (mcp.test.ts) and the stdio run
 * (stdio.test.ts, through the subprocess fixtures/table-server.ts): a real McpServer with one tool per case, each
 * calling the real client library against the fakes, under `[...httpRules, ...coreRules]`; and what a row must show on
 * the wire (text, failure object), in its one log record and in its one access-log outcome.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { expect } from 'vitest';
import { coreRules, createErrorPolicy, withClientVisibleErrors, type LogRecord, type Outcome } from '../../../src/index.js';
import { httpRules } from '../../../src/http/index.js';
import type { Variant } from './clients.js';
import { REAUTHORIZE, casesOf, type Expected } from './expected.js';
import { textOf } from './session.js';

/** The client's timeout: the fake's `slow` case answers after 5 s. */
export const TIMEOUT_MS = 400;

/** The key of the failure object in a tool result's `_meta`. */
export const FAILURE_KEY = 'mcp-error-policy/failure';

/** What the table's server is made of. */
export interface TableServerOptions {
  readonly variant: Variant;
  /** The fakes' origin. */
  readonly origin: string;
  /** An origin where connections are refused (the `refused` case). */
  readonly refusedOrigin: string;
  readonly logger: (record: LogRecord) => void;
  readonly onOutcome: (outcome: Outcome) => void;
}

/** An McpServer with one tool per case of the variant (casesOf), each failing the way the library fails. */
export async function tableServer({ variant, origin, refusedOrigin, logger, onOutcome }: TableServerOptions): Promise<McpServer> {
  const call = await variant.make(origin, TIMEOUT_MS);
  const refused = await variant.make(refusedOrigin, TIMEOUT_MS);
  const policy = createErrorPolicy({ rules: [...httpRules, ...coreRules], reauthorize: REAUTHORIZE, logger, onOutcome });
  const server = new McpServer({ name: 'http-rules-test', version: '1.0.0' });
  for (const which of casesOf(variant)) {
    server.registerTool(
      which,
      { description: `fails with ${which}` },
      withClientVisibleErrors(
        async (): Promise<CallToolResult> => {
          await (which === 'refused' ? refused('missing') : call(which));
          return { content: [{ type: 'text', text: 'unreachable' }] };
        },
        { name: which, policy },
      ),
    );
  }
  return server;
}

/** What one call of a row left: the tool result, and the records and outcomes written since the call began. */
export interface Row {
  readonly which: string;
  readonly result: unknown;
  readonly records: readonly LogRecord[];
  readonly outcomes: readonly { readonly name: string; readonly status: number }[];
}

/** A correlation id as the policy makes them: 12 hex digits. */
const CORRELATION_ID = /^[0-9a-f]{12}$/;

/** The failure object of a tool result, or undefined. */
export function failureObjectOf(result: unknown): unknown {
  return (result as { _meta?: Record<string, unknown> })._meta?.[FAILURE_KEY];
}

/**
 * One row: the exact text, the failure object (code, retryable, delay; its correlation id the record's), one record
 * naming the rule with the request (method, credential-free URL, status, request id), one outcome with the status.
 */
export function checkRow({ which, result, records, outcomes }: Row, want: Expected): void {
  expect({ isError: (result as { isError?: boolean }).isError, text: textOf(result) }).toEqual({ isError: true, text: `Error executing tool ${which}: ${want.text}` });
  expect(records).toHaveLength(1);
  const record = records[0];
  expect(record).toMatchObject({ name: which, level: 'warn', kind: 'anticipated', rule: want.rule, status: want.status });
  expect(record?.correlationId).toMatch(CORRELATION_ID);
  expect(Object.keys((result as { _meta?: object })._meta ?? {})).toEqual([FAILURE_KEY]);
  expect(failureObjectOf(result)).toEqual({ ...want.failure, correlationId: record?.correlationId });
  const fields = { httpMethod: record?.httpMethod, httpUrl: record?.httpUrl, httpStatus: record?.httpStatus, httpRequestId: record?.httpRequestId };
  if (want.request === undefined) {
    expect(fields.httpStatus).toBeUndefined();
  } else {
    expect(fields).toEqual({ httpMethod: undefined, httpUrl: undefined, httpRequestId: undefined, ...want.request });
  }
  expect(outcomes).toEqual([expect.objectContaining({ name: which, status: want.status })]);
}

/**
 * A real McpServer under `applyErrorPolicy(server, createErrorPolicy({ rules: [...httpRules, ...coreRules] }))`, one
 * tool per case (each makes a real library call that fails), connected to the real SDK Client over InMemoryTransport;
 * and the check of one row against what the client, the log and the access log got (table.ts's `checkRow`, plus the
 * record's request fields of failures whose status is no HTTP status).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { expect } from 'vitest';
import { applyErrorPolicy, coreRules, type LogRecord, type Outcome } from '../../../src/index.js';
import { httpRules } from '../../../src/http/index.js';
import { capture } from '../../support/calls.js';
import { REAUTHORIZE, type ExpectedFailure } from './expected.js';
import { connect, type Session } from './session.js';
import { checkRow } from './table.js';

/** What one case must give: as table.ts's `Expected`, but the record's request may lack a status. */
export interface Want {
  readonly text: string;
  readonly rule: string;
  readonly status: number;
  readonly request?: { readonly httpMethod?: string; readonly httpUrl?: string; readonly httpStatus?: number; readonly httpRequestId?: string };
  readonly failure: ExpectedFailure;
}

/** A connected session whose tools fail, with everything the policy wrote. */
export interface PolicySession {
  readonly session: Session;
  readonly records: LogRecord[];
  readonly outcomes: Outcome[];
  /** Calls the tool `which` and checks the row against `want`. */
  check(which: string, want: Want): Promise<void>;
  /** Every answer, record and outcome written so far, as one string, for searching. */
  everything(): string;
}

/**
 * Starts a server with one tool per entry of `calls`, under the HTTP and core rules and the tests' re-authorization text
 * (which a `*-unauthorized` row's text ends with).
 */
export async function startPolicySession(calls: Readonly<Record<string, () => Promise<unknown>>>): Promise<PolicySession> {
  const { policy, records, outcomes } = capture({ rules: [...httpRules, ...coreRules], reauthorize: REAUTHORIZE });
  const server = new McpServer({ name: 'graphql-rules-test', version: '1.0.0' });
  applyErrorPolicy(server, policy);
  for (const [name, call] of Object.entries(calls)) {
    server.registerTool(name, { description: `fails with ${name}` }, async () => {
      await call();
      return { content: [{ type: 'text' as const, text: 'unreachable' }] };
    });
  }
  const session = await connect(server);
  const wire: string[] = [];
  return {
    session,
    records,
    outcomes,
    async check(which, want) {
      const [records0, outcomes0] = [records.length, outcomes.length];
      const result = await session.client.callTool({ name: which, arguments: {} });
      wire.push(JSON.stringify(result));
      const written = records.slice(records0);
      const { httpStatus } = want.request ?? {};
      const request = want.request === undefined || httpStatus === undefined ? undefined : { ...want.request, httpStatus };
      checkRow({ which, result, records: written, outcomes: outcomes.slice(outcomes0) }, { ...want, text: want.rule.endsWith('-unauthorized') ? `${want.text}\n\n${REAUTHORIZE}` : want.text, request });
      const record = written[0];
      expect({ httpMethod: record?.httpMethod, httpUrl: record?.httpUrl, httpStatus: record?.httpStatus, httpRequestId: record?.httpRequestId }).toEqual({
        httpMethod: undefined,
        httpUrl: undefined,
        httpStatus: undefined,
        httpRequestId: undefined,
        ...want.request,
      });
    },
    everything: () => [wire.join('\n'), JSON.stringify(records), JSON.stringify(outcomes.map((o) => ({ ...o, classification: undefined })))].join('\n'),
  };
}

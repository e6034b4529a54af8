/**
 * Re-authorization the client can follow: a revoked Google sign-in (the real google-auth-library against the fake
 * Google server) in a tool of a server under `applyErrorPolicy` with `reauthorize: { text, url }`. A client that
 * declared URL-mode elicitation gets the -32042 error (`UrlElicitationRequiredError`) with one elicitation for that
 * URL; one that did not gets the isError result with the text and the URL. Both SDKs' real clients, both ways; the
 * access log says 401 either way, and the elicitation's id is the failure's correlation id in the log record.
 */
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport as InMemoryTransportV2, McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyErrorPolicy, coreRules, createErrorPolicy, type LogRecord, type Outcome } from '../../src/index.js';
import { googleRules } from '../../src/google/index.js';
import { link } from '../support/link.js';
import { REFERENCE, rpcError, settle, textOf } from '../support/calls.js';
import type { GalModule } from '../google/gal-suite.js';
import { requestWithRevokedRefreshToken, useFakeGoogle } from '../google/support.js';
import { openTelemetry } from '../../src/opentelemetry/index.js';
import { newTelemetry, registerGlobals, view, type Telemetry } from '../opentelemetry/support.js';

registerGlobals();

const TEXT = 'Sign in to Acme again.';
const URL_ = 'https://acme.example/login?next=%2Fdrive';
const FAILURE_KEY = 'mcp-error-policy/failure';
const ELICITS = { capabilities: { elicitation: { url: {} } } };

interface Sdk {
  readonly name: string;
  newServer(): McpServer;
  connect(server: McpServer, elicits: boolean): ReturnType<typeof link<McpServer, Client>>;
  /** What the client shows of a -32042 error's message. */
  shown(message: string): string;
}

const sdks: readonly Sdk[] = [
  {
    name: 'SDK v1',
    newServer: () => new McpServer({ name: 'sign-in', version: '1.0.0' }),
    connect: (server, elicits) => link(server, new Client({ name: 'c', version: '1.0.0' }, elicits ? ELICITS : {}), InMemoryTransport.createLinkedPair()),
    shown: (message) => `MCP error -32042: ${message}`,
  },
  {
    name: 'SDK v2',
    newServer: () => new McpServerV2({ name: 'sign-in', version: '1.0.0' }) as unknown as McpServer,
    connect: (server, elicits) =>
      link(server, new ClientV2({ name: 'c', version: '1.0.0' }, elicits ? ELICITS : {}) as unknown as Client, InMemoryTransportV2.createLinkedPair()),
    shown: (message) => message,
  },
];

describe.each(sdks)('a revoked sign-in under applyErrorPolicy ($name)', (sdk) => {
  const google = useFakeGoogle({ isolate: 'allTests' });
  let gal: GalModule;

  beforeAll(async () => {
    gal = (await import('google-auth-library10')) as unknown as GalModule;
  });

  async function callDrive(elicits: boolean, telemetry?: Telemetry) {
    const records: LogRecord[] = [];
    const outcomes: Outcome[] = [];
    const server = sdk.newServer();
    applyErrorPolicy(
      server,
      createErrorPolicy({
        rules: [...googleRules, ...coreRules],
        reauthorize: { text: TEXT, url: URL_ },
        logger: (record) => records.push(record),
        onOutcome: (outcome) => outcomes.push(outcome),
        ...(telemetry === undefined ? {} : { telemetry: openTelemetry({ tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider }) }),
      }),
    );
    server.registerTool('drive_list', { description: 'lists files' }, async () => {
      await requestWithRevokedRefreshToken(gal, google.fake);
      return { content: [{ type: 'text' as const, text: 'unreachable' }] };
    });
    const session = await sdk.connect(server, elicits);
    try {
      const answer = await session.client.callTool({ name: 'drive_list', arguments: {} }).then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
      await settle();
      return { answer, records, outcomes };
    } finally {
      await session.close();
    }
  }

  it('a client without URL elicitation gets the text and the URL in the isError result', async () => {
    const { answer, records, outcomes } = await callDrive(false);
    if (!('result' in answer)) throw new Error(`expected a result, got ${String(answer.error)}`);
    const text = textOf(answer.result);
    expect(text.startsWith('Error executing tool drive_list: ')).toBe(true);
    expect(text.endsWith(`\n\n${TEXT} ${URL_}`)).toBe(true);
    expect(answer.result.isError).toBe(true);
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record).toMatchObject({ level: 'warn', kind: 'anticipated', status: 401, rule: 'google-oauth-refresh' });
    expect(record?.correlationId).toMatch(REFERENCE);
    expect(answer.result._meta?.[FAILURE_KEY]).toEqual({ code: expect.any(String), retryable: false, correlationId: record?.correlationId });
    expect(outcomes.map(({ kind, name, status }) => ({ kind, name, status }))).toEqual([{ kind: 'tool', name: 'drive_list', status: 401 }]);
  });

  it('a client with URL elicitation gets -32042 with one elicitation for the sign-in URL', async () => {
    const plain = await callDrive(false);
    if (!('result' in plain.answer)) throw new Error('expected a result');
    const { answer, records, outcomes } = await callDrive(true);
    if (!('error' in answer)) throw new Error(`expected -32042, got ${JSON.stringify(answer.result)}`);
    const error = await rpcError(Promise.reject(answer.error));
    expect(records).toHaveLength(1);
    const correlationId = records[0]?.correlationId;
    expect(correlationId).toMatch(REFERENCE);
    expect(error.code).toBe(-32042);
    expect(error.message).toBe(sdk.shown(textOf(plain.answer.result)));
    expect(error.data).toEqual({ elicitations: [{ mode: 'url', elicitationId: correlationId, url: URL_, message: TEXT }] });
    expect((answer.error as { elicitations?: unknown }).elicitations).toEqual([{ mode: 'url', elicitationId: correlationId, url: URL_, message: TEXT }]);
    expect(records[0]).toMatchObject({ level: 'warn', kind: 'anticipated', status: 401, rule: 'google-oauth-refresh' });
    expect(outcomes.map(({ kind, name, status }) => ({ kind, name, status }))).toEqual([{ kind: 'tool', name: 'drive_list', status: 401 }]);
  });

  it('with OpenTelemetry, the one span of the call records the -32042 answer, with the client text as its status', async () => {
    const telemetry = newTelemetry();
    const { answer, records } = await callDrive(true, telemetry);
    if (!('error' in answer)) throw new Error(`expected -32042, got ${JSON.stringify(answer.result)}`);
    const error = await rpcError(Promise.reject(answer.error));
    const spans = telemetry.spans().map(view);
    expect(spans).toHaveLength(1);
    expect(spans[0]?.status).toEqual({ code: 2, message: error.message.replace(/^MCP error -32042: /, '') });
    expect(spans[0]?.attributes).toMatchObject({
      'error.type': '-32042',
      'rpc.response.status_code': '-32042',
      'mcp_error_policy.failure.kind': 'anticipated',
      'mcp_error_policy.rule': 'google-oauth-refresh',
      'mcp_error_policy.correlation_id': records[0]?.correlationId,
    });
    expect(spans[0]?.events).toEqual([]);
  });

  it('failures that need no sign-in stay isError results for a client with URL elicitation', async () => {
    const server = sdk.newServer();
    applyErrorPolicy(server, createErrorPolicy({ reauthorize: { text: TEXT, url: URL_ }, logger: () => undefined }));
    server.registerTool('boom', { description: 'crashes' }, () => {
      throw new Error('internal detail');
    });
    const session = await sdk.connect(server, true);
    try {
      const result = await session.client.callTool({ name: 'boom', arguments: {} });
      expect(textOf(result)).toMatch(/^Error executing tool boom \(reference [0-9a-f]{12}\)$/);
    } finally {
      await session.close();
    }
  });
});

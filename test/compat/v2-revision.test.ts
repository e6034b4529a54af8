/**
 * The 2026-07-28 protocol revision beside 2025-11-25, through the real SDK v2 server (examples/sign-in-http.ts:
 * `createMcpHandler` for 2026-07-28, sessions for 2025-11-25) and the real v2 client over Streamable HTTP on
 * 127.0.0.1, pinned to each revision; the v1 client on 2025-11-25. What the client gets on the wire and raises, the log
 * records, the access log and the OpenTelemetry spans, for a sign-in, a resource not found and the caller codes the
 * revision added (-32020 header mismatch, -32021 missing client capability, -32022 unsupported protocol version, as
 * `@modelcontextprotocol/server` numbers them).
 */
import {
  Client,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ResourceNotFoundError,
  StreamableHTTPClientTransport,
  UnsupportedProtocolVersionError,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import {
  MissingRequiredClientCapabilityError as ServerMissingCapability,
  ProtocolError as ServerProtocolError,
  UnsupportedProtocolVersionError as ServerUnsupportedVersion,
} from '@modelcontextprotocol/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ResourceNotFoundError as OwnResourceNotFoundError, type LogRecord, type Outcome } from '../../src/index.js';
import { openTelemetry } from '../../src/opentelemetry/index.js';
import { startSignInServer, type SignInServer } from '../../examples/sign-in-http.js';
import { REFERENCE, rpcError, textOf } from '../support/calls.js';
import { newTelemetry, registerGlobals, view, type SpanView } from '../opentelemetry/support.js';

registerGlobals();

const SIGN_IN_URL = /^http:\/\/127\.0\.0\.1:\d+\/acme\/login\?state=[0-9a-f-]{36}$/;
const ELICITS = { elicitation: { url: {} } };

/** Resources whose reads fail with what the revision prescribes. */
function register(server: McpServer): void {
  const fails = (name: string, template: string, error: (uri: URL) => Error) =>
    server.registerResource(name, new ResourceTemplate(template, { list: undefined }), {}, (uri) => {
      throw error(uri);
    });
  fails('doc', 'doc://{id}', (uri) => new OwnResourceNotFoundError(`No document ${uri.href}`));
  fails('cap', 'cap://{id}', () => new ServerMissingCapability({ requiredCapabilities: { sampling: {} } }, 'Sampling is needed to read this'));
  fails('ver', 'ver://{id}', () => new ServerUnsupportedVersion({ supported: ['2026-07-28'], requested: '2025-11-25' }, 'Read this on 2026-07-28'));
  fails('hdr', 'hdr://{id}', () => new ServerProtocolError(-32020, 'Mcp-Param-Sheet disagrees with the body'));
}

const telemetry = newTelemetry();
let server: SignInServer;
const records: LogRecord[] = [];
const outcomes: Outcome[] = [];

beforeAll(async () => {
  server = await startSignInServer({
    register,
    policy: {
      logger: (record) => records.push(record),
      onOutcome: (outcome) => outcomes.push(outcome),
      telemetry: openTelemetry({ tracerProvider: telemetry.tracerProvider, meterProvider: telemetry.meterProvider }),
    },
  });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  records.length = 0;
  outcomes.length = 0;
  telemetry.reset();
});

function transport(user: string): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer token-${user}` } } });
}

/** A v2 client of alice on `revision`, declaring URL elicitation or not; on 2026-07-28 it does not answer input requests itself. */
async function connect(revision: string, elicits: boolean): Promise<Client> {
  const modern = revision === '2026-07-28';
  const client = new Client(
    { name: 'revision-client', version: '1.0.0' },
    {
      capabilities: elicits ? ELICITS : {},
      ...(modern ? { versionNegotiation: { mode: { pin: revision } }, inputRequired: { autoFulfill: false } } : {}),
    },
  );
  await client.connect(transport('alice'));
  expect(client.getNegotiatedProtocolVersion()).toBe(revision);
  return client;
}

/** The one span of the last call, its attributes without the ones every span has. */
function lastSpan(): SpanView {
  const spans = telemetry.spans().map(view);
  expect(spans).toHaveLength(1);
  return spans[0]!;
}

function sessionAttribute(revision: string): Record<string, unknown> {
  // 2025-11-25 runs in a session; the convention sets no session id on 2026-07-28 (which has none)
  return revision === '2026-07-28' ? {} : { 'mcp.session.id': expect.stringMatching(/^[0-9a-f-]{36}$/) };
}

describe.each(['2025-11-25', '2026-07-28'])('SDK v2 client on %s', (revision) => {
  const modern = revision === '2026-07-28';
  const common = (method: string) => ({ 'mcp.method.name': method, 'mcp.protocol.version': revision, 'jsonrpc.request.id': expect.any(String), ...sessionAttribute(revision) });

  it('a sign-in failure: the URL elicitation the revision has, for a client that declared it; one record, status 401', async () => {
    const client = await connect(revision, true);
    try {
      const answer = await client.callTool({ name: 'acme_profile', arguments: {} }, { allowInputRequired: true } as never).then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
      expect(records.map((r) => [r.level, r.kind, r.rule, r.status])).toEqual([['info', 'anticipated', 'acme-sign-in', 401]]);
      const correlationId = records[0]!.correlationId!;
      expect(correlationId).toMatch(REFERENCE);
      const failure = { 'mcp_error_policy.failure.kind': 'anticipated', 'mcp_error_policy.rule': 'acme-sign-in', 'mcp_error_policy.failure.code': 'acme-sign-in', 'mcp_error_policy.failure.retryable': false, 'mcp_error_policy.correlation_id': correlationId };
      const span = lastSpan();
      if (modern) {
        // an input-required result: the correlation id is the input request's key (2026-07-28 has no elicitationId)
        if (!('result' in answer)) throw answer.error;
        expect(answer.result).toEqual({
          resultType: 'input_required',
          inputRequests: { [correlationId]: { method: 'elicitation/create', params: { mode: 'url', message: 'Sign in to Acme as alice.', url: expect.stringMatching(SIGN_IN_URL) } } },
          _meta: expect.any(Object),
        });
        // a result, not an error: no error.type, no error status
        expect(span.status).toEqual({ code: 0 });
        expect(span.attributes).toEqual({ ...common('tools/call'), 'gen_ai.tool.name': 'acme_profile', 'gen_ai.operation.name': 'execute_tool', ...failure });
      } else {
        if (!('error' in answer)) throw new Error(`expected -32042, got ${JSON.stringify(answer.result)}`);
        const error = await rpcError(Promise.reject(answer.error));
        expect(error.code).toBe(-32042);
        expect(error.data).toEqual({ elicitations: [{ mode: 'url', elicitationId: correlationId, url: expect.stringMatching(SIGN_IN_URL), message: 'Sign in to Acme as alice.' }] });
        expect(span.status).toEqual({ code: 2, message: error.message });
        expect(span.attributes).toEqual({ ...common('tools/call'), 'gen_ai.tool.name': 'acme_profile', 'gen_ai.operation.name': 'execute_tool', 'error.type': '-32042', 'rpc.response.status_code': '-32042', ...failure });
      }
      expect(outcomes.map((o) => [o.kind, o.name, o.status])).toEqual([['tool', 'acme_profile', 401]]);
    } finally {
      await client.close();
    }
  });

  it('a client that declared no URL elicitation gets the text and the URL, as before', async () => {
    const client = await connect(revision, false);
    try {
      const result = await client.callTool({ name: 'acme_profile', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^Error executing tool acme_profile: You are not signed in to Acme\n\nSign in to Acme as alice\. http:\/\/127\.0\.0\.1:\d+\/acme\/login\?state=[0-9a-f-]{36}$/);
      expect(outcomes.map((o) => o.status)).toEqual([401]);
    } finally {
      await client.close();
    }
  });

  it("this package's ResourceNotFoundError: the v2 client raises ResourceNotFoundError (-32602, data exactly { uri }); the span has no error status", async () => {
    const client = await connect(revision, false);
    try {
      const error = await client.readResource({ uri: 'doc://q9' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ResourceNotFoundError);
      expect({ code: (error as ResourceNotFoundError).code, message: (error as Error).message, data: (error as ResourceNotFoundError).data, uri: (error as ResourceNotFoundError).uri }).toEqual({
        code: -32602,
        message: 'No document doc://q9',
        data: { uri: 'doc://q9' },
        uri: 'doc://q9',
      });
      expect(records.map((r) => [r.level, r.kind, r.rule, r.status, r.name])).toEqual([['info', 'anticipated', 'resource-not-found', 404, 'doc://q9']]);
      const span = lastSpan();
      expect(span.status).toEqual({ code: 0 });
      expect(span.attributes).toEqual({
        ...common('resources/read'),
        'mcp.resource.uri': 'doc://q9',
        'rpc.response.status_code': '-32602',
        'mcp_error_policy.failure.kind': 'anticipated',
        'mcp_error_policy.rule': 'resource-not-found',
        'mcp_error_policy.failure.code': 'resource_not_found',
        'mcp_error_policy.failure.retryable': false,
        'mcp_error_policy.correlation_id': records[0]?.correlationId,
      });
    } finally {
      await client.close();
    }
  });

  it.each([
    ['cap://a', -32021, MissingRequiredClientCapabilityError, { requiredCapabilities: { sampling: {} } }, 'Sampling is needed to read this'],
    ['ver://a', -32022, UnsupportedProtocolVersionError, { supported: ['2026-07-28'], requested: '2025-11-25' }, 'Read this on 2026-07-28'],
    ['hdr://a', -32020, ProtocolError, undefined, 'Mcp-Param-Sheet disagrees with the body'],
  ] as const)('%s: the caller code %i passes through as the protocol error the client raises; a caller error on the span', async (uri, code, type, data, message) => {
    const client = await connect(revision, false);
    try {
      const error = await client.readResource({ uri }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(type);
      expect({ code: (error as ProtocolError).code, message: (error as Error).message, data: (error as ProtocolError).data }).toEqual({ code, message, data });
      expect(records.map((r) => [r.level, r.kind, r.status, r.name])).toEqual([['info', 'protocol', 400, uri]]);
      expect(outcomes.map((o) => o.status)).toEqual([400]);
      const span = lastSpan();
      expect(span.status).toEqual({ code: 0 });
      expect(span.attributes).toEqual({ ...common('resources/read'), 'mcp.resource.uri': uri, 'rpc.response.status_code': String(code), 'mcp_error_policy.failure.kind': 'protocol' });
    } finally {
      await client.close();
    }
  });
});

describe('SDK v1 client on 2025-11-25', () => {
  it('gets -32602 with data exactly { uri } for a missing resource, and -32021 with its data', async () => {
    const client = new ClientV1({ name: 'v1-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransportV1(new URL(server.url), { requestInit: { headers: { authorization: 'Bearer token-bob' } } }));
    try {
      expect(await rpcError(client.readResource({ uri: 'doc://q9' }))).toEqual({ code: -32602, message: 'MCP error -32602: No document doc://q9', data: { uri: 'doc://q9' } });
      expect(await rpcError(client.readResource({ uri: 'cap://a' }))).toEqual({
        code: -32021,
        message: 'MCP error -32021: Sampling is needed to read this',
        data: { requiredCapabilities: { sampling: {} } },
      });
    } finally {
      await client.close();
    }
  });
});

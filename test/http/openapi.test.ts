/**
 * OpenAPI Generator's TypeScript clients, through the real `@kubernetes/client-node` 1.x: a `CoreV1Api` whose
 * KubeConfig's cluster is a fake API server on 127.0.0.1, called from the tools and a resource of a real McpServer,
 * answered to the real SDK Client over InMemoryTransport. Its `ApiException` (`code`, `body`, `headers`; a message that
 * repeats all three) is an HTTP failure: under the core rules alone the client sees the status and the retry delay,
 * never the body; with `[...httpRules, ...coreRules]` also a 4xx body's message (a Kubernetes `Status`'s, its
 * `reason` as the code), never a 5xx body or an HTML page. One record per call; the bearer token never logged.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { runInNewContext } from 'node:vm';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyErrorPolicy, classifyError, coreRules, createErrorPolicy, type ErrorRule, type LogRecord } from '../../src/index.js';
import { httpRules } from '../../src/http/index.js';
import { openapiFailureOf } from '../../src/http/openapi.js';
import { isOpenApiException } from '../../src/kit/http.js';
import { capture, FAILURE_KEY, REFERENCE, rpcError, textOf } from '../support/calls.js';
import { listenOnLoopback, readRequestBody, type Listening } from '../support/loopback.js';
import { connect, type Session } from '../support/session.js';

/** The bearer token of the kubeconfig's user: sent with every request, never logged. */
const TOKEN = 'PLANTEDkubeTOKEN0123456789abcdefghijkl';
/** In the 500's page: no answer may hold it. */
const PAGE_CANARY = 'PAGE-CANARY-panic-at-handler';

/** A Kubernetes `Status` body. */
function status(code: number, reason: string, message: string): string {
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

/** The fake API server's answers, by pod name: fixed headers (no `Date`), so that the exceptions' messages are known. */
const ANSWERS: Readonly<Record<string, { status: number; type: string; body: string; headers?: Record<string, string> }>> = {
  missing: { status: 404, type: 'application/json', body: status(404, 'NotFound', 'pods "missing" not found') },
  taken: { status: 409, type: 'application/json', body: status(409, 'AlreadyExists', 'pods "taken" already exists') },
  invalid: { status: 422, type: 'application/json', body: status(422, 'Invalid', 'Pod "invalid" is invalid: spec.containers: Required value') },
  busy: { status: 429, type: 'application/json', body: status(429, 'TooManyRequests', 'Too many requests, please try again later.'), headers: { 'retry-after': '7' } },
  broken: { status: 500, type: 'text/html', body: `<html><body><h1>${PAGE_CANARY}</h1><pre>at handler (/srv/apiserver/pods.go:42)</pre></body></html>` },
  locked: { status: 401, type: 'application/json', body: status(401, 'Unauthorized', 'Unauthorized') },
};

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readRequestBody(req);
  const name = req.method === 'POST' ? (JSON.parse(body) as { metadata: { name: string } }).metadata.name : (/\/pods\/([a-z]+)$/.exec(req.url ?? '')?.[1] ?? '');
  const found = ANSWERS[name] ?? { status: 200, type: 'application/json', body: JSON.stringify({ kind: 'Pod', apiVersion: 'v1', metadata: { name } }) };
  res.sendDate = false;
  res.writeHead(found.status, { 'content-type': found.type, 'audit-id': `audit-${name}`, connection: 'close', 'content-length': Buffer.byteLength(found.body), ...found.headers }).end(found.body);
}

/** The headers every answer of the fake carries, as the client keeps them (lower case, in the order sent). */
function headersOf(name: string): Record<string, string> {
  const found = ANSWERS[name]!;
  return { 'audit-id': `audit-${name}`, connection: 'close', 'content-length': String(Buffer.byteLength(found.body)), 'content-type': found.type, ...found.headers };
}

/** The `ApiException`'s message for the fake's answer to `name`. */
function exceptionMessage(name: string): string {
  // the 401 is the generator's own branch: its message says `Unauthorized`, and it reads no body
  const [label, body] = name === 'locked' ? ['Unauthorized', 'undefined'] : ['Unknown API Status Code!', JSON.stringify(ANSWERS[name]!.body)];
  return `HTTP-Code: ${ANSWERS[name]!.status}\nMessage: ${label}\nBody: ${body}\nHeaders: ${JSON.stringify(headersOf(name))}`;
}

/** A CoreV1Api whose cluster is `origin`, with a bearer token. */
function coreApi(origin: string): CoreV1Api {
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [{ name: 'fake', server: origin, skipTLSVerify: true }],
    users: [{ name: 'bot', token: TOKEN }],
    contexts: [{ name: 'fake', cluster: 'fake', user: 'bot' }],
    currentContext: 'fake',
  });
  return config.makeApiClient(CoreV1Api);
}

/** A server with `get_pod`, `create_pod` and the resource `pod://{name}`, under `rules`, logging to `records`. */
async function podServer(origin: string, rules: readonly ErrorRule[]): Promise<{ session: Session; records: LogRecord[] }> {
  const { policy, records } = capture({ rules, reauthorize: 'Check the cluster token.' });
  const api = coreApi(origin);
  const server = applyErrorPolicy(new McpServer({ name: 'pods', version: '1.0.0' }), policy);
  server.registerTool('get_pod', { inputSchema: { name: z.string() } }, async ({ name }) => {
    const pod = await api.readNamespacedPod({ name, namespace: 'default' });
    return { content: [{ type: 'text' as const, text: pod.metadata?.name ?? '' }] };
  });
  server.registerTool('create_pod', { inputSchema: { name: z.string() } }, async ({ name }) => {
    const pod = await api.createNamespacedPod({ namespace: 'default', body: { metadata: { name } } });
    return { content: [{ type: 'text' as const, text: pod.metadata?.name ?? '' }] };
  });
  server.registerResource('pod', new ResourceTemplate('pod://{name}', { list: undefined }), {}, async (uri, { name }) => {
    const pod = await api.readNamespacedPod({ name: String(name), namespace: 'default' });
    return { contents: [{ uri: uri.href, text: JSON.stringify(pod.metadata) }] };
  });
  return { session: await connect(server), records };
}

let fake: Listening;
beforeAll(async () => {
  fake = await listenOnLoopback(createServer((req, res) => void answer(req, res)));
});
afterAll(() => fake.close());

/** What a call of a tool gave: the wire text, the failure object (without its id) and the one record. */
async function call(session: Session, records: LogRecord[], tool: string, name: string) {
  const before = records.length;
  const result = await session.client.callTool({ name: tool, arguments: { name } });
  const written = records.slice(before);
  expect(written).toHaveLength(1);
  const { correlationId, ...failure } = (result._meta?.[FAILURE_KEY] ?? {}) as Record<string, unknown>;
  expect(correlationId).toBe(written[0]?.correlationId);
  expect(JSON.stringify(result)).not.toContain(PAGE_CANARY);
  expect(JSON.stringify(written)).not.toContain(TOKEN);
  return { isError: result.isError, text: textOf(result), failure, record: written[0]! };
}

describe('under the core rules alone: the status and the retry delay, never the body', () => {
  let session: Session;
  let records: LogRecord[];
  beforeAll(async () => ({ session, records } = await podServer(fake.origin, coreRules)));
  afterAll(() => session.close());

  it.each([
    ['get_pod', 'missing', 'HTTP request failed with status 404', { code: 'not_found', retryable: false }, 'info'],
    ['create_pod', 'taken', 'HTTP request failed with status 409', { code: 'conflict', retryable: false }, 'info'],
    ['create_pod', 'invalid', 'HTTP request failed with status 422', { code: 'invalid_request', retryable: false }, 'info'],
    ['get_pod', 'busy', 'HTTP request failed with status 429. Retry after 7 s.', { code: 'rate_limited', retryable: true, retryAfterMs: 7000 }, 'warn'],
    ['get_pod', 'broken', 'HTTP request failed with status 500', { code: 'server_error', retryable: true }, 'warn'],
    ['get_pod', 'locked', 'HTTP request failed with status 401', { code: 'unauthorized', retryable: false }, 'warn'],
  ] as const)('%s %s: %s', async (tool, name, text, failure, level) => {
    const got = await call(session, records, tool, name);
    expect({ isError: got.isError, text: got.text, failure: got.failure }).toEqual({ isError: true, text: `Error executing tool ${tool}: ${text}`, failure });
    const code = ANSWERS[name]!.status;
    const message = exceptionMessage(name);
    expect(got.record).toEqual({
      level,
      message: `tool "${tool}" failed (rule http-status: status ${code}): Error ${JSON.stringify(message)}`,
      kind: 'anticipated',
      handler: 'tool',
      name: tool,
      status: code,
      errorName: 'Error',
      errorMessage: message,
      rule: 'http-status',
      correlationId: expect.stringMatching(REFERENCE),
      httpStatus: code,
      ...(level === 'warn' ? { stack: expect.stringMatching(/^ {4}at /) } : {}),
    });
  });

  it("answers a resource's ApiException with the policy's JSON-RPC code, never the exception's own 404", async () => {
    const missing = await rpcError(session.client.readResource({ uri: 'pod://missing' }));
    expect([missing.code, missing.message]).toEqual([-32603, 'MCP error -32603: HTTP request failed with status 404']);
    expect(records.at(-1)).toMatchObject({ level: 'info', handler: 'resource', name: 'pod://missing', rule: 'http-status', status: 404 });
  });
});

describe('with [...httpRules, ...coreRules]: also a 4xx body\'s message, never a 5xx body or a page', () => {
  let session: Session;
  let records: LogRecord[];
  beforeAll(async () => ({ session, records } = await podServer(fake.origin, [...httpRules, ...coreRules])));
  afterAll(() => session.close());

  it.each([
    ['get_pod', 'missing', 'HTTP request failed with 404 Not Found (NotFound): pods "missing" not found', { code: 'NotFound', retryable: false }, 'info', 'openapi-http-error'],
    ['create_pod', 'taken', 'HTTP request failed with 409 Conflict (AlreadyExists): pods "taken" already exists', { code: 'AlreadyExists', retryable: false }, 'info', 'openapi-http-error'],
    [
      'create_pod',
      'invalid',
      'HTTP request failed with 422 Unprocessable Content (Invalid): Pod "invalid" is invalid: spec.containers: Required value',
      { code: 'Invalid', retryable: false },
      'info',
      'openapi-http-error',
    ],
    [
      'get_pod',
      'busy',
      'HTTP request failed with 429 Too Many Requests (TooManyRequests): Too many requests, please try again later. Retry after 7 s.',
      { code: 'TooManyRequests', retryable: true, retryAfterMs: 7000 },
      'warn',
      'openapi-http-error',
    ],
    ['get_pod', 'broken', 'HTTP request failed with 500 Internal Server Error: The service failed to answer', { code: 'server_error', retryable: true }, 'warn', 'openapi-http-error'],
    [
      'get_pod',
      'locked',
      'HTTP request failed with 401 Unauthorized: Credentials rejected: the service did not accept them\n\nCheck the cluster token.',
      { code: 'unauthorized', retryable: false },
      'warn',
      'openapi-unauthorized',
    ],
  ] as const)('%s %s: %s', async (tool, name, text, failure, level, rule) => {
    const got = await call(session, records, tool, name);
    expect({ isError: got.isError, text: got.text, failure: got.failure }).toEqual({ isError: true, text: `Error executing tool ${tool}: ${text}`, failure });
    const code = ANSWERS[name]!.status;
    const message = exceptionMessage(name);
    // the record names the request by its status and the API server's Audit-Id (the exception holds no method or URL)
    const request = `status ${code} request-id "audit-${name}"`;
    expect(got.record).toEqual({
      level,
      message: `tool "${tool}" failed (rule ${rule}: ${request}): Error ${JSON.stringify(message)}`,
      kind: 'anticipated',
      handler: 'tool',
      name: tool,
      status: code,
      errorName: 'Error',
      errorMessage: message,
      rule,
      correlationId: expect.stringMatching(REFERENCE),
      httpStatus: code,
      httpRequestId: `audit-${name}`,
      ...(level === 'warn' ? { stack: expect.stringMatching(/^ {4}at /) } : {}),
    });
  });

  it("answers a resource's ApiException with the policy's JSON-RPC code, never the exception's own 404 or 500", async () => {
    const before = records.length;
    const missing = await rpcError(session.client.readResource({ uri: 'pod://missing' }));
    const broken = await rpcError(session.client.readResource({ uri: 'pod://broken' }));
    expect([missing.code, missing.message, broken.code, broken.message]).toEqual([
      -32603,
      'MCP error -32603: HTTP request failed with 404 Not Found (NotFound): pods "missing" not found',
      -32603,
      'MCP error -32603: HTTP request failed with 500 Internal Server Error: The service failed to answer',
    ]);
    expect(JSON.stringify([missing, broken])).not.toContain(PAGE_CANARY);
    expect(records.slice(before).map(({ level, handler, name, rule, status }) => ({ level, handler, name, rule, status }))).toEqual([
      { level: 'info', handler: 'resource', name: 'pod://missing', rule: 'openapi-http-error', status: 404 },
      { level: 'warn', handler: 'resource', name: 'pod://broken', rule: 'openapi-http-error', status: 500 },
    ]);
  });
});

describe('recognised by shape, across realms', () => {
  /** An ApiException as the generator declares it, made in another realm (its own Error, its own class). */
  function foreignException(code: number, body: unknown, headers: Record<string, string>): unknown {
    return runInNewContext(
      `class ApiException extends Error {
        constructor(code, message, body, headers) {
          super('HTTP-Code: ' + code + '\\nMessage: ' + message + '\\nBody: ' + JSON.stringify(body) + '\\nHeaders: ' + JSON.stringify(headers));
          this.code = code; this.body = body; this.headers = headers;
        }
      }
      new ApiException(code, 'Unknown API Status Code!', body, headers)`,
      { code, body, headers },
    );
  }

  it('takes another realm\'s ApiException (no instanceof), with a parsed body as with a text one', () => {
    const error = foreignException(409, { kind: 'Status', message: 'configmaps "app" already exists', reason: 'AlreadyExists', code: 409 }, { 'Retry-After': '3' });
    expect(error instanceof Error).toBe(false);
    const policy = createErrorPolicy({ rules: [...httpRules, ...coreRules], logger: () => undefined });
    expect(classifyError(error, policy)).toMatchObject({ kind: 'anticipated', rule: { name: 'openapi-http-error' }, message: 'HTTP request failed with 409 Conflict (AlreadyExists): configmaps "app" already exists' });
    expect(classifyError(foreignException(503, '{"message":"etcd leader changed"}', { 'Retry-After': '3' }), policy)).toMatchObject({
      kind: 'anticipated',
      message: 'HTTP request failed with 503 Service Unavailable: The service failed to answer. Retry after 3 s.',
      failure: { code: 'unavailable', retryable: true, retryAfterMs: 3000 },
    });
  });

  it('takes no look-alike: another class name, a code that is no HTTP status, no headers or no body', () => {
    const make = (name: string, fields: Record<string, unknown>): unknown => Object.assign(Object.assign(new Error('HTTP-Code: 404'), { name }), fields);
    const shape = { code: 404, body: '{}', headers: {} };
    expect(isOpenApiException(make('ApiException', shape))).toBe(true);
    for (const error of [
      make('ApiError', shape),
      make('ApiException', { ...shape, code: 'ENOENT' }),
      make('ApiException', { ...shape, code: 40 }),
      make('ApiException', { ...shape, code: 404.5 }),
      make('ApiException', { code: 404, body: '{}' }),
      make('ApiException', { code: 404, headers: {} }),
    ]) {
      expect(isOpenApiException(error)).toBe(false);
      expect(openapiFailureOf(error)).toBeUndefined();
      expect(classifyError(error).kind).toBe('crash');
    }
  });

  it('never throws on hostile parts, and shows no huge, HTML or 5xx body', () => {
    const policy = createErrorPolicy({ rules: [...httpRules, ...coreRules], logger: () => undefined });
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const throwing = new Proxy(
      {},
      {
        get: () => {
          throw new Error('no');
        },
      },
    );
    const exception = (code: unknown, body: unknown, headers: unknown): Error => Object.assign(Object.assign(new Error('HTTP-Code'), { name: 'ApiException' }), { code, body, headers });
    for (const error of [exception(404, proxy, {}), exception(404, {}, proxy), exception(429, throwing, throwing), exception(404, { message: throwing }, {})]) {
      expect(() => classifyError(error, policy)).not.toThrow();
      expect(() => classifyError(error)).not.toThrow();
    }
    const messageOf = (error: unknown): unknown => {
      const c = classifyError(error, policy);
      return c.kind === 'anticipated' ? c.message : c.kind;
    };
    expect(messageOf(exception(404, JSON.stringify({ message: 'x'.repeat(300_000) }), {}))).toBe('HTTP request failed with 404 Not Found');
    expect(messageOf(exception(404, '<html><body>Not Found</body></html>', {}))).toBe('HTTP request failed with 404 Not Found');
    expect(messageOf(exception(404, { message: '<html><body>Not Found</body></html>' }, {}))).toBe('HTTP request failed with 404 Not Found');
    expect(messageOf(exception(502, { message: 'upstream 10.0.0.7:8443 refused' }, {}))).toBe('HTTP request failed with 502 Bad Gateway: The service failed to answer');
  });
});

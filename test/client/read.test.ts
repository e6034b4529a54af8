/**
 * readFailure against what the real SDK clients (v1 and v2) get from a real server under applyErrorPolicy: a tool's
 * isError result, a resource's JSON-RPC error as the client throws it (McpError / ProtocolError) and as the raw
 * JSON-RPC message, the sign-in on 2025-11-25 (-32042) and on 2026-07-28 (input-required, the example's Streamable
 * HTTP server); `undefined` for what the policy did not answer. And, property-based: hostile input never makes it throw,
 * and what it returns is always a fresh, valid failure object.
 */
import { Client as ClientV2, InMemoryTransport as InMemoryTransportV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { readFailure, retryToolCall, type Failure, type RetryOutcome, type SignIn } from 'mcp-error-policy/client';
import { ResourceError, type LogRecord, type Outcome } from '../../src/index.js';
import { startSignInServer } from '../../examples/sign-in-http.js';
import { link } from '../support/link.js';
import { REFERENCE } from '../support/calls.js';
import { newServer, SIGN_IN, startFakeApi, type AnyServer, type FakeApi } from './fixture.js';

const ELICITS = { capabilities: { elicitation: { url: {} } } };
const CANARY = 'CANARY-7f3a';

/** What came of a request: its result, or what the client threw. */
function settled(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (result) => result,
    (error: unknown) => error,
  );
}

const sdks = [
  { name: 'SDK v1', sdk: 'v1' as const, pair: () => InMemoryTransport.createLinkedPair(), client: (elicits: boolean) => new Client({ name: 'c', version: '1' }, elicits ? ELICITS : {}) },
  {
    name: 'SDK v2',
    sdk: 'v2' as const,
    pair: () => InMemoryTransportV2.createLinkedPair(),
    client: (elicits: boolean) => new ClientV2({ name: 'c', version: '1' }, elicits ? ELICITS : {}) as unknown as Client,
  },
];

describe.each(sdks)('readFailure on what the $name client gets', ({ sdk, pair, client }) => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await startFakeApi();
  });
  afterAll(async () => {
    await api.close();
  });

  async function session(elicits: boolean) {
    const records: LogRecord[] = [];
    const outcomes: Outcome[] = [];
    const server = await newServer(sdk, api, records, outcomes);
    server.registerResource('ledger', 'acme://ledger', {}, async () => {
      throw new ResourceError('The ledger is locked', { code: 'ledger_locked', retryAfterMs: 5_000 });
    });
    const transports = pair();
    const messages: unknown[] = [];
    const linked = await link(server as AnyServer, client(elicits), transports);
    // the raw JSON-RPC messages the client receives, tapped on its transport
    const clientSide = transports[1] as { onmessage?: (message: unknown, extra?: unknown) => void };
    const deliver = clientSide.onmessage;
    clientSide.onmessage = (message, extra) => {
      messages.push(structuredClone(message));
      deliver?.(message, extra);
    };
    return { ...linked, records, messages };
  }

  it('a tool result, a thrown JSON-RPC error and its raw message, a -32042 sign-in; nothing for a success or a foreign error', async () => {
    const { client: c, records, messages, close } = await session(true);
    try {
      const crash = await c.callTool({ name: 'report', arguments: {} });
      expect(readFailure(crash)).toEqual({ code: 'internal', retryable: false, correlationId: records[0]?.correlationId });
      const thrown = await settled(c.readResource({ uri: 'acme://ledger' }));
      const ledger = { code: 'ledger_locked', retryable: true, retryAfterMs: 5_000, correlationId: records[1]?.correlationId };
      expect(readFailure(thrown)).toEqual(ledger);
      const raw = messages.find((message) => (message as { error?: unknown }).error !== undefined);
      expect(readFailure(raw)).toEqual(ledger);
      const signIn = await settled(c.callTool({ name: 'profile', arguments: {} }));
      const id = records[2]?.correlationId;
      expect(id).toMatch(REFERENCE);
      expect(readFailure(signIn)).toEqual({ code: 'sign_in_required', retryable: false, correlationId: id, signIn: { url: SIGN_IN.url, elicitationId: id, message: SIGN_IN.text } });
      // the fixture's API answers 429 first, then the results
      expect(readFailure(await c.callTool({ name: 'search', arguments: {} }))).toEqual({ code: 'rate_limited', retryable: true, retryAfterMs: 2_000, correlationId: records[3]?.correlationId });
      expect(readFailure(await c.callTool({ name: 'search', arguments: {} }))).toBeUndefined();
      expect(readFailure(await settled(c.callTool({ name: 'no_such_tool', arguments: {} })))).toBeUndefined();
      expect(readFailure(await settled(c.readResource({ uri: 'acme://missing' })))).toBeUndefined();
    } finally {
      await close();
    }
  });

  it('a client that declared no URL elicitation: the sign-in is an isError result with its failure object, no URL in it', async () => {
    const { client: c, records, close } = await session(false);
    try {
      const failure = readFailure(await c.callTool({ name: 'profile', arguments: {} }));
      expect(failure).toEqual({ code: 'unauthorized', retryable: false, correlationId: records[0]?.correlationId });
    } finally {
      await close();
    }
  });
});

describe('readFailure on a 2026-07-28 sign-in (SDK v2 client, Streamable HTTP, examples/sign-in-http.ts)', () => {
  it('reads the input-required URL elicitation: the id is its key, the log record correlation id', async () => {
    const records: LogRecord[] = [];
    const server = await startSignInServer({ policy: { logger: (record) => records.push(record) } });
    const c = new ClientV2({ name: 'alice', version: '1' }, { ...ELICITS, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await c.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: 'Bearer token-alice' } } }));
      const answer = await c.callTool({ name: 'acme_profile', arguments: {} }, { allowInputRequired: true } as never);
      const id = records[0]?.correlationId;
      expect(id).toMatch(REFERENCE);
      expect(readFailure(answer)).toEqual({
        code: 'sign_in_required',
        retryable: false,
        correlationId: id,
        signIn: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/acme\/login\?state=/), elicitationId: id, message: 'Sign in to Acme as alice.' },
      });
    } finally {
      await c.close();
      await server.close();
    }
  });
});

describe('readFailure on hostile input', () => {
  const hostile = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.anything({ withBigInt: true, withMap: true, withSet: true, withTypedArray: true, withNullPrototype: true, withObjectString: true }),
      fc.record({ _meta: fc.record({ 'mcp-error-policy/failure': tie('value') }) }),
      fc.record({ data: tie('value'), code: fc.oneof(fc.constant(-32042), fc.integer()) }),
      fc.record({ resultType: fc.constant('input_required'), inputRequests: fc.dictionary(fc.string(), tie('value')) }),
      fc.record({ elicitations: fc.array(tie('value'), { maxLength: 3 }) }),
      fc.record({ error: tie('value'), result: tie('value') }),
      fc.record({ method: fc.constant('elicitation/create'), params: tie('value') }),
      fc.record({ mode: fc.constant('url'), url: fc.oneof(fc.webUrl(), fc.string()), elicitationId: fc.string(), message: fc.string() }),
      fc.record(
        { code: fc.string(), retryable: fc.anything(), retryAfterMs: fc.oneof(fc.double(), fc.anything()), upstream: fc.string(), correlationId: fc.string(), extra: fc.constant(CANARY) },
        { requiredKeys: [] },
      ),
      fc.constant(null).map(() => throwingGetters()),
    ),
  })).value;

  it('never throws; returns undefined or a fresh object of the documented fields, each of the documented type', () => {
    fc.assert(
      fc.property(hostile, (value) => {
        const failure = readFailure(value);
        if (failure === undefined) return;
        expect(Object.keys(failure).every((key) => ['code', 'retryable', 'retryAfterMs', 'upstream', 'correlationId', 'signIn'].includes(key))).toBe(true);
        expect(failure.code).toMatch(/^[\w.:-]{1,64}$/);
        expect(typeof failure.retryable).toBe('boolean');
        expect(failure.correlationId).toMatch(/^[\w.:-]{1,128}$/);
        if (failure.retryAfterMs !== undefined) expect(Number.isFinite(failure.retryAfterMs) && failure.retryAfterMs >= 0).toBe(true);
        if (failure.upstream !== undefined) expect(failure.upstream).toBe('unreached');
        if (failure.signIn !== undefined) {
          expect(failure.signIn.url).toMatch(/^https?:\/\//i);
          expect(failure.retryable).toBe(false);
        }
        expect(JSON.stringify(failure)).not.toContain(CANARY);
      }),
      { numRuns: 2_000 },
    );
  });

  it('throwing getters, a revoked proxy (fast-check cannot hold one), cycles, a Symbol, a 10 MB code: undefined, never a throw', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['_meta'] = { 'mcp-error-policy/failure': cyclic };
    cyclic['error'] = cyclic;
    const tenMb = 'x'.repeat(10_000_000);
    for (const value of [throwingGetters(), revokedProxy(), cyclic, Symbol('x'), { _meta: { 'mcp-error-policy/failure': { code: tenMb, retryable: true, correlationId: 'abc' } } }]) {
      expect(readFailure(value)).toBeUndefined();
    }
    // a failure object behind a throwing getter elsewhere still reads; an unsafe sign-in URL does not
    const ok = { code: 'network', retryable: true, correlationId: '0123456789ab' };
    expect(readFailure(Object.defineProperty({ _meta: { 'mcp-error-policy/failure': ok } }, 'data', { get: () => { throw new Error(CANARY); } }))).toEqual(ok);
    expect(readFailure({ code: -32042, data: { elicitations: [{ mode: 'url', elicitationId: 'e1', url: 'javascript:alert(1)', message: '' }] } })).toBeUndefined();
  });

  it('has the documented types', () => {
    expectTypeOf(readFailure).toEqualTypeOf<(answer: unknown) => Failure | undefined>();
    expectTypeOf<Failure>().toEqualTypeOf<{
      readonly code: string;
      readonly retryable: boolean;
      readonly retryAfterMs?: number;
      readonly upstream?: 'unreached';
      readonly correlationId: string;
      readonly signIn?: SignIn;
    }>();
    expectTypeOf<SignIn>().toEqualTypeOf<{ readonly url: string; readonly elicitationId: string; readonly message: string }>();
    expectTypeOf(retryToolCall(async () => 1)).resolves.toEqualTypeOf<RetryOutcome<number>>();
    expectTypeOf<RetryOutcome<number>['result']>().toEqualTypeOf<number | undefined>();
  });
});

function throwingGetters(): object {
  const thrower = (): never => {
    throw new Error(CANARY);
  };
  return Object.defineProperties({}, Object.fromEntries(['_meta', 'data', 'code', 'resultType', 'error', 'result'].map((key) => [key, { get: thrower, enumerable: true }])));
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

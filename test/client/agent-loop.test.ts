/**
 * Issue 34's "done when": an agent loop on the real SDK `Client` (v1 and v2) against a real McpServer under
 * applyErrorPolicy with six tools (test/client/fixture.ts) retries each call exactly when it is safe, within the budget.
 * The clock and the sleep are injected: the test asserts the delays the helper asked for, never wall time.
 */
import { Client as ClientV2, InMemoryTransport as InMemoryTransportV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFailure, retryToolCall, type RetryOptions, type RetryOutcome } from 'mcp-error-policy/client';
import type { LogRecord, Outcome } from '../../src/index.js';
import { link, type Linked } from '../support/link.js';
import { REFERENCE } from '../support/calls.js';
import { newServer, SIGN_IN, startFakeApi, TOOL_NAMES, type AnyServer, type FakeApi } from './fixture.js';

const ELICITS = { capabilities: { elicitation: { url: {} } } };
const ID = expect.stringMatching(REFERENCE);

/** The SDK client's calls, as the agent makes them: `callTool` with the helper's signal. */
interface ToolClient {
  callTool(params: { name: string; arguments?: Record<string, unknown> }, ...rest: never[]): Promise<unknown>;
  listTools(): Promise<{ tools: { name: string; annotations?: { readOnlyHint?: boolean; idempotentHint?: boolean } | undefined }[] }>;
}

const sdks = [
  {
    name: 'SDK v1',
    sdk: 'v1' as const,
    connect: (server: AnyServer) => link(server, new Client({ name: 'agent', version: '1.0.0' }, ELICITS), InMemoryTransport.createLinkedPair()),
    call: (client: Client, name: string, signal: AbortSignal | undefined): Promise<unknown> => client.callTool({ name, arguments: {} }, undefined, { ...(signal && { signal }) }),
  },
  {
    name: 'SDK v2',
    sdk: 'v2' as const,
    connect: (server: AnyServer) =>
      link(server, new ClientV2({ name: 'agent', version: '1.0.0' }, ELICITS) as unknown as Client, InMemoryTransportV2.createLinkedPair()),
    call: (client: Client, name: string, signal: AbortSignal | undefined): Promise<unknown> =>
      (client as unknown as ClientV2).callTool({ name, arguments: {} }, { ...(signal && { signal }) }),
  },
];

/** An injected clock and sleep: each sleep moves the clock by what was asked. */
function fakeTime() {
  const clock = { now: 1_000_000, slept: [] as number[] };
  const options = {
    now: () => clock.now,
    sleep: async (ms: number) => {
      clock.slept.push(ms);
      clock.now += ms;
    },
    random: () => 0.5,
  } satisfies RetryOptions;
  return { clock, options };
}

describe.each(sdks)('an agent loop on the $name Client', ({ sdk, connect, call }) => {
  let api: FakeApi;
  let session: Linked<AnyServer, Client>;
  let records: LogRecord[];
  let outcomes: Outcome[];

  beforeAll(async () => {
    api = await startFakeApi();
  });
  afterAll(async () => {
    await api.close();
  });
  afterEach(async () => {
    await session.close();
  });

  async function start(): Promise<Client> {
    records = [];
    outcomes = [];
    api.requests.length = 0;
    session = await connect(await newServer(sdk, api, records, outcomes));
    return session.client;
  }

  it('retries each of the six tools exactly when it is safe, the total wait within the budget', async () => {
    const client = await start();
    const { tools } = await (client as unknown as ToolClient).listTools();
    const { clock, options } = fakeTime();
    const budget = { maxAttempts: 3, maxElapsedMs: 10_000, maxDelayMs: 5_000, baseDelayMs: 400 };
    const outcomesByTool: Record<string, RetryOutcome<unknown>> = {};
    for (const name of TOOL_NAMES) {
      outcomesByTool[name] = await retryToolCall((signal) => call(client, name, signal), { ...options, ...budget, tool: tools.find((tool) => tool.name === name) });
    }
    const seen = Object.fromEntries(
      Object.entries(outcomesByTool).map(([name, outcome]) => [name, { attempts: outcome.attempts, delays: outcome.delays, failure: outcome.failure, signIn: outcome.signIn }]),
    );
    expect(seen).toEqual({
      // read-only, 429 with Retry-After: 2 s: waited 2 s as asked, then the results
      search: { attempts: 2, delays: [2000], failure: undefined, signIn: undefined },
      // retryable 503, but the tool has side effects: never run twice
      charge: { attempts: 1, delays: [], failure: { code: 'unavailable', retryable: true, correlationId: ID }, signIn: undefined },
      // refused: the request never reached the API, so even a tool with effects runs again; jittered backoff (random 0.5)
      status: { attempts: 3, delays: [200, 400], failure: { code: 'network', retryable: true, upstream: 'unreached', correlationId: ID }, signIn: undefined },
      // a crash and a ToolError of read-only tools: never retried
      report: { attempts: 1, delays: [], failure: { code: 'internal', retryable: false, correlationId: ID }, signIn: undefined },
      lookup: { attempts: 1, delays: [], failure: { code: 'tool_error', retryable: false, correlationId: ID }, signIn: undefined },
      // the sign-in: handed back, never retried
      profile: {
        attempts: 1,
        delays: [],
        failure: { code: 'sign_in_required', retryable: false, correlationId: ID, signIn: { url: SIGN_IN.url, elicitationId: ID, message: SIGN_IN.text } },
        signIn: { url: SIGN_IN.url, elicitationId: ID, message: SIGN_IN.text },
      },
    });
    expect(JSON.parse((outcomesByTool['search']?.result as { content: [{ text: string }] }).content[0].text)).toEqual({ hits: 3 });
    // the server ran each tool as often as the helper says, and the API saw the requests that reached it
    expect(outcomes.map((outcome) => [outcome.name, outcome.status])).toEqual([
      ['search', 429],
      ['search', 200],
      ['charge', 503],
      ['status', 502],
      ['status', 502],
      ['status', 502],
      ['report', 500],
      ['lookup', 500],
      ['profile', 401],
    ]);
    expect(api.requests).toEqual(['GET /search', 'GET /search', 'POST /charge', 'GET /profile']);
    // the ids are the log records' (the sign-in's elicitation id too); the successful retry of search logs none
    expect(Object.values(outcomesByTool).map((outcome) => outcome.failure?.correlationId).filter(Boolean)).toEqual(
      [records[1], records[4], records[5], records[6], records[7]].map((record) => record?.correlationId),
    );
    // the total wait: what was asked, within the budget
    expect(clock.slept).toEqual([2000, 200, 400]);
    expect(clock.slept.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(budget.maxElapsedMs);
    expect(outcomesByTool['profile']?.error).toBeDefined();
    expect(readFailure(outcomesByTool['profile']?.error)).toEqual(outcomesByTool['profile']?.failure);
  });

  it('runs a tool with effects again when the caller opts in for it; stops at maxAttempts', async () => {
    const client = await start();
    const { options } = fakeTime();
    const outcome = await retryToolCall((signal) => call(client, 'charge', signal), { ...options, idempotent: true, maxAttempts: 4, baseDelayMs: 100 });
    expect([outcome.attempts, outcome.delays, outcome.failure?.code]).toEqual([4, [50, 100, 200], 'unavailable']);
    expect(api.requests).toEqual(['POST /charge', 'POST /charge', 'POST /charge', 'POST /charge']);
  });

  it('cuts a long Retry-After to maxDelayMs, and starts no retry whose wait would end past maxElapsedMs', async () => {
    const client = await start();
    const tools = (await (client as unknown as ToolClient).listTools()).tools;
    const search = tools.find((tool) => tool.name === 'search');
    const capped = await retryToolCall((signal) => call(client, 'search', signal), { ...fakeTime().options, tool: search, maxDelayMs: 1_500 });
    expect([capped.attempts, capped.delays, capped.failure]).toEqual([2, [1500], undefined]);
    api.requests.length = 0; // the API answers 429 again for a fresh first request
    const { clock, options } = fakeTime();
    const outOfTime = await retryToolCall(
      async (signal) => {
        clock.now += 500; // the call itself took half a second
        return call(client, 'search', signal);
      },
      { ...options, tool: search, maxElapsedMs: 2_400 },
    );
    expect([outOfTime.attempts, outOfTime.delays, outOfTime.failure?.code, outOfTime.failure?.retryAfterMs]).toEqual([1, [], 'rate_limited', 2000]);
    expect(clock.slept).toEqual([]);
  });

  it('stops waiting when the signal aborts: rejects with its reason, runs no further attempt', async () => {
    const client = await start();
    const controller = new AbortController();
    const stop = new Error('the user left');
    let attempts = 0;
    const waiting = retryToolCall(
      async (signal) => {
        attempts++;
        const answer = await call(client, 'status', signal);
        setTimeout(() => controller.abort(stop), 0); // while the helper waits (its own timer, 30 s)
        return answer;
      },
      { signal: controller.signal, baseDelayMs: 30_000, random: () => 0.99 },
    );
    await expect(waiting).rejects.toBe(stop);
    expect(attempts).toBe(1);
    const aborted = new AbortController();
    aborted.abort(stop);
    await expect(retryToolCall(() => call(client, 'status', undefined), { signal: aborted.signal })).rejects.toBe(stop);
    expect(outcomes.map((outcome) => outcome.name)).toEqual(['status']);
  });
});

describe('retryToolCall options', () => {
  it.each([
    [{ maxAttempts: 0 }, /`maxAttempts`/],
    [{ maxDelayMs: -1 }, /`maxDelayMs`/],
    [{ maxElapsedMs: Number.NaN }, /`maxElapsedMs`/],
    [{ baseDelayMs: 1.5 }, /`baseDelayMs`/],
    [{ maxAttempts: '3' as unknown as number }, /`maxAttempts`/],
  ])('a bad option is a TypeError naming it: %o', async (options, name) => {
    let called = false;
    const running = retryToolCall(async () => {
      called = true;
    }, options);
    await expect(running).rejects.toThrow(TypeError);
    await expect(running).rejects.toThrow(name);
    expect(called).toBe(false);
  });
});

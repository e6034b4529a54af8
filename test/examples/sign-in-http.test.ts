/**
 * examples/sign-in-http.ts: two users sign in to Acme, each with their own URL, through the real SDK v2 client over
 * Streamable HTTP on 127.0.0.1: on 2025-11-25 (the -32042 error, the sign-in page, `notifications/elicitation/complete`
 * for the user's elicitation, the retry) and on 2026-07-28 (an input-required URL elicitation the client follows and
 * retries by itself; that revision has no completion notification). The elicitation id is the failure's correlation
 * id in the log record.
 */
import { Client, StreamableHTTPClientTransport, UrlElicitationRequiredError } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LogRecord, Outcome } from '../../src/index.js';
import { startSignInServer, type SignInServer } from '../../examples/sign-in-http.js';
import { textOf } from '../support/calls.js';

const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;
const ELICITS = { capabilities: { elicitation: { url: {} } } } as const;
/** A sign-in URL of the example: its own host, a fresh state. */
const SIGN_IN_URL = /^http:\/\/127\.0\.0\.1:\d+\/acme\/login\?state=[0-9a-f-]{36}$/;

let server: SignInServer;
let records: LogRecord[];
let outcomes: Outcome[];
const clients: Client[] = [];

beforeEach(async () => {
  records = [];
  outcomes = [];
  server = await startSignInServer({ policy: { logger: (record) => records.push(record), onOutcome: (outcome) => outcomes.push(outcome) } });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await server.close();
});

interface Elicitation {
  mode: string;
  elicitationId?: string;
  url: string;
  message: string;
}

/** A client of `user`, on the 2025-11-25 revision (the SDK's default) or pinned to 2026-07-28. */
async function connect(user: 'alice' | 'bob', modern: boolean, onElicit?: (params: Elicitation) => Promise<void>): Promise<Client> {
  const client = new Client({ name: `${user}-client`, version: '1.0.0' }, { ...ELICITS, ...(modern ? MODERN : {}) });
  if (onElicit !== undefined) {
    client.setRequestHandler('elicitation/create', async (request) => {
      await onElicit(request.params as unknown as Elicitation);
      return { action: 'accept' };
    });
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer token-${user}` } } }));
  clients.push(client);
  return client;
}

/** The user opens the sign-in page. */
async function openPage(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url);
  return { status: response.status, text: await response.text() };
}

async function signInRequired(client: Client): Promise<UrlElicitationRequiredError> {
  const error = await client.callTool({ name: 'acme_profile', arguments: {} }).then(
    (result) => new Error(`expected -32042, got ${JSON.stringify(result)}`),
    (e: unknown) => e,
  );
  if (!(error instanceof UrlElicitationRequiredError)) throw error;
  return error;
}

describe('examples/sign-in-http.ts', () => {
  it('2025-11-25: each user gets -32042 with their own sign-in URL, the completion notification after signing in, then the profile', async () => {
    const completed: Record<string, string[]> = { alice: [], bob: [] };
    const alice = await connect('alice', false);
    const bob = await connect('bob', false);
    let aliceDone: (() => void) | undefined;
    const aliceNotified = new Promise<void>((resolve) => {
      aliceDone = resolve;
    });
    alice.setNotificationHandler('notifications/elicitation/complete', (notification) => {
      completed['alice']!.push(notification.params.elicitationId);
      aliceDone?.();
    });
    bob.setNotificationHandler('notifications/elicitation/complete', (notification) => {
      completed['bob']!.push(notification.params.elicitationId);
    });

    const [aliceError, bobError] = [await signInRequired(alice), await signInRequired(bob)];
    const [aliceAsk, bobAsk] = [aliceError.elicitations[0] as Elicitation, bobError.elicitations[0] as Elicitation];
    expect(records.map((r) => [r.level, r.kind, r.rule, r.status, r.name])).toEqual([
      ['info', 'anticipated', 'acme-sign-in', 401, 'acme_profile'],
      ['info', 'anticipated', 'acme-sign-in', 401, 'acme_profile'],
    ]);
    expect(aliceError.elicitations).toEqual([{ mode: 'url', elicitationId: records[0]?.correlationId, url: expect.stringMatching(SIGN_IN_URL), message: 'Sign in to Acme as alice.' }]);
    expect(bobError.elicitations).toEqual([{ mode: 'url', elicitationId: records[1]?.correlationId, url: expect.stringMatching(SIGN_IN_URL), message: 'Sign in to Acme as bob.' }]);
    expect(aliceAsk.url).not.toBe(bobAsk.url);
    expect(aliceError.message).toBe(`Error executing tool acme_profile: You are not signed in to Acme\n\nSign in to Acme as alice. ${aliceAsk.url}`);

    expect(await openPage(aliceAsk.url)).toEqual({ status: 200, text: 'Signed in to Acme as alice. You can close this page.' });
    await aliceNotified;
    expect(completed).toEqual({ alice: [aliceAsk.elicitationId], bob: [] });
    expect(textOf(await alice.callTool({ name: 'acme_profile', arguments: {} }))).toBe('Acme profile of alice');
    // alice's sign-in is not bob's; a used link signs nobody in
    await signInRequired(bob);
    expect(await openPage(aliceAsk.url)).toEqual({ status: 400, text: 'Unknown or used sign-in link' });
    expect(await openPage(bobAsk.url)).toEqual({ status: 200, text: 'Signed in to Acme as bob. You can close this page.' });
    expect(textOf(await bob.callTool({ name: 'acme_profile', arguments: {} }))).toBe('Acme profile of bob');
    expect(outcomes.map((o) => o.status)).toEqual([401, 401, 200, 401, 200]);
  });

  it('2026-07-28: each user gets an input-required URL elicitation with their own URL; the client opens it and its retry gets the profile', async () => {
    const asked: Record<string, Elicitation[]> = { alice: [], bob: [] };
    const follow = (user: 'alice' | 'bob') => async (params: Elicitation) => {
      asked[user]!.push(params);
      expect(await openPage(params.url)).toEqual({ status: 200, text: `Signed in to Acme as ${user}. You can close this page.` });
    };
    const alice = await connect('alice', true, follow('alice'));
    const bob = await connect('bob', true, follow('bob'));
    expect(alice.getNegotiatedProtocolVersion()).toBe('2026-07-28');

    expect(textOf(await alice.callTool({ name: 'acme_profile', arguments: {} }))).toBe('Acme profile of alice');
    expect(textOf(await bob.callTool({ name: 'acme_profile', arguments: {} }))).toBe('Acme profile of bob');
    expect(records.map((r) => [r.level, r.kind, r.rule, r.status, r.name])).toEqual([
      ['info', 'anticipated', 'acme-sign-in', 401, 'acme_profile'],
      ['info', 'anticipated', 'acme-sign-in', 401, 'acme_profile'],
    ]);
    // 2026-07-28 has no elicitationId (the correlation id is the input request's key: test/compat/v2-revision.test.ts)
    expect(asked).toEqual({
      alice: [{ mode: 'url', url: expect.stringMatching(SIGN_IN_URL), message: 'Sign in to Acme as alice.' }],
      bob: [{ mode: 'url', url: expect.stringMatching(SIGN_IN_URL), message: 'Sign in to Acme as bob.' }],
    });
    expect(asked['alice']![0]!.url).not.toBe(asked['bob']![0]!.url);
    // the input-required answer and the retry: one call each in the access log
    expect(outcomes.map((o) => o.status)).toEqual([401, 200, 401, 200]);
  });
});

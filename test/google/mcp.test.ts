/**
 * End to end: a real McpServer with tools wrapped by `withClientVisibleErrors`, a real Client over InMemoryTransport,
 * and tools that fail through the real gaxios / google-auth-library against the fake Google server. The client sees
 * exactly the Google rules' text; the access log gets the rules' statuses; no planted secret reaches the wire or the log.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreRules, createErrorPolicy, withClientVisibleErrors, type ErrorPolicy, type LogRecord, type Outcome } from '../../src/index.js';
import { googleRules } from '../../src/google/index.js';
import { closedPortUrl, GOOGLE_MESSAGES, startFakeGoogle, type FakeGoogle } from '../support/fake-google.js';
import { connect, newServer, textOf, type Session } from '../support/session.js';
import type { GaxiosModule } from './gaxios-suite.js';
import type { GalModule } from './gal-suite.js';
import { expectNoSecrets, isolateGoogleEnvironment, REAUTHORIZE, SECRETS } from './support.js';

describe('Google failures through a real McpServer and Client', () => {
  let fake: FakeGoogle;
  let closed: string;
  let session: Session;
  let env: { dir: string; restore: () => void };
  const records: LogRecord[] = [];
  const outcomes: Outcome[] = [];
  let policy: ErrorPolicy;

  beforeAll(async () => {
    fake = await startFakeGoogle();
    closed = await closedPortUrl('/calendar/v3/events');
    env = isolateGoogleEnvironment(new URL(fake.origin).host);
    const gaxios6 = (await import('gaxios6')) as unknown as GaxiosModule;
    const gaxios7 = (await import('gaxios7')) as unknown as GaxiosModule;
    const gal10 = (await import('google-auth-library10')) as unknown as GalModule;
    policy = createErrorPolicy({
      rules: [...googleRules, ...coreRules],
      reauthorize: REAUTHORIZE,
      logger: (record: LogRecord) => records.push(record),
      onOutcome: (outcome) => outcomes.push(outcome),
    });
    const server = newServer();
    const tool = (name: string, run: () => Promise<unknown>): void => {
      server.registerTool(
        name,
        { description: `${name} (fails against the fake Google server)` },
        withClientVisibleErrors(
          async (): Promise<CallToolResult> => {
            await run();
            return { content: [{ type: 'text', text: 'unreachable' }] };
          },
          { name, policy },
        ),
      );
    };
    tool('sheets_get', () =>
      gaxios7.request({
        url: fake.url(`/v1/forbidden?key=${SECRETS.apiKey}&fields=id`),
        headers: { Authorization: `Bearer ${SECRETS.accessToken}` },
        retry: false,
      }),
    );
    tool('sheets_read', () => gaxios7.request({ url: fake.url(`/v1/quota?key=${SECRETS.apiKey}`), retry: false }));
    tool('calendar_events', () => gaxios6.request({ url: `${closed}?key=${SECRETS.apiKey}`, retry: false }));
    tool('drive_list', async () => {
      const client = new gal10.OAuth2Client({
        clientId: 'fake-client.apps.googleusercontent.com',
        clientSecret: SECRETS.clientSecret,
        endpoints: { oauth2TokenUrl: fake.url('/token/invalid_grant') },
      });
      client.setCredentials({ refresh_token: SECRETS.refreshToken });
      await client.request({ url: fake.url('/v1/ok'), retry: false });
    });
    tool('whoami', async () => {
      process.env['GOOGLE_APPLICATION_CREDENTIALS'] = join(env.dir, 'missing', 'service-account.json');
      try {
        await new gal10.GoogleAuth().getClient();
      } finally {
        delete process.env['GOOGLE_APPLICATION_CREDENTIALS'];
      }
    });
    session = await connect(server);
  });

  afterAll(async () => {
    await session.close();
    await fake.close();
    env.restore();
  });

  async function call(name: string): Promise<{ text: string; isError: boolean }> {
    const result = await session.client.callTool({ name, arguments: {} });
    return { text: textOf(result), isError: result.isError === true };
  }

  it('a 403 with ?key=: the API message, the URL without the key', async () => {
    expect(await call('sheets_get')).toEqual({
      isError: true,
      text: `Error executing tool sheets_get: Google API GET ${fake.origin}/v1/forbidden?key=[REDACTED]&fields=id failed with 403 PERMISSION_DENIED: ${GOOGLE_MESSAGES.permissionDenied}`,
    });
  });

  it('a quota error: the message and the retry-after delay', async () => {
    expect(await call('sheets_read')).toEqual({
      isError: true,
      text: `Error executing tool sheets_read: Google API GET ${fake.origin}/v1/quota?key=[REDACTED] failed with 429 RESOURCE_EXHAUSTED (RATE_LIMIT_EXCEEDED): ${GOOGLE_MESSAGES.quota} Retry after 30 seconds.`,
    });
  });

  it('a refused connection: the code, never the URL', async () => {
    expect(await call('calendar_events')).toEqual({
      isError: true,
      text: 'Error executing tool calendar_events: Network error while calling the Google API (ECONNREFUSED).',
    });
  });

  it('a revoked refresh token: the description and the re-authorization text', async () => {
    expect(await call('drive_list')).toEqual({
      isError: true,
      text: `Error executing tool drive_list: Google authorization failed (invalid_grant): ${GOOGLE_MESSAGES.invalidGrant}\n\n${REAUTHORIZE}`,
    });
  });

  it('a missing credential file: GAL text without the path (not the file-system rule)', async () => {
    expect(await call('whoami')).toEqual({
      isError: true,
      text:
        'Error executing tool whoami: Unable to read the credential file specified by the GOOGLE_APPLICATION_CREDENTIALS environment variable: the file does not exist or is not a file (ENOENT).',
    });
  });

  it('one warn record per call, the rules’ statuses in the access log, and no secret anywhere', () => {
    expect(records.map((r) => [r.name, r.level, r.rule, r.status])).toEqual([
      ['sheets_get', 'warn', 'google-api-error', 403],
      ['sheets_read', 'warn', 'google-quota', 429],
      ['calendar_events', 'warn', 'google-network', 502],
      ['drive_list', 'warn', 'google-oauth-refresh', 401],
      ['whoami', 'warn', 'google-missing-credentials', 500],
    ]);
    expect(outcomes.map((o) => [o.name, o.status])).toEqual([
      ['sheets_get', 403],
      ['sheets_read', 429],
      ['calendar_events', 502],
      ['drive_list', 401],
      ['whoami', 500],
    ]);
    expect(fake.received(SECRETS.apiKey) && fake.received(SECRETS.refreshToken) && fake.received(SECRETS.accessToken)).toBe(true);
    expectNoSecrets(JSON.stringify(records), JSON.stringify(outcomes.map((o) => ({ ...o, classification: undefined }))));
  });
});

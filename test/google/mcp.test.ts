/**
 * End to end: a real McpServer with tools wrapped by `withClientVisibleErrors`, a real Client over InMemoryTransport,
 * and tools that fail through the real gaxios / google-auth-library / googleapis-common against the fake Google server
 * (HTTP/1.1, and HTTP/2 over TLS for googleapis-common's `http2: true`). The client sees exactly the Google rules' text
 * and failure object (code, retryable, delay, and the correlation id its log record holds); the access log gets the
 * rules' statuses; no planted secret reaches the wire or the log.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  coreRules,
  createErrorPolicy,
  withClientVisibleErrors,
  withClientVisibleResourceErrors,
  type ErrorPolicy,
  type LogRecord,
  type Outcome,
} from '../../src/index.js';
import { googleRules } from '../../src/google/index.js';
import { closedPortUrl, GOOGLE_MESSAGES, startFakeGoogle, type FakeGoogle } from '../support/fake-google.js';
import { connect, newServer, rpcError, textOf, type Session } from '../support/session.js';
import type { GaxiosModule } from './gaxios-suite.js';
import type { GalModule } from './gal-suite.js';
import type { GoogleapisCommonModule } from './googleapis-common-suite.js';
import { expectNoSecrets, FAILURE_KEY, isolateGoogleEnvironment, REAUTHORIZE, requestWithRevokedRefreshToken, SECRETS, serviceAccount, useFakeGoogleHttp2, type WireFailure } from './support.js';

describe('Google failures through a real McpServer and Client', () => {
  let fake: FakeGoogle;
  let closed: string;
  let session: Session;
  let env: { dir: string; restore: () => void };
  const records: LogRecord[] = [];
  const outcomes: Outcome[] = [];
  let policy: ErrorPolicy;
  const h2 = useFakeGoogleHttp2();

  beforeAll(async () => {
    fake = await startFakeGoogle();
    closed = await closedPortUrl('/calendar/v3/events');
    env = isolateGoogleEnvironment(new URL(fake.origin).host);
    const gaxios6 = (await import('gaxios6')) as unknown as GaxiosModule;
    const gaxios7 = (await import('gaxios7')) as unknown as GaxiosModule;
    const gal10 = (await import('google-auth-library10')) as unknown as GalModule;
    const common8 = (await import('googleapis-common8')) as unknown as GoogleapisCommonModule;
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
    tool('docs_export', () => gaxios6.request({ url: fake.url('/v1/unavailable'), method: 'POST', retry: false }));
    tool('drive_export', async () => {
      const auth = new gal10.OAuth2Client({ clientId: 'fake-client.apps.googleusercontent.com', clientSecret: SECRETS.clientSecret });
      auth.setCredentials({ access_token: SECRETS.accessToken, expiry_date: Date.now() + 3_600_000 });
      await common8.createAPIRequest({
        options: { url: h2.fake.url('/v1/quota-retry-info'), method: 'GET', http2: true, retry: false },
        params: { auth },
        requiredParams: [],
        pathParams: [],
        context: { _options: {} },
      });
    });
    tool('reports_run', () => serviceAccount(gal10, fake.url('/token/invalid_jwt')).getAccessToken());
    tool('calendar_events', () => gaxios6.request({ url: `${closed}?key=${SECRETS.apiKey}`, retry: false }));
    tool('drive_list', () => requestWithRevokedRefreshToken(gal10, fake));
    tool('whoami', async () => {
      process.env['GOOGLE_APPLICATION_CREDENTIALS'] = join(env.dir, 'missing', 'service-account.json');
      try {
        await new gal10.GoogleAuth().getClient();
      } finally {
        delete process.env['GOOGLE_APPLICATION_CREDENTIALS'];
      }
    });
    server.registerResource(
      'sheet',
      'sheets://quota',
      {},
      withClientVisibleResourceErrors(
        async () => {
          await gaxios7.request({ url: fake.url('/v1/too-many-requests'), retry: false });
          return { contents: [] };
        },
        { policy },
      ),
    );
    session = await connect(server);
  });

  afterAll(async () => {
    await session.close();
    await fake.close();
    env.restore();
  });

  /** What the client got: the text, the isError flag and the failure object (its correlation id checked against the log). */
  async function call(name: string): Promise<{ text: string; isError: boolean; failure: Omit<WireFailure, 'correlationId'> }> {
    const result = await session.client.callTool({ name, arguments: {} });
    const { correlationId, ...failure } = (result._meta?.[FAILURE_KEY] ?? {}) as WireFailure;
    const record = records.find((r) => r.name === name);
    expect(correlationId).toMatch(/^[0-9a-f]{12}$/);
    expect(record?.correlationId).toBe(correlationId);
    return { text: textOf(result), isError: result.isError === true, failure };
  }

  it('a 403 with ?key=: the API message first, then the request without the key; not retryable', async () => {
    expect(await call('sheets_get')).toEqual({
      isError: true,
      text: `Error executing tool sheets_get: ${GOOGLE_MESSAGES.permissionDenied} (403 PERMISSION_DENIED from Google API GET /v1/forbidden?key=[REDACTED]&fields=id)`,
      failure: { code: 'permission_denied', retryable: false },
    });
  });

  it('a 429 with retry-after: the message, "Retry after 30 s." once, retryable with the delay', async () => {
    expect(await call('sheets_read')).toEqual({
      isError: true,
      text: `Error executing tool sheets_read: ${GOOGLE_MESSAGES.quota} (429 RESOURCE_EXHAUSTED RATE_LIMIT_EXCEEDED from Google API GET /v1/quota?key=[REDACTED]). Retry after 30 s.`,
      failure: { code: 'rate_limit_exceeded', retryable: true, retryAfterMs: 30_000 },
    });
  });

  it('a 503: retryable, no delay given', async () => {
    expect(await call('docs_export')).toEqual({
      isError: true,
      text: `Error executing tool docs_export: Service Unavailable (503 UNAVAILABLE from Google API POST /v1/unavailable)`,
      failure: { code: 'unavailable', retryable: true },
    });
  });

  it('googleapis-common 8 over HTTP/2: a 429 (a plain Error, the response in its cause) with its RetryInfo delay', async () => {
    expect(await call('drive_export')).toEqual({
      isError: true,
      text: `Error executing tool drive_export: ${GOOGLE_MESSAGES.quota} (429 RESOURCE_EXHAUSTED RATE_LIMIT_EXCEEDED from Google API GET /v1/quota-retry-info). Retry after 13 s.`,
      failure: { code: 'rate_limit_exceeded', retryable: true, retryAfterMs: 12_500 },
    });
  });

  it('a refused connection: the code, never the URL; retryable', async () => {
    expect(await call('calendar_events')).toEqual({
      isError: true,
      text: 'Error executing tool calendar_events: Network error while calling the Google API (ECONNREFUSED).',
      failure: { code: 'network', retryable: true, upstream: 'unreached' },
    });
  });

  it('a revoked refresh token: the description and the re-authorization text', async () => {
    expect(await call('drive_list')).toEqual({
      isError: true,
      text: `Error executing tool drive_list: Google authorization failed (invalid_grant): ${GOOGLE_MESSAGES.invalidGrant}\n\n${REAUTHORIZE}`,
      failure: { code: 'invalid_grant', retryable: false },
    });
  });

  it("a service account's refused JWT: a new key is needed, no re-authorization text", async () => {
    expect(await call('reports_run')).toEqual({
      isError: true,
      text: `Error executing tool reports_run: Google authorization failed (invalid_grant): ${GOOGLE_MESSAGES.invalidJwt} The service account's key was refused: a new key or a configuration change is needed; signing in again will not help.`,
      failure: { code: 'invalid_grant', retryable: false },
    });
  });

  it('a missing credential file: GAL text without the path (not the file-system rule)', async () => {
    expect(await call('whoami')).toEqual({
      isError: true,
      text:
        'Error executing tool whoami: Unable to read the credential file specified by the GOOGLE_APPLICATION_CREDENTIALS environment variable: the file does not exist or is not a file (ENOENT).',
      failure: { code: 'missing_credentials', retryable: false },
    });
  });

  it('a resource read answered 429: a JSON-RPC error whose data holds the failure object with the delay', async () => {
    const error = await rpcError(session.client.readResource({ uri: 'sheets://quota' }));
    const data = error.data as Record<string, unknown>;
    const failure = data[FAILURE_KEY] as WireFailure;
    expect(error.code).toBe(-32603);
    expect(error.message).toContain(
      `${GOOGLE_MESSAGES.tooManyRequests} (429 RESOURCE_EXHAUSTED from Google API GET /v1/too-many-requests). Retry after 7 s.`,
    );
    expect(failure).toEqual({ code: 'resource_exhausted', retryable: true, retryAfterMs: 7000, correlationId: expect.stringMatching(/^[0-9a-f]{12}$/) });
    const record = records.find((r) => r.handler === 'resource');
    expect(record).toMatchObject({ rule: 'google-quota', status: 429, correlationId: failure.correlationId });
  });

  it('one warn record per tool call, the rules’ statuses in the access log, and no secret anywhere', () => {
    expect(records.filter((r) => r.handler === 'tool').map((r) => [r.name, r.level, r.rule, r.status])).toEqual([
      ['sheets_get', 'warn', 'google-api-error', 403],
      ['sheets_read', 'warn', 'google-quota', 429],
      ['docs_export', 'warn', 'google-api-error', 503],
      ['drive_export', 'warn', 'google-quota', 429],
      ['calendar_events', 'warn', 'google-network', 502],
      ['drive_list', 'warn', 'google-oauth-refresh', 401],
      ['reports_run', 'warn', 'google-credential-config', 500],
      ['whoami', 'warn', 'google-missing-credentials', 500],
    ]);
    expect(outcomes.filter((o) => o.kind === 'tool').map((o) => [o.name, o.status])).toEqual([
      ['sheets_get', 403],
      ['sheets_read', 429],
      ['docs_export', 503],
      ['drive_export', 429],
      ['calendar_events', 502],
      ['drive_list', 401],
      ['reports_run', 500],
      ['whoami', 500],
    ]);
    expect(h2.fake.received(SECRETS.accessToken)).toBe(true);
    expect(fake.received(SECRETS.apiKey) && fake.received(SECRETS.refreshToken) && fake.received(SECRETS.accessToken)).toBe(true);
    expectNoSecrets(JSON.stringify(records), JSON.stringify(outcomes.map((o) => ({ ...o, classification: undefined }))));
  });
});

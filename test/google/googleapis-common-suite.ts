/**
 * One suite for every googleapis-common major (7, 8, 9: the engine behind every `googleapis` method): the real
 * `createAPIRequest` calls the fake Google server on 127.0.0.1 with an API key (`?key=`, which it does not redact) or
 * with a real google-auth-library OAuth2Client holding an access token, and the error it throws is classified by
 * `[...googleRules, ...coreRules]`. googleapis-common 8 and 9 also have an HTTP/2 path (`http2: true`) that throws a
 * plain `Error` whose only link to the response is `cause`; it is driven against the fake's HTTP/2 TLS server.
 */
import { beforeAll, expect, it } from 'vitest';
import { isGaxiosError } from '../../src/google/index.js';
import { GOOGLE_MESSAGES } from '../support/fake-google.js';
import { caught, expectNoSecrets, expectOutcome, render, SECRETS, useFakeGoogle, useFakeGoogleHttp2 } from './support.js';

/** The part of googleapis-common the suite uses. */
export interface GoogleapisCommonModule {
  createAPIRequest(parameters: Record<string, unknown>): Promise<unknown>;
}

/** The part of google-auth-library the suite uses: an OAuth2Client to call with. */
export interface OAuthModule {
  OAuth2Client: new (options: Record<string, unknown>) => { setCredentials(credentials: Record<string, unknown>): void };
}

/** What a major offers. */
export interface GoogleapisCommonSuiteOptions {
  /** googleapis-common 8 and 9 have the `http2: true` path. */
  readonly http2: boolean;
}

/** Registers the cases for one googleapis-common major, loaded with its google-auth-library. Call inside a `describe`. */
export function googleapisCommonSuite(
  loadCommon: () => Promise<unknown>,
  loadAuth: () => Promise<unknown>,
  options: GoogleapisCommonSuiteOptions,
): void {
  let common: GoogleapisCommonModule;
  let auth: OAuthModule;
  const google = useFakeGoogle();

  beforeAll(async () => {
    common = (await loadCommon()) as GoogleapisCommonModule;
    auth = (await loadAuth()) as OAuthModule;
  });

  /** A signed-in OAuth2Client (the access token is planted: it must not come back out). */
  const signedIn = (): unknown => {
    const client = new auth.OAuth2Client({ clientId: 'fake-client.apps.googleusercontent.com', clientSecret: SECRETS.clientSecret });
    client.setCredentials({ access_token: SECRETS.accessToken, expiry_date: Date.now() + 3_600_000 });
    return client;
  };

  /** A googleapis method call, as the generated code makes it: `retry: false` so that 429 and 5xx answer at once. */
  const call = (origin: string, path: string, extra: { http2?: boolean; withApiKey?: boolean } = {}): Promise<unknown> =>
    caught(() =>
      common.createAPIRequest({
        options: { url: `${origin}${path}`, method: 'GET', retry: false, ...(extra.http2 === true ? { http2: true } : {}) },
        params: { fields: 'id', ...(extra.withApiKey === true ? { key: SECRETS.apiKey } : { auth: signedIn() }) },
        requiredParams: [],
        pathParams: [],
        context: { _options: {} },
      }),
    );

  it('403 with an API key in ?key=: the API message first, then the request without the key', async () => {
    const error = await call(google.fake.origin, '/v1/forbidden', { withApiKey: true });
    expect(google.fake.received(SECRETS.apiKey)).toBe(true);
    expect(isGaxiosError(error)).toBe(true);
    expectOutcome(error, {
      rule: 'google-api-error',
      status: 403,
      message: `${GOOGLE_MESSAGES.permissionDenied} (403 PERMISSION_DENIED from Google API GET /v1/forbidden?fields=id&key=[REDACTED])`,
      failure: { code: 'permission_denied', retryable: false },
    });
  });

  it('429 with retry-after, signed in: retryable, the delay in the failure object and "Retry after 30 s."', async () => {
    const error = await call(google.fake.origin, '/v1/quota');
    expect(google.fake.received(SECRETS.accessToken)).toBe(true);
    expectOutcome(error, {
      rule: 'google-quota',
      status: 429,
      message: `${GOOGLE_MESSAGES.quota} (429 RESOURCE_EXHAUSTED RATE_LIMIT_EXCEEDED from Google API GET /v1/quota?fields=id). Retry after 30 s.`,
      failure: { code: 'rate_limit_exceeded', retryable: true, retryAfterMs: 30_000 },
    });
  });

  it('503 UNAVAILABLE: retryable without a delay', async () => {
    expectOutcome(await call(google.fake.origin, '/v1/unavailable'), {
      rule: 'google-api-error',
      status: 503,
      message: `Service Unavailable (503 UNAVAILABLE from Google API GET /v1/unavailable?fields=id)`,
      failure: { code: 'unavailable', retryable: true },
    });
  });

  it('an HTML 502 page: the status text, never the page', async () => {
    expectOutcome(await call(google.fake.origin, '/html502', { withApiKey: true }), {
      rule: 'google-api-error',
      status: 502,
      message: `Bad Gateway (502 from Google API GET /html502?fields=id&key=[REDACTED])`,
      failure: { code: 'unavailable', retryable: true },
    });
  });

  it('a missing required parameter is a bug of the caller: a masked crash', async () => {
    const error = await caught(() =>
      common.createAPIRequest({
        options: { url: google.fake.url('/v1/{fileId}'), method: 'GET' },
        params: {},
        requiredParams: ['fileId'],
        pathParams: ['fileId'],
        context: { _options: {} },
      }),
    );
    expect((error as Error).message).toBe('Missing required parameters: fileId');
    const { classification, text } = render(error);
    expect(classification.kind).toBe('crash');
    expect(text).toMatch(/^Error executing tool drive_get \(reference [0-9a-f]{12}\)$/);
  });

  if (options.http2) {
    const h2 = useFakeGoogleHttp2();

    it('http2: a 403 is a plain Error whose cause is the response, recognised: the API message, the request, the log record', async () => {
      const error = await call(h2.fake.origin, '/v1/forbidden', { http2: true });
      expect(h2.fake.received(SECRETS.accessToken)).toBe(true);
      expect(isGaxiosError(error)).toBe(false);
      expect((error as Error).message).toMatch(/^Request failed with status code 403\. /);
      expectOutcome(error, {
        rule: 'google-api-error',
        status: 403,
        message: `${GOOGLE_MESSAGES.permissionDenied} (403 PERMISSION_DENIED from Google API GET /v1/forbidden)`,
        failure: { code: 'permission_denied', retryable: false },
      });
      const { records } = render(error);
      expect(records[0]).toMatchObject({ httpMethod: 'GET', httpUrl: `${h2.fake.origin}/v1/forbidden`, httpStatus: 403 });
    });

    it('http2: a 429 with retry-after (a plain header object): the delay', async () => {
      expectOutcome(await call(h2.fake.origin, '/v1/quota', { http2: true }), {
        rule: 'google-quota',
        status: 429,
        message: `${GOOGLE_MESSAGES.quota} (429 RESOURCE_EXHAUSTED RATE_LIMIT_EXCEEDED from Google API GET /v1/quota). Retry after 30 s.`,
        failure: { code: 'rate_limit_exceeded', retryable: true, retryAfterMs: 30_000 },
      });
    });

    it('http2: a 429 whose delay is a RetryInfo detail', async () => {
      expectOutcome(await call(h2.fake.origin, '/v1/quota-retry-info', { http2: true }), {
        rule: 'google-quota',
        status: 429,
        message: `${GOOGLE_MESSAGES.quota} (429 RESOURCE_EXHAUSTED RATE_LIMIT_EXCEEDED from Google API GET /v1/quota-retry-info). Retry after 13 s.`,
        failure: { code: 'rate_limit_exceeded', retryable: true, retryAfterMs: 12_500 },
      });
    });

    it('http2: scopes and a rejected token ask to sign in again', async () => {
      expectOutcome(await call(h2.fake.origin, '/v1/scopes', { http2: true }), {
        rule: 'google-insufficient-scopes',
        status: 401,
        reauthorize: true,
        message: `${GOOGLE_MESSAGES.scopes} (403 PERMISSION_DENIED ACCESS_TOKEN_SCOPE_INSUFFICIENT from Google API GET /v1/scopes)`,
        failure: { code: 'access_token_scope_insufficient', retryable: false },
      });
      expectOutcome(await call(h2.fake.origin, '/v1/unauthenticated', { http2: true }), {
        rule: 'google-unauthenticated',
        status: 401,
        reauthorize: true,
        message: `${GOOGLE_MESSAGES.unauthenticated} (401 UNAUTHENTICATED from Google API GET /v1/unauthenticated)`,
        failure: { code: 'unauthenticated', retryable: false },
      });
    });

    it('http2: an HTML 502 page (no status text in HTTP/2): the reason phrase, never the page', async () => {
      const error = await call(h2.fake.origin, '/html502', { http2: true });
      const outcome = expectOutcome(error, {
        rule: 'google-api-error',
        status: 502,
        message: `Bad Gateway (502 from Google API GET /html502)`,
        failure: { code: 'unavailable', retryable: true },
      });
      expect(outcome.message).not.toMatch(/<|DOCTYPE/);
      expectNoSecrets(outcome.message);
    });
  }
}

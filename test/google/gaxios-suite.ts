/**
 * One suite for every gaxios major: the real library (6, 7 or 8) requests the fake Google server on 127.0.0.1, and the
 * error it throws is classified by `[...googleRules, ...coreRules]`. Each case asserts the exact client text, status
 * and rule, and that the secrets planted in the request (API key in `?key=` and `x-goog-api-key`, access token in
 * `Authorization` and `?access_token=`, client secret in the query, refresh token in the body) come back nowhere.
 */
import { beforeAll, expect, it } from 'vitest';
import { isGaxiosError } from '../../src/google/index.js';
import { closedPortUrl, GOOGLE_MESSAGES } from '../support/fake-google.js';
import { caught, expectOutcome, SECRETS, useFakeGoogle } from './support.js';

/** The part of gaxios the suite uses, in every major. */
export interface GaxiosModule {
  request(options: Record<string, unknown>): Promise<unknown>;
}

/** Which transport shapes a major offers. */
export interface GaxiosSuiteOptions {
  /** gaxios 7 and 8 accept `fetchImplementation: fetch` (native fetch: codes two causes down). */
  readonly nativeFetch: boolean;
  /** gaxios 6 reads an error response of a `responseType: 'stream'` request into a string; 7 and 8 do not. */
  readonly readsStreamedErrorBody: boolean;
}

/** Credentials sent with every request: the secrets must not come back out. */
function credentialHeaders(): Record<string, string> {
  return { Authorization: `Bearer ${SECRETS.accessToken}`, 'x-goog-api-key': SECRETS.apiKey };
}

/** Registers the cases for one gaxios major. Call inside a `describe`. */
export function gaxiosSuite(load: () => Promise<GaxiosModule>, options: GaxiosSuiteOptions): void {
  let gaxios: GaxiosModule;
  let closed: string;
  const google = useFakeGoogle();

  beforeAll(async () => {
    gaxios = await load();
    closed = await closedPortUrl('/v1/files');
  });

  const request = (path: string, extra: Record<string, unknown> = {}): Promise<unknown> =>
    caught(() => gaxios.request({ url: google.fake.url(path), headers: credentialHeaders(), retry: false, ...extra }));
  const api = (path: string): string => `${google.fake.origin}${path}`;

  it('403 PERMISSION_DENIED: the API message, status, method and URL without key= or client_secret=', async () => {
    const error = await request(`/v1/forbidden?key=${SECRETS.apiKey}&fields=id&client_secret=${SECRETS.clientSecret}`);
    expect(isGaxiosError(error)).toBe(true);
    expect(google.fake.received(SECRETS.apiKey) && google.fake.received(SECRETS.accessToken) && google.fake.received(SECRETS.clientSecret)).toBe(true);
    expectOutcome(error, {
      rule: 'google-api-error',
      status: 403,
      message: `Google API GET ${api('/v1/forbidden')}?key=[REDACTED]&fields=id&client_secret=[REDACTED] failed with 403 PERMISSION_DENIED: ${GOOGLE_MESSAGES.permissionDenied}`,
    });
  });

  it("403 read with responseType 'text': the JSON string body is parsed", async () => {
    const error = await request(`/v1/forbidden?key=${SECRETS.apiKey}`, { responseType: 'text' });
    expect(typeof (error as { response?: { data?: unknown } }).response?.data).toBe('string');
    expectOutcome(error, {
      rule: 'google-api-error',
      status: 403,
      message: `Google API GET ${api('/v1/forbidden')}?key=[REDACTED] failed with 403 PERMISSION_DENIED: ${GOOGLE_MESSAGES.permissionDenied}`,
    });
  });

  it("403 read with responseType 'stream': gaxios 6 reads the body into a string, 7/8 leave an unread stream", async () => {
    const error = await request(`/v1/forbidden?key=${SECRETS.apiKey}`, { responseType: 'stream' });
    const detail = options.readsStreamedErrorBody ? `403 PERMISSION_DENIED: ${GOOGLE_MESSAGES.permissionDenied}` : '403: Forbidden';
    expectOutcome(error, {
      rule: 'google-api-error',
      status: 403,
      message: `Google API GET ${api('/v1/forbidden')}?key=[REDACTED] failed with ${detail}`,
    });
  });

  it('404 NOT_FOUND', async () => {
    const error = await request('/v1/missing?fields=id');
    expectOutcome(error, {
      rule: 'google-api-error',
      status: 404,
      message: `Google API GET ${api('/v1/missing')}?fields=id failed with 404 NOT_FOUND: ${GOOGLE_MESSAGES.notFound}`,
    });
  });

  it('400 INVALID_ARGUMENT on a POST whose body holds a refresh token', async () => {
    const error = await request('/v1/invalid', { method: 'POST', data: { range: 'Sheet1!A1:ZZ', refresh_token: SECRETS.refreshToken } });
    expect(google.fake.received(SECRETS.refreshToken)).toBe(true);
    expectOutcome(error, {
      rule: 'google-api-error',
      status: 400,
      message: `Google API POST ${api('/v1/invalid')} failed with 400 INVALID_ARGUMENT: ${GOOGLE_MESSAGES.invalidArgument}`,
    });
  });

  it('500 INTERNAL and 503 UNAVAILABLE', async () => {
    expectOutcome(await request('/v1/internal'), {
      rule: 'google-api-error',
      status: 500,
      message: `Google API GET ${api('/v1/internal')} failed with 500 INTERNAL: ${GOOGLE_MESSAGES.internal}`,
    });
    expectOutcome(await request('/v1/unavailable', { method: 'DELETE' }), {
      rule: 'google-api-error',
      status: 503,
      message: `Google API DELETE ${api('/v1/unavailable')} failed with 503 UNAVAILABLE: ${GOOGLE_MESSAGES.unavailable}`,
    });
  });

  it('an HTML 502 page: the status text only, never the page', async () => {
    const error = await request(`/html502?key=${SECRETS.apiKey}`);
    const outcome = expectOutcome(error, {
      rule: 'google-api-error',
      status: 502,
      message: `Google API GET ${api('/html502')}?key=[REDACTED] failed with 502: Bad Gateway`,
    });
    expect(outcome.message).not.toMatch(/<|DOCTYPE|That’s an error/i);
  });

  it('429 RESOURCE_EXHAUSTED with retry-after: the message and the delay', async () => {
    expectOutcome(await request(`/v1/quota?key=${SECRETS.apiKey}`), {
      rule: 'google-quota',
      status: 429,
      message: `Google API GET ${api('/v1/quota')}?key=[REDACTED] failed with 429 RESOURCE_EXHAUSTED (RATE_LIMIT_EXCEEDED): ${GOOGLE_MESSAGES.quota} Retry after 30 seconds.`,
    });
  });

  it('429 without retry-after', async () => {
    expectOutcome(await request('/v1/quota-no-retry'), {
      rule: 'google-quota',
      status: 429,
      message: `Google API GET ${api('/v1/quota-no-retry')} failed with 429 RESOURCE_EXHAUSTED (rateLimitExceeded): ${GOOGLE_MESSAGES.quota}`,
    });
  });

  it('403 userRateLimitExceeded (Drive style, no status): a rate limit, 429', async () => {
    expectOutcome(await request('/v1/user-rate-limit'), {
      rule: 'google-quota',
      status: 429,
      message: `Google API GET ${api('/v1/user-rate-limit')} failed with 403 (userRateLimitExceeded): ${GOOGLE_MESSAGES.userRateLimit}`,
    });
  });

  it('403 ACCESS_TOKEN_SCOPE_INSUFFICIENT: re-authorization, 401', async () => {
    expectOutcome(await request('/v1/scopes'), {
      rule: 'google-insufficient-scopes',
      status: 401,
      reauthorize: true,
      message: `Google API GET ${api('/v1/scopes')} failed with 403 PERMISSION_DENIED (ACCESS_TOKEN_SCOPE_INSUFFICIENT): ${GOOGLE_MESSAGES.scopes}`,
    });
  });

  it('401 UNAUTHENTICATED with ?access_token=: re-authorization, 401', async () => {
    expectOutcome(await request(`/v1/unauthenticated?access_token=${SECRETS.accessToken}`), {
      rule: 'google-unauthenticated',
      status: 401,
      reauthorize: true,
      message: `Google API GET ${api('/v1/unauthenticated')}?access_token=[REDACTED] failed with 401 UNAUTHENTICATED: ${GOOGLE_MESSAGES.unauthenticated}`,
    });
  });

  it("errorRedactor: false (Authorization in clear in config.headers) changes nothing the client sees", async () => {
    const error = await request(`/v1/forbidden?key=${SECRETS.apiKey}`, { errorRedactor: false });
    expectOutcome(error, {
      rule: 'google-api-error',
      status: 403,
      message: `Google API GET ${api('/v1/forbidden')}?key=[REDACTED] failed with 403 PERMISSION_DENIED: ${GOOGLE_MESSAGES.permissionDenied}`,
    });
  });

  it('ECONNREFUSED: fixed text naming the code, never the URL (which carries key=)', async () => {
    const error = await caught(() =>
      gaxios.request({ url: `${closed}?key=${SECRETS.apiKey}&client_secret=${SECRETS.clientSecret}`, headers: credentialHeaders(), retry: false }),
    );
    expect(String((error as Error).message)).toContain(SECRETS.apiKey);
    expectOutcome(error, { rule: 'google-network', status: 502, message: 'Network error while calling the Google API (ECONNREFUSED).' });
  });

  it('connection reset and hang-up: ECONNRESET', async () => {
    expectOutcome(await request(`/reset?key=${SECRETS.apiKey}`), {
      rule: 'google-network',
      status: 502,
      message: 'Network error while calling the Google API (ECONNRESET).',
    });
    expectOutcome(await request(`/hangup?key=${SECRETS.apiKey}`), {
      rule: 'google-network',
      status: 502,
      message: 'Network error while calling the Google API (ECONNRESET).',
    });
  });

  it('timeout option', async () => {
    expectOutcome(await request(`/slow?ms=3000&key=${SECRETS.apiKey}`, { timeout: 50 }), {
      rule: 'google-timeout',
      status: 504,
      message: 'The Google API request timed out.',
    });
  });

  it('caller abort', async () => {
    const controller = new AbortController();
    const pending = request(`/slow?ms=3000&key=${SECRETS.apiKey}`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expectOutcome(await pending, { rule: 'google-abort', status: 499, message: 'The Google API request was aborted.' });
  });

  if (options.nativeFetch) {
    const native = (url: string, extra: Record<string, unknown> = {}): Promise<unknown> =>
      caught(() => gaxios.request({ url, headers: credentialHeaders(), retry: false, fetchImplementation: fetch, ...extra }));

    it('native fetch, ECONNREFUSED two causes down', async () => {
      const error = await native(`${closed}?key=${SECRETS.apiKey}`);
      expect((error as Error).message).toBe('fetch failed');
      expectOutcome(error, { rule: 'google-network', status: 502, message: 'Network error while calling the Google API (ECONNREFUSED).' });
    });

    it('native fetch, connection reset', async () => {
      expectOutcome(await native(google.fake.url(`/reset?key=${SECRETS.apiKey}`)), {
        rule: 'google-network',
        status: 502,
        message: 'Network error while calling the Google API (ECONNRESET).',
      });
    });

    it('native fetch, timeout', async () => {
      expectOutcome(await native(google.fake.url('/slow?ms=3000'), { timeout: 50 }), {
        rule: 'google-timeout',
        status: 504,
        message: 'The Google API request timed out.',
      });
    });

    it('native fetch, caller abort', async () => {
      expectOutcome(await native(google.fake.url('/slow?ms=3000'), { signal: AbortSignal.abort() }), {
        rule: 'google-abort',
        status: 499,
        message: 'The Google API request was aborted.',
      });
    });

    it('native fetch, 403', async () => {
      expectOutcome(await native(google.fake.url(`/v1/forbidden?key=${SECRETS.apiKey}`)), {
        rule: 'google-api-error',
        status: 403,
        message: `Google API GET ${api('/v1/forbidden')}?key=[REDACTED] failed with 403 PERMISSION_DENIED: ${GOOGLE_MESSAGES.permissionDenied}`,
      });
    });
  }
}

/**
 * One suite for every gaxios major: the real library (6, 7 or 8) requests the fake Google server on 127.0.0.1, and the
 * error it throws is classified by `[...googleRules, ...coreRules]`. Each case asserts the exact client text, status
 * and rule, and that the secrets planted in the request (API key in `?key=` and `x-goog-api-key`, access token in
 * `Authorization` and `?access_token=`, client secret in the query, refresh token in the body) come back nowhere.
 */
import { beforeAll, expect, it } from 'vitest';
import { googleRules, isGaxiosError } from '../../src/google/index.js';
import { classifyError, coreRules, createErrorPolicy, type AnticipatedClassification } from '../../src/index.js';
import { closedPortUrl, GOOGLE_MESSAGES } from '../support/fake-google.js';
import { caught, expectOutcome, render, SECRETS, useFakeGoogle, type Expected } from './support.js';

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

/** The failure facts of transport failures. */
const NETWORK = { code: 'network', retryable: true } as const;
/** A refused connection: the request never reached Google. */
const UNREACHED = { ...NETWORK, upstream: 'unreached' } as const;
const TIMEOUT = { code: 'timeout', retryable: true } as const;
const ABORTED = { code: 'aborted', retryable: false } as const;

/** The failure facts of a plain 403 PERMISSION_DENIED. */
const PERMISSION_DENIED = { code: 'permission_denied', retryable: false } as const;

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
  /** The outcome of a Google API error: `rule`, `status`, the client text `message`, the failure object (logged at warn). */
  const apiError = (rule: string, status: number, message: string, failure: Expected['failure']): Expected => ({ rule, status, message, failure });
  /** The outcome of a caller's routine Google API error (400, 404, 409, 412): as {@link apiError}, one info line, no stack. */
  const callerError = (status: number, message: string, failure: Expected['failure']): Expected => ({ rule: 'google-api-error', status, message, level: 'info', failure });
  /** The outcome of a Google API error that asks the user to sign in again: status 401, the re-authorization text added. */
  const reauthorization = (rule: string, message: string, failure: Expected['failure']): Expected => ({ rule, status: 401, reauthorize: true, message, failure });

  /** A case of one request and its outcome (made when the case runs: the fake's URL is known by then). */
  const itAnswers = (title: string, send: () => Promise<unknown>, expected: () => Expected): void => {
    it(title, async () => {
      expectOutcome(await send(), expected());
    });
  };

  it('403 PERMISSION_DENIED: the API message, status, method and URL without key= or client_secret=', async () => {
    const error = await request(`/v1/forbidden?key=${SECRETS.apiKey}&fields=id&client_secret=${SECRETS.clientSecret}`);
    expect(isGaxiosError(error)).toBe(true);
    expect(google.fake.received(SECRETS.apiKey) && google.fake.received(SECRETS.accessToken) && google.fake.received(SECRETS.clientSecret)).toBe(true);
    expectOutcome(error, apiError('google-api-error', 403, `${GOOGLE_MESSAGES.permissionDenied} (403 PERMISSION_DENIED from Google API GET /v1/forbidden?key=[REDACTED]&fields=id&client_secret=[REDACTED])`, PERMISSION_DENIED));
  });

  it('a long URL and a short maxMessageLength: the cut takes the end of the URL, never Google’s message', async () => {
    const error = await request(`/v1/forbidden?fields=${'files(id,name,parents),'.repeat(20)}&key=${SECRETS.apiKey}`);
    const policy = createErrorPolicy({ rules: [...googleRules, ...coreRules], maxMessageLength: 200, logger: () => undefined });
    const classification = classifyError(error, policy);
    expect(classification).toMatchObject({ kind: 'anticipated', rule: { name: 'google-api-error' } });
    const { message } = classification as AnticipatedClassification;
    expect(message.length).toBeLessThanOrEqual(200);
    expect(message.startsWith(`${GOOGLE_MESSAGES.permissionDenied} (403 PERMISSION_DENIED from Google API GET /v1/forbidden?fields=`)).toBe(
      true,
    );
    expect(message).not.toContain(SECRETS.apiKey);
  });

  itAnswers("403 whose message spans lines: Google's message on one line, its control characters gone", () => request('/v1/forbidden-multiline'),
    () => apiError('google-api-error', 403, `The caller does not have permission [31m (403 PERMISSION_DENIED from Google API GET /v1/forbidden-multiline)`, PERMISSION_DENIED));

  it("403 read with responseType 'text': the JSON string body is parsed", async () => {
    const error = await request(`/v1/forbidden?key=${SECRETS.apiKey}`, { responseType: 'text' });
    expect(typeof (error as { response?: { data?: unknown } }).response?.data).toBe('string');
    expectOutcome(error, apiError('google-api-error', 403, `${GOOGLE_MESSAGES.permissionDenied} (403 PERMISSION_DENIED from Google API GET /v1/forbidden?key=[REDACTED])`, PERMISSION_DENIED));
  });

  it("403 read with responseType 'stream': gaxios 6 reads the body into a string, 7/8 leave an unread stream", async () => {
    const error = await request(`/v1/forbidden?key=${SECRETS.apiKey}`, { responseType: 'stream' });
    const detail = options.readsStreamedErrorBody ? `${GOOGLE_MESSAGES.permissionDenied} (403 PERMISSION_DENIED` : 'Forbidden (403';
    expectOutcome(error, apiError('google-api-error', 403, `${detail} from Google API GET /v1/forbidden?key=[REDACTED])`, PERMISSION_DENIED));
  });

  itAnswers('404 NOT_FOUND: the caller’s, one info line without a stack', () => request('/v1/missing?fields=id'),
    () => callerError(404, `${GOOGLE_MESSAGES.notFound} (404 NOT_FOUND from Google API GET /v1/missing?fields=id)`, { code: 'not_found', retryable: false }));

  it('400 INVALID_ARGUMENT on a POST whose body holds a refresh token: the caller’s, one info line', async () => {
    const error = await request('/v1/invalid', { method: 'POST', data: { range: 'Sheet1!A1:ZZ', refresh_token: SECRETS.refreshToken } });
    expect(google.fake.received(SECRETS.refreshToken)).toBe(true);
    expectOutcome(error, callerError(400, `${GOOGLE_MESSAGES.invalidArgument} (400 INVALID_ARGUMENT from Google API POST /v1/invalid)`, { code: 'invalid_argument', retryable: false }));
  });

  itAnswers('409 ALREADY_EXISTS: the caller’s, one info line', () => request(`/v1/conflict?key=${SECRETS.apiKey}`, { method: 'POST', data: { id: 'standup' } }),
    () => callerError(409, `${GOOGLE_MESSAGES.alreadyExists} (409 ALREADY_EXISTS from Google API POST /v1/conflict?key=[REDACTED])`, { code: 'already_exists', retryable: false }));
  itAnswers('412 of a failed If-Match (no status in the body): the caller’s, one info line', () => request('/v1/precondition', { method: 'PUT', headers: { ...credentialHeaders(), 'if-match': '"etag-1"' } }),
    () => callerError(412, `${GOOGLE_MESSAGES.conditionNotMet} (412 from Google API PUT /v1/precondition)`, { code: 'failed_precondition', retryable: false }));

  it('500 INTERNAL and 503 UNAVAILABLE: retryable, without a delay when the response gives none', async () => {
    expectOutcome(await request('/v1/internal'), apiError('google-api-error', 500, `Internal Server Error (500 INTERNAL from Google API GET /v1/internal)`, { code: 'internal', retryable: true }));
    expectOutcome(
      await request('/v1/unavailable', { method: 'DELETE' }),
      apiError('google-api-error', 503, `Service Unavailable (503 UNAVAILABLE from Google API DELETE /v1/unavailable)`, { code: 'unavailable', retryable: true }),
    );
  });

  it('503 with retry-after as an HTTP date: retryable with the delay, "Retry after" from the policy', async () => {
    const before = Date.now();
    const error = await request('/v1/unavailable-retry');
    const expectedMs = Date.parse('Fri, 31 Dec 2100 23:59:59 GMT') - before;
    // A date this far ahead is cut to a day by the policy.
    expect(expectedMs).toBeGreaterThan(86_400_000);
    expect(render(error).failure?.retryAfterMs).toBe(86_400_000);
    const message = `Service Unavailable (503 UNAVAILABLE from Google API GET /v1/unavailable-retry). Retry after 86400 s.`;
    expectOutcome(error, apiError('google-api-error', 503, message, { code: 'unavailable', retryable: true, retryAfterMs: 86_400_000 }));
  });

  it('an HTML 502 page: the status text only, never the page', async () => {
    const error = await request(`/html502?key=${SECRETS.apiKey}`);
    const outcome = expectOutcome(error, apiError('google-api-error', 502, `Bad Gateway (502 from Google API GET /html502?key=[REDACTED])`, { code: 'unavailable', retryable: true }));
    expect(outcome.message).not.toMatch(/<|DOCTYPE|That’s an error/i);
  });

  itAnswers('429 RESOURCE_EXHAUSTED with retry-after: the message, then the delay from the policy (once)', () => request(`/v1/quota?key=${SECRETS.apiKey}`),
    () => apiError('google-quota', 429, `${GOOGLE_MESSAGES.quota} (429 RESOURCE_EXHAUSTED RATE_LIMIT_EXCEEDED from Google API GET /v1/quota?key=[REDACTED]). Retry after 30 s.`, { code: 'rate_limit_exceeded', retryable: true, retryAfterMs: 30_000 }));
  itAnswers('429 with the delay only in a RetryInfo detail (12.5s)', () => request('/v1/quota-retry-info'),
    () => apiError('google-quota', 429, `${GOOGLE_MESSAGES.quota} (429 RESOURCE_EXHAUSTED RATE_LIMIT_EXCEEDED from Google API GET /v1/quota-retry-info). Retry after 13 s.`, { code: 'rate_limit_exceeded', retryable: true, retryAfterMs: 12_500 }));
  itAnswers('429 with retry-after and no quota reason', () => request('/v1/too-many-requests'),
    () => apiError('google-quota', 429, `${GOOGLE_MESSAGES.tooManyRequests} (429 RESOURCE_EXHAUSTED from Google API GET /v1/too-many-requests). Retry after 7 s.`, { code: 'resource_exhausted', retryable: true, retryAfterMs: 7000 }));
  itAnswers('429 without retry-after: retryable, no delay', () => request('/v1/quota-no-retry'),
    () => apiError('google-quota', 429, `${GOOGLE_MESSAGES.quota} (429 RESOURCE_EXHAUSTED rateLimitExceeded from Google API GET /v1/quota-no-retry)`, { code: 'rate_limit_exceeded', retryable: true }));
  itAnswers('403 userRateLimitExceeded (Drive style, no status): a rate limit, 429', () => request('/v1/user-rate-limit'),
    () => apiError('google-quota', 429, `${GOOGLE_MESSAGES.userRateLimit} (403 userRateLimitExceeded from Google API GET /v1/user-rate-limit)`, { code: 'user_rate_limit_exceeded', retryable: true }));
  itAnswers('403 ACCESS_TOKEN_SCOPE_INSUFFICIENT: re-authorization, 401', () => request('/v1/scopes'),
    () => reauthorization('google-insufficient-scopes', `${GOOGLE_MESSAGES.scopes} (403 PERMISSION_DENIED ACCESS_TOKEN_SCOPE_INSUFFICIENT from Google API GET /v1/scopes)`, { code: 'access_token_scope_insufficient', retryable: false }));
  itAnswers('401 UNAUTHENTICATED with ?access_token=: re-authorization, 401', () => request(`/v1/unauthenticated?access_token=${SECRETS.accessToken}`),
    () => reauthorization('google-unauthenticated', `${GOOGLE_MESSAGES.unauthenticated} (401 UNAUTHENTICATED from Google API GET /v1/unauthenticated?access_token=[REDACTED])`, { code: 'unauthenticated', retryable: false }));
  itAnswers('errorRedactor: false (Authorization in clear in config.headers) changes nothing the client sees', () => request(`/v1/forbidden?key=${SECRETS.apiKey}`, { errorRedactor: false }),
    () => apiError('google-api-error', 403, `${GOOGLE_MESSAGES.permissionDenied} (403 PERMISSION_DENIED from Google API GET /v1/forbidden?key=[REDACTED])`, PERMISSION_DENIED));

  it('ECONNREFUSED: fixed text naming the code, never the URL (which carries key=)', async () => {
    const error = await caught(() =>
      gaxios.request({ url: `${closed}?key=${SECRETS.apiKey}&client_secret=${SECRETS.clientSecret}`, headers: credentialHeaders(), retry: false }),
    );
    expect(String((error as Error).message)).toContain(SECRETS.apiKey);
    expectOutcome(error, { rule: 'google-network', status: 502, message: 'Network error while calling the Google API (ECONNREFUSED).', failure: UNREACHED });
  });

  it('connection reset and hang-up: ECONNRESET', async () => {
    expectOutcome(await request(`/reset?key=${SECRETS.apiKey}`), { rule: 'google-network', status: 502, message: 'Network error while calling the Google API (ECONNRESET).', failure: NETWORK });
    expectOutcome(await request(`/hangup?key=${SECRETS.apiKey}`), { rule: 'google-network', status: 502, message: 'Network error while calling the Google API (ECONNRESET).', failure: NETWORK });
  });

  itAnswers('timeout option', () => request(`/slow?ms=3000&key=${SECRETS.apiKey}`, { timeout: 50 }), () => ({ rule: 'google-timeout', status: 504, message: 'The Google API request timed out.', failure: TIMEOUT }));

  it('caller abort', async () => {
    const controller = new AbortController();
    const pending = request(`/slow?ms=3000&key=${SECRETS.apiKey}`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expectOutcome(await pending, { rule: 'google-abort', status: 499, message: 'The Google API request was aborted.', failure: ABORTED });
  });

  if (options.nativeFetch) {
    const native = (url: string, extra: Record<string, unknown> = {}): Promise<unknown> =>
      caught(() => gaxios.request({ url, headers: credentialHeaders(), retry: false, fetchImplementation: fetch, ...extra }));

    it('native fetch, ECONNREFUSED two causes down', async () => {
      const error = await native(`${closed}?key=${SECRETS.apiKey}`);
      expect((error as Error).message).toBe('fetch failed');
      expectOutcome(error, { rule: 'google-network', status: 502, message: 'Network error while calling the Google API (ECONNREFUSED).', failure: UNREACHED });
    });

    itAnswers('native fetch, connection reset', () => native(google.fake.url(`/reset?key=${SECRETS.apiKey}`)),
      () => ({ rule: 'google-network', status: 502, message: 'Network error while calling the Google API (ECONNRESET).', failure: NETWORK }));
    itAnswers('native fetch, timeout', () => native(google.fake.url('/slow?ms=3000'), { timeout: 50 }), () => ({ rule: 'google-timeout', status: 504, message: 'The Google API request timed out.', failure: TIMEOUT }));
    itAnswers('native fetch, caller abort', () => native(google.fake.url('/slow?ms=3000'), { signal: AbortSignal.abort() }),
      () => ({ rule: 'google-abort', status: 499, message: 'The Google API request was aborted.', failure: ABORTED }));
    itAnswers('native fetch, 403', () => native(google.fake.url(`/v1/forbidden?key=${SECRETS.apiKey}`)),
      () => apiError('google-api-error', 403, `${GOOGLE_MESSAGES.permissionDenied} (403 PERMISSION_DENIED from Google API GET /v1/forbidden?key=[REDACTED])`, PERMISSION_DENIED));
  }
}

/**
 * Why `googleRules` go before `coreRules`, shown on real errors: the cause walk is node-outer, rule-inner, so a core
 * rule that accepts the outermost error wins over a Google rule listed after it (the core `http-status` rule takes
 * every Google API error), and `createErrorPolicy` therefore refuses the pack after the core rules. And why putting
 * the Google rules first takes nothing from the core rules: deliberate errors still win, and unvetted wrappers still
 * show the Google text.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { classifyError, coreRules, createErrorPolicy, ToolError, type AnticipatedClassification } from '../../src/index.js';
import { googleRules } from '../../src/google/index.js';
import { httpRules } from '../../src/http/index.js';
import { closedPortUrl, GOOGLE_MESSAGES } from '../support/fake-google.js';
import { serveFetch } from '../support/fetch-server.js';
import type { Listening } from '../support/loopback.js';
import type { GaxiosModule } from './gaxios-suite.js';
import type { GalModule } from './gal-suite.js';
import { caught, expectOutcome, REAUTHORIZE, SECRETS, useFakeGoogle } from './support.js';

const googleFirst = createErrorPolicy({ rules: [...googleRules, ...coreRules], reauthorize: REAUTHORIZE, logger: () => undefined });
const coreAlone = createErrorPolicy({ rules: coreRules, reauthorize: REAUTHORIZE, logger: () => undefined });

function anticipated(error: unknown, policy: typeof googleFirst): AnticipatedClassification {
  const c = classifyError(error, policy);
  expect(c.kind).toBe('anticipated');
  return c as AnticipatedClassification;
}

describe('rule order', () => {
  let gaxios7: GaxiosModule;
  let gal10: GalModule;
  const google = useFakeGoogle({ isolate: 'eachTest' });

  beforeAll(async () => {
    gaxios7 = (await import('gaxios7')) as unknown as GaxiosModule;
    gal10 = (await import('google-auth-library10')) as unknown as GalModule;
  });

  it('googleRules is frozen, its names are unique, and createErrorPolicy accepts it without allowCatchAll', () => {
    expect(Object.isFrozen(googleRules)).toBe(true);
    expect(googleRules.every((rule) => Object.isFrozen(rule))).toBe(true);
    expect(new Set(googleRules.map((r) => r.name)).size).toBe(googleRules.length);
    // Every rule logs at warn, but the API errors, whose caller's routine failures (400, 404, 409, 412) are one info line.
    expect(googleRules.filter((r) => r.level !== 'warn').map((r) => [r.name, typeof r.level])).toEqual([['google-api-error', 'function']]);
    expect(() => createErrorPolicy({ rules: [...googleRules, ...coreRules] })).not.toThrow();
  });

  it('after coreRules the pack would be dead: createErrorPolicy refuses it, naming the order to use', async () => {
    expect(() => createErrorPolicy({ rules: [...coreRules, ...googleRules] })).toThrow(
      new TypeError(
        'Expected the rules of `...googleRules` before the core rules, got `rules[5]` ("google-missing-credentials") after `rules[0]` ("network"): ' +
          'the core rules take the failures they share with a pack first (`http-status` every HTTP error). Use `rules: [...googleRules, ...coreRules]`',
      ),
    );
    // What the pack would lose: the core http-status rule shows a Google API error's status only.
    const error = await caught(() => gaxios7.request({ url: google.fake.url('/v1/scopes'), retry: false }));
    expect(anticipated(error, coreAlone)).toMatchObject({ rule: { name: 'http-status' }, message: 'HTTP request failed with status 403', reauthorize: false });
    expect(anticipated(error, googleFirst)).toMatchObject({ rule: { name: 'google-insufficient-scopes' }, reauthorize: true });
  });

  it('a missing GOOGLE_APPLICATION_CREDENTIALS file (an ENOENT re-worded by GAL) is the Google rule’s, not the file-system rule’s', async () => {
    process.env['GOOGLE_APPLICATION_CREDENTIALS'] = join(google.env.dir, 'nowhere', 'key.json');
    const error = await caught(() => new gal10.GoogleAuth().getClient());
    expect((error as { code?: string }).code).toBe('ENOENT');
    expect(anticipated(error, googleFirst).rule.name).toBe('google-missing-credentials');
  });

  it('a gaxios network failure carries its code on the outermost error: the Google rule names the Google API', async () => {
    const error = await caught(async () => gaxios7.request({ url: await closedPortUrl(`/v1?key=${SECRETS.apiKey}`), retry: false }));
    expect(anticipated(error, coreAlone).rule.name).toBe('network');
    expect(anticipated(error, googleFirst).message).toBe('Network error while calling the Google API (ECONNREFUSED).');
  });

  it('Google rules first still leave a deliberate ToolError to the core rule, even when it wraps a gaxios error', async () => {
    const gaxiosError = await caught(() => gaxios7.request({ url: google.fake.url(`/v1/forbidden?key=${SECRETS.apiKey}`), retry: false }));
    const deliberate = new ToolError('You cannot open that spreadsheet.', { cause: gaxiosError });
    const c = anticipated(deliberate, googleFirst);
    expect(c.rule.name).toBe('deliberate');
    expect(c.message).toBe('You cannot open that spreadsheet.');
  });

  it('an unvetted wrapper around a gaxios error shows the Google text, never the wrapper’s', async () => {
    const gaxiosError = await caught(() => gaxios7.request({ url: google.fake.url(`/v1/missing?key=${SECRETS.apiKey}`), retry: false }));
    const wrapper = new Error(`sync of ${SECRETS.apiKey} failed`, { cause: gaxiosError });
    expectOutcome(wrapper, {
      rule: 'google-api-error',
      status: 404,
      message: `${GOOGLE_MESSAGES.notFound} (404 NOT_FOUND from Google API GET /v1/missing?key=[REDACTED])`,
      level: 'info',
      failure: { code: 'not_found', retryable: false },
    });
  });
});

/**
 * googleRules before httpRules (the reverse of the documented order) take no other API's error: through axios, a body
 * is Google's only when its `error.code` is the HTTP status (AIP-193) or its `error` an OAuth 2.0 code, so the HTTP
 * rules behind them still name the API and its own code. Google's own JSON through axios stays Google's.
 */
describe('googleRules before httpRules, with errors of another API through axios', () => {
  const ANSWERS: Record<string, [number, unknown]> = {
    '/openai/v1/models': [429, { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }],
    '/api/items/1': [403, { error: { message: 'You may not read this item', code: 'forbidden' } }],
    '/slack/chat.postMessage': [401, { ok: false, error: 'invalid_auth' }],
    '/google/v1/files/1AbC': [403, { error: { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' } }],
    '/token': [400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }],
  };
  let api: Listening;
  let axios: { get(url: string): Promise<unknown> };
  const googleFirstWithHttp = createErrorPolicy({ rules: [...googleRules, ...httpRules, ...coreRules], logger: () => undefined });

  beforeAll(async () => {
    api = await serveFetch(async (request) => {
      const [status, body] = ANSWERS[new URL(request.url).pathname] ?? [404, {}];
      return Response.json(body, { status, headers: status === 429 ? { 'retry-after': '30' } : {} });
    });
    axios = createRequire(import.meta.url)('axios') as typeof axios;
    return () => api.close();
  });

  const classified = async (path: string): Promise<[string, string]> => {
    const c = anticipated(await caught(() => axios.get(`${api.origin}${path}`)), googleFirstWithHttp);
    return [c.rule.name, c.message];
  };

  it('an OpenAI-shaped 429, an API-shaped 403 and a Slack error are the HTTP rules’', async () => {
    expect(await classified('/openai/v1/models')).toEqual([
      'axios-http-error',
      'HTTP GET /openai/v1/models failed with 429 Too Many Requests (rate_limit_exceeded): Rate limit reached for requests. Retry after 30 s.',
    ]);
    expect(await classified('/api/items/1')).toEqual(['axios-http-error', 'HTTP GET /api/items/1 failed with 403 Forbidden (forbidden): Access denied: You may not read this item']);
    expect(await classified('/slack/chat.postMessage')).toEqual([
      'axios-unauthorized',
      'HTTP GET /slack/chat.postMessage failed with 401 Unauthorized (invalid_auth): Credentials rejected: the service did not accept them',
    ]);
  });

  it('Google’s JSON and an OAuth token endpoint’s answer through axios are still Google’s', async () => {
    expect(await classified('/google/v1/files/1AbC')).toEqual([
      'google-api-error',
      'The caller does not have permission (403 PERMISSION_DENIED from Google API GET /google/v1/files/1AbC)',
    ]);
    expect(await classified('/token')).toEqual(['google-oauth-refresh', 'Google authorization failed (invalid_grant): Token has been expired or revoked.']);
  });
});

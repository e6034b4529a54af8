/**
 * Why `googleRules` go before `coreRules`, shown on real errors: the cause walk is node-outer, rule-inner, so a core
 * rule that accepts the outermost error wins over a Google rule listed after it (the core `http-status` rule takes
 * every Google API error), and `createErrorPolicy` therefore refuses the pack after the core rules. And why putting
 * the Google rules first takes nothing from the core rules: deliberate errors still win, and unvetted wrappers still
 * show the Google text.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { classifyError, coreRules, createErrorPolicy, ToolError, type AnticipatedClassification } from '../../src/index.js';
import { googleRules } from '../../src/google/index.js';
import { closedPortUrl, GOOGLE_MESSAGES } from '../support/fake-google.js';
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

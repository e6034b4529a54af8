/**
 * Shared pieces of the Google rule tests: planted secrets, the policy under test (Google rules first, then the core
 * rules, with a capturing logger), and one call that classifies a real error and renders it as the client would see it.
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import {
  classifyError,
  coreRules,
  createErrorPolicy,
  toToolResult,
  type AnticipatedClassification,
  type Classification,
  type ErrorPolicy,
  type LogRecord,
} from '../../src/index.js';
import { googleRules } from '../../src/google/index.js';
import { ISSUED_ACCESS_TOKEN, startFakeGoogle, type FakeGoogle, type FakeGoogleTls } from '../support/fake-google.js';
import type { GalModule } from './gal-suite.js';

/** Node's major version: gaxios 8 and google-auth-library 11 need 22 or later. */
export const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** Secrets planted in requests; none may come back in client text or log records. */
export const SECRETS = {
  apiKey: 'AIzaSyD-PLANTEDfake0KEY1fake2KEY3fake4K',
  accessToken: 'ya29.a0AfB_PLANTEDaccessTOKEN0123456789abcdef',
  refreshToken: '1//0gPLANTEDrefreshTOKEN-0123456789abcdef',
  clientSecret: 'GOCSPX-PLANTEDclientSECRET0123456789',
  issuedAccessToken: ISSUED_ACCESS_TOKEN,
} as const;

/** The re-authorization text of the policy under test. */
export const REAUTHORIZE = 'Sign in again: run `acme auth login`.';

/** The tool name used for client texts. */
export const TOOL = 'drive_get';

/** A policy with the recommended order, `[...googleRules, ...coreRules]`, and the records it logs. */
export function newPolicy(): { policy: ErrorPolicy; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const policy = createErrorPolicy({
    rules: [...googleRules, ...coreRules],
    reauthorize: REAUTHORIZE,
    logger: (record: LogRecord) => records.push(record),
  });
  return { policy, records };
}

/** Runs `fn` and returns what it threw; fails the test when it does not throw. */
export async function caught(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

/** The key of the failure object in a tool result's `_meta`. */
export const FAILURE_KEY = 'mcp-error-policy/failure';

/** The failure object as the client receives it. */
export interface WireFailure {
  readonly code: string;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly correlationId: string;
}

/** What one failure becomes: its classification, the tool result text and failure object, and the log records written for it. */
export interface Rendered {
  readonly classification: Classification;
  readonly text: string;
  readonly failure: WireFailure | undefined;
  readonly records: readonly LogRecord[];
}

/** Classifies `error` and renders it as a tool result through the policy under test (which logs once). */
export function render(error: unknown): Rendered {
  const { policy, records } = newPolicy();
  const classification = classifyError(error, policy);
  const result = toToolResult(error, TOOL, policy);
  const first = result.content[0];
  const failure = result._meta?.[FAILURE_KEY] as WireFailure | undefined;
  return { classification, text: first?.text ?? '', failure, records };
}

/** Asserts that no planted secret appears in any of `texts`. */
export function expectNoSecrets(...texts: string[]): void {
  const all = texts.join('\n');
  for (const [name, secret] of Object.entries(SECRETS)) {
    expect(all.includes(secret), `${name} leaked`).toBe(false);
  }
}

/** The failure object's facts a case expects (its correlation id is checked against the log record). */
export interface ExpectedFailure {
  readonly code: string;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly upstream?: 'unreached';
}

/** Expected outcome of one case. */
export interface Expected {
  readonly rule: string;
  readonly status: number;
  /** The whole client text, `Retry after <n> s.` included (the re-authorization text is added when `reauthorize`). */
  readonly message: string;
  readonly reauthorize?: boolean;
  /** The log level: `info` for a caller's routine failure (one line, no stack); default `warn` (with the stack). */
  readonly level?: 'info' | 'warn';
  readonly failure: ExpectedFailure;
}

/**
 * Classifies a real error and asserts the rule, status, exact client text (of the classification, of the tool result
 * and of the log record), the log level (`info`: no stack in the record; `warn`: the stack), the failure object (in
 * the classification and in the tool result's `_meta`, its correlation id the log record's) and that no planted
 * secret reaches the client or the log.
 */
export function expectOutcome(error: unknown, expected: Expected): AnticipatedClassification {
  const { classification, text, failure, records } = render(error);
  expect(classification.kind).toBe('anticipated');
  const anticipated = classification as AnticipatedClassification;
  const message = expected.reauthorize === true ? `${expected.message}\n\n${REAUTHORIZE}` : expected.message;
  expect(anticipated.rule.name).toBe(expected.rule);
  expect(anticipated.message).toBe(message);
  expect(anticipated.status).toBe(expected.status);
  const level = expected.level ?? 'warn';
  expect(anticipated.level).toBe(level);
  expect(anticipated.reauthorize).toBe(expected.reauthorize === true);
  expect(text).toBe(`Error executing tool ${TOOL}: ${message}`);
  expect(records).toHaveLength(1);
  expect(records[0]?.level).toBe(level);
  expect(records[0]?.message).not.toContain('\n');
  if (level === 'info') expect(records[0]?.stack).toBeUndefined();
  else expect(records[0]?.stack).toBeDefined();
  expect(records[0]?.rule).toBe(expected.rule);
  expect(records[0]?.status).toBe(expected.status);
  const { correlationId, ...facts } = anticipated.failure;
  expect(facts).toEqual(expected.failure);
  expect(failure).toEqual({ ...expected.failure, correlationId: records[0]?.correlationId });
  expect(correlationId).toMatch(/^[0-9a-f]{12}$/);
  expect(failure?.correlationId).toMatch(/^[0-9a-f]{12}$/);
  expectNoSecrets(text, JSON.stringify(records), JSON.stringify(failure));
  return anticipated;
}

/**
 * Points google-auth-library's environment at nothing: no ADC file, no gcloud config, no metadata server (detection
 * off, and its host `metadataHost`, a local address, should anything still ask). Returns a function that restores the
 * environment.
 */
export function isolateGoogleEnvironment(metadataHost: string): { dir: string; restore: () => void } {
  const keys = [
    'GOOGLE_APPLICATION_CREDENTIALS',
    'google_application_credentials',
    'METADATA_SERVER_DETECTION',
    'GCE_METADATA_HOST',
    'GCE_METADATA_IP',
    'CLOUDSDK_CONFIG',
    'HOME',
    'GCLOUD_PROJECT',
    'GOOGLE_CLOUD_PROJECT',
    'gcloud_project',
    'google_cloud_project',
  ] as const;
  const saved = new Map<string, string | undefined>(keys.map((key) => [key, process.env[key]]));
  const dir = mkdtempSync(join(tmpdir(), 'mcp-error-policy-google-'));
  for (const key of keys) Reflect.deleteProperty(process.env, key);
  process.env['METADATA_SERVER_DETECTION'] = 'none';
  process.env['GCE_METADATA_HOST'] = metadataHost;
  process.env['GCE_METADATA_IP'] = metadataHost;
  process.env['CLOUDSDK_CONFIG'] = dir;
  process.env['HOME'] = dir;
  return {
    dir,
    restore: () => {
      for (const [key, value] of saved) {
        if (value === undefined) Reflect.deleteProperty(process.env, key);
        else process.env[key] = value;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A self-signed certificate for 127.0.0.1 (made by `openssl`, valid two days), for the fake's HTTP/2 TLS server:
 * googleapis-common's HTTP/2 client connects to `https://<host>` with Node's default options, so a test that uses it
 * also turns certificate checks off in its own worker (see {@link useFakeGoogleHttp2}).
 */
export function loopbackCertificate(): FakeGoogleTls {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-error-policy-tls-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Starts a fake Google speaking HTTP/2 over TLS (self-signed, see {@link loopbackCertificate}) before the tests of the
 * calling describe block, with `NODE_TLS_REJECT_UNAUTHORIZED=0` in this test file's worker for that time (restored
 * after; Node warns once). Read `fake` inside hooks and tests.
 */
export function useFakeGoogleHttp2(): { readonly fake: FakeGoogle } {
  let fake: FakeGoogle | undefined;
  let saved: string | undefined;
  beforeAll(async () => {
    saved = process.env['NODE_TLS_REJECT_UNAUTHORIZED'];
    process.env['NODE_TLS_REJECT_UNAUTHORIZED'] = '0';
    fake = await startFakeGoogle({ tls: loopbackCertificate() });
  });
  afterAll(async () => {
    await fake?.close();
    if (saved === undefined) Reflect.deleteProperty(process.env, 'NODE_TLS_REJECT_UNAUTHORIZED');
    else process.env['NODE_TLS_REJECT_UNAUTHORIZED'] = saved;
  });
  return {
    get fake() {
      if (fake === undefined) throw new Error('the HTTP/2 fake Google is not running (read it inside hooks and tests)');
      return fake;
    },
  };
}

/** The fake Google of a describe block, and the isolated environment in use (see {@link useFakeGoogle}). */
export interface FakeGoogleInUse {
  readonly fake: FakeGoogle;
  /** With `isolate`: the isolated environment of the running test or of the block (see {@link isolateGoogleEnvironment}). */
  readonly env: { readonly dir: string };
}

/**
 * Starts the fake Google before the tests of the calling describe block (or file) and closes it after them. With
 * `isolate: 'eachTest'` each test, with `isolate: 'allTests'` the block as a whole, runs in an isolated Google
 * environment whose metadata "server" is the fake: it answers 404 at once (a closed port would be retried for seconds).
 * Read the fields from inside hooks and tests.
 */
export function useFakeGoogle(options: { isolate?: 'eachTest' | 'allTests' } = {}): FakeGoogleInUse {
  let fake: FakeGoogle | undefined;
  let env: { dir: string; restore: () => void } | undefined;
  beforeAll(async () => {
    fake = await startFakeGoogle();
  });
  afterAll(async () => {
    await fake?.close();
  });
  if (options.isolate !== undefined) {
    const [before, after] = options.isolate === 'eachTest' ? [beforeEach, afterEach] : [beforeAll, afterAll];
    before(() => {
      env = isolateGoogleEnvironment(new URL(fake!.origin).host);
    });
    after(() => {
      env?.restore();
      env = undefined;
    });
  }
  return {
    get fake() {
      if (fake === undefined) throw new Error('the fake Google is not running (read it inside hooks and tests)');
      return fake;
    },
    get env() {
      if (env === undefined) throw new Error('no isolated Google environment (isolate, inside a test or hook)');
      return env;
    },
  };
}

/** gaxios's interceptor list, the part {@link serviceAccount} uses. */
interface Interceptors {
  request: { add(interceptor: { resolved: (config: { url?: unknown }) => Promise<unknown> }): void };
}

/**
 * A service account's JWT client of `gal` (a fresh RSA key) whose token requests go to `tokenUrl`: gtoken posts to
 * Google's fixed token URL, so the client's own transporter (`instance.interceptors` in GAL 9's gaxios 6, `interceptors`
 * in 10 and 11) is pointed at the fake instead.
 */
export function serviceAccount(gal: GalModule, tokenUrl: string): { getAccessToken(): Promise<unknown> } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwt = new gal.JWT({
    email: 'reports@acme-prod.iam.gserviceaccount.com',
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    scopes: ['https://www.googleapis.com/auth/drive'],
  });
  const transporter = jwt.transporter as { interceptors?: Interceptors; instance?: { interceptors: Interceptors } };
  (transporter.interceptors ?? transporter.instance!.interceptors).request.add({
    resolved: (config) => {
      config.url = typeof config.url === 'string' ? tokenUrl : new URL(tokenUrl);
      return Promise.resolve(config);
    },
  });
  return jwt;
}

/** A request by an OAuth2 client of `gal` whose refresh token the fake's token endpoint refuses (`invalid_grant`). */
export function requestWithRevokedRefreshToken(gal: GalModule, fake: FakeGoogle): Promise<unknown> {
  const client = new gal.OAuth2Client({
    clientId: 'fake-client.apps.googleusercontent.com',
    clientSecret: SECRETS.clientSecret,
    endpoints: { oauth2TokenUrl: fake.url('/token/invalid_grant') },
  });
  client.setCredentials({ refresh_token: SECRETS.refreshToken });
  return client.request({ url: fake.url('/v1/ok'), retry: false });
}

/**
 * One suite for every google-auth-library major (9, 10, 11): real OAuth2Client / GoogleAuth / IdentityPoolClient
 * instances talking to the fake token, STS and API endpoints on 127.0.0.1, or failing to find credentials in an
 * isolated environment (no ADC file, no gcloud config, metadata detection off). The refresh token and client secret
 * are planted in the token request (GAL 10/11 keep the refresh token in clear in `config.data`).
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { isGaxiosError } from '../../src/google/index.js';
import { isHttpClientError } from '../../src/kit/http.js';
import { closedPortUrl, GOOGLE_MESSAGES } from '../support/fake-google.js';
import { caught, expectOutcome, render, SECRETS, serviceAccount, useFakeGoogle, type Expected } from './support.js';

/** The structural slice of google-auth-library the suite drives. */
interface OAuth2ClientLike {
  setCredentials(credentials: Record<string, unknown>): void;
  getAccessToken(): Promise<unknown>;
  request(options: Record<string, unknown>): Promise<unknown>;
}
interface GoogleAuthLike {
  getClient(): Promise<AuthClientLike>;
  getAccessToken(): Promise<unknown>;
  getProjectId(): Promise<unknown>;
}
interface ExternalClientLike {
  getAccessToken(): Promise<unknown>;
}
interface ImpersonatedLike {
  getAccessToken(): Promise<unknown>;
}
interface JwtLike {
  readonly transporter: unknown;
  getAccessToken(): Promise<unknown>;
}
interface AuthClientLike {
  getAccessToken(): Promise<unknown>;
  getRequestHeaders(url?: string): Promise<unknown>;
}

/** The classes of google-auth-library the suite uses, in every major. */
export interface GalModule {
  OAuth2Client: new (options: Record<string, unknown>) => OAuth2ClientLike;
  GoogleAuth: new (options?: Record<string, unknown>) => GoogleAuthLike;
  IdentityPoolClient: new (options: Record<string, unknown>) => ExternalClientLike;
  Impersonated: new (options: Record<string, unknown>) => ImpersonatedLike;
  JWT: new (options: Record<string, unknown>) => JwtLike;
  Compute: new (options?: Record<string, unknown>) => { getAccessToken(): Promise<unknown> };
}

/** Differences between majors that change what the client sees. */
export interface GalSuiteOptions {
  /** GAL 10/11 prefix credential-file errors with `Unable to read the credential file specified by ...`. */
  readonly credentialFilePrefix: boolean;
}

const GAC_PREFIX = 'Unable to read the credential file specified by the GOOGLE_APPLICATION_CREDENTIALS environment variable: ';

/** What the client is told to do about OAuth failures that signing in again cannot fix (credential-config.ts). */
const ADVICE = {
  serviceAccount: "The service account's key was refused: a new key or a configuration change is needed; signing in again will not help.",
  tokenExchange:
    'The workload identity federation configuration (pool provider, audience or subject token) needs to change; signing in again will not help.',
  unauthorizedClient:
    'The OAuth client is not allowed this grant or these scopes (for domain-wide delegation, see the Admin console): a configuration change is needed; signing in again will not help.',
  invalidClient: 'The OAuth client ID or secret is not valid: a configuration change is needed; signing in again will not help.',
} as const;

/** Failure facts of the credential rules. */
const SIGN_IN = { code: 'sign_in_required', retryable: false } as const;
const MISSING = { code: 'missing_credentials', retryable: false } as const;

/** A refresh Google refused (the OAuth error `invalid_grant`): its clean description, re-authorization, 401. */
const refreshRefused = (description: string, code = 'invalid_grant'): Expected => ({
  rule: 'google-oauth-refresh',
  status: 401,
  reauthorize: true,
  message: `Google authorization failed (invalid_grant): ${description}`,
  failure: { code, retryable: false },
});

/** A credential refused for a reason signing in again cannot fix: the OAuth error, its description and what to change; no re-authorization. */
const configChange = (oauthError: string, text: string, status = 500): Expected => ({
  rule: 'google-credential-config',
  status,
  message: `Google authorization failed (${oauthError}): ${text}`,
  failure: { code: oauthError, retryable: false },
});

/** Nothing to sign in with: the library's text, re-authorization, 401. */
const signIn = (message: string): Expected => ({ rule: 'google-sign-in-required', status: 401, reauthorize: true, message, failure: SIGN_IN });

/** No credentials to be found: the library's text (without paths or file content), 500. */
const missing = (message: string): Expected => ({ rule: 'google-missing-credentials', status: 500, message, failure: MISSING });

/** What the credential-file cases are told: GAL 10/11 prefix the text with {@link GAC_PREFIX}, GAL 9 names the file itself. */
const credentialFileText = (options: GalSuiteOptions, problem: string): string =>
  options.credentialFilePrefix ? `${GAC_PREFIX}${problem}` : `Unable to read the Google credential file: ${problem}`;

/** A service account's key that cannot be used: the rule's fixed text, 500, no re-authorization. */
const unusableKey = (problem: string): Expected => missing(`The Google service account key cannot be used: ${problem}`);

/** Text planted in a broken private key: it must reach neither the client nor the log. */
const PLANTED_KEY_MATERIAL = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjPLANTEDkeyMATERIALdoNotShow0123456789';

/** A service account's JSON key (a fresh RSA key), its token endpoint `tokenUri`, with `changes` applied (`undefined` drops a field). */
function serviceAccountKey(tokenUri: string, changes: Record<string, unknown> = {}): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key: Record<string, unknown> = {
    type: 'service_account',
    project_id: 'acme-prod',
    private_key_id: '0123456789abcdef',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: 'reports@acme-prod.iam.gserviceaccount.com',
    client_id: '123456789',
    token_uri: tokenUri,
  };
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) Reflect.deleteProperty(key, field);
    else key[field] = value;
  }
  return key;
}

/** Registers the cases for one google-auth-library major. Call inside a `describe`. */
export function galSuite(load: () => Promise<GalModule>, options: GalSuiteOptions): void {
  let gal: GalModule;
  let closedToken: string;
  const google = useFakeGoogle({ isolate: 'eachTest' });

  beforeAll(async () => {
    gal = await load();
    closedToken = await closedPortUrl('/token');
  });

  const client = (tokenPath: string, extra: Record<string, unknown> = {}): OAuth2ClientLike =>
    new gal.OAuth2Client({
      clientId: 'fake-client.apps.googleusercontent.com',
      clientSecret: SECRETS.clientSecret,
      endpoints: { oauth2TokenUrl: google.fake.url(tokenPath) },
      ...extra,
    });
  const withRefreshToken = (tokenPath: string): OAuth2ClientLike => {
    const c = client(tokenPath);
    c.setCredentials({ refresh_token: SECRETS.refreshToken });
    return c;
  };
  /** A 403 PERMISSION_DENIED of a Google API: its message, then the status, reason, method and URL (secrets redacted). */
  const permissionDenied = (request: string, message: string = GOOGLE_MESSAGES.permissionDenied): Expected => ({
    rule: 'google-api-error',
    status: 403,
    message: `${message} (403 PERMISSION_DENIED from Google API ${request})`,
    failure: { code: 'permission_denied', retryable: false },
  });
  const withAccessToken = (): OAuth2ClientLike => {
    const c = client('/token/ok');
    c.setCredentials({ access_token: SECRETS.accessToken, expiry_date: Date.now() + 3_600_000 });
    return c;
  };

  it('invalid_grant on refresh (getAccessToken): the clean error_description, re-authorization, 401', async () => {
    const error = await caught(() => withRefreshToken('/token/invalid_grant').getAccessToken());
    expect(isGaxiosError(error)).toBe(true);
    expect(google.fake.received(SECRETS.refreshToken)).toBe(true);
    expectOutcome(error, refreshRefused(GOOGLE_MESSAGES.invalidGrant));
  });

  it('invalid_grant on refresh before a request (request())', async () => {
    const error = await caught(() => withRefreshToken('/token/invalid_grant').request({ url: google.fake.url('/v1/ok'), retry: false }));
    expectOutcome(error, refreshRefused(GOOGLE_MESSAGES.invalidGrant));
  });

  it('invalid_rapt (ReAuth): the description, never the JSON body GAL puts in message', async () => {
    const error = await caught(() => withRefreshToken('/token/invalid_rapt').getAccessToken());
    expect((error as Error).message).toContain('"error_subtype":"invalid_rapt"');
    expectOutcome(error, refreshRefused(GOOGLE_MESSAGES.invalidRapt, 'invalid_rapt'));
  });

  it('unauthorized_client is not fixed by signing in: a configuration change, 403, no re-authorization', async () => {
    expectOutcome(
      await caught(() => withRefreshToken('/token/unauthorized_client').getAccessToken()),
      configChange('unauthorized_client', `${GOOGLE_MESSAGES.unauthorizedClient}. ${ADVICE.unauthorizedClient}`, 403),
    );
  });

  it('invalid_client is not fixed by signing in: a configuration change, 500, no re-authorization', async () => {
    expectOutcome(
      await caught(() => withRefreshToken('/token/invalid_client').getAccessToken()),
      configChange('invalid_client', `${GOOGLE_MESSAGES.invalidClient} ${ADVICE.invalidClient}`),
    );
  });

  it("a service account's JWT refused (invalid_grant: Invalid JWT Signature.): a new key, 500, no re-authorization", async () => {
    const error = await caught(() => serviceAccount(gal, google.fake.url('/token/invalid_jwt')).getAccessToken());
    expect(isGaxiosError(error)).toBe(true);
    expect((error as Error).message).toBe(`invalid_grant: ${GOOGLE_MESSAGES.invalidJwt}`);
    expectOutcome(error, configChange('invalid_grant', `${GOOGLE_MESSAGES.invalidJwt} ${ADVICE.serviceAccount}`));
  });

  it('token endpoint unreachable: network text, no URL', async () => {
    const c = new gal.OAuth2Client({ clientId: 'x', clientSecret: SECRETS.clientSecret, endpoints: { oauth2TokenUrl: closedToken } });
    c.setCredentials({ refresh_token: SECRETS.refreshToken });
    expectOutcome(await caught(() => c.getAccessToken()), {
      rule: 'google-network',
      status: 502,
      message: 'Network error while calling the Google API (ECONNREFUSED).',
      failure: { code: 'network', retryable: true, upstream: 'unreached' },
    });
  });

  it('API 403 through client.request (GAL 9 joins errors[].message): the API message', async () => {
    const error = await caught(() => withAccessToken().request({ url: google.fake.url(`/v1/forbidden?key=${SECRETS.apiKey}`), retry: false }));
    expect(google.fake.received(SECRETS.accessToken)).toBe(true);
    expectOutcome(error, permissionDenied(`GET /v1/forbidden?key=[REDACTED]`));
  });

  it('API 403 with the API key in x-goog-api-key (GAL apiKey, not redacted by gaxios)', async () => {
    const c = client('/token/ok', { apiKey: SECRETS.apiKey });
    const error = await caught(() => c.request({ url: google.fake.url('/v1/forbidden'), retry: false }));
    expect(google.fake.requests.some((r) => r.headers['x-goog-api-key'] === SECRETS.apiKey)).toBe(true);
    expectOutcome(error, permissionDenied(`GET /v1/forbidden`));
  });

  it('insufficient scopes through client.request: re-authorization, 401', async () => {
    expectOutcome(await caught(() => withAccessToken().request({ url: google.fake.url('/v1/scopes'), retry: false })), {
      rule: 'google-insufficient-scopes',
      status: 401,
      reauthorize: true,
      message: `${GOOGLE_MESSAGES.scopes} (403 PERMISSION_DENIED ACCESS_TOKEN_SCOPE_INSUFFICIENT from Google API GET /v1/scopes)`,
      failure: { code: 'access_token_scope_insufficient', retryable: false },
    });
  });

  const stsClient = (tokenPath: string): ExternalClientLike => {
    const subjectFile = join(google.env.dir, 'subject-token.txt');
    writeFileSync(subjectFile, 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJmYWtlIn0.c2lnbmF0dXJl');
    return new gal.IdentityPoolClient({
      type: 'external_account',
      audience: '//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/pool/providers/provider',
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      token_url: google.fake.url(tokenPath),
      credential_source: { file: subjectFile },
    });
  };

  it('STS invalid_grant: the re-wrapped plain Error (no gaxios symbol), its clean description, a configuration change', async () => {
    const error = await caught(() => stsClient('/sts/invalid_grant').getAccessToken());
    expect(isGaxiosError(error)).toBe(false);
    expect(isHttpClientError(error)).toBe(true);
    expect((error as Error).message).toBe(`Error code invalid_grant: ${GOOGLE_MESSAGES.stsInvalidGrant}`);
    expectOutcome(error, configChange('invalid_grant', `${GOOGLE_MESSAGES.stsInvalidGrant} ${ADVICE.tokenExchange}`));
  });

  it('an external account user (workforce identity federation) whose refresh token is revoked: re-authorization, 401', async () => {
    const auth = new gal.GoogleAuth({
      credentials: {
        type: 'external_account_authorized_user',
        audience: '//iam.googleapis.com/locations/global/workforcePools/pool/providers/provider',
        client_id: 'fake-client',
        client_secret: SECRETS.clientSecret,
        refresh_token: SECRETS.refreshToken,
        token_url: google.fake.url('/sts/v1/oauthtoken'),
        token_info_url: google.fake.url('/sts/v1/introspect'),
      },
    });
    const error = await caught(async () => ((await auth.getClient()) as ExternalClientLike).getAccessToken());
    expect(isGaxiosError(error)).toBe(false);
    expect((error as Error).message).toBe(`Error code invalid_grant: ${GOOGLE_MESSAGES.invalidGrant}`);
    expectOutcome(error, refreshRefused(GOOGLE_MESSAGES.invalidGrant));
  });

  it('STS audience mismatch (workload identity federation): a configuration change, 500, no re-authorization', async () => {
    const error = await caught(() => stsClient('/sts/audience').getAccessToken());
    expect((error as Error).message).toBe(`Error code invalid_grant: ${GOOGLE_MESSAGES.stsAudience}`);
    expectOutcome(error, configChange('invalid_grant', `${GOOGLE_MESSAGES.stsAudience} ${ADVICE.tokenExchange}`));
  });

  it('the Compute Engine metadata server answers 404: named as such, with Google’s explanation', async () => {
    const error = await caught(() => new gal.Compute().getAccessToken());
    expect((error as Error).message).toMatch(/^A Not Found error was returned while attempting to retrieve an access ?token/);
    expectOutcome(error, {
      rule: 'google-metadata-server',
      status: 500,
      message:
        'The Compute Engine metadata server gave no access token (404 Not Found). This may be because the Compute Engine instance does not have any permission scopes specified.',
      failure: { code: 'metadata_server', retryable: false },
    });
  });

  it('impersonation refused by IAM (GAL rewrites the message to "PERMISSION_DENIED: unable to impersonate: ...")', async () => {
    const target = 'reports@acme-prod.iam.gserviceaccount.com';
    const c = new gal.Impersonated({
      sourceClient: withAccessToken(),
      targetPrincipal: target,
      targetScopes: ['https://www.googleapis.com/auth/cloud-platform'],
      lifetime: 3600,
      endpoint: google.fake.url('/iam'),
    });
    const error = await caught(() => c.getAccessToken());
    expect((error as Error).message).toBe(`PERMISSION_DENIED: unable to impersonate: ${GOOGLE_MESSAGES.iamDenied}`);
    expectOutcome(
      error,
      permissionDenied(`POST /iam/v1/projects/-/serviceAccounts/${target}:generateAccessToken`, GOOGLE_MESSAGES.iamDenied),
    );
  });

  it('no token at all: request() and getAccessToken() ask to sign in', async () => {
    expectOutcome(
      await caught(() => client('/token/ok').request({ url: google.fake.url('/v1/ok') })),
      signIn('No access, refresh token, API key or refresh handler callback is set.'),
    );
    expectOutcome(await caught(() => client('/token/ok').getAccessToken()), signIn('No refresh token or refresh handler callback is set.'));
  });

  it('no Application Default Credentials', async () => {
    const message =
      'Could not load the default credentials. Browse to https://cloud.google.com/docs/authentication/getting-started for more information.';
    expectOutcome(await caught(() => new gal.GoogleAuth().getClient()), missing(message));
    expectOutcome(await caught(() => new gal.GoogleAuth().getAccessToken()), missing(message));
  });

  it('no project id', async () => {
    expectOutcome(
      await caught(() => new gal.GoogleAuth().getProjectId()),
      missing(
        'Unable to detect a Project Id in the current environment. To learn more about authentication and Google APIs, visit: https://cloud.google.com/docs/authentication/getting-started',
      ),
    );
  });

  /**
   * Asks for a client whose credential file, in a folder named like a customer's secrets, does not exist: the error
   * (ENOENT) names the path; the client text is `message`, without it.
   */
  async function expectMissingFile(getClient: (file: string) => Promise<unknown>, message: string): Promise<void> {
    const secretDir = join(google.env.dir, 'customer-acme-secrets');
    const error = await caught(() => getClient(join(secretDir, 'service-account.json')));
    expect((error as NodeJS.ErrnoException).code).toBe('ENOENT');
    expect((error as Error).message).toContain(secretDir);
    const outcome = expectOutcome(error, missing(message));
    expect(outcome.message).not.toContain('customer-acme-secrets');
  }

  it('GOOGLE_APPLICATION_CREDENTIALS file missing (an ENOENT error): GAL text, without the path', async () => {
    await expectMissingFile((file) => {
      process.env['GOOGLE_APPLICATION_CREDENTIALS'] = file;
      return new gal.GoogleAuth().getClient();
    }, credentialFileText(options, 'the file does not exist or is not a file (ENOENT).'));
  });

  it('a keyFile that does not exist (Node’s bare ENOENT): the credentials file is missing, without the path', async () => {
    for (const option of ['keyFile', 'keyFilename']) {
      await expectMissingFile(
        (file) => new gal.GoogleAuth({ [option]: file }).getClient(),
        'Unable to read the Google credential file: the file does not exist or is not a file (ENOENT).',
      );
    }
  });

  it('GOOGLE_APPLICATION_CREDENTIALS file incomplete', async () => {
    const file = join(google.env.dir, 'incomplete.json');
    writeFileSync(file, JSON.stringify({ type: 'authorized_user', client_id: 'x', refresh_token: SECRETS.refreshToken }));
    process.env['GOOGLE_APPLICATION_CREDENTIALS'] = file;
    expectOutcome(
      await caught(() => new gal.GoogleAuth().getClient()),
      missing(`${options.credentialFilePrefix ? GAC_PREFIX : ''}The incoming JSON object does not contain a client_secret field`),
    );
  });

  /** Writes a key file in a folder named like a customer's secrets; the path must never be shown. */
  const keyFileWith = (content: string): string => {
    const dir = join(google.env.dir, 'customer-acme-secrets');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'service-account.json');
    writeFileSync(file, content);
    return file;
  };
  const SCOPES = ['https://www.googleapis.com/auth/drive'];
  /** A bad private key: a PEM header around text OpenSSL cannot decode, with planted key material in it. */
  const BROKEN_PEM = `-----BEGIN PRIVATE KEY-----\n${PLANTED_KEY_MATERIAL}\n-----END PRIVATE KEY-----\n`;

  /**
   * Asserts the outcome of a failure from a malformed service account key, and that neither the key material, nor the
   * parser's quote of the file, nor the key file's folder reaches the client or the log; and that no re-authorization
   * text is added though the policy has one (the policy of `expectOutcome` does).
   */
  const expectUnusableKey = (error: unknown, expected: Expected): void => {
    expectOutcome(error, expected);
    const { text, records } = render(error);
    for (const shown of [text, JSON.stringify(records)]) {
      expect(shown).not.toContain(PLANTED_KEY_MATERIAL);
      expect(shown).not.toContain('customer-acme-secrets');
      expect(shown).not.toContain('Sign in again');
    }
    expect(text).not.toMatch(/position \d|not valid JSON"|Unexpected token/);
  };

  it('a service account key file without private_key: the key cannot be used, 500, no sign-in advice', async () => {
    const file = keyFileWith(JSON.stringify(serviceAccountKey(google.fake.url('/token/ok'), { private_key: undefined })));
    const error = await caught(async () => (await new gal.GoogleAuth({ keyFile: file, scopes: SCOPES }).getClient()).getAccessToken());
    expect((error as Error).message).toBe('private_key and client_email are required.');
    expectUnusableKey(error, unusableKey('private_key and client_email are required.'));
  });

  it('a service account key file that is not JSON: never the parser’s quote of it', async () => {
    const file = keyFileWith(`{"type": "service_account", "private_key": "${PLANTED_KEY_MATERIAL}`);
    const error = await caught(async () => (await new gal.GoogleAuth({ keyFile: file, scopes: SCOPES }).getClient()).getAccessToken());
    // GAL 9: gtoken's bare SyntaxError; 10 and 11: `Invalid JSON key file: <the parser's words>`.
    expect((error as Error).message).toMatch(/JSON/);
    expectUnusableKey(error, missing('Unable to read the Google credential file: the file is not valid JSON.'));
  });

  it('a private key OpenSSL cannot read, from a keyFile, GOOGLE_APPLICATION_CREDENTIALS or credentials: never the key', async () => {
    const sent = google.fake.requests.length;
    const key = serviceAccountKey(google.fake.url('/token/ok'), { private_key: BROKEN_PEM });
    const file = keyFileWith(JSON.stringify(key));
    const fromKeyFile = await caught(async () => (await new gal.GoogleAuth({ keyFile: file, scopes: SCOPES }).getClient()).getAccessToken());
    process.env['GOOGLE_APPLICATION_CREDENTIALS'] = file;
    const fromEnvironment = await caught(async () => (await new gal.GoogleAuth({ scopes: SCOPES }).getClient()).getAccessToken());
    Reflect.deleteProperty(process.env, 'GOOGLE_APPLICATION_CREDENTIALS');
    const fromCredentials = await caught(async () => (await new gal.GoogleAuth({ credentials: key, scopes: SCOPES }).getClient()).getAccessToken());
    for (const error of [fromKeyFile, fromEnvironment, fromCredentials]) {
      expect((error as NodeJS.ErrnoException).code).toBe('ERR_OSSL_UNSUPPORTED');
      expectUnusableKey(error, unusableKey('its private key is not a valid private key (ERR_OSSL_UNSUPPORTED).'));
    }
    // Each failed before any token request.
    expect(google.fake.requests).toHaveLength(sent);
  });

  it('without scopes (a self-signed JWT for the API, signed by GAL itself): a broken or missing private key', async () => {
    // The headers of a request to a Google API: GAL signs a JWT for its audience, before any request is sent.
    const api = 'https://www.googleapis.com/drive/v3/files';
    const broken = keyFileWith(JSON.stringify(serviceAccountKey(google.fake.url('/token/ok'), { private_key: BROKEN_PEM })));
    const error = await caught(async () => (await new gal.GoogleAuth({ keyFile: broken }).getClient()).getRequestHeaders(api));
    expect((error as Error).stack).toMatch(/jwtaccess\.js/);
    expectUnusableKey(error, unusableKey('its private key is not a valid private key (ERR_OSSL_UNSUPPORTED).'));
    const keyless = keyFileWith(JSON.stringify(serviceAccountKey(google.fake.url('/token/ok'), { private_key: undefined })));
    const missingKey = await caught(async () => (await new gal.GoogleAuth({ keyFile: keyless }).getClient()).getRequestHeaders(api));
    expect((missingKey as Error).name).toBe('TypeError');
    expectUnusableKey(missingKey, unusableKey('its private key is missing.'));
  });

  it('GOOGLE_APPLICATION_CREDENTIALS file not JSON: never its content', async () => {
    mkdirSync(join(google.env.dir, 'keys'));
    const file = join(google.env.dir, 'keys', 'broken.json');
    writeFileSync(file, `{"type": "authorized_user", "refresh_token": "${SECRETS.refreshToken}`);
    process.env['GOOGLE_APPLICATION_CREDENTIALS'] = file;
    const error = await caught(() => new gal.GoogleAuth().getClient());
    expect((error as Error).name).toBe('SyntaxError');
    // GAL 9 throws JSON.parse's bare SyntaxError (its stack runs through GAL's googleauth.js); 10 and 11 prefix it.
    if (!options.credentialFilePrefix) expect((error as Error).message).not.toContain('credential');
    expectOutcome(error, missing(credentialFileText(options, 'the file is not valid JSON.')));
  });
}

/**
 * The secret shapes that real Google API and OAuth error texts carry, as they stand in those texts: API keys in
 * `?key=`, `ya29.` access tokens, `1//` refresh tokens in bodies, `x-goog-api-key` headers, client secrets, JWTs,
 * Authorization headers, `access_token=` / `refresh_token=` / `token=` queries. The values are fake but shaped like
 * the real ones; each carries `Dq3kF4ke` so that a leak of any part of it is found.
 *
 * Then every other form in which a client or a service puts a credential into an error (FORM, FORM_EMBEDDINGS): header
 * lines and AWS canonical requests, keys echoed half-masked, URLs with user info, PEM private keys, a service account's
 * JSON, connection strings, the token formats secret scanners list (gitleaks' rules), and credentials of no known shape
 * that only their context gives away (a vendor's token after `token`, a hex key after `API key:`). Any 6 characters
 * of one of those found in a text count as a leak.
 */

/** The secret values. */
export const SECRET = {
  apiKey: 'AIzaSyDq3kF4keK3yV4lu3Xz9Qw8Er7Ty6Ui5Op',
  accessToken: 'ya29.a0AfB_byDq3kF4keAcc3ssT0k3nXz9Qw8Er7Ty6Ui5Op-zZ',
  refreshToken: '1//0gDq3kF4keR3fr3shT0k3nXz9Qw8Er7Ty6Ui5Op',
  clientSecret: 'GOCSPX-Dq3kF4keCl13ntS3cr3tXz9Q',
  jwt: 'eyJhbGciOiJSUzI1NiIsImtpZCI6ImYxIn0.eyJzdWIiOiIxMTIyMzMiLCJlbWFpbCI6InVAZXhhbXBsZS5jb20ifQ.SiGnDq3kF4keJwTXz9Qw8Er7Ty6Ui5Op',
  opaqueBearer: 'opaqBearerDq3kF4keXz9Qw8Er7Ty6',
  opaqueToken: 'opaqQueryTokDq3kF4keXz9Qw8Er7',
  basic: Buffer.from('svc-user:passw0rdDq3kF4ke').toString('base64'),
} as const;

/** A PEM private key's base64 body (three lines of it), each line its own. */
const PEM_BODY = [
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDq3kF4kePemB0dy',
  'x7Hq2Lw9Vt3Rk8Yc5Nz1Mb6Js4Gd0Pf7Ua2We9Xi3Qo8Tr5Ys1Zl6Kv4Hn7Cg2Bj0',
  'Fp9Aa3Sd6Df1Gh5Jk8Lz2Xc4Vb7Nm0Qw3Er6Ty9Ui1Op5As8Dq3kF4keEnd==',
] as const;

/**
 * The secrets of the other forms. Every 6 characters of each are its own: none is a word, a prefix alone, or a run of
 * a mask or a hex digit that another text could hold.
 */
export const FORM = {
  sessionToken: 'IQoJb3JpZ2luX2VjEDq3kF4keiktQhUgG36U8/o6LFBsGBUKouKptX3VB7+PnMDjVutemQN==',
  accessKeyId: 'AKIAQ3KF4KEZX9QW8ER7',
  secretAccessKey: 'wJalrXUtnFEMIDq3kF4kejNmUMEti9HutHcnADxd',
  signature: '6ef81ce1c6ed2a2e8175e1f1de35396cc1f5712e5e2cc5a129c2dfb8a80e2f7b',
  apiKeyHeader: 'xak-Dq3kF4keyNtPdpkDJ2zgCxuq',
  authToken: 'atk-Dq3kF4keiLrdRycw7N3v7Bt7QK',
  cookie: 'sid-Dq3kF4keJPpg6zaZR5oBByU7',
  maskedOpenai: 'sk-Dq3kF4***...Zq9W',
  maskedProject: 'sk-proj-Dq3k*****************F4kE',
  maskedStripe: 'sk_test_********************Dq3k',
  maskedTail: '****Dq3kZ',
  maskedBullets: 'pplx-Dq3k••••••••Zq7',
  basicPassword: 'pw-Dq3kF4ke-kkHiCsAfp',
  userToken: 'ghp_Dq3kF4ketmW5W7tdd7vND9SNqa8dpjKDGEJk',
  pemBody: PEM_BODY.join(''),
  clientSecret: 'cs-Dq3kF4kemw2CDcPZp2F7kWGc3Ccw',
  accountKey: 'Dq3kF4kefoECYGuR3FJuTY94zp2uvdYjgpawCC+/KnAjHq5v==',
  gitlab: 'glpat-Dq3kF4kegCoM5qCvB4dDUd',
  npm: 'npm_Dq3kF4keLEULGEp8C9B7udkB4Th5WsrmxbBG',
  huggingFace: 'hf_Dq3kF4keHPeRVQK6piabq4WvFisExKvCBK',
  stripeWebhook: 'whsec_Dq3kF4kebRWENTWdgPthRAjwGGBPPzGK',
  slackApp: 'xapp-1-A0Dq3kF4ke-7310582946-mxJCquxkL3LjDDahkHcy',
  anthropic: 'sk-ant-api03-Dq3kF4keyPXLQDmAVScNuje5oxhWSz23TsU5o6-g3D6Sb',
  linear: 'lin_api_Dq3kF4ke9D2Dp4VMpUQQnSiwcvpBpwWzPfUG6Azi',
  shopify: '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',
  sendGrid: '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',
  twilio: 'SK96390efc145e3964bd31dbfaf9c4fa8c',
  databricks: 'dapi63b1aded97a6f3ede28df18dc06b23bc',
  doppler: 'dp.pt.Dq3kF4kenYJ5hDo2qfGegVQv6eyegPLFTEpQny5t4N2',
  pypi: 'pypi-AgEIcHlwaS5vcmcDq3kF4keCGT2usRnf8HM3Ynce9diNTPuGvq2JmbVhsEejiCVKqs7rZshiZnY8s',
  digitalOcean: 'dop_v1_33dd4fbf01e7e197fa2ff968e6d4cd1ee746934c2a771bdde7ae4ed7a1f712be',
  postman: 'PMAK-96390efc145e3964bd31dbfa-f9c4fa8c63b1aded97a6f3ede28df18dc0',
  atlassian: 'ATATT3xFfGF0Dq3kF4kew8ntBuXyzcwBy7AZLyYZRoJiDyoiYcmFzKyAQjwqghL3KokG4zabSDvVcoUhoboPDeTLzrRK3KZnBYkhqGLZY9327XsahTU6dWczhUVr55rkTaTghYvUuoDYbnS4tM8tRpPguNEFpZ9K9NgX5DwvhS5zRiVdyL5k=tCaNC5kD',
  groq: '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',
  vault: 'hvs.CAESIDq3kF4keThpAqYGE4Z9DFwCw7zaRhwDncEcQzo',
  /** An Azure AD (Entra ID) client secret: three characters, a digit, `Q~`, then 31 to 34 more. */
  azureAdSecret: 'zR78Q~Dq3kF4ke.xT2vW_nM9pL0~cR5sK-uY7hJ6g',
  // Credentials of no shape the scrubber knows, recognised by the word before them (the context rule).
  /** A vendor's personal token with a prefix no scanner lists. */
  unknownPrefixToken: 'acme_pat_9F8e7D6c5B4a3928170',
  /** A 32-hex-digit API key. */
  hexApiKey: '9f86d081884c7d659a2feaa0c55ad015',
  /** A credential of 20 letters and digits. */
  freeCredential: 'zq81Hf03KkaP2mLx9Qe7',
  /** An in-house token: base64 of no known prefix. */
  inHouseToken: 'QmFzZTY0U3RyaW5nV2l0aE51bWJlcnMxMjM',
  /** A token under a camelCase JSON key and under a header of no known name. */
  camelJsonToken: 'tk9Xv2Lq8Rw4Zp7Ns3Bd6Fh1',
  /** A UUID used as an API key (as some services issue them). */
  uuidKey: 'c0a8f3e2-5b7d-4e19-9a6c-3f2e1d0b9a87',
} as const;

/** The secret values that are credentials (every one of them). */
export const SECRET_VALUES: readonly string[] = Object.values(SECRET);

/** The other forms' secrets, and the parts of them that must not show alone either (a masked key's visible head). */
export const FORM_VALUES: readonly string[] = [...Object.values(FORM), ...PEM_BODY];

/** The policy's references and correlation ids: 12 random hex digits, which hold any 6 given ones now and then. */
const RANDOM_ID = /(?<![0-9a-f])[0-9a-f]{12}(?![0-9a-f])/g;

/**
 * A window of some secret found in `text`, or undefined: a partial leak counts. 12 characters of a Google-shaped secret
 * of SECRET (some hold a word, `Bearer`), 6 characters of one of FORM (but in the policy's random ids).
 */
export function leakIn(text: string): string | undefined {
  for (const [secrets, width, checked] of [
    [SECRET_VALUES, 12, text],
    [FORM_VALUES, 6, text.replace(RANDOM_ID, '')],
  ] as const) {
    for (const secret of secrets) {
      for (let i = 0; i + width <= secret.length; i += 1) {
        const window = secret.slice(i, i + width);
        if (checked.includes(window)) return window;
      }
    }
  }
  return undefined;
}

/**
 * Texts carrying the secrets the way real gaxios / google-auth-library errors carry them, each with its exact scrubbed form. Every one must be
 * scrubbed: `[raw, scrubbed]`.
 */
export const EMBEDDINGS: Readonly<Record<string, readonly [string, string]>> = {
  'API key in ?key=': [
    `https://sheets.googleapis.com/v4/spreadsheets/1AbC/values/A1?key=${SECRET.apiKey}&alt=json`,
    'https://sheets.googleapis.com/v4/spreadsheets/1AbC/values/A1?key=[REDACTED]&alt=json',
  ],
  'access_token= query': [`https://www.googleapis.com/drive/v3/files?fields=id&access_token=${SECRET.accessToken}`, 'https://www.googleapis.com/drive/v3/files?fields=id&access_token=[REDACTED]'],
  'refresh_token= query': [`https://oauth2.googleapis.com/token?refresh_token=${SECRET.refreshToken}`, 'https://oauth2.googleapis.com/token?refresh_token=[REDACTED]'],
  'token= query': [`https://oauth2.googleapis.com/revoke?token=${SECRET.opaqueToken}`, 'https://oauth2.googleapis.com/revoke?token=[REDACTED]'],
  'client_secret= query': [
    `https://oauth2.googleapis.com/token?client_id=123.apps.googleusercontent.com&client_secret=${SECRET.clientSecret}`,
    'https://oauth2.googleapis.com/token?client_id=123.apps.googleusercontent.com&client_secret=[REDACTED]',
  ],
  'form body with client_secret and 1// refresh token': [
    `grant_type=refresh_token&client_id=123.apps&client_secret=${SECRET.clientSecret}&refresh_token=${SECRET.refreshToken}`,
    'grant_type=refresh_token&client_id=123.apps&client_secret=[REDACTED]&refresh_token=[REDACTED]',
  ],
  'JSON body with client_secret and refresh_token': [
    `{"grant_type":"refresh_token","client_secret":"${SECRET.clientSecret}","refresh_token":"${SECRET.refreshToken}"}`,
    '{"grant_type":"refresh_token","client_secret":"[REDACTED]","refresh_token":"[REDACTED]"}',
  ],
  'JSON token response (access_token, id_token JWT)': [
    `{"access_token":"${SECRET.accessToken}","id_token":"${SECRET.jwt}","token_type":"Bearer"}`,
    '{"access_token":"[REDACTED]","id_token":"[REDACTED]","token_type":"Bearer"}',
  ],
  'x-goog-api-key header line': [`x-goog-api-key: ${SECRET.apiKey}`, 'x-goog-api-key: [REDACTED]'],
  'x-goog-api-key JSON header': [`{"content-type":"application/json","x-goog-api-key":"${SECRET.apiKey}"}`, '{"content-type":"application/json","x-goog-api-key":"[REDACTED]"}'],
  'Authorization: Bearer ya29.': [`Authorization: Bearer ${SECRET.accessToken}`, 'Authorization: [REDACTED]'],
  'Authorization: Bearer <opaque>': [`Authorization: Bearer ${SECRET.opaqueBearer}`, 'Authorization: [REDACTED]'],
  'authorization JSON header, opaque bearer': [`{"authorization":"Bearer ${SECRET.opaqueBearer}"}`, '{"authorization":"[REDACTED]"}'],
  'Authorization: Basic': [`Authorization: Basic ${SECRET.basic}`, 'Authorization: [REDACTED]'],
  'bare Bearer credential': [`sent Bearer ${SECRET.opaqueBearer} upstream`, 'sent Bearer [REDACTED] upstream'],
  'bare JWT assertion': [`assertion rejected: ${SECRET.jwt}`, 'assertion rejected: [REDACTED]'],
  'bare ya29. token': [`token ${SECRET.accessToken} expired`, 'token [REDACTED] expired'],
  'bare 1// refresh token': [`refresh with ${SECRET.refreshToken} failed`, 'refresh with [REDACTED] failed'],
  'bare AIza key': [`key ${SECRET.apiKey} is restricted`, 'key [REDACTED] is restricted'],
  'util.inspect Headers (x-goog-api-key, authorization)': [
    `Headers { 'x-goog-api-key': '${SECRET.apiKey}', authorization: 'Bearer ${SECRET.opaqueBearer}' }`,
    "Headers { 'x-goog-api-key': '[REDACTED]', authorization: '[REDACTED]' }",
  ],
};

/** A PEM private key block as text, and as a JSON string holds it (`\n` escaped). */
const PEM = `-----BEGIN PRIVATE KEY-----\n${PEM_BODY.join('\n')}\n-----END PRIVATE KEY-----\n`;
const PEM_JSON = JSON.stringify(PEM).slice(1, -1);

/** AWS's canonical request for a signed call made with a session token, as its signature errors quote it. */
const CANONICAL_REQUEST = [
  'GET',
  '/2015-03-31/functions/report/configuration',
  '',
  'host:lambda.us-east-1.amazonaws.com',
  'x-amz-date:20260101T000000Z',
  `x-amz-security-token:${FORM.sessionToken}`,
  '',
  'host;x-amz-date;x-amz-security-token',
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
].join('\n');

/** The scrubbed canonical request. */
const CANONICAL_REQUEST_SCRUBBED = CANONICAL_REQUEST.replace(FORM.sessionToken, '[REDACTED]');

/** The AWS SigV4 `Authorization` header value. */
const AWS_AUTHORIZATION = `AWS4-HMAC-SHA256 Credential=${FORM.accessKeyId}/20260101/us-east-1/lambda/aws4_request, SignedHeaders=host;x-amz-date;x-amz-security-token, Signature=${FORM.signature}`;

/**
 * Texts carrying the other forms as clients and services put them into errors, each with its exact scrubbed form:
 * `[raw, scrubbed]`. Ordinary words around them stay.
 */
export const FORM_EMBEDDINGS: Readonly<Record<string, readonly [string, string]>> = {
  'AWS InvalidSignatureException: canonical request with x-amz-security-token': [
    `The request signature we calculated does not match the signature you provided. The Canonical String for this request should have been\n'${CANONICAL_REQUEST}'\n`,
    `The request signature we calculated does not match the signature you provided. The Canonical String for this request should have been\n'${CANONICAL_REQUEST_SCRUBBED}'\n`,
  ],
  // Folded onto one line, the payload's hash (64 hex digits) follows `x-amz-security-token` as a token would: the context
  // rule takes it for one. Harmless (a hash of the body is no credential), and on separate lines it stays.
  'canonical request on one line (whitespace folded)': [
    CANONICAL_REQUEST.replace(/\n+/g, ' '),
    CANONICAL_REQUEST_SCRUBBED.replace(/\n+/g, ' ').replace(/(x-amz-security-token) [0-9a-f]{64}/, '$1 [REDACTED]'),
  ],
  'canonical request JSON-escaped': [JSON.stringify({ message: CANONICAL_REQUEST }), JSON.stringify({ message: CANONICAL_REQUEST_SCRUBBED })],
  'x-amz-security-token header line': [`X-Amz-Security-Token: ${FORM.sessionToken}\nHost: lambda`, 'X-Amz-Security-Token: [REDACTED]\nHost: lambda'],
  'authorization: AWS4-HMAC-SHA256 line': [`authorization: ${AWS_AUTHORIZATION}`, 'authorization: [REDACTED], SignedHeaders=host;x-amz-date;x-amz-security-token, Signature=[REDACTED]'],
  'bare SigV4 Credential= and Signature=': [`sent Credential=${FORM.accessKeyId}/20260101/us-east-1/s3/aws4_request, Signature=${FORM.signature}`, 'sent Credential=[REDACTED], Signature=[REDACTED]'],
  'S3 SignatureDoesNotMatch XML': [
    `<Error><Code>SignatureDoesNotMatch</Code><AWSAccessKeyId>${FORM.accessKeyId}</AWSAccessKeyId><SignatureProvided>${FORM.signature}</SignatureProvided><CanonicalRequestBytes>${Buffer.from(CANONICAL_REQUEST).toString('hex').replace(/(..)/g, '$1 ').trim()}</CanonicalRequestBytes></Error>`,
    '<Error><Code>SignatureDoesNotMatch</Code><AWSAccessKeyId>[REDACTED]</AWSAccessKeyId><SignatureProvided>[REDACTED]</SignatureProvided><CanonicalRequestBytes>[REDACTED]</CanonicalRequestBytes></Error>',
  ],
  'AWS credentials object (util.inspect)': [
    `{ accessKeyId: '${FORM.accessKeyId}', secretAccessKey: '${FORM.secretAccessKey}', sessionToken: '${FORM.sessionToken}' }`,
    "{ accessKeyId: '[REDACTED]', secretAccessKey: '[REDACTED]', sessionToken: '[REDACTED]' }",
  ],
  'AWS shared credentials file lines': [
    `aws_secret_access_key=${FORM.secretAccessKey}\naws_session_token=${FORM.sessionToken}`,
    'aws_secret_access_key=[REDACTED]\naws_session_token=[REDACTED]',
  ],
  'x-api-key header line': [`x-api-key: ${FORM.apiKeyHeader}`, 'x-api-key: [REDACTED]'],
  'api-key header line (Azure OpenAI)': [`api-key:${FORM.apiKeyHeader}\naccept: */*`, 'api-key:[REDACTED]\naccept: */*'],
  'x-auth-token and private-token header lines': [
    `X-Auth-Token: ${FORM.authToken}\nPRIVATE-TOKEN: ${FORM.gitlab}`,
    'X-Auth-Token: [REDACTED]\nPRIVATE-TOKEN: [REDACTED]',
  ],
  'cookie and set-cookie header lines': [`cookie: session=${FORM.cookie}; theme=dark\nset-cookie: sid=${FORM.cookie}; Path=/; HttpOnly`, 'cookie: [REDACTED]\nset-cookie: [REDACTED]'],
  'OpenAI half-masked key sk-ab***...wxyz': [`Incorrect API key provided: ${FORM.maskedOpenai}. You can find your API key at https://platform.openai.com/account/api-keys.`, 'Incorrect API key provided: [REDACTED]. You can find your API key at https://platform.openai.com/account/api-keys.'],
  'OpenAI half-masked project key': [`Incorrect API key provided: ${FORM.maskedProject}.`, 'Incorrect API key provided: [REDACTED].'],
  'Stripe half-masked key': [`Invalid API Key provided: ${FORM.maskedStripe}`, 'Invalid API Key provided: [REDACTED]'],
  'tail-only masked key': [`key ending ${FORM.maskedTail} was revoked`, 'key ending [REDACTED] was revoked'],
  'bullet-masked key': [`The key ${FORM.maskedBullets} is invalid`, 'The key [REDACTED] is invalid'],
  'URL with user and password': [`connect to https://deploy:${FORM.basicPassword}@git.example.test/org/repo.git failed`, 'connect to https://[REDACTED]@git.example.test/org/repo.git failed'],
  'URL with a token and no user': [`fetch https://:${FORM.userToken}@github.com/org/repo.git`, 'fetch https://[REDACTED]@github.com/org/repo.git'],
  'PEM private key block': [`could not parse key ${PEM}after that`, 'could not parse key [REDACTED]\nafter that'],
  'PEM private key cut off before END': [`key: -----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY[0]}\n${PEM_BODY[1]}`, 'key: [REDACTED]'],
  'PEM JSON-escaped in text': [`bad credentials file: ${PEM_JSON}`, 'bad credentials file: [REDACTED]\\n'],
  'service account JSON (private_key, client_secret)': [
    `{"type":"service_account","project_id":"p","private_key_id":"k1","private_key":"${PEM_JSON}","client_email":"svc@p.iam.gserviceaccount.com","client_secret":"${FORM.clientSecret}"}`,
    '{"type":"service_account","project_id":"p","private_key_id":"k1","private_key":"[REDACTED]","client_email":"svc@p.iam.gserviceaccount.com","client_secret":"[REDACTED]"}',
  ],
  'service account JSON cut off inside private_key': [`{"type":"service_account","private_key":"-----BEGIN PRIVATE KEY-----\\n${PEM_BODY[0]}\\n${PEM_BODY[1]}`, '{"type":"service_account","private_key":"[REDACTED]'],
  'Azure storage connection string': [
    `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${FORM.accountKey};EndpointSuffix=core.windows.net`,
    'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=[REDACTED];EndpointSuffix=core.windows.net',
  ],
  'scanner token formats, bare': [
    [FORM.gitlab, FORM.npm, FORM.huggingFace, FORM.stripeWebhook, FORM.slackApp, FORM.anthropic, FORM.linear, FORM.shopify, FORM.sendGrid, FORM.twilio, FORM.databricks, FORM.doppler, FORM.pypi, FORM.digitalOcean, FORM.postman, FORM.atlassian, FORM.groq, FORM.vault]
      .map((token, i) => `token ${i}: ${token};`)
      .join(' '),
    Array.from({ length: 18 }, (_, i) => `token ${i}: [REDACTED];`).join(' '),
  ],
  'Azure AD client secret, bare in an AADSTS text': [
    `AADSTS7000215: Invalid client secret provided. Secret ${FORM.azureAdSecret} was sent for app 00000000.`,
    'AADSTS7000215: Invalid client secret provided. Secret [REDACTED] was sent for app 00000000.',
  ],
  'Azure AD client secret in a token request body': [
    `grant_type=client_credentials&client_id=11111111-2222&client_secret=${FORM.azureAdSecret}&scope=https%3A%2F%2Fgraph.microsoft.com%2F.default`,
    'grant_type=client_credentials&client_id=11111111-2222&client_secret=[REDACTED]&scope=https%3A%2F%2Fgraph.microsoft.com%2F.default',
  ],
  'Azure AD client secret in util.inspect form': [`{ clientId: 'app', clientSecret: '${FORM.azureAdSecret}' }`, "{ clientId: 'app', clientSecret: '[REDACTED]' }"],
  'scanner token in a JSON error body': [`{"error":"invalid token","detail":"the token ${FORM.npm} was revoked"}`, '{"error":"invalid token","detail":"the token [REDACTED] was revoked"}'],
  'unknown-prefix token quoted by a 401': [`401 Unauthorized: token ${FORM.unknownPrefixToken} is invalid`, '401 Unauthorized: token [REDACTED] is invalid'],
  '32-hex key after "Invalid API key:"': [`Invalid API key: ${FORM.hexApiKey}. Check the dashboard.`, 'Invalid API key: [REDACTED]. Check the dashboard.'],
  'credential in free text': [`authentication failed with credential ${FORM.freeCredential}`, 'authentication failed with credential [REDACTED]'],
  'in-house token two words after "access"': [`the access token ${FORM.inHouseToken} is expired (issued 2026-01-01)`, 'the access token [REDACTED] is expired (issued 2026-01-01)'],
  'token a few words after its word, quoted': [`token for user svc-reports: '${FORM.unknownPrefixToken}', rejected`, "token for user svc-reports: '[REDACTED]', rejected"],
  'camelCase JSON key of no known name': [`{"error":"unauthorized","apiToken":"${FORM.camelJsonToken}"}`, '{"error":"unauthorized","apiToken":"[REDACTED]"}'],
  'header line of no known name': [`X-Acme-Token: ${FORM.camelJsonToken}\nAccept: */*`, 'X-Acme-Token: [REDACTED]\nAccept: */*'],
  'environment variable of no known name': [`OPENAI_COMPAT_API_KEY=${FORM.freeCredential} (from .env)`, 'OPENAI_COMPAT_API_KEY=[REDACTED] (from .env)'],
  'password after a few words, then punctuation': [`password for svc: ${FORM.freeCredential}; rotate it`, 'password for svc: [REDACTED]; rotate it'],
  'UUID after "API key"': [`API key ${FORM.uuidKey} was revoked`, 'API key [REDACTED] was revoked'],
};

/** Ordinary error texts and stack frames that hold no credential: unchanged by scrubbing. */
export const ORDINARY_TEXTS: readonly string[] = [
  'key not found',
  'token expired',
  'Sheet name must not be empty',
  'The API key is missing. Set OPENAI_API_KEY.',
  'Invalid token: the session has expired, sign in again',
  'Cookie consent required before continuing',
  '*** WARNING *** disk almost full',
  'glob src/**/*.ts matched nothing',
  'Function not found: arn:aws:lambda:us-east-1:123456789012:function:missing',
  'ValidationException: 1 validation error detected at skip_private_key_check',
  '    at Object.<anonymous> (/srv/app/node_modules/@aws-sdk/client-lambda/dist-cjs/index.js:1042:23)',
  '    at async Promise.all (index 0) [as task_queues] (node:internal/process/task_queues:95:5)',
  'SK-1234 is not a valid SKU; skipped 3 rows in sheet "Q1 results"',
  // Next to a context word, but no credential: a word, a name, an id of words and numbers, a file name, a placeholder.
  'token is expired',
  'invalid_grant: Token has been expired or revoked.',
  'authorization failed for user service-account-main',
  'API key not valid for project my-project-123456. Please pass a valid API key.',
  'Secret projects/123/secrets/db-pass/versions/3 not found',
  'could not read key file /srv/app/keys/service-account-8f3a2b1c9d.json',
  'refresh token expired; sign in again',
  'Bearer token missing',
  'Basic auth is not allowed here',
  'Authorization: Bearer <token>',
  'set Authorization: Bearer ${TOKEN} in the request',
  'x-api-key: YOUR_API_KEY',
  '{"password":"changeme","token":"{{token}}","api_key":"<YOUR_API_KEY>"}',
  'token=xxxx&key=***',
  'tokens_used 8f3a2b1c9d7e6f5a4b3c exceeded the quota',
  '    at getAccessToken (/srv/app/dist/chunk-8f3a2b1c9d.mjs:1:2)',
  // A UUID-like request id next to no context word.
  'request 123e4567-e89b-12d3-a456-426614174000 failed: duplicate idempotency',
  // A token split from its word by a line break.
  'token\ne4d909c290d0fb1ca068ffaddf22cbd0 (the next line)',
];

/**
 * Texts carrying secrets in util.inspect form with values of no recognisable shape: google-auth-library 10/11 refresh
 * bodies (URLSearchParams) are shown in clear by console.error / util.inspect. Scrubbed since FINDING 5 of
 * findings.test.ts.
 */
export const INSPECT_EMBEDDINGS: Readonly<Record<string, string>> = {
  'util.inspect URLSearchParams body': `URLSearchParams { 'grant_type' => 'refresh_token', 'client_secret' => '${SECRET.clientSecret}', 'refresh_token' => '${SECRET.refreshToken}' }`,
  'util.inspect object with client_secret': `{ client_id: '123.apps', client_secret: '${SECRET.clientSecret}' }`,
  'util.inspect object with token': `{ token: '${SECRET.opaqueToken}' }`,
};

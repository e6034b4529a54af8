/**
 * The secret shapes that real Google API and OAuth error texts carry, as they stand in those texts: API keys in
 * `?key=`, `ya29.` access tokens, `1//` refresh tokens in bodies, `x-goog-api-key` headers, client secrets, JWTs,
 * Authorization headers, `access_token=` / `refresh_token=` / `token=` queries. The values are fake but shaped like
 * the real ones; each carries `Dq3kF4ke` so that a leak of any part of it is found.
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

/** The secret values that are credentials (every one of them). */
export const SECRET_VALUES: readonly string[] = Object.values(SECRET);

/** A 12-character window of some secret found in `text`, or undefined: a partial leak counts. */
export function leakIn(text: string): string | undefined {
  for (const secret of SECRET_VALUES) {
    for (let i = 0; i + 12 <= secret.length; i += 1) {
      const window = secret.slice(i, i + 12);
      if (text.includes(window)) return window;
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

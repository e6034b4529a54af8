/**
 * Scrubbing by context, placeholders and the punctuation around a secret: unit tables of what is redacted and what
 * stays, with the thresholds of the context rule at their edges.
 */
import { describe, expect, it } from 'vitest';
import { scrubSecrets } from '../src/index.js';
import { applySecretPatterns } from '../src/scrub.js';
import { EMBEDDINGS, FORM_EMBEDDINGS, INSPECT_EMBEDDINGS, ORDINARY_TEXTS } from './security/secrets.js';

/** A random-looking token of no known prefix (20 letters and digits). */
const TOKEN = 'zq81Hf03KkaP2mLx9Qe7';
/** A 32-hex-digit key. */
const HEX = '9f86d081884c7d659a2feaa0c55ad015';

describe('the context rule: a random-looking token next to a context word', () => {
  it.each([
    // the trials' texts
    ['401 Unauthorized: token acme_pat_9F8e7D6c5B4a3928170 is invalid', '401 Unauthorized: token [REDACTED] is invalid'],
    [`Invalid API key: ${HEX}`, 'Invalid API key: [REDACTED]'],
    [`authentication failed with credential ${TOKEN}`, 'authentication failed with credential [REDACTED]'],
    ['the access token QmFzZTY0U3RyaW5nV2l0aE51bWJlcnMxMjM is expired', 'the access token [REDACTED] is expired'],
    // each context word, and its obvious forms
    [`key ${TOKEN}`, 'key [REDACTED]'],
    [`keys ${TOKEN}, ${HEX}`, 'keys [REDACTED], 9f86d081884c7d659a2feaa0c55ad015'],
    [`secret ${TOKEN}`, 'secret [REDACTED]'],
    [`password: ${TOKEN}`, 'password: [REDACTED]'],
    [`passwd ${TOKEN}`, 'passwd [REDACTED]'],
    [`authorization ${TOKEN}`, 'authorization [REDACTED]'],
    [`credentials ${TOKEN}`, 'credentials [REDACTED]'],
    [`bearer token ${TOKEN}`, 'bearer token [REDACTED]'],
    [`API Key ${TOKEN}`, 'API Key [REDACTED]'],
    [`apikey=${TOKEN}`, 'apikey=[REDACTED]'],
    [`APIKEY=${TOKEN}`, 'APIKEY=[REDACTED]'],
    [`accesstoken: ${TOKEN}`, 'accesstoken: [REDACTED]'],
    [`apiKey: ${TOKEN}`, 'apiKey: [REDACTED]'],
    [`githubToken=${TOKEN}`, 'githubToken=[REDACTED]'],
    [`OPENAI_COMPAT_API_KEY=${TOKEN}`, 'OPENAI_COMPAT_API_KEY=[REDACTED]'],
    [`process.env.ACME_TOKEN = '${TOKEN}'`, "process.env.ACME_TOKEN = '[REDACTED]'"],
    [`X-Acme-Key: ${TOKEN}`, 'X-Acme-Key: [REDACTED]'],
    [`{"svcSecret":"${TOKEN}"}`, '{"svcSecret":"[REDACTED]"}'],
    [`token := ${TOKEN}`, 'token := [REDACTED]'],
    [`{ clientPassword => "${TOKEN}" }`, '{ clientPassword => "[REDACTED]" }'],
    // up to three words between, quoted or in parentheses
    [`token for user bob: ${TOKEN}`, 'token for user bob: [REDACTED]'],
    [`API key provided: ${HEX}.`, 'API key provided: [REDACTED].'],
    [`the token "${TOKEN}" was revoked`, 'the token "[REDACTED]" was revoked'],
    [`rejected key (${TOKEN})`, 'rejected key ([REDACTED])'],
    [`token \`${TOKEN}\``, 'token `[REDACTED]`'],
    // a UUID next to a context word is taken for a key (services issue UUIDs as API keys)
    ['API key 123e4567-e89b-12d3-a456-426614174000 was revoked', 'API key [REDACTED] was revoked'],
    // the edges: 16 characters, a run of 8 letters and digits mixing both, 2.5 bits per character
    ['token Zq81Hf03KkaP2mLx', 'token [REDACTED]'],
    ['token abcdefg1-hijklmno-pqrs', 'token [REDACTED]'],
    ['token 0123456789abcdef', 'token [REDACTED]'],
  ])('%j -> %j', (input, output) => {
    expect(scrubSecrets(input)).toBe(output);
    expect(applySecretPatterns(input)).toBe(output);
  });

  it.each([
    // no credential after the word
    'token is expired',
    'invalid_grant',
    'authorization failed for user service-account-main',
    'refresh token expired',
    'access token missing from the request',
    'The API key is missing. Set OPENAI_API_KEY.',
    // names, ids and paths of words and numbers, file names
    'API key not valid for project my-project-123456',
    'secret projects/123/secrets/db-pass/versions/3 not found',
    'could not read key file service-account-8f3a2b1c9d.json',
    'key /srv/app/keys/prod-8f3a2b1c9d7e.pem is unreadable',
    '    at getAccessToken (/srv/app/dist/chunk-8f3a2b1c9d.mjs:1:2)',
    // a random-looking value next to no context word, or a word that only holds one
    'request 123e4567-e89b-12d3-a456-426614174000 failed',
    `monkey ${TOKEN}`,
    `keyboard ${TOKEN}`,
    `tokens_used ${TOKEN}`,
    `token-based ${TOKEN}`,
    `key.pem ${TOKEN}`,
    // too far: four words between, or a line break
    `token for the user bob ${TOKEN}`,
    `token\n${TOKEN}`,
    // the edges: 15 characters, runs of 7, 2.5 bits per character not reached, letters only, digits only
    'token Zq81Hf03KkaP2mL',
    'token abcdef1-hijklm2-opqrst3',
    'token a1a1a1a1a1a1a1a1a1a1',
    'token AbcdEfghIjklMnopQrstUvwx',
    'token 12345678901234567890',
    // a placeholder
    'token YOUR_API_KEY_HERE',
    'token xxxxxxxxxxxxxxxxxxxx',
  ])('%j stays', (text) => {
    expect(scrubSecrets(text)).toBe(text);
    expect(applySecretPatterns(text)).toBe(text);
  });
});

describe('placeholders stay as they are, in every value pattern', () => {
  const placeholders = ['<token>', '<YOUR_API_KEY>', 'YOUR_API_KEY', 'xxxx', 'XXXXXXXX', '${TOKEN}', '{{token}}', '{{ token }}', '...', '***', '[REDACTED]', 'your-token-here', 'changeme'];
  const forms = [
    (p: string) => `Authorization: Bearer ${p}`,
    (p: string) => `Authorization: ${p}`,
    (p: string) => `authorization: Basic ${p}`,
    (p: string) => `{"authorization":"Bearer ${p}"}`,
    (p: string) => `x-api-key: ${p}`,
    (p: string) => `X-Auth-Token: ${p}`,
    (p: string) => `curl -H "x-goog-api-key: ${p}"`,
    (p: string) => `sent Bearer ${p} upstream`,
    (p: string) => `https://api.test/v1?key=${p}&alt=json`,
    (p: string) => `password=${p}`,
    (p: string) => `{"token":"${p}"}`,
    (p: string) => `{ client_secret: '${p}' }`,
    (p: string) => `token ${p}`,
  ];
  for (const placeholder of placeholders) {
    it(`${placeholder}`, () => {
      for (const form of forms) {
        // A header's `Bearer [REDACTED]` (as the context rule leaves it) is a header's value, which becomes `[REDACTED]`.
        const expected = placeholder === '[REDACTED]' ? form(placeholder).replace(/(authorization"?:\s?"?)(?:Bearer|Basic) /i, '$1') : form(placeholder);
        expect(scrubSecrets(form(placeholder)), form(placeholder)).toBe(expected);
      }
    });
  }

  it('a value that only starts like a placeholder is redacted', () => {
    expect(scrubSecrets('Authorization: Bearer <token> abc123')).toBe('Authorization: Bearer <token> abc123');
    expect(scrubSecrets('x-api-key: your-key-9f86d0')).toBe('x-api-key: [REDACTED]');
    expect(scrubSecrets('password=changeme2')).toBe('password=[REDACTED]');
    expect(scrubSecrets('token=xxxx1234')).toBe('token=[REDACTED]');
    expect(scrubSecrets('Bearer YOUR_TOKEN_1234')).toBe('Bearer [REDACTED]');
  });

  it('an empty value stays; a lower-case word after Bearer or Basic is a word', () => {
    expect(scrubSecrets('{"token":""}')).toBe('{"token":""}');
    expect(scrubSecrets('Bearer token required; Basic auth refused')).toBe('Bearer token required; Basic auth refused');
    expect(scrubSecrets('Bearer abcdefgh1')).toBe('Bearer [REDACTED]');
    expect(scrubSecrets('Basic dXNlcjpwYXNz')).toBe('Basic [REDACTED]');
  });
});

describe('the punctuation after a secret stays', () => {
  const punctuation = ['.', ',', ';', ')', ':', '"', "'", '. Next', ': next'];
  const secrets: [string, (after: string) => string, string][] = [
    ['key=value', (after) => `(token=abc123XYZsecret${after}`, '(token=[REDACTED]'],
    ['header line', (after) => `(Authorization: Bearer abc.def-123${after}`, '(Authorization: [REDACTED]'],
    ['token header', (after) => `(x-auth-token: atk-9f86d081${after}`, '(x-auth-token: [REDACTED]'],
    ['Bearer', (after) => `(sent Bearer abcdef0123456789${after}`, '(sent Bearer [REDACTED]'],
    ['ya29. token', (after) => `(got ya29.a0AfH6SMBx-secret_value${after}`, '(got [REDACTED]'],
    ['1// refresh token', (after) => `(got 1//0eAbCdEfGhIjKlMnOp-secret${after}`, '(got [REDACTED]'],
    ['JWT', (after) => `(jwt eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.c2lnbmF0dXJl${after}`, '(jwt [REDACTED]'],
    ['half-masked key', (after) => `(key sk-ab***...wxyz${after}`, '(key [REDACTED]'],
    ['Azure AD secret', (after) => `(secret zR78Q~Dq3kF4ke.xT2vW_nM9pL0~cR5sK-uY7hJ6g${after}`, '(secret [REDACTED]'],
    ['context rule', (after) => `(token acme_pat_9F8e7D6c5B4a3928170${after}`, '(token [REDACTED]'],
  ];
  for (const [name, text, scrubbed] of secrets) {
    it(name, () => {
      // A header line's value runs to the end of its line (`Basic` and AWS4 values hold spaces): it keeps the
      // punctuation that ends the line.
      for (const after of name === 'header line' ? punctuation.filter((p) => !p.includes(' ')) : punctuation) {
        expect(scrubSecrets(text(after)), JSON.stringify(text(after))).toBe(`${scrubbed}${after}`);
      }
    });
  }

  it('the trials\' text: token=abc: next keeps its colon', () => {
    expect(scrubSecrets('token=abc: next')).toBe('token=[REDACTED]: next');
    expect(scrubSecrets('token=abc123XYZsecret: next')).toBe('token=[REDACTED]: next');
  });

  it('a half-masked key keeps the ellipsis that ends the sentence, and takes the one inside the mask', () => {
    expect(scrubSecrets('The key sk-ab***... was revoked')).toBe('The key [REDACTED]... was revoked');
    expect(scrubSecrets('The key sk-ab***...wxyz was revoked')).toBe('The key [REDACTED] was revoked');
  });
});

describe('scrubbing twice changes nothing', () => {
  it('every embedded secret and every ordinary text', () => {
    const texts = [...Object.values({ ...EMBEDDINGS, ...FORM_EMBEDDINGS }).map(([raw]) => raw), ...Object.values(INSPECT_EMBEDDINGS), ...ORDINARY_TEXTS];
    for (const text of texts) {
      const once = scrubSecrets(text);
      expect(scrubSecrets(once), JSON.stringify(text)).toBe(once);
    }
  });
});

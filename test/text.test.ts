import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scrubSecrets } from '../src/index.js';
import { applySecretPatterns, quoteForLog, safeText } from '../src/scrub.js';
import { boundLength } from '../src/text.js';

const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ';

describe('scrubSecrets', () => {
  it.each([
    ['Authorization: Bearer abc.def-123', 'Authorization: [REDACTED]'],
    ['sent Bearer abcdef0123456789 to the API', 'sent Bearer [REDACTED] to the API'],
    ['token ya29.a0AfH6SMBx-secret_value here', 'token [REDACTED] here'],
    ['refresh 1//0eAbCdEfGhIjKlMnOp-secret', 'refresh [REDACTED]'],
    ['key AIzaSyA1234567890abcdefghijklmnopqrstu end', 'key [REDACTED] end'],
    [`jwt ${JWT} end`, 'jwt [REDACTED] end'],
    ['https://x.test/v1?key=abc&alt=json', 'https://x.test/v1?key=[REDACTED]&alt=json'],
    ['https://x.test/?access_token=abc&refresh_token=def', 'https://x.test/?access_token=[REDACTED]&refresh_token=[REDACTED]'],
    ['grant_type=refresh_token&client_secret=s3cret&token=t0k', 'grant_type=refresh_token&client_secret=[REDACTED]&token=[REDACTED]'],
    ['{"refresh_token":"1-2-3","x":1}', '{"refresh_token":"[REDACTED]","x":1}'],
    ['x-goog-api-key: plainkey123', 'x-goog-api-key: [REDACTED]'],
    ['https://user:pa55@db.test/x', 'https://[REDACTED]@db.test/x'],
  ])('scrubs %j', (input, output) => {
    expect(scrubSecrets(input)).toBe(output);
  });

  it('leaves ordinary text alone', () => {
    const text = 'The caller does not have permission (monkey=1, keyboard layout)';
    expect(scrubSecrets(text)).toBe(text);
  });
});

describe('bounds and quoting', () => {
  it('cuts long text with an ellipsis, never inside a surrogate pair', () => {
    expect(boundLength('abcdef', 4)).toBe('abc…');
    expect(boundLength('ab😀cd', 4)).toBe('ab…');
    expect(boundLength('abc', 4)).toBe('abc');
  });

  it('bounds a 10 MB message quickly and still scrubs a secret at the cut', () => {
    const text = `${'a'.repeat(90)}AIzaSyA1234567890abcdefghijklmnopqrstu${'b'.repeat(10_000_000)}`;
    const out = safeText(text, 100);
    expect(out).toHaveLength(100);
    expect(out).not.toContain('AIza');
  });

  it('quotes on one line: newlines, ANSI escapes, C1 controls and line separators escaped', () => {
    const quoted = quoteForLog('a\nb\u001b[31mred\u009b\u2028end', 200);
    expect(quoted).toBe('"a\\nb\\u001b[31mred\\u009b\\u2028end"');
    // eslint-disable-next-line no-control-regex
    expect(quoted).not.toMatch(/[\n\r\u001b\u009b\u2028]/);
  });

  it('replaces the text when a redactor throws, and applies one that works', () => {
    expect(safeText('customer 42', 100, () => { throw new Error('x'); })).toBe('[REDACTED]');
    expect(safeText('customer 42', 100, (t) => t.replace('42', '##'))).toBe('customer ##');
  });
});

describe('the scrubbing shortcut', () => {
  const fragments = [
    'Authorization', 'authorization', 'x-goog-api-key', 'Cookie', 'set-cookie', 'proxy-authorization', 'Bearer', 'Basic',
    'key', 'api_key', 'apikey', 'access_token', 'refresh_token', 'id_token', 'client_secret', 'token', 'password', 'passwd',
    'secret', 'assertion', 'code_verifier', 'GOCSPX-', 'eyJ', 'ya29.', '1//', 'AIza', 'https://', 'u:p@', '://',
    '=', ':', '=>', '"', "'", ' ', '\n', '.', '-', '_', '@', '/', '?', '&', 'abcDEF123', '0123456789abcdefghijkl',
    // the HTTP clients' shapes
    'sk-', 'sk_', 'sk_live_', 'rk_test_', 'sk-proj-', 'sk-ant-', 'xoxb-', 'xoxp-', 'xapp-', 'ghp_', 'gho_', 'github_pat_',
    'AKIA', 'ASIA', 'ntn_', 'secret_', 'x-api-key', 'sig', 'signature', 'X-Amz-Signature', 'X-Amz-Credential',
    'X-Amz-Security-Token', 'credential', 'ABCDEFGHIJKLMNOP', 'Z9',
    // header lines, masked keys, private keys, connection strings and the scanners' prefixed tokens
    'x-amz-security-token', 'x-auth-token', 'private-token', 'api-key', 'ocp-apim-subscription-key', 'x-shopify-access-token',
    '<SignatureProvided>', '<CanonicalRequestBytes>', '<StringToSignBytes>', '***', '•••', '...', '…', '*',
    '-----BEGIN ', 'RSA ', 'PRIVATE KEY', '-----', '-----END ', '\\n', 'private_key', 'AccountKey', 'secretAccessKey', 'sessionToken',
    'aws_session_token', 'glpat-', 'glc_', 'glsa_', 'gsk_', 'npm_', 'NRAK-', 'hf_', 'api_org_', 'hvs.', 'whsec_', 'lin_api_', 'shpat_',
    'SG.', 'SK', 'sq0atp-', 'sntrys_', 'sbp_', 'sb_secret_', 'dapi', 'dp.pt.', 'dop_v1_', 'pypi-AgE', 'PMAK-', 'pul-', 'pplx-',
    'ATATT3', 'AGE-SECRET-KEY-1', 'r8_', 'figd_', 'key-', 'xai-', 'xapp-', '0123456789abcdef0123456789abcdef',
    'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', '-----BEGIN PRIVATE KEY-----', '-----BEGIN PGP PRIVATE KEY BLOCK-----',
    // the context rule: its words in their forms, separators, random-looking tokens, placeholders
    'credentials', 'keys', 'KEY', 'Key', 'Token', 'TOKEN', 'apiKey', 'APIKEY', 'accesstoken', 'OPENAI_API_KEY', 'process.env.', 'Bearer ', 'bearer',
    'Secret', 'PASSWORD', 'Authorization ', 'passwd', 'S', 's', '\t', '`', ':=', '(', ' is ', ' provided: ', ' for user ', 'zq81Hf03KkaP2mLx9Qe7',
    '9f86d081884c7d659a2feaa0c55ad015', 'acme_pat_9F8e7D6c5B4a3928170', '123e4567-e89b-12d3-a456-426614174000', 'QmFzZTY0U3RyaW5nV2l0aE51bWJlcnMxMjM',
    '<token>', '${TOKEN}', '{{token}}', 'YOUR_API_KEY', 'xxxx', 'changeme', '[REDACTED]', 'your-token-here',
  ];
  it('skips only texts in which no pattern could match', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...fragments), fc.string({ maxLength: 4 })), { maxLength: 24 }), (parts) => {
        const text = parts.join('');
        expect(scrubSecrets(text)).toBe(applySecretPatterns(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('skips no fragment followed by a token body, a separator or a mask (every pair, in either order)', () => {
    const bodies = [
      ' ', ':', '=', '"', '***', '0123456789abcdef0123456789abcdef', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
      ' zq81Hf03KkaP2mLx9Qe7', ': 9f86d081884c7d659a2feaa0c55ad015', 's\t"zq81Hf03KkaP2mLx9Qe7"', ' for user (zq81Hf03KkaP2mLx9Qe7)', '`: zq81Hf03KkaP2mLx9Qe7',
    ];
    for (const fragment of fragments) {
      for (const body of bodies) {
        for (const text of [`${fragment}${body}`, `${body}${fragment}`, `${fragment}${body}${body}`]) expect(scrubSecrets(text)).toBe(applySecretPatterns(text));
      }
    }
  });
});

/**
 * The secret shapes the HTTP entry added to the scrubber (src/scrub.ts) and the URL redactor's handling of AWS
 * pre-signed URLs (src/kit/url.ts), one by one (test/text.test.ts holds the scrubbing shortcut to the full patterns,
 * these shapes included).
 */
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/kit/url.js';
import { safeText, scrubSecrets } from '../../src/scrub.js';
import { serverTextLine } from '../../src/text.js';

describe('scrubSecrets: the HTTP clients’ key shapes', () => {
  it.each([
    ['stripe sk_live_51HqLyjWDarjtT1zdp7dcXYZ end', 'stripe [REDACTED] end'],
    ['stripe sk_test_4eC39HqLyjWDarjtT1zdp7dc end', 'stripe [REDACTED] end'],
    ['restricted rk_live_51HqLyjWDarjtT1zdp7dc end', 'restricted [REDACTED] end'],
    ['openai sk-proj-AbCdEf0123456789_abcdefGHIJ end', 'openai [REDACTED] end'],
    ['openai legacy sk-AbCdEf0123456789abcdefGHIJ end', 'openai legacy [REDACTED] end'],
    ['anthropic sk-ant-api03-AbCdEf0123456789-abcdef end', 'anthropic [REDACTED] end'],
    ['slack xoxb-1234567890-0987654321-AbCdEfGh end', 'slack [REDACTED] end'],
    ['slack xoxp-1234567890-abcdef end', 'slack [REDACTED] end'],
    ['github ghp_AbCdEf0123456789abcdefGHIJKLMNOPQRSTUV end', 'github [REDACTED] end'],
    ['github github_pat_11ABCDEFG0123456789_abcdefghijklmnop end', 'github [REDACTED] end'],
    ['aws AKIAIOSFODNN7EXAMPLE end', 'aws [REDACTED] end'],
    ['notion ntn_12345678901AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab end', 'notion [REDACTED] end'],
    ['notion secret_AbCdEf0123456789abcdefGHIJKLmnopqrstuvwxyz01234 end', 'notion [REDACTED] end'],
    ['x-api-key: sk-ant-short', 'x-api-key: [REDACTED]'],
    ['{"x-api-key":"anything-at-all"}', '{"x-api-key":"[REDACTED]"}'],
    [
      'https://b.s3.amazonaws.com/k?X-Amz-Credential=AKIA%2F2026&X-Amz-Security-Token=FwoGZX&X-Amz-Signature=fe5f80&x=1',
      'https://b.s3.amazonaws.com/k?X-Amz-Credential=[REDACTED]&X-Amz-Security-Token=[REDACTED]&X-Amz-Signature=[REDACTED]&x=1',
    ],
    ['https://acct.blob.core.windows.net/c/b?sv=2024&sig=AbC%2Bdef%3D', 'https://acct.blob.core.windows.net/c/b?sv=2024&sig=[REDACTED]'],
    // a key the service echoes masked goes whole: its visible head and tail are the key's own characters
    ['Incorrect API key provided: sk-proj-****1234.', 'Incorrect API key provided: [REDACTED].'],
  ])('scrubs %j', (input, output) => {
    expect(scrubSecrets(input)).toBe(output);
  });

  it('leaves the look-alikes alone: words, short ids', () => {
    for (const text of [
      'task-runner desk-lamp risk_live_value',
      'ghp_short and xoxb- alone',
      'Asia/Tokyo and the AKIA prefix alone',
      'client_secret_name ntn_short secret_key_base',
    ]) {
      expect(scrubSecrets(text)).toBe(text);
    }
  });
});

describe('a text cut before it is scrubbed', () => {
  const token = 'npm_Zx9Qw8Er7Ty6Ui5OpLmNbVc1Xz2Wq4Rt7Yu0';
  it('a service message cut at its bound (serverTextLine) loses the token the cut split, so no head of it is shown', () => {
    for (let at = 480; at <= 500; at += 1) {
      const line = serverTextLine(`${'word '.repeat(at / 5)}${'x'.repeat(at % 5)} ${token} and more text after it`, 500)!;
      const shown = scrubSecrets(line);
      expect(shown.length).toBeLessThanOrEqual(500);
      expect(line.endsWith('…')).toBe(true);
      for (let i = 0; i + 6 <= token.length; i += 1) expect(shown).not.toContain(token.slice(i, i + 6));
    }
  });

  it('safeText: secrets before the cut shrink to [REDACTED]; the head of one the cut split does not come within the bound', () => {
    const text = `${'AIzaSyA1234567890abcdefghijklmnop '.repeat(40)}${token}`;
    for (let max = 100; max <= 900; max += 7) {
      const shown = safeText(`${text.slice(0, max + 512 - 10)}${text.slice(-40)}${'tail '.repeat(300)}`, max);
      expect(shown).not.toContain('npm_Zx');
      expect(shown.endsWith('…')).toBe(true);
    }
  });
});

describe('redactUrl: AWS pre-signed and other signed URLs', () => {
  it('redacts X-Amz-Signature, X-Amz-Credential, X-Amz-Security-Token, sig and key; keeps the rest', () => {
    expect(
      redactUrl(
        'https://bucket.s3.us-east-1.amazonaws.com/report.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20260101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-Security-Token=FwoGZXIvYXdzEJr&X-Amz-SignedHeaders=host&X-Amz-Signature=fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024',
      ),
    ).toBe(
      'https://bucket.s3.us-east-1.amazonaws.com/report.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=[REDACTED]&X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-Security-Token=[REDACTED]&X-Amz-SignedHeaders=host&X-Amz-Signature=[REDACTED]',
    );
    expect(redactUrl('https://x.test/a?sig=abc&key=def&access_token=ghi&page=2')).toBe(
      'https://x.test/a?sig=[REDACTED]&key=[REDACTED]&access_token=[REDACTED]&page=2',
    );
  });
});

describe('the new secret shapes (the scrubbing shortcut is held to them in test/text.test.ts)', () => {
  // A guard against quadratic patterns, not a speed check (npm run bench measures speed): 400,000 characters take
  // milliseconds when linear and minutes when quadratic, so the 10 s bound does not fail by load.
  it('stays linear on long runs of token characters', () => {
    for (const prefix of ['sk-', 'sk_live_', 'xoxb-', 'ghp_', 'github_pat_', 'AKIA', 'ntn_', 'secret_', 'glpat-', 'npm_', 'hf_', 'SG.', 'dp.pt.', 'x-amz-security-token:', 'sk-ab***', '***', '-----BEGIN PRIVATE KEY-----', 'https://:']) {
      const text = `${prefix}${'a-'.repeat(200_000)}`;
      const started = performance.now();
      scrubSecrets(text);
      expect(performance.now() - started).toBeLessThan(10_000);
    }
    // runs of mask characters, with and without heads (a mask read from every one of its characters is quadratic)
    for (const text of ['*'.repeat(400_000), '•'.repeat(400_000), 'a*'.repeat(200_000), 'ab***'.repeat(80_000), '***...'.repeat(60_000)]) {
      const started = performance.now();
      scrubSecrets(text);
      expect(performance.now() - started).toBeLessThan(10_000);
    }
  });
});

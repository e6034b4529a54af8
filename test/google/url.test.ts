/**
 * redactUrl: credentials never survive, whatever the query looks like. clientUrl: no internal host reaches a client text;
 * a public one stays.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/google/index.js';
import { MAX_URL_LENGTH, clientUrl, isInternalHost } from '../../src/kit/url.js';

describe('redactUrl', () => {
  it('redacts key=, access_token=, token=, client_secret= and other credential parameters; keeps the rest', () => {
    const values = 'https://sheets.googleapis.com/v4/spreadsheets/abc/values/A1';
    expect(redactUrl(`${values}?key=AIzaSyFAKE&alt=json&access_token=ya29.x&token=t&client_secret=s&refresh_token=1//r&pageToken=p&fields=id#frag`)).toBe(
      `${values}?key=[REDACTED]&alt=json&access_token=[REDACTED]&token=[REDACTED]&client_secret=[REDACTED]&refresh_token=[REDACTED]&pageToken=[REDACTED]&fields=id`,
    );
  });

  it('drops user info and fragments', () => {
    expect(redactUrl('https://user:hunter2@example.com/path?q=1#access_token=ya29.x')).toBe('https://example.com/path?q=1');
  });

  it('matches parameter names case-insensitively and percent-decoded', () => {
    expect(redactUrl('https://x.test/p?KEY=a&Access%5FToken=b&X-Goog-Signature=c&api-key=d')).toBe(
      'https://x.test/p?KEY=[REDACTED]&Access%5FToken=[REDACTED]&X-Goog-Signature=[REDACTED]&api-key=[REDACTED]',
    );
  });

  it('keeps only the part before the query of text that is not a URL', () => {
    expect(redactUrl('/relative/path with space?key=AIzaSyFAKE')).toBe('/relative/path%20with%20space');
  });

  it('is bounded', () => {
    expect(redactUrl(`https://x.test/${'a'.repeat(5000)}`).length).toBeLessThanOrEqual(MAX_URL_LENGTH);
  });

  it('never lets the value of a credential parameter through (property)', () => {
    const names = fc.constantFrom('key', 'access_token', 'refresh_token', 'id_token', 'token', 'client_secret', 'api_key', 'pageToken');
    const value = fc.stringMatching(/^[A-Za-z0-9._~-]{12,40}$/);
    const other = fc.array(fc.tuple(fc.constantFrom('alt', 'fields', 'q', 'range'), fc.stringMatching(/^[a-z]{1,8}$/)), { maxLength: 4 });
    fc.assert(
      fc.property(names, value, other, other, (name, secret, before, after) => {
        const query = [...before.map(([k, v]) => `${k}=${v}`), `${name}=${secret}`, ...after.map(([k, v]) => `${k}=${v}`)].join('&');
        const out = redactUrl(`https://www.googleapis.com/drive/v3/files?${query}`);
        // Exactly the URL with the value replaced: the value is gone (a search for the random value could find it in the
        // fixed text, a parameter name such as client_secret say, and fail for nothing).
        expect(out).toBe(`https://www.googleapis.com/drive/v3/files?${query.replace(`${name}=${secret}`, `${name}=[REDACTED]`)}`);
      }),
    );
  });
});

describe('clientUrl and isInternalHost', () => {
  it.each([
    'http://127.0.0.1:8080/items/missing?api_key=[REDACTED]',
    'http://127.9.3.1/items/missing?api_key=[REDACTED]',
    'http://0.0.0.0:3000/items/missing?api_key=[REDACTED]',
    'http://10.1.2.3/items/missing?api_key=[REDACTED]',
    'http://172.16.0.1/items/missing?api_key=[REDACTED]',
    'http://172.31.255.255/items/missing?api_key=[REDACTED]',
    'http://192.168.1.20:9000/items/missing?api_key=[REDACTED]',
    'http://169.254.169.254/items/missing?api_key=[REDACTED]',
    'http://[::1]:8080/items/missing?api_key=[REDACTED]',
    'http://[fd12:3456:789a::1]/items/missing?api_key=[REDACTED]',
    'http://[fc00::7]/items/missing?api_key=[REDACTED]',
    'http://[fe80::1]/items/missing?api_key=[REDACTED]',
    'http://[::ffff:7f00:1]/items/missing?api_key=[REDACTED]',
    'http://localhost:3000/items/missing?api_key=[REDACTED]',
    'http://LOCALHOST./items/missing?api_key=[REDACTED]',
    'http://api.localhost/items/missing?api_key=[REDACTED]',
    'http://billing/items/missing?api_key=[REDACTED]',
    'http://api:8080/items/missing?api_key=[REDACTED]',
    'https://printer.local/items/missing?api_key=[REDACTED]',
    'http://orders.svc.internal/items/missing?api_key=[REDACTED]',
    'http://billing:notaport/items/missing?api_key=[REDACTED]',
  ])('%s: the path and query only', (url) => {
    expect(clientUrl(url)).toBe('/items/missing?api_key=[REDACTED]');
  });

  it('an internal host with nothing after it leaves the root path', () => {
    expect(clientUrl('http://billing')).toBe('/');
    expect(clientUrl(redactUrl('http://billing:8080?token=t'))).toBe('/?token=[REDACTED]');
  });

  it.each([
    'https://api.github.com/repos/o/r',
    'https://sheets.googleapis.com/v4/spreadsheets/abc?key=[REDACTED]',
    'http://8.8.8.8/dns',
    'http://172.32.0.1/x',
    'http://172.15.0.1/x',
    'http://11.0.0.1/x',
    'http://10.example.com/x',
    'http://[2606:4700:4700::1111]/x',
    'http://[fc::1]/x',
    '/items/relative',
    'items/relative',
  ])('%s: shown as it is', (url) => {
    expect(clientUrl(url)).toBe(url);
  });

  it('reads hosts as the URL parser writes them: numeric and hex IPv4 forms are loopback too', () => {
    expect(clientUrl(redactUrl('http://2130706433/a'))).toBe('/a');
    expect(clientUrl(redactUrl('http://0x7f.1/a'))).toBe('/a');
    expect(isInternalHost('api.example.com')).toBe(false);
    expect(isInternalHost('example')).toBe(true);
  });
});

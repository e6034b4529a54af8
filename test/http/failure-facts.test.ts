/**
 * The failure object's facts of the HTTP rules (src/http/failure.ts failureFacts), for the statuses and service
 * signals the end-to-end table (mcp.test.ts, stdio.test.ts) does not reach with a real library: 408, 410, 529, other
 * 4xx and 5xx, AWS's `$retryable`, a rate limit under 403, the rate-limit headers in each of their forms, an answer
 * that was not JSON, OpenAI's reset durations (also through the real openai 6 SDK against a local 429). The input is
 * otherwise the rules' own reading of an error (an HttpFailure), not an error object. Times are
 * counted from the `Date` header the input carries, so the delays are exact; only the test of the local clock (no
 * `Date`) asserts a range.
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { classifyError, coreRules, createErrorPolicy, type ErrorRule } from '../../src/index.js';
import { httpRules } from '../../src/http/index.js';
import { listenOnLoopback } from '../support/loopback.js';
import { httpFailureFacts as failureFacts } from '../../src/kit/http.js';
import { failureText, type HttpFailure } from '../../src/http/failure.js';
import { durationResetMs, rateLimitResetMs } from '../../src/http/headers.js';
import { retryAfterMsOf } from '../../src/kit/http.js';

const failure = (status: number, extra: Partial<HttpFailure> = {}): HttpFailure => ({ service: 'HTTP', status, ...extra });

describe('failureFacts', () => {
  it.each([
    [400, { code: 'invalid_request', retryable: false }],
    [401, { code: 'unauthorized', retryable: false }],
    [403, { code: 'permission_denied', retryable: false }],
    [404, { code: 'not_found', retryable: false }],
    [405, { code: 'invalid_request', retryable: false }],
    [408, { code: 'timeout', retryable: true }],
    [409, { code: 'conflict', retryable: false }],
    [410, { code: 'not_found', retryable: false }],
    [422, { code: 'invalid_request', retryable: false }],
    [429, { code: 'rate_limited', retryable: true }],
    [500, { code: 'server_error', retryable: true }],
    [502, { code: 'unavailable', retryable: true }],
    [503, { code: 'unavailable', retryable: true }],
    [504, { code: 'unavailable', retryable: true }],
    [529, { code: 'unavailable', retryable: true }],
  ])('status %i without a service code: %j', (status, facts) => {
    expect(failureFacts(failure(status))).toEqual(facts);
  });

  it('takes the service’s code, but not a server error’s (5xx: not shown in the text either)', () => {
    expect(failureFacts(failure(404, { code: 'object_not_found' }))).toEqual({ code: 'object_not_found', retryable: false });
    expect(failureFacts(failure(529, { code: 'overloaded_error' }))).toEqual({ code: 'unavailable', retryable: true });
    expect(failureFacts(failure(503, { code: 'service_unavailable' }))).toEqual({ code: 'unavailable', retryable: true });
    expect(failureFacts(failure(500, { code: 'api_error' }))).toEqual({ code: 'server_error', retryable: true });
  });

  it('keeps a delay only when retryable; a credential rejection is never retryable', () => {
    expect(failureFacts(failure(429, { retryAfterMs: 7000 }))).toEqual({ code: 'rate_limited', retryable: true, retryAfterMs: 7000 });
    expect(failureFacts(failure(403, { retryAfterMs: 7000 }))).toEqual({ code: 'permission_denied', retryable: false });
    expect(failureFacts(failure(403, { rejected: true, code: 'InvalidSignatureException', retryAfterMs: 7000 }))).toEqual({ code: 'InvalidSignatureException', retryable: false });
    expect(failureFacts(failure(400, { rejected: true }))).toEqual({ code: 'unauthorized', retryable: false });
  });

  it('reads throttling and the service’s retryable mark whatever the status (GitHub 403 rate limits, AWS $retryable)', () => {
    expect(failureFacts(failure(403, { throttled: true, retryAfterMs: 60_000 }))).toEqual({ code: 'rate_limited', retryable: true, retryAfterMs: 60_000 });
    expect(failureFacts(failure(400, { code: 'ThrottlingException', throttled: true, retryable: true }))).toEqual({ code: 'ThrottlingException', retryable: true });
    expect(failureFacts(failure(400, { code: 'IDPCommunicationErrorException', retryable: true }))).toEqual({ code: 'IDPCommunicationErrorException', retryable: true });
  });
});

describe('failureText with a delay', () => {
  /** The client text the policy makes of `f`: the rule's text, then the policy's retry note from the facts. */
  const shown = (f: HttpFailure): string => {
    const rule: ErrorRule = { name: 'http', predicate: (e) => e === f, message: () => failureText(f), failure: failureFacts(f) };
    const c = classifyError(f, createErrorPolicy({ rules: [rule], logger: () => undefined }));
    return c.kind === 'anticipated' ? c.message : c.kind;
  };

  it('ends with a sentence stop before the policy’s retry note; without a delay, as the service wrote it', () => {
    expect(shown(failure(503, { retryAfterMs: 30_000 }))).toBe('HTTP request failed with 503 Service Unavailable: The service failed to answer. Retry after 30 s.');
    // an upstream 5xx body is never shown, a 503's either
    expect(shown(failure(503, { retryAfterMs: 30_000, message: 'Down for maintenance!' }))).toBe('HTTP request failed with 503 Service Unavailable: The service failed to answer. Retry after 30 s.');
    expect(shown(failure(429, { retryAfterMs: 30_000, message: 'Slow down!' }))).toBe('HTTP request failed with 429 Too Many Requests: Slow down! Retry after 30 s.');
    expect(shown(failure(429))).toBe('HTTP request failed with 429 Too Many Requests');
    expect(shown(failure(403, { throttled: true, message: 'API rate limit exceeded', retryAfterMs: 1000 }))).toBe('HTTP request failed with 403 Forbidden: API rate limit exceeded. Retry after 1 s.');
  });
});

/** A response time, on a whole second, and headers that carry it as their `Date`. */
const SENT = Date.UTC(2026, 0, 1, 12, 0, 0);
const at = (extra: Record<string, string>): Headers => new Headers({ date: new Date(SENT).toUTCString(), ...extra });

describe('rate limits and retry delays from the headers, for every client', () => {
  it('reads the reset of a spent limit in each header form, counted from the response’s Date', () => {
    expect(rateLimitResetMs(at({ 'x-ratelimit-reset': String(SENT / 1000 + 120) }))).toBe(120_000);
    expect(rateLimitResetMs(at({ 'x-ratelimit-reset': `${SENT / 1000 + 1}.250` }))).toBe(1250);
    expect(rateLimitResetMs(at({ 'x-ratelimit-reset-ms': String(SENT + 2500) }))).toBe(2500);
    expect(rateLimitResetMs(at({ 'x-ratelimit-reset-ms': '2500' }))).toBe(2500);
    expect(rateLimitResetMs(at({ 'ratelimit-reset': '45' }))).toBe(45_000);
    // A delta written in x-ratelimit-reset (some services do): below September 2001 as an epoch time, it is one.
    expect(rateLimitResetMs(at({ 'x-ratelimit-reset': '30' }))).toBe(30_000);
    // The first header that holds a number wins: -ms, then seconds, then the IETF draft's.
    expect(rateLimitResetMs(at({ 'x-ratelimit-reset-ms': '900', 'x-ratelimit-reset': '30', 'ratelimit-reset': '45' }))).toBe(900);
    expect(rateLimitResetMs(at({ 'x-ratelimit-reset-ms': 'soon', 'ratelimit-reset': '45' }))).toBe(45_000);
  });

  it('is never negative, and says nothing for junk', () => {
    expect(rateLimitResetMs(at({ 'x-ratelimit-reset': String(SENT / 1000 - 600) }))).toBe(0);
    for (const junk of ['-5', '1e9', 'tomorrow', '', '12345678901234', 'Infinity']) {
      expect(rateLimitResetMs(at({ 'x-ratelimit-reset': junk }))).toBeUndefined();
    }
    expect(rateLimitResetMs(undefined)).toBeUndefined();
  });

  it('counts from the local clock when the response has no Date (or a junk one)', () => {
    const reset = String(Math.floor(Date.now() / 1000) + 3600);
    for (const headers of [new Headers({ 'x-ratelimit-reset': reset }), new Headers({ date: 'yesterday', 'x-ratelimit-reset': reset })]) {
      const delay = rateLimitResetMs(headers) ?? -1;
      // An hour on from a whole second, less the time the test has run since: a range, never exact.
      expect(delay > 3_500_000 && delay <= 3_600_000).toBe(true);
    }
  });

  it('reads Retry-After as an HTTP date from the response’s Date (not the local clock), and in seconds', () => {
    expect(retryAfterMsOf(at({ 'retry-after': new Date(SENT + 90_000).toUTCString() }))).toBe(90_000);
    expect(retryAfterMsOf(at({ 'retry-after': new Date(SENT - 90_000).toUTCString() }))).toBe(0);
    expect(retryAfterMsOf(at({ 'retry-after': '7' }))).toBe(7000);
    expect(retryAfterMsOf(at({ 'retry-after': 'Thu, 01 Jan 2026 12:01:30 GMT' }), SENT)).toBe(90_000);
  });

  it('takes a reset only for a rate limit: not for a 500, nor for a 503 whose limit is not spent', () => {
    const reset = at({ 'x-ratelimit-remaining': '12', 'x-ratelimit-reset': String(SENT / 1000 + 60) });
    expect(failureFacts(failure(500, { headers: reset }))).toEqual({ code: 'server_error', retryable: true });
    expect(failureFacts(failure(503, { headers: reset }))).toEqual({ code: 'unavailable', retryable: true });
    expect(failureFacts(failure(429, { headers: reset }))).toEqual({ code: 'rate_limited', retryable: true, retryAfterMs: 60_000 });
    // Retry-After comes before the reset; the service's own field before both.
    const both = at({ 'retry-after': '5', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(SENT / 1000 + 60) });
    expect(failureFacts(failure(429, { headers: both }))).toEqual({ code: 'rate_limited', retryable: true, retryAfterMs: 5000 });
    expect(failureFacts(failure(429, { headers: both, retryAfterMs: 1000 }))).toEqual({ code: 'rate_limited', retryable: true, retryAfterMs: 1000 });
  });

  it('reads a 403 as a rate limit when its headers or words say so, and only then', () => {
    const spent = at({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(SENT / 1000 + 120) });
    expect(failureFacts(failure(403, { headers: spent }))).toEqual({ code: 'rate_limited', retryable: true, retryAfterMs: 120_000 });
    expect(failureFacts(failure(403, { headers: at({ 'ratelimit-remaining': '0', 'ratelimit-reset': '45' }) }))).toEqual({ code: 'rate_limited', retryable: true, retryAfterMs: 45_000 });
    expect(failureFacts(failure(403, { headers: at({ 'retry-after': '60' }) }))).toEqual({ code: 'rate_limited', retryable: true, retryAfterMs: 60_000 });
    expect(failureFacts(failure(403, { message: 'API rate limit exceeded for installation ID 42.' }))).toEqual({ code: 'rate_limited', retryable: true });
    expect(failureFacts(failure(403, { code: 'rateLimitExceeded' }))).toEqual({ code: 'rateLimitExceeded', retryable: true });
    expect(failureFacts(failure(403, { code: 'ThrottlingException', headers: at({ 'x-ratelimit-reset-ms': '2500' }) }))).toEqual({ code: 'ThrottlingException', retryable: true, retryAfterMs: 2500 });
    // A 403 saying nothing of the sort stays a refusal, whatever reset its headers carry.
    for (const plain of [failure(403), failure(403, { headers: at({ 'x-ratelimit-remaining': '41', 'x-ratelimit-reset': '30' }) }), failure(403, { message: 'Resource not accessible by integration' })]) {
      expect(failureFacts(plain)).toEqual({ code: 'permission_denied', retryable: false });
    }
    expect(failureText(failure(403, { headers: spent, message: 'API rate limit exceeded.' }))).toBe('HTTP request failed with 403 Forbidden: API rate limit exceeded.');
  });

  it('bounds a far reset at a day in the failure object (the policy’s bound)', () => {
    const f = failure(429, { headers: at({ 'x-ratelimit-reset': String(SENT / 1000 + 30 * 86_400) }) });
    expect(failureFacts(f)).toEqual({ code: 'rate_limited', retryable: true, retryAfterMs: 30 * 86_400_000 });
    const rule: ErrorRule = { name: 'http', predicate: (e) => e === f, message: () => failureText(f), failure: failureFacts(f) };
    const c = classifyError(f, createErrorPolicy({ rules: [rule], logger: () => undefined }));
    expect(c.kind === 'anticipated' ? c.failure.retryAfterMs : undefined).toBe(86_400_000);
  });
});

describe("OpenAI's reset durations (x-ratelimit-reset-requests: 6m0s)", () => {
  it('reads Go-style durations; the later of requests and tokens; nothing for junk', () => {
    expect(durationResetMs(new Headers({ 'x-ratelimit-reset-requests': '6m0s' }))).toBe(360_000);
    expect(durationResetMs(new Headers({ 'x-ratelimit-reset-requests': '1s', 'x-ratelimit-reset-tokens': '6m0s' }))).toBe(360_000);
    expect(durationResetMs(new Headers({ 'x-ratelimit-reset-tokens': '20ms' }))).toBe(20);
    expect(durationResetMs(new Headers({ 'x-ratelimit-reset-requests': '1h2m3.5s' }))).toBe(3_723_500);
    for (const junk of ['', ' ', 'soon', '6 m', '-1s', '5d']) expect(durationResetMs(new Headers({ 'x-ratelimit-reset-requests': junk }))).toBeUndefined();
  });

  it('the real openai 6 SDK against a local 429 with only the reset durations: retryable, the later delay', async () => {
    const server = createServer((_req, res) => {
      res
        .writeHead(429, { 'content-type': 'application/json', 'x-ratelimit-reset-requests': '6m0s', 'x-ratelimit-reset-tokens': '1.5s', 'x-request-id': 'req_dur' })
        .end(JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }));
    });
    const { origin, close } = await listenOnLoopback(server);
    try {
      const OpenAI = ((await import('openai6')) as { default: new (options: object) => { models: { retrieve(id: string): Promise<unknown> } } }).default;
      const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${origin}/v1`, maxRetries: 0 });
      const error = await client.models.retrieve('gpt').catch((e: unknown) => e);
      const c = classifyError(error, createErrorPolicy({ rules: [...httpRules, ...coreRules] }));
      expect(c.kind === 'anticipated' && { rule: c.rule.name, message: c.message, failure: { ...c.failure, correlationId: undefined } }).toEqual({
        rule: 'openai-http-error',
        message: 'OpenAI API request failed with 429 Too Many Requests (rate_limit_exceeded): Rate limit reached for requests. Retry after 360 s.',
        failure: { code: 'rate_limit_exceeded', retryable: true, retryAfterMs: 360_000, correlationId: undefined },
      });
      // under the core rules alone: the status and the generic rate-limit headers, which OpenAI does not send
      const core = classifyError(error);
      expect(core.kind === 'anticipated' && { rule: core.rule.name, message: core.message, failure: { ...core.failure, correlationId: undefined } }).toEqual({
        rule: 'http-status',
        message: 'HTTP request failed with status 429',
        failure: { code: 'rate_limited', retryable: true, correlationId: undefined },
      });
    } finally {
      await close();
    }
  });
});

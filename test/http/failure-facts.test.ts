/**
 * The failure object's facts of the HTTP rules (src/http/failure.ts failureFacts), for the statuses and service
 * signals the end-to-end table (mcp.test.ts, stdio.test.ts) does not reach with a real library: 408, 410, 529, other
 * 4xx and 5xx, AWS's `$retryable`, a rate limit under 403. The input is the rules' own reading of an error (an
 * HttpFailure), not an error object.
 */
import { describe, expect, it } from 'vitest';
import { classifyError, createErrorPolicy, type ErrorRule } from '../../src/index.js';
import { failureFacts, failureText, type HttpFailure } from '../../src/http/failure.js';

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
    [502, { code: 'server_error', retryable: true }],
    [503, { code: 'unavailable', retryable: true }],
    [504, { code: 'server_error', retryable: true }],
    [529, { code: 'unavailable', retryable: true }],
  ])('status %i without a service code: %j', (status, facts) => {
    expect(failureFacts(failure(status))).toEqual(facts);
  });

  it('takes the service’s code, but not a generic server error’s (not shown in the text either)', () => {
    expect(failureFacts(failure(404, { code: 'object_not_found' }))).toEqual({ code: 'object_not_found', retryable: false });
    expect(failureFacts(failure(529, { code: 'overloaded_error' }))).toEqual({ code: 'overloaded_error', retryable: true });
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
    expect(shown(failure(503, { retryAfterMs: 30_000 }))).toBe('HTTP request failed with 503 Service Unavailable. Retry after 30 s.');
    expect(shown(failure(503, { retryAfterMs: 30_000, message: 'Down for maintenance!' }))).toBe('HTTP request failed with 503 Service Unavailable: Down for maintenance! Retry after 30 s.');
    expect(shown(failure(503))).toBe('HTTP request failed with 503 Service Unavailable');
    expect(shown(failure(403, { throttled: true, message: 'API rate limit exceeded', retryAfterMs: 1000 }))).toBe('HTTP request failed with 403 Forbidden: API rate limit exceeded. Retry after 1 s.');
  });
});

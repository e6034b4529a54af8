import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError, ResourceNotFoundError as V2ResourceNotFoundError } from '@modelcontextprotocol/server';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  classifyError,
  createErrorPolicy,
  ResourceError,
  ResourceNotFoundError,
  ToolError,
  toToolResult,
  zodErrorRule,
  type AnticipatedClassification,
  type CrashClassification,
  type DeliberateErrorOptions,
  type ErrorPolicyOptions,
  type ErrorRule,
  type FailureFacts,
  type FailureInfo,
  type Reauthorization,
  type ReauthorizeCall,
} from '../src/index.js';
import { MAX_CHAIN_NODES } from '../src/kit/chain.js';
import { REFERENCE } from './support/calls.js';

const quiet = { logger: () => undefined };
const policy = createErrorPolicy(quiet);

class QuotaError extends Error {
  constructor(readonly retryAfter: number) {
    super(`quota, internal shard 17, retry ${retryAfter}`);
    this.name = 'QuotaError';
  }
}
const quotaRule: ErrorRule = {
  name: 'quota',
  predicate: (e) => e instanceof QuotaError,
  message: (e) => `Quota exceeded, retry in ${(e as QuotaError).retryAfter}s`,
  status: 429,
};

describe('classifyError', () => {
  it('recognises SDK v1 McpError and SDK v2 ProtocolError structurally', () => {
    expect(classifyError(new McpError(-32602, 'bad'), policy)).toMatchObject({ kind: 'protocol', code: -32602, status: 400, level: 'info' });
    expect(classifyError(new ProtocolError(-32601, 'nope'), policy)).toMatchObject({ kind: 'protocol', code: -32601, status: 404 });
    expect(classifyError(new V2ResourceNotFoundError('sheet://x'), policy).kind).toBe('protocol');
    expect(classifyError(Object.assign(new Error('look-alike'), { name: 'McpError', code: 'x' }), policy).kind).toBe('crash');
  });

  it('uses the first rule that matches, in order', () => {
    const first: ErrorRule = { name: 'first', predicate: (e) => e instanceof QuotaError, message: 'first' };
    const p = createErrorPolicy({ ...quiet, rules: [first, quotaRule] });
    expect(classifyError(new QuotaError(3), p)).toMatchObject({ kind: 'anticipated', message: 'first' });
    const q = createErrorPolicy({ ...quiet, rules: [quotaRule, first] });
    expect(classifyError(new QuotaError(3), q)).toMatchObject({ kind: 'anticipated', message: 'Quota exceeded, retry in 3s', status: 429, level: 'warn', code: -32603 });
  });

  it('walks cause, error and errors[] to find an allowlisted error, outermost first', () => {
    const p = createErrorPolicy({ ...quiet, rules: [quotaRule] });
    expect(classifyError(new Error('outer', { cause: new Error('mid', { cause: new QuotaError(5) }) }), p)).toMatchObject({ message: 'Quota exceeded, retry in 5s' });
    expect(classifyError(Object.assign(new Error('gaxios-like'), { error: new QuotaError(6) }), p)).toMatchObject({ message: 'Quota exceeded, retry in 6s' });
    expect(classifyError(new AggregateError([new Error('a'), new QuotaError(7)], ''), p)).toMatchObject({ message: 'Quota exceeded, retry in 7s' });
    const both = new ToolError('outer wins', { cause: new QuotaError(8) });
    expect(classifyError(both, createErrorPolicy({ ...quiet, rules: [quotaRule, ...policy.rules] }))).toMatchObject({ message: 'outer wins' });
  });

  it('stops the walk at its bound: an allowlisted error too deep is a crash', () => {
    const chain = (depth: number) => {
      let error: unknown = new ToolError('deep');
      for (let i = 0; i < depth; i += 1) error = new Error(`level ${i}`, { cause: error });
      return error;
    };
    expect(classifyError(chain(MAX_CHAIN_NODES - 2), policy)).toMatchObject({ kind: 'anticipated', message: 'deep' });
    expect(classifyError(chain(MAX_CHAIN_NODES + 10), policy).kind).toBe('crash');
    expect(classifyError(chain(10_000), policy).kind).toBe('crash');
  });

  it('turns a rule message function that throws or returns a non-string into a crash (fails closed)', () => {
    const throwing: ErrorRule = { name: 'throws', predicate: (e) => e instanceof QuotaError, message: () => { throw new Error('x'); } };
    const nonString: ErrorRule = { name: 'number', predicate: (e) => e instanceof QuotaError, message: (() => 42) as never };
    expect(classifyError(new QuotaError(1), createErrorPolicy({ ...quiet, rules: [throwing] })).kind).toBe('crash');
    expect(classifyError(new QuotaError(1), createErrorPolicy({ ...quiet, rules: [nonString] })).kind).toBe('crash');
  });

  it('takes the status from a status function, and 500 when it throws or returns no HTTP status', () => {
    const byField = (status: NonNullable<ErrorRule['status']>): ErrorRule => ({ name: 'http', predicate: (e) => e instanceof QuotaError, status });
    const classify = (status: NonNullable<ErrorRule['status']>) => classifyError(new QuotaError(1), createErrorPolicy({ ...quiet, rules: [byField(status)] }));
    expect(classify((e) => 400 + (e as QuotaError).retryAfter)).toMatchObject({ status: 401 });
    expect(classify(() => { throw new Error('x'); })).toMatchObject({ kind: 'anticipated', status: 500 });
    expect(classify(() => 42)).toMatchObject({ status: 500 });
    expect(classify(() => 404.5)).toMatchObject({ status: 500 });
  });

  it('skips a predicate that throws and tries the next rule', () => {
    const fragile: ErrorRule = { name: 'fragile', predicate: () => { throw new Error('x'); } };
    expect(classifyError(new QuotaError(2), createErrorPolicy({ ...quiet, rules: [fragile, quotaRule] }))).toMatchObject({ rule: { name: 'quota' } });
  });

  it('appends the re-authorization text and reports 401 for a reauthorize rule', () => {
    const revoked: ErrorRule = { name: 'revoked', predicate: (e) => (e as Error).message === 'invalid_grant', message: 'Token has been expired or revoked.', reauthorize: true };
    const withText = createErrorPolicy({ ...quiet, rules: [revoked], reauthorize: 'Sign in again: run `acme auth login`.' });
    expect(classifyError(new Error('invalid_grant'), withText)).toMatchObject({
      kind: 'anticipated',
      message: 'Token has been expired or revoked.\n\nSign in again: run `acme auth login`.',
      status: 401,
      reauthorize: true,
    });
    const withFunction = createErrorPolicy({ ...quiet, rules: [revoked], reauthorize: () => 'Visit http://127.0.0.1:9/login' });
    expect(classifyError(new Error('invalid_grant'), withFunction)).toMatchObject({ message: 'Token has been expired or revoked.\n\nVisit http://127.0.0.1:9/login' });
    const throwing = createErrorPolicy({ ...quiet, rules: [revoked], reauthorize: () => { throw new Error('x'); } });
    expect(classifyError(new Error('invalid_grant'), throwing)).toMatchObject({ message: 'Token has been expired or revoked.', status: 401 });
  });

  it('bounds and scrubs anticipated text', () => {
    const p = createErrorPolicy({ ...quiet, maxMessageLength: 40 });
    const c = classifyError(new ToolError(`token ya29.secretsecret then ${'x'.repeat(100)}`), p);
    expect(c).toMatchObject({ kind: 'anticipated', message: `token [REDACTED] then ${'x'.repeat(17)}…` });
  });

  it('never throws, whatever was thrown', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    for (const value of [undefined, null, 0, 1n, '', Symbol('s'), proxy, Object.create(null), () => 1, new Proxy({}, { get: () => { throw new Error('trap'); } })]) {
      const c = classifyError(value, policy);
      expect(c.kind).toBe('crash');
      if (c.kind === 'crash') expect(c.reference).toMatch(/^[0-9a-f]{12}$/);
    }
  });

  it('gives each crash its own reference', () => {
    const refs = new Set(Array.from({ length: 1000 }, () => {
      const c = classifyError(new Error('x'), policy);
      return c.kind === 'crash' ? c.reference : '';
    }));
    expect(refs.size).toBe(1000);
  });

  it('uses the default policy when none is given', () => {
    expect(classifyError(new ToolError('plain'))).toMatchObject({ kind: 'anticipated', message: 'plain', level: 'info' });
  });
});

describe('the failure object of a classification', () => {
  const anticipated = (error: unknown, p = policy) => {
    const c = classifyError(error, p);
    if (c.kind !== 'anticipated') throw new Error(`expected anticipated, got ${c.kind}`);
    return c;
  };
  /** The classification's failure object without its (random) correlation id, which is checked on its own. */
  const factsOf = (error: unknown, p = policy) => {
    const { correlationId, ...facts } = anticipated(error, p).failure;
    expect(correlationId).toMatch(REFERENCE);
    return facts;
  };

  it('core rules: network and timeout retryable, abort and file-system not; a crash is `internal` with its reference', () => {
    const network = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:443'), { code: 'ECONNREFUSED', syscall: 'connect' });
    expect(factsOf(network)).toEqual({ code: 'network', retryable: true, upstream: 'unreached' });
    // the request never left for refused, unresolved and unroutable connections; a reset one may have been sent
    for (const code of ['ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']) {
      expect(factsOf(Object.assign(new Error(`getaddrinfo ${code} api.example`), { code }))).toEqual({ code: 'network', retryable: true, upstream: 'unreached' });
    }
    for (const code of ['ECONNRESET', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'EPIPE']) {
      expect(factsOf(Object.assign(new Error(`read ${code}`), { code }))).toEqual({ code: 'network', retryable: true });
    }
    // Deno's codeless refusal reads the same
    expect(factsOf(new Error('error sending request for url (https://api.example/): client error (Connect): tcp connect error: Connection refused (os error 111)'))).toEqual({
      code: 'network',
      retryable: true,
      upstream: 'unreached',
    });
    expect(factsOf(new DOMException('late', 'TimeoutError'))).toEqual({ code: 'timeout', retryable: true });
    expect(factsOf(new DOMException('stop', 'AbortError'))).toEqual({ code: 'aborted', retryable: false });
    expect(factsOf(Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT', syscall: 'open', errno: -2 }))).toEqual({ code: 'file-system', retryable: false });
    const withZod = createErrorPolicy({ ...quiet, rules: [zodErrorRule] });
    expect(factsOf(z.object({ n: z.number() }).safeParse({ n: 'x' }).error, withZod)).toEqual({ code: 'zod', retryable: false });

    const crash = classifyError(new Error('boom'), policy);
    expect(crash.kind === 'crash' && crash.failure).toEqual({ code: 'internal', retryable: false, correlationId: crash.kind === 'crash' ? crash.reference : '' });
    const protocol = classifyError(new McpError(-32602, 'bad'), policy);
    expect(protocol).not.toHaveProperty('failure');
  });

  it('a rule without `failure`: its name as the code, not retryable, no delay', () => {
    expect(factsOf(new QuotaError(30), createErrorPolicy({ ...quiet, rules: [quotaRule] }))).toEqual({ code: 'quota', retryable: false });
  });

  it('gives every failure its own 12-hex correlation id', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => anticipated(new ToolError('x')).failure.correlationId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(REFERENCE);
  });

  describe('deliberate errors', () => {
    it('default codes by kind; `code`, `retryable` and `retryAfterMs` options; the delay ends the text', () => {
      expect(factsOf(new ToolError('x'))).toEqual({ code: 'tool_error', retryable: false });
      expect(factsOf(new ResourceError('x'))).toEqual({ code: 'resource_error', retryable: false });
      expect(factsOf(new ResourceNotFoundError('x'))).toEqual({ code: 'resource_not_found', retryable: false });
      expect(factsOf(new ToolError('x', { code: 'invalid_input' }))).toEqual({ code: 'invalid_input', retryable: false });
      expect(factsOf(new ResourceError('x', { code: 'sheet.locked:v2', retryable: true }))).toEqual({ code: 'sheet.locked:v2', retryable: true });
      // a delay makes it retryable by default, and is said at the end of the client text
      const later = anticipated(new ToolError('The sheet is being recalculated.', { retryAfterMs: 30_000 }));
      expect(later.message).toBe('The sheet is being recalculated. Retry after 30 s.');
      expect(later.failure).toEqual({ code: 'tool_error', retryable: true, retryAfterMs: 30_000, correlationId: expect.stringMatching(REFERENCE) });
      expect(factsOf(new ResourceNotFoundError('x', { code: 'pending', retryAfterMs: 1500 }))).toEqual({ code: 'pending', retryable: true, retryAfterMs: 1500 });
      // not retryable with a delay is refused by the constructor (a TypeError, below)
      // found on the cause chain like the text
      expect(factsOf(new Error('wrapper', { cause: new ToolError('x', { code: 'inner' }) }))).toEqual({ code: 'inner', retryable: false });
    });

    it('keeps the options off the enumerable fields (loggers that dump errors do not print them)', () => {
      const error = new ToolError('x', { code: 'invalid_input', retryAfterMs: 5 });
      expect(Object.keys(new ToolError('x'))).toEqual(['name']);
      expect(Object.keys(error)).toEqual(['name']);
      expect(JSON.stringify(error)).toBe('{"name":"ToolError"}');
    });

    it.each([
      ['code', { code: 'has space' }],
      ['code', { code: '' }],
      ['code', { code: 'c'.repeat(65) }],
      ['code', { code: 42 }],
    ])('throws a TypeError naming %s for %j, from every deliberate class', (_option, options) => {
      const message = 'Expected `code` to be a string of 1 to 64 letters, digits, `_`, `.`, `:` or `-`';
      for (const Kind of [ToolError, ResourceError, ResourceNotFoundError]) expect(() => new Kind('x', options as never)).toThrow(new TypeError(message));
    });

    it.each([
      ['retryable', { retryable: 'yes' }, 'Expected `retryable` to be a boolean'],
      ['retryAfterMs', { retryAfterMs: -1 }, 'Expected `retryAfterMs` to be a finite number of milliseconds from 0 up'],
      ['retryAfterMs', { retryAfterMs: Number.NaN }, 'Expected `retryAfterMs` to be a finite number of milliseconds from 0 up'],
      ['retryAfterMs', { retryAfterMs: Number.POSITIVE_INFINITY }, 'Expected `retryAfterMs` to be a finite number of milliseconds from 0 up'],
      ['retryAfterMs', { retryAfterMs: '30' }, 'Expected `retryAfterMs` to be a finite number of milliseconds from 0 up'],
      ['retryAfterMs', { retryable: false, retryAfterMs: 1000 }, 'Expected `retryAfterMs` to be left out when `retryable` is false (a delay says when to retry)'],
    ])('throws a TypeError naming %s for %j', (_option, options, message) => {
      for (const Kind of [ToolError, ResourceError, ResourceNotFoundError]) expect(() => new Kind('x', options as never)).toThrow(new TypeError(message));
    });
  });

  describe('`Retry after <n> s.`', () => {
    it.each([
      [0, 1],
      [1, 1],
      [999, 1],
      [1000, 1],
      [1001, 2],
      [29_001, 30],
      [30_000, 30],
      [86_400_000, 86_400],
    ])('%d ms: %d s (rounded up, at least 1)', (ms, seconds) => {
      expect(anticipated(new ToolError('Busy.', { retryAfterMs: ms })).message).toBe(`Busy. Retry after ${seconds} s.`);
    });

    it.each([
      ['Busy', 'Busy. Retry after 2 s.'],
      ['Busy!', 'Busy! Retry after 2 s.'],
      ['Busy (503 from the API)', 'Busy (503 from the API). Retry after 2 s.'],
    ])('follows a full stop: %j', (text, shown) => {
      expect(anticipated(new ToolError(text, { retryAfterMs: 2000 })).message).toBe(shown);
    });

    it('comes before the re-authorization hint, and is bounded with the text it ends', () => {
      const revoked: ErrorRule = { name: 'revoked', predicate: (e) => e instanceof QuotaError, message: 'Signed out.', reauthorize: true, failure: { retryAfterMs: 60_000 } };
      const p = createErrorPolicy({ ...quiet, rules: [revoked], reauthorize: 'Sign in again.' });
      expect(anticipated(new QuotaError(1), p).message).toBe('Signed out. Retry after 60 s.\n\nSign in again.');
    });
  });

  describe('a rule\'s `failure`', () => {
    class ApiError extends Error {
      constructor(readonly facts: unknown) {
        super('api');
        this.name = 'ApiError';
      }
    }
    const policyWith = (failure: ErrorRule['failure']) =>
      createErrorPolicy({ ...quiet, rules: [{ name: 'api-rule', predicate: (e) => e instanceof ApiError, message: 'The API failed.', ...(failure === undefined ? {} : { failure }) }] });
    const facts = (failure: ErrorRule['failure'], thrown: unknown = new ApiError(undefined)) => factsOf(thrown, policyWith(failure));

    it('an object: its code, retryable and delay', () => {
      expect(facts({ code: 'rate_limited', retryAfterMs: 2000 })).toEqual({ code: 'rate_limited', retryable: true, retryAfterMs: 2000 });
      expect(facts({ code: 'permission_denied' })).toEqual({ code: 'permission_denied', retryable: false });
      expect(facts({ retryable: true })).toEqual({ code: 'api-rule', retryable: true });
      expect(anticipated(new ApiError(undefined), policyWith({ retryAfterMs: 2000 })).message).toBe('The API failed. Retry after 2 s.');
    });

    it('a function: of the error the rule accepted (a cause, not the wrapper)', () => {
      const seen: unknown[] = [];
      const fn = (error: unknown) => {
        seen.push(error);
        return (error as ApiError).facts as never;
      };
      const inner = new ApiError({ code: 'quota_exceeded', retryAfterMs: 45_000 });
      expect(facts(fn, new Error('wrapper', { cause: inner }))).toEqual({ code: 'quota_exceeded', retryable: true, retryAfterMs: 45_000 });
      expect(seen).toEqual([inner]);
    });

    it('a function that throws, or returns no object: the defaults', () => {
      const throwing = () => {
        throw new Error('facts unavailable');
      };
      for (const failure of [throwing, () => undefined, () => 'rate_limited', () => 42, () => null]) {
        expect(facts(failure as ErrorRule['failure'])).toEqual({ code: 'api-rule', retryable: false });
      }
    });

    it('an invalid code: the rule name; a delay above a day: a day; a negative or non-finite delay: none', () => {
      for (const code of ['has space', '', 'c'.repeat(65), 42, 'é']) expect(facts({ code: code as string })).toEqual({ code: 'api-rule', retryable: false });
      expect(facts({ code: 'c'.repeat(64) })).toEqual({ code: 'c'.repeat(64), retryable: false });
      const dayMs = 24 * 60 * 60 * 1000;
      expect(facts({ retryAfterMs: dayMs * 7 })).toEqual({ code: 'api-rule', retryable: true, retryAfterMs: dayMs });
      expect(anticipated(new ApiError(undefined), policyWith({ retryAfterMs: dayMs * 7 })).message).toBe('The API failed. Retry after 86400 s.');
      for (const retryAfterMs of [-1, -30_000, Number.NaN, Number.POSITIVE_INFINITY, '30' as unknown as number]) {
        expect(facts({ retryAfterMs })).toEqual({ code: 'api-rule', retryable: false });
        expect(anticipated(new ApiError(undefined), policyWith({ retryAfterMs })).message).toBe('The API failed.');
      }
      // whole milliseconds
      expect(facts({ retryAfterMs: 1500.6 })).toEqual({ code: 'api-rule', retryable: true, retryAfterMs: 1501 });
    });

    it('a Retry-After on a response of the cause chain gives the delay when the rule gives none', () => {
      const limited = (headers: unknown) => new Error('outer', { cause: Object.assign(new ApiError(undefined), { response: { status: 429, headers } }) });
      expect(facts(undefined, limited({ 'retry-after': '30' }))).toEqual({ code: 'api-rule', retryable: true, retryAfterMs: 30_000 });
      expect(facts(undefined, limited(new Headers({ 'Retry-After': '2' })))).toEqual({ code: 'api-rule', retryable: true, retryAfterMs: 2000 });
      expect(facts(undefined, limited({ 'retry-after-ms': '250', 'retry-after': '30' }))).toEqual({ code: 'api-rule', retryable: true, retryAfterMs: 250 });
      // on the wrapper rather than the accepted error: the chain counts
      const onWrapper = Object.assign(new Error('outer', { cause: new ApiError(undefined) }), { response: { headers: { 'retry-after': '5' } } });
      expect(facts(undefined, onWrapper)).toEqual({ code: 'api-rule', retryable: true, retryAfterMs: 5000 });
      // the rule's own delay wins; a rule that says not retryable keeps it so, without a delay
      expect(facts({ retryAfterMs: 1000 }, limited({ 'retry-after': '30' }))).toEqual({ code: 'api-rule', retryable: true, retryAfterMs: 1000 });
      expect(facts({ retryable: false }, limited({ 'retry-after': '30' }))).toEqual({ code: 'api-rule', retryable: false });
      // nothing usable: no delay
      for (const value of ['soon', '-5', 'x 1', '1 2', '', 'Wed, 99 Foo 2026']) expect(facts(undefined, limited({ 'retry-after': value }))).toEqual({ code: 'api-rule', retryable: false });
      // an HTTP date: the time until then (whole seconds: the date has no finer), or 0 for a date past
      const before = Date.now();
      const dated = facts(undefined, limited({ 'retry-after': new Date(before + 90_000).toUTCString() }));
      const after = Date.now();
      expect(dated).toEqual({ code: 'api-rule', retryable: true, retryAfterMs: expect.any(Number) });
      expect(dated.retryAfterMs).toBeGreaterThanOrEqual(90_000 - 1000 - (after - before));
      expect(dated.retryAfterMs).toBeLessThanOrEqual(90_000);
      expect(facts(undefined, limited({ 'retry-after': 'Sun, 06 Nov 1994 08:49:37 GMT' }))).toEqual({ code: 'api-rule', retryable: true, retryAfterMs: 0 });
      expect(facts(undefined, limited({ 'retry-after': 'Sunday, 06-Nov-94 08:49:37 GMT' }))).toEqual({ code: 'api-rule', retryable: true, retryAfterMs: 0 });
    });
  });
});

describe('the failure object types', () => {
  it('are exported as documented', () => {
    expectTypeOf<FailureInfo>().toEqualTypeOf<{ readonly code: string; readonly retryable: boolean; readonly retryAfterMs?: number; readonly upstream?: 'unreached'; readonly correlationId: string }>();
    expectTypeOf<FailureFacts>().toEqualTypeOf<{ readonly code?: string | undefined; readonly retryable?: boolean | undefined; readonly retryAfterMs?: number | undefined }>();
    expectTypeOf<NonNullable<ErrorRule['failure']>>().toEqualTypeOf<FailureFacts | ((error: unknown) => FailureFacts | undefined)>();
    expectTypeOf<Reauthorization>().toEqualTypeOf<{ readonly text: string; readonly url?: string | undefined }>();
    expectTypeOf<NonNullable<ErrorPolicyOptions['reauthorize']>>().toEqualTypeOf<string | Reauthorization | ((error: unknown, call: ReauthorizeCall) => string | Reauthorization | undefined)>();
    // a function of the error alone (before the call was given) still fits
    expectTypeOf<(error: unknown) => Reauthorization>().toMatchTypeOf<NonNullable<ErrorPolicyOptions['reauthorize']>>();
    expectTypeOf<ErrorPolicyOptions['failureObject']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<ErrorPolicyOptions['draftToolFailure']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Pick<DeliberateErrorOptions, 'code' | 'retryable' | 'retryAfterMs'>>().toEqualTypeOf<{ readonly code?: string; readonly retryable?: boolean; readonly retryAfterMs?: number }>();
    expectTypeOf<AnticipatedClassification['failure']>().toEqualTypeOf<FailureInfo>();
    expectTypeOf<CrashClassification['failure']>().toEqualTypeOf<FailureInfo>();
    expectTypeOf<ReturnType<typeof toToolResult>['_meta']>().toEqualTypeOf<Record<string, unknown> | undefined>();
  });
});

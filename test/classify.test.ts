import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError, ResourceNotFoundError as V2ResourceNotFoundError } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { classifyError, createErrorPolicy, ToolError, type ErrorRule } from '../src/index.js';
import { MAX_CHAIN_NODES } from '../src/kit/chain.js';

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

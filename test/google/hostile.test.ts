/**
 * The Google predicates and message functions read thrown values without trusting them: hostile values (revoked
 * Proxies, throwing getters, primitives, cycles) are never accepted and never make them throw.
 */
import { describe, expect, it } from 'vitest';
import { googleRules } from '../../src/google/index.js';

function hostileValues(): unknown[] {
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const throwing = new Proxy(
    {},
    {
      get() {
        throw new Error('getter');
      },
      has() {
        throw new Error('has');
      },
      getOwnPropertyDescriptor() {
        throw new Error('descriptor');
      },
    },
  );
  const cyclic: Record<string, unknown> = { config: {}, response: undefined };
  cyclic['cause'] = cyclic;
  cyclic['error'] = cyclic;
  const throwingResponse = { config: {}, get response(): never { throw new Error('response'); } };
  // googleapis-common's HTTP/2 message with a cause that is not a response, or that throws.
  const http2Revoked = new Error('Request failed with status code 403. ', { cause: revoked.proxy });
  const http2Throwing = new Error('Request failed with status code 403. ', { cause: throwing });
  const http2NoStatus = new Error('Request failed with status code 403. ', { cause: { config: {}, status: '403' } });
  // An OAuth-looking body whose request body's `has` throws (oauth-grant.ts reads the body's keys).
  const throwingBodyKeys = {
    config: { data: { has: () => { throw new Error('has'); } } },
    response: { data: { error: 'invalid_scope' } },
  };
  // A Node ENOENT for a file that is not a key file.
  const notAKeyFile = Object.assign(new Error("ENOENT: no such file or directory, open '/srv/app/config.yaml'"), {
    code: 'ENOENT',
    syscall: 'open',
    path: '/srv/app/config.yaml',
  });
  return [
    undefined,
    null,
    0,
    'Could not load the default credentials.',
    Symbol('x'),
    10n,
    () => undefined,
    revoked.proxy,
    throwing,
    cyclic,
    throwingResponse,
    http2Revoked,
    http2Throwing,
    http2NoStatus,
    throwingBodyKeys,
    notAKeyFile,
    new SyntaxError('Unexpected token } in JSON at position 3'),
    new Error('mcp-error-policy probe'),
    new TypeError('fetch failed'),
    new RangeError('x'),
    Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
  ];
}

describe('hostile values', () => {
  it('no Google predicate accepts them or throws', () => {
    for (const rule of googleRules) {
      for (const value of hostileValues()) {
        expect(() => rule.predicate(value), `${rule.name}`).not.toThrow();
        expect(rule.predicate(value), `${rule.name}`).toBe(false);
      }
    }
  });

  it('no Google message function throws', () => {
    for (const rule of googleRules) {
      const { message } = rule;
      if (typeof message !== 'function') continue;
      for (const value of hostileValues()) {
        expect(() => message(value, { args: [] }), `${rule.name}`).not.toThrow();
        expect(typeof message(value, { args: [] })).toBe('string');
      }
    }
  });

  it('no Google failure function throws, and each gives a code and a retryable flag', () => {
    for (const rule of googleRules) {
      const { failure } = rule;
      expect(failure, `${rule.name}`).toBeDefined();
      if (typeof failure !== 'function') continue;
      for (const value of hostileValues()) {
        expect(() => failure(value), `${rule.name}`).not.toThrow();
        expect(failure(value)).toMatchObject({ code: expect.stringMatching(/^[a-z0-9_]{1,64}$/), retryable: expect.any(Boolean) });
      }
    }
  });
});

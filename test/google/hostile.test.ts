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
        expect(() => message(value), `${rule.name}`).not.toThrow();
        expect(typeof message(value)).toBe('string');
      }
    }
  });
});

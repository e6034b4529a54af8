/**
 * Property: the Google rules first, then the core rules, under hostile input. gaxios-shaped errors (the registered
 * symbol, any version string) whose config, response, body and headers are hostile (revoked Proxies, throwing getters,
 * non-numeric statuses, a 1 MB body), with the canary in every part the Google rules do not allowlist (the query of the
 * URL, request headers and body, response URL and request, cause, stack, message), mixed with the generic hostile values
 * of arbitraries.ts. Each case: the tool wrapper never throws, the result is valid for CallToolResultSchema, exactly one
 * well-formed record, and no canary in the result.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coreRules, createErrorPolicy, withClientVisibleErrors } from '../../src/index.js';
import { googleRules } from '../../src/google/index.js';
import { build, caseArb, failWith, type Mode } from './arbitraries.js';
import { callWithoutThrowing } from './hostile-harness.js';
import { CallToolResultSchema, CANARY, recordLogger, recordProblems, runs, timeoutFor } from './support.js';

const GAXIOS = Symbol.for('gaxios-gaxios-error');

const gaxiosSpec = fc.record({
  version: fc.constantFrom<unknown>('6.7.1', '7.3.1', '8.3.3', CANARY, 7),
  status: fc.constantFrom<unknown>(400, 401, 403, 404, 429, 500, 502, 599, 600, '403', -1, Number.NaN, undefined),
  apiStatus: fc.constantFrom<unknown>('PERMISSION_DENIED', 'RESOURCE_EXHAUSTED', 'UNAUTHENTICATED', undefined, 42),
  oauth: fc.constantFrom<unknown>(undefined, 'invalid_grant', 'unauthorized_client', 'invalid_rapt', 42),
  reason: fc.constantFrom<unknown>(undefined, 'rateLimitExceeded', 'insufficientPermissions', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT', {}),
  code: fc.constantFrom<unknown>(undefined, 'ECONNREFUSED', 'ETIMEDOUT', 'TimeoutError', 'AbortError', 403),
  hostile: fc.constantFrom('none', 'revokedConfig', 'throwingResponse', 'revokedData', 'revokedHeaders', 'revokedErrorsArray', 'jsonStringBody', 'oneMegabyteBody', 'revokedResponse'),
  retryAfter: fc.constantFrom<unknown>(undefined, '30', '-1', 'Wed, 21 Oct 2015 07:28:00 GMT', '1e309', 30),
  mode: fc.constantFrom<Mode>('throw', 'asyncThrow', 'reject'),
});
type GaxiosSpec = typeof gaxiosSpec extends fc.Arbitrary<infer T> ? T : never;

function revoked(target: object = {}): object {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
}

/** A gaxios-shaped error; the canary stands only where no Google rule may show it. */
function gaxiosError(s: GaxiosSpec): Error {
  const headers = { 'x-goog-api-key': CANARY, authorization: `Bearer ${CANARY}`, cookie: CANARY, 'retry-after': s.retryAfter };
  const apiBody = {
    error: {
      code: s.status,
      message: 'The caller does not have permission',
      status: s.apiStatus,
      errors: s.hostile === 'revokedErrorsArray' ? revoked([]) : [{ reason: s.reason, message: 'Forbidden' }],
      details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: s.reason }],
    },
  };
  const data =
    s.hostile === 'revokedData'
      ? revoked()
      : s.hostile === 'jsonStringBody'
        ? JSON.stringify(apiBody)
        : s.hostile === 'oneMegabyteBody'
          ? `{"error":{"message":"${'long '.repeat(200_000)}"}}`
          : s.oauth !== undefined
            ? { error: s.oauth, error_description: 'Token has been expired or revoked.' }
            : apiBody;
  const config =
    s.hostile === 'revokedConfig'
      ? revoked()
      : {
          url: `https://www.googleapis.com/drive/v3/files?key=${CANARY}&access_token=${CANARY}&pageToken=${CANARY}`,
          method: 'GET',
          headers: s.hostile === 'revokedHeaders' ? revoked() : headers,
          data: `refresh_token=${CANARY}&client_secret=${CANARY}`,
          body: CANARY,
        };
  const response: Record<string, unknown> = { status: s.status, statusText: 'Forbidden', data, headers, url: `https://x.test/?q=${CANARY}`, request: { responseURL: CANARY }, config };
  if (s.hostile === 'throwingResponse') {
    Object.defineProperty(response, 'data', {
      get() {
        throw new Error(CANARY);
      },
    });
  }
  const error = Object.assign(new Error(`request to https://x.test/?q=${CANARY} failed`), {
    [GAXIOS]: s.version,
    config,
    response: s.hostile === 'revokedResponse' ? revoked() : response,
    code: s.code,
    status: s.status,
    cause: { message: CANARY },
  });
  error.stack = `Error: ${CANARY}\n    at request (${CANARY})`;
  return error;
}

describe('Google rules first, under hostile input', () => {
  it(
    'never throws, valid result, one well-formed record, no canary in the result',
    async () => {
      const { records, logger } = recordLogger();
      const policy = createErrorPolicy({ logger, rules: [...googleRules, ...coreRules], exposeCrashDetails: false, reauthorize: 'Sign in again.' });
      let current: { value: unknown; mode: Mode } = { value: undefined, mode: 'throw' };
      const tool = withClientVisibleErrors(() => failWith(current.value, current.mode), { name: 'drive_list', policy });
      const cases = fc.oneof(
        gaxiosSpec.map((s) => ({ value: gaxiosError(s), mode: s.mode })),
        caseArb().map((spec) => ({ value: build(spec, 4000).value, mode: spec.mode })),
      );
      await fc.assert(
        fc.asyncProperty(cases, async (c) => {
          current = c;
          records.length = 0;
          const result = await callWithoutThrowing(() => tool());
          expect(CallToolResultSchema.safeParse(result).success).toBe(true);
          const json = JSON.stringify(result);
          expect(json.includes(CANARY), json.slice(0, 400)).toBe(false);
          expect(records).toHaveLength(1);
          expect(recordProblems(records[0]!, 4000)).toEqual([]);
        }),
        runs('googleDirect'),
      );
    },
    timeoutFor('googleDirect', 3),
  );
});

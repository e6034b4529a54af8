/**
 * Property: hostile thrown values through the resource and prompt wrappers, called directly. Each case: the wrapper
 * never throws synchronously and rejects with the policy's JSON-RPC error, which (as the SDK would send it) is valid
 * for the SDK's JSONRPCErrorResponseSchema, has exactly the expected code and text and no `data`; exactly one
 * well-formed, bounded log record agrees with it; one access-log outcome; no canary. And a handler's protocol errors
 * keep a deliberate code, their text through the exit gate, logged once; InternalError and other codes are crashes. Case count: a share of FC_NUM_RUNS (support.ts).
 */
import { McpError, UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/index.js';
import { guardRequest } from '../../src/wrap/request.js';
import { PolicyRpcError } from '../../src/wrap/rpc-error.js';
import { controlText, type Mode } from './arbitraries.js';
import { arm, callWithoutThrowing, expectOutcome, extra, fail, itHoldsForHostileCases, policies, prompts, records, resources, tools } from './hostile-harness.js';
import { CANARY, expectRpcAnswer, expectWellFormedRecord, runs, settle, timeoutFor } from './support.js';

describe('hostile thrown values, resource and prompt wrappers called directly', () => {
  itHoldsForHostileCases(
    'resource: the policy JSON-RPC error with the exact code and text, one record, one outcome, no canary',
    'resourceDirect',
    3,
    async ({ max, expected, n }) => {
      const uri = new URL(`hostile://case/${n}`);
      const outcome = await settle(callWithoutThrowing(() => resources.get(max)!(uri, { n: String(n) }, extra())));
      expect(outcome.rejected, 'a failed resource read rejects').toBe(true);
      if (!outcome.rejected) return;
      expect(outcome.error).toBeInstanceOf(PolicyRpcError);
      expectRpcAnswer(outcome.error, records, expected, 'resource', uri.href, max);
      expectOutcome(max, expected, 'resource', uri.href);
    }, { uriIndex: true },
  );

  itHoldsForHostileCases(
    'prompt: the policy JSON-RPC error with the exact code and text, one record, one outcome, no canary',
    'promptDirect',
    3,
    async ({ max, expected }) => {
      const outcome = await settle(callWithoutThrowing(() => prompts.get(max)!(extra())));
      expect(outcome.rejected, 'a failed prompt rejects').toBe(true);
      if (!outcome.rejected) return;
      expect(outcome.error).toBeInstanceOf(PolicyRpcError);
      expectRpcAnswer(outcome.error, records, expected, 'prompt', `hostile_prompt_${max}`, max);
      expectOutcome(max, expected, 'prompt', `hostile_prompt_${max}`);
    },
  );

  // completion/complete and prompts/list: request handlers, guarded by the same settle path as the callbacks
  const requests = new Map(
    [...policies].flatMap(([max, policy]) => ['completion/complete', 'prompts/list'].map((method) => [`${method} ${max}`, guardRequest(() => fail(), method, policy)] as const)),
  );

  itHoldsForHostileCases(
    'completion and list requests: the policy JSON-RPC error with the exact code and text, one record, no outcome, no canary',
    'promptDirect',
    3,
    async ({ max, expected, n }) => {
      const method = n % 2 === 0 ? 'completion/complete' : 'prompts/list';
      const outcome = await settle(callWithoutThrowing(() => requests.get(`${method} ${max}`)!({ method, params: {} }, extra())));
      expect(outcome.rejected, 'a failed request rejects').toBe(true);
      if (!outcome.rejected) return;
      expect(outcome.error).toBeInstanceOf(PolicyRpcError);
      expectRpcAnswer(outcome.error, records, expected, 'prompt', method, max, `Error handling ${method}`);
    },
    { uriIndex: true },
  );

  it(
    'protocol errors (McpError, UrlElicitationRequiredError, SDK v2 ProtocolError, structural): a deliberate code keeps it, its text through the gate, logged once at info; InternalError and non-JSON-RPC codes are crashes',
    async () => {
      const protocolArb = fc.record({
        make: fc.constantFrom('mcp', 'elicitation', 'v2', 'structural'),
        code: fc.constantFrom(-32700, -32600, -32601, -32602, -32603, -32002, -32000, 1, 403),
        text: controlText,
        mode: fc.constantFrom<Mode>('throw', 'asyncThrow', 'reject', 'thenable'),
        handler: fc.constantFrom('tool', 'resource', 'prompt'),
      });
      const statusOf = (code: number): number =>
        code === -32700 || code === -32600 || code === -32602 ? 400 : code === -32601 || code === -32002 ? 404 : code === -32042 ? 403 : 500;
      await fc.assert(
        fc.asyncProperty(protocolArb, async ({ make, code, text, mode, handler }) => {
          const thrown: object =
            make === 'mcp'
              ? new McpError(code, text, { detail: CANARY })
              : make === 'elicitation'
                ? new UrlElicitationRequiredError([{ mode: 'url', url: 'https://example.test/consent', message: text, elicitationId: 'e1' }])
                : make === 'v2'
                  ? new ProtocolError(code, text)
                  : Object.assign(Object.create(null) as object, { name: 'McpError', code, message: text });
          const expectedCode = make === 'elicitation' ? -32042 : code;
          const crash = expectedCode === -32603 || expectedCode === 1 || expectedCode === 403;
          const expected = classifyError(thrown);
          arm(thrown, mode);
          const invoke =
            handler === 'tool' ? () => tools.get(4000)!({ n: 1 }, extra()) : handler === 'resource' ? () => resources.get(4000)!(new URL('hostile://case/1'), {}, extra()) : () => prompts.get(4000)!(extra());
          const outcome = await settle(callWithoutThrowing(invoke));
          expect(records).toHaveLength(1);
          const record = records[0]!;
          expectWellFormedRecord(record, 4000);
          if (crash || expected.kind === 'crash') {
            // servers wrap crashes in InternalError; an HTTP status or any other number is no JSON-RPC code
            expect([record.kind, record.level, record.status, record.handler]).toEqual(['crash', 'error', 500, handler]);
            const answer = JSON.stringify(outcome.rejected ? { code: (outcome.error as { code?: unknown }).code, message: (outcome.error as Error).message, data: (outcome.error as { data?: unknown }).data } : outcome.value);
            expect(answer).toMatch(/\(reference [0-9a-f]{12}\)/);
            expect(answer).not.toContain(CANARY);
            if (outcome.rejected) expect((outcome.error as { code?: unknown }).code).toBe(-32603);
            return;
          }
          expect(outcome.rejected).toBe(true);
          if (!outcome.rejected || expected.kind !== 'protocol') return;
          const answer = outcome.error as { code?: unknown; message?: unknown };
          expect(answer.code).toBe(expectedCode);
          expect(answer.message).toBe(expected.message);
          // nothing changed by the gate: the thrown error itself goes to the SDK
          if (expected.message === text || (make !== 'v2' && make !== 'structural')) expect(answer === thrown || Object.getPrototypeOf(answer) === thrown).toBe(true);
          expect([record.kind, record.level, record.status, record.handler]).toEqual(['protocol', 'info', statusOf(expectedCode), handler]);
          expect(record.message).toContain(`failed with protocol error ${expectedCode}: `);
        }),
        runs('protocolDirect'),
      );
    },
    timeoutFor('protocolDirect', 3),
  );
});

/**
 * prompts/get through a real SDK v1 McpServer and Client: prompts answer failures as resources do (JSON-RPC errors),
 * installed by hand (withClientVisiblePromptErrors) and server-wide (applyErrorPolicy), with and without arguments.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  applyErrorPolicy,
  ResourceError,
  ResourceNotFoundError,
  ToolError,
  withClientVisiblePromptErrors,
  type ErrorPolicy,
} from '../../src/index.js';
import { expectCorrelated, failureData, failureObject } from '../support/failure.js';
import { capture, connect, newServer, REFERENCE, referenceIn, rpcError, withoutDurations, withoutReferences } from '../support/session.js';

const CANARY = 'CANARY-9a4c';

type Mode = 'by hand' | 'applyErrorPolicy';
type Callback = (...args: never[]) => unknown;

/** A server with `summarize` (an argument `sheet`) and `hello` (no arguments), both running `cb`. */
function serve(mode: Mode, policy: ErrorPolicy, cb: Callback): McpServer {
  const server = newServer();
  const wrap = (fn: Callback, name: string): Callback => (mode === 'by hand' ? withClientVisiblePromptErrors(fn, { name, policy }) : fn);
  server.registerPrompt('summarize', { argsSchema: { sheet: z.string() } }, wrap(cb, 'summarize') as never);
  server.registerPrompt('hello', {}, wrap(cb, 'hello') as never);
  if (mode === 'applyErrorPolicy') applyErrorPolicy(server, policy);
  return server;
}

const calls = [
  { name: 'summarize', arguments: { sheet: 'Q3' } },
  { name: 'hello', arguments: undefined },
] as const;

for (const mode of ['by hand', 'applyErrorPolicy'] as const) {
  describe(`prompts/get, ${mode}`, () => {
    for (const call of calls) {
      describe(call.arguments === undefined ? 'without arguments' : 'with arguments', () => {
        const request = call.arguments === undefined ? { name: call.name } : { name: call.name, arguments: call.arguments };

        it('a crash -> -32603 `Error getting prompt <name> (reference <id>)`, none of its text', async () => {
          const { policy, records, outcomes } = capture();
          const { client } = await connect(
            serve(mode, policy, () => {
              throw new Error(`ENOENT: no such file, open '/srv/${CANARY}'`);
            }),
          );
          const error = await rpcError(client.getPrompt(request));
          const reference = referenceIn(error.message);
          expect(error).toEqual({
            code: -32603,
            message: `MCP error -32603: Error getting prompt ${call.name} (reference ${reference})`,
            data: failureData(failureObject('internal', false, { correlationId: reference })),
          });
          expect(records).toHaveLength(1);
          expect(records[0]).toMatchObject({ level: 'error', kind: 'crash', handler: 'prompt', name: call.name, reference, correlationId: reference, status: 500 });
          expect(records[0]?.message).toBe(`prompt "${call.name}" crashed (reference ${reference}): Error "ENOENT: no such file, open '/srv/${CANARY}'"`);
          expect(withoutDurations(outcomes)).toEqual([{ kind: 'prompt', name: call.name, status: 500, classification: 'crash' }]);
        });

        it('ResourceError, ToolError -> -32603 with their text; ResourceNotFoundError -> -32002', async () => {
          for (const [thrown, code, failureCode] of [
            [new ResourceError('That sheet has no summary yet'), -32603, 'resource_error'],
            [new ToolError('That sheet has no summary yet'), -32603, 'tool_error'],
            [new ResourceNotFoundError('That sheet has no summary yet'), -32002, 'resource_not_found'],
          ] as const) {
            const { policy, records, outcomes } = capture();
            const { client } = await connect(
              serve(mode, policy, () => {
                throw thrown;
              }),
            );
            // a prompt has no URI: no `uri` in the data, even for a not-found answer
            const error = await rpcError(client.getPrompt(request));
            expect(error).toEqual({ code, message: `MCP error ${code}: That sheet has no summary yet`, data: failureData(failureObject(failureCode, false)) });
            expect(records.map((r) => [r.level, r.kind])).toEqual([['info', 'anticipated']]);
            expectCorrelated(error, records[0]);
            expect(outcomes.map((o) => o.status)).toEqual([code === -32002 ? 404 : 500]);
          }
        });

        it("a thrown object's own integer code and data never reach the wire", async () => {
          const { policy } = capture();
          const { client } = await connect(
            serve(mode, policy, () => {
              throw Object.assign(new Error(`forbidden ${CANARY}`), { code: 403, data: { secret: CANARY } });
            }),
          );
          const error = await rpcError(client.getPrompt(request));
          expect(error).toEqual({
            code: -32603,
            message: `MCP error -32603: Error getting prompt ${call.name} (reference ${referenceIn(error.message)})`,
            data: failureData(failureObject('internal', false, { correlationId: referenceIn(error.message) })),
          });
          // The random reference id may hold the digits 403: search the text around it.
          expect(withoutReferences(JSON.stringify(error))).toContain('(reference <id>)');
          expect(withoutReferences(JSON.stringify(error))).not.toContain('CANARY');
          expect(withoutReferences(JSON.stringify(error))).not.toContain('403');
        });

        it('a successful prompt is unchanged', async () => {
          const ok = (...args: unknown[]) => ({
            description: 'summary',
            messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `args: ${JSON.stringify(args.length > 1 ? args[0] : null)}` } }],
          });
          const { policy, records, outcomes } = capture();
          const { client: plain } = await connect(serve('by hand', capture().policy, ok));
          const { client } = await connect(serve(mode, policy, ok));
          const expected = await plain.getPrompt(request);
          expect(expected.messages[0]?.content).toEqual({ type: 'text', text: `args: ${JSON.stringify(call.arguments ?? null)}` });
          expect(await client.getPrompt(request)).toEqual(expected);
          expect(records).toEqual([]);
          expect(withoutDurations(outcomes)).toEqual([{ kind: 'prompt', name: call.name, status: 200 }]);
        });
      });
    }
  });
}

describe('the failure object on prompt errors', () => {
  it('failureObject: false: no `data`; a retry delay still ends the text', async () => {
    for (const mode of ['by hand', 'applyErrorPolicy'] as const) {
      const { policy, records } = capture({ failureObject: false });
      const { client } = await connect(
        serve(mode, policy, () => {
          throw new ToolError('Busy', { code: 'busy', retryAfterMs: 2500 });
        }),
      );
      expect(await rpcError(client.getPrompt({ name: 'hello' }))).toEqual({ code: -32603, message: 'MCP error -32603: Busy. Retry after 3 s.', data: undefined });
      expect(records[0]?.correlationId).toMatch(REFERENCE);
      const on = capture();
      const { client: withObject } = await connect(
        serve(mode, on.policy, () => {
          throw new ToolError('Busy', { code: 'busy', retryAfterMs: 2500 });
        }),
      );
      const error = await rpcError(withObject.getPrompt({ name: 'hello' }));
      expect(error.data).toEqual(failureData(failureObject('busy', true, { retryAfterMs: 2500 })));
      expectCorrelated(error, on.records[0]);
    }
  });
});

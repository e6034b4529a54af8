/**
 * Property: hostile thrown values through a real McpServer and the real SDK Client over InMemoryTransport (a smaller
 * share of the cases than the direct calls). Each case: the client gets exactly the expected answer (an isError
 * result valid for CallToolResultSchema; for resources and prompts exactly the policy's JSON-RPC error),
 * the server sends one message per request, none holds the canary, and one well-formed record agrees with it. Then
 * the same through a server under applyErrorPolicy, with plain handlers and with a handler also wrapped by hand.
 */
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError, type CallToolResult, type GetPromptResult, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { build, caseArb } from './arbitraries.js';
import { applyErrorPolicy } from '../../src/index.js';
import { arm, expectOutcome, fail, itHoldsForHostileCases, MAXES, policies, prompts, records, resources, tools, WITH_OUTCOMES, type Max } from './hostile-harness.js';
import { CANARY, expectRpcAnswer, expectToolAnswer, openSession, runs, settle, timeoutFor, type Expectation, type WireSession } from './support.js';

describe('hostile thrown values through a real McpServer and SDK Client over InMemoryTransport', () => {
  let session: WireSession;

  beforeAll(async () => {
    session = await openSession((server) => {
      for (const max of MAXES) {
        server.registerTool(`hostile_${max}`, { inputSchema: { n: z.number() } }, tools.get(max)!);
        server.registerResource(`hostile_${max}`, new ResourceTemplate(`hostile${max}://case/{n}`, { list: undefined }), {}, resources.get(max)!);
        // Without argsSchema the SDK calls the callback with `extra` only; its types expect (args, extra).
        server.registerPrompt(`hostile_prompt_${max}`, {}, prompts.get(max)! as never);
      }
    });
  });
  afterAll(async () => {
    await session.close();
  });

  /** The messages the server sent since `from`: exactly one (the answer), without the canary. */
  function answerOnWire(from: number): Record<string, unknown> {
    const sent = session.wire.slice(from);
    for (const message of sent) expect(message.includes(CANARY), `canary on the wire: ${message.slice(0, 300)}`).toBe(false);
    expect(sent.length, 'one answer per request').toBe(1);
    return JSON.parse(sent[0]!) as Record<string, unknown>;
  }

  /**
   * Makes the request `call`, which must be refused: its one message on the wire is the policy's JSON-RPC error for
   * `expected` (one record, one outcome). Returns what the client threw and the code and message on the wire.
   */
  async function refusal(call: () => Promise<unknown>, expected: Expectation, handler: 'resource' | 'prompt', name: string, max: Max): Promise<{ error: unknown; code: number; message: string } | undefined> {
    const from = session.wire.length;
    const outcome = await settle(call());
    expect(outcome.rejected).toBe(true);
    if (!outcome.rejected) return undefined;
    const wire = answerOnWire(from);
    expectRpcAnswer(wire.error, records, expected, handler, name, max);
    expectOutcome(max, expected, handler, name);
    const { code, message } = wire.error as { code: number; message: string };
    return { error: outcome.error, code, message };
  }

  itHoldsForHostileCases(
    'tools: the exact isError result on the wire and at the client; one record; no canary',
    'toolSession',
    10,
    async ({ max, expected }) => {
      const from = session.wire.length;
      const result = await session.client.callTool({ name: `hostile_${max}`, arguments: { n: 1 } });
      expect(answerOnWire(from).result).toEqual(result);
      expectToolAnswer(result, records, expected, `hostile_${max}`, max);
      expectOutcome(max, expected, 'tool', `hostile_${max}`);
    },
  );

  itHoldsForHostileCases(
    'resources: exactly the policy JSON-RPC error on the wire, MCP error at the client; one record; no canary',
    'resourceSession',
    10,
    async ({ max, expected, n }) => {
      const uri = `hostile${max}://case/${n}`;
      const refused = await refusal(() => session.client.readResource({ uri }), expected, 'resource', uri, max);
      if (refused === undefined) return;
      expect(refused.error).toBeInstanceOf(McpError);
      expect([(refused.error as McpError).code, (refused.error as McpError).message]).toEqual([refused.code, `MCP error ${refused.code}: ${refused.message}`]);
    }, { uriIndex: true },
  );

  itHoldsForHostileCases(
    'prompts: exactly the policy JSON-RPC error on the wire, MCP error at the client; one record; no canary',
    'promptSession',
    10,
    async ({ max, expected }) => {
      const refused = await refusal(() => session.client.getPrompt({ name: `hostile_prompt_${max}` }), expected, 'prompt', `hostile_prompt_${max}`, max);
      if (refused === undefined) return;
      expect([(refused.error as McpError).code, (refused.error as McpError).message]).toEqual([refused.code, `MCP error ${refused.code}: ${refused.message}`]);
    },
  );
});

describe('hostile thrown values through a server under applyErrorPolicy (plain and already-wrapped handlers)', () => {
  let session: WireSession;
  const max = WITH_OUTCOMES;

  beforeAll(async () => {
    session = await openSession((server) => {
      applyErrorPolicy(server, policies.get(max)!);
      server.registerTool('plain_tool', { inputSchema: { n: z.number() } }, () => fail<CallToolResult>());
      // Wrapped by hand and by applyErrorPolicy: still one record and one outcome per call.
      server.registerTool('double_tool', { inputSchema: { n: z.number() } }, tools.get(max)!);
      server.registerResource('plain_resource', new ResourceTemplate('plain://case/{n}', { list: undefined }), {}, () => fail<ReadResourceResult>());
      server.registerPrompt('plain_prompt', { argsSchema: { topic: z.string() } }, () => fail<GetPromptResult>());
    });
  });
  afterAll(async () => {
    await session.close();
  });

  it(
    'the exact answer, one record, one outcome, no canary on the wire',
    async () => {
      await fc.assert(
        fc.asyncProperty(caseArb(), fc.constantFrom('plain_tool', 'double_tool', 'plain_resource', 'plain_prompt'), async (spec, target) => {
          const { value, expected } = build(spec, max);
          arm(value, spec.mode);
          const from = session.wire.length;
          if (target === 'plain_tool' || target === 'double_tool') {
            const result = await session.client.callTool({ name: target, arguments: { n: 1 } });
            const name = target === 'plain_tool' ? 'plain_tool' : `hostile_${max}`;
            expectToolAnswer(result, records, expected, name, max);
            expectOutcome(max, expected, 'tool', name);
          } else {
            const outcome = await settle(target === 'plain_resource' ? session.client.readResource({ uri: 'plain://case/7' }) : session.client.getPrompt({ name: 'plain_prompt', arguments: { topic: 't' } }));
            expect(outcome.rejected).toBe(true);
            const sent = session.wire.slice(from);
            expect(sent).toHaveLength(1);
            const wire = JSON.parse(sent[0]!) as { error: unknown };
            const [handler, name] = target === 'plain_resource' ? (['resource', 'plain://case/7'] as const) : (['prompt', 'plain_prompt'] as const);
            expectRpcAnswer(wire.error, records, expected, handler, name, max);
            expectOutcome(max, expected, handler, name);
          }
          for (const message of session.wire.slice(from)) expect(message.includes(CANARY)).toBe(false);
        }),
        runs('applySession'),
      );
    },
    timeoutFor('applySession', 10),
  );
});

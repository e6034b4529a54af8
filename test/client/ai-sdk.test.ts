/**
 * The recipe for the Vercel AI SDK's MCP client (`@ai-sdk/mcp`): its `maxRetries` takes no predicate (it retries
 * transport failures and never an isError result), so the recipe wraps each tool's `execute` with `retryToolCall`,
 * the tool's own definition from tools/list giving the annotations. Tested as the notes print it, with the real
 * client against the fixture's server (test/client/fixture.ts) over the SDK's in-memory transport.
 */
import { createMCPClient, type MCPClient } from '@ai-sdk/mcp';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFailure, retryToolCall, type RetryOptions } from 'mcp-error-policy/client';
import type { LogRecord, Outcome } from '../../src/index.js';
import { newServer, startFakeApi, type FakeApi } from './fixture.js';

// --- the recipe (docs/agents.md) ---
/** The AI SDK tools of `mcp`, each retried by `retryToolCall` when that is safe. */
async function toolsWithSafeRetries(mcp: MCPClient, options: RetryOptions = {}) {
  const definitions = await mcp.listTools();
  const tools = mcp.toolsFromDefinitions(definitions);
  for (const definition of definitions.tools) {
    const tool = tools[definition.name];
    const execute = tool?.execute;
    if (tool === undefined || execute === undefined) continue;
    tool.execute = (async (args: unknown, context: Parameters<typeof execute>[1]) => {
      const signal = context?.abortSignal;
      const outcome = await retryToolCall(async () => execute(args, context), { ...options, tool: definition, ...(signal === undefined ? {} : { signal }) });
      if ('error' in outcome) throw outcome.error;
      return outcome.result;
    }) as typeof execute;
  }
  return tools;
}
// --- end of the recipe ---

describe('the AI SDK MCP client, its tools retried by retryToolCall', () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await startFakeApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('retries the read-only 429 after its Retry-After and the refused connection; never the 503 of a tool with effects, the crash, the ToolError', async () => {
    const records: LogRecord[] = [];
    const outcomes: Outcome[] = [];
    const server = await newServer('v1', api, records, outcomes);
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const mcp = await createMCPClient({ transport: clientSide });
    try {
      const slept: number[] = [];
      const tools = await toolsWithSafeRetries(mcp, { sleep: async (ms) => void slept.push(ms), random: () => 0.5, baseDelayMs: 100 });
      const run = async (name: string) => readFailure(await tools[name]!.execute!({}, { toolCallId: name, messages: [], context: {} }))?.code;
      expect([await run('search'), await run('charge'), await run('status'), await run('report'), await run('lookup')]).toEqual([
        undefined,
        'unavailable',
        'network',
        'internal',
        'tool_error',
      ]);
      expect(slept).toEqual([2000, 50, 100]);
      expect(outcomes.map((outcome) => outcome.name)).toEqual(['search', 'search', 'charge', 'status', 'status', 'status', 'report', 'lookup']);
      expect(api.requests).toEqual(['GET /search', 'GET /search', 'POST /charge']);
    } finally {
      await mcp.close();
      await server.close();
    }
  });
});

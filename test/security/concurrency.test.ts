/**
 * Concurrency: 10,000 concurrent failing calls on one server (a real McpServer and the real SDK Client over
 * InMemoryTransport) each get their own answer: a distinct reference, which appears in exactly one log record, and
 * that record is the one of the call's own failure (it names the call's own argument). Then a mixed batch of tools,
 * resources and prompts, anticipated and crashing, interleaved.
 */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createErrorPolicy,
  ResourceNotFoundError,
  ToolError,
  withClientVisibleErrors,
  withClientVisiblePromptErrors,
  withClientVisibleResourceErrors,
  type ErrorPolicy,
  type LogRecord,
} from '../../src/index.js';
import { FAILURE_KEY } from '../support/calls.js';
import { CANARY, openSession, recordLogger, settle, type WireSession } from './support.js';

/** Resolves after a few event-loop turns, so that the calls interleave. */
function jitter(i: number): Promise<void> {
  return new Promise((resolve) => {
    if (i % 2 === 0) setImmediate(resolve);
    else setTimeout(resolve, i % 7);
  });
}

/** Registers tool `name` (argument `i`) wrapped under `policy`: it waits a jittered while, then throws `failure(i)`. */
function jitteryTool(server: McpServer, name: string, policy: ErrorPolicy, failure: (i: number) => Error): void {
  server.registerTool(
    name,
    { inputSchema: { i: z.number() } },
    withClientVisibleErrors(async ({ i }) => {
      await jitter(i);
      throw failure(i);
    }, { name, policy }),
  );
}

let session: WireSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe('concurrent failures on one server', () => {
  it('10,000 concurrent crashing tool calls: distinct references, each in exactly one record, each record its own call', async () => {
    const { records, logger } = recordLogger();
    const policy = createErrorPolicy({ logger, exposeCrashDetails: false });
    session = await openSession((server) => {
      jitteryTool(server, 'crash', policy, (i) => new Error(`call ${i} failed: ${CANARY}`));
    });
    const N = 10_000;
    const client = session.client;
    const results = await Promise.all(Array.from({ length: N }, (_, i) => client.callTool({ name: 'crash', arguments: { i } })));

    const references = results.map((result, i) => {
      const text = (result as { content: { text: string }[] }).content[0]!.text;
      const match = /^Error executing tool crash \(reference ([0-9a-f]{12})\)$/.exec(text);
      expect(match, `call ${i}: ${text}`).not.toBeNull();
      // the failure object's correlation id is this call's reference
      expect(result).toEqual({ _meta: { [FAILURE_KEY]: { code: 'internal', retryable: false, correlationId: match![1] } }, content: [{ type: 'text', text }], isError: true });
      return match![1]!;
    });
    expect(new Set(references).size).toBe(N);
    expect(records).toHaveLength(N);

    const byReference = new Map<string, LogRecord[]>();
    for (const record of records) byReference.set(record.reference ?? '', [...(byReference.get(record.reference ?? '') ?? []), record]);
    const problems: string[] = [];
    references.forEach((reference, i) => {
      const own = byReference.get(reference) ?? [];
      if (own.length !== 1) problems.push(`call ${i}: reference ${reference} in ${own.length} records`);
      else if (own[0]!.correlationId !== reference) problems.push(`call ${i}: correlationId ${String(own[0]!.correlationId)}`);
      else if (own[0]!.errorMessage !== `call ${i} failed: ${CANARY}`) problems.push(`call ${i}: record of another call: ${own[0]!.errorMessage}`);
      else if (!own[0]!.message.startsWith(`tool "crash" crashed (reference ${reference}): Error "call ${i} failed: `)) problems.push(`call ${i}: headline ${own[0]!.message}`);
    });
    expect(problems).toEqual([]);
    for (const message of session.wire) expect(message.includes(CANARY)).toBe(false);
  }, 120_000);

  it('3,000 interleaved tool, resource and prompt calls, anticipated and crashing: each answer is its own', async () => {
    const { records, logger } = recordLogger();
    const policy = createErrorPolicy({ logger, exposeCrashDetails: false });
    session = await openSession((server) => {
      jitteryTool(server, 'mixed', policy, (i) => (i % 2 === 0 ? new ToolError(`tool item ${i} is locked`) : new Error(`tool ${i} ${CANARY}`)));
      server.registerResource(
        'item',
        new ResourceTemplate('item://{i}', { list: undefined }),
        {},
        withClientVisibleResourceErrors(async (_uri, { i }) => {
          await jitter(Number(i));
          throw Number(i) % 2 === 0 ? new ResourceNotFoundError(`no item ${String(i)}`) : new Error(`resource ${String(i)} ${CANARY}`);
        }, { policy }),
      );
      server.registerPrompt(
        'summary',
        { argsSchema: { i: z.string() } },
        withClientVisiblePromptErrors(async ({ i }): Promise<GetPromptResult> => {
          await jitter(Number(i));
          throw Number(i) % 2 === 0 ? new ToolError(`prompt item ${i} is empty`) : new Error(`prompt ${i} ${CANARY}`);
        }, { name: 'summary', policy }),
      );
    });
    const client = session.client;
    const N = 3_000;
    const answers = await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const kind = i % 3;
        if (kind === 0) {
          const result = (await client.callTool({ name: 'mixed', arguments: { i } })) as { content: { text: string }[] };
          return result.content[0]!.text;
        }
        const outcome = kind === 1 ? await settle(client.readResource({ uri: `item://${i}` })) : await settle(client.getPrompt({ name: 'summary', arguments: { i: String(i) } }));
        expect(outcome.rejected).toBe(true);
        return (outcome as { error: McpError }).error.message;
      }),
    );
    expect(records).toHaveLength(N);
    const references = new Set<string>();
    const problems: string[] = [];
    answers.forEach((text, i) => {
      const kind = i % 3;
      const even = i % 2 === 0;
      const expected =
        kind === 0
          ? even
            ? `Error executing tool mixed: tool item ${i} is locked`
            : /^Error executing tool mixed \(reference ([0-9a-f]{12})\)$/
          : kind === 1
            ? even
              ? `MCP error -32002: no item ${i}`
              : new RegExp(`^MCP error -32603: Error reading resource item://${i} \\(reference ([0-9a-f]{12})\\)$`)
            : even
              ? `MCP error -32603: prompt item ${i} is empty`
              : /^MCP error -32603: Error getting prompt summary \(reference ([0-9a-f]{12})\)$/;
      if (typeof expected === 'string') {
        if (text !== expected) problems.push(`call ${i}: ${text}`);
        return;
      }
      const match = expected.exec(text);
      if (match === null) {
        problems.push(`call ${i}: ${text}`);
        return;
      }
      const reference = match[1]!;
      if (references.has(reference)) problems.push(`call ${i}: reference ${reference} given twice`);
      references.add(reference);
      const own = records.filter((record) => record.reference === reference);
      const word = kind === 0 ? 'tool' : kind === 1 ? 'resource' : 'prompt';
      if (own.length !== 1 || own[0]!.errorMessage !== `${word} ${i} ${CANARY}`) problems.push(`call ${i}: records ${JSON.stringify(own)}`);
    });
    expect(problems).toEqual([]);
    expect(references.size).toBe(N / 2);
    for (const message of session.wire) expect(message.includes(CANARY)).toBe(false);
  }, 120_000);
});

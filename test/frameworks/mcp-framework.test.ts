/**
 * mcp-framework: its MCPTool catches what `execute` throws and answers with `createErrorResponse(error)` (the error's
 * message, isError); whatever `execute` returns is a success. The recipe (docs/frameworks.md) is a base class whose
 * `createErrorResponse` returns `toToolResult(error, this.name, policy)`. The server (servers/mcp-framework.ts) runs
 * from a scratch install, over stdio, with the real SDK client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCrash, expectShown, TOOL_ERROR } from './support.js';
import { scratchOf, startScratchServer, type ScratchServer } from './scratch.js';

const { dir, skip } = scratchOf('mcp-framework', 'mcp-framework');

describe.skipIf(skip)('mcp-framework with a PolicyTool base class', () => {
  let server: ScratchServer;
  beforeAll(async () => {
    server = await startScratchServer('mcp-framework.ts', dir);
  });
  afterAll(async () => {
    await server.close();
  });

  it('masks a crash with a reference (one error record with its stack)', async () => {
    const answer = await server.client.callTool({ name: 'crash', arguments: {} });
    expectCrash(answer, await server.takeRecords(1), 'crash');
  });

  it('shows a ToolError (one info record)', async () => {
    const answer = await server.client.callTool({ name: 'tool_error', arguments: {} });
    expectShown(answer, await server.takeRecords(1), 'tool_error', { name: 'ToolError', message: TOOL_ERROR, rule: 'deliberate' });
  });

  it('leaves a success as it was', async () => {
    expect(await server.client.callTool({ name: 'ok', arguments: {} })).toEqual({ content: [{ type: 'text', text: '"fine"' }] });
    expect(await server.takeRecords(0)).toEqual([]);
  });
});

/**
 * Mastra (`@mastra/mcp` 2.0 MCPServer): any value a tool's `execute` returns is a success, and a thrown error becomes a
 * JSON dump of a MastraError; only its own validation-error shape becomes an isError result with its `message` as the
 * text. The recipe (docs/frameworks.md) is a `withPolicy(name, execute)` helper that returns that shape with the
 * policy's text. The failure object does not reach the client (Mastra builds the result itself). The server
 * (servers/mastra.ts) runs from a scratch install on Node 22, over stdio, with the real v2 client on protocol
 * revision 2026-07-28 (Mastra 2 refuses older ones).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectCrash, expectShown, TOOL_ERROR } from './support.js';
import { scratchOf, startScratchServer, type ScratchServer } from './scratch.js';

const { dir, skip } = scratchOf('mastra', '@mastra/mcp', 22);
const SERVER_META = { _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'sheets', version: '1.0.0' } } };

describe.skipIf(skip)('Mastra MCPServer with the withPolicy helper', () => {
  let server: ScratchServer;
  beforeAll(async () => {
    server = await startScratchServer('mastra.ts', dir, '2026-07-28');
  }, 60_000);
  afterAll(async () => {
    await server.close();
  });

  it('masks a crash with a reference (one error record with its stack)', async () => {
    const answer = await server.client.callTool({ name: 'crash', arguments: {} });
    expectCrash(answer, await server.takeRecords(1), 'crash', SERVER_META);
  });

  it('shows a ToolError (one info record)', async () => {
    const answer = await server.client.callTool({ name: 'tool_error', arguments: {} });
    expectShown(answer, await server.takeRecords(1), 'tool_error', { name: 'ToolError', message: TOOL_ERROR, rule: 'deliberate' }, SERVER_META);
  });
});

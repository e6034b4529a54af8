/**
 * mcp-framework: its MCPTool catches what `execute` throws and answers with `createErrorResponse(error)` (the error's
 * message, isError); whatever `execute` returns is a success. The recipe (docs/frameworks.md) is a base class whose
 * `createErrorResponse` returns `toToolResult(error, this.name, policy)`. The server (servers/mcp-framework.ts) runs
 * from a scratch install, over stdio, with the real SDK client.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { itAnswersTheThreeCalls, scratchOf, startScratchServer, type ScratchServer } from './scratch.js';

const { dir, skip } = scratchOf('mcp-framework', 'mcp-framework');

describe.skipIf(skip)('mcp-framework with a PolicyTool base class', () => {
  let server: ScratchServer;
  beforeAll(async () => {
    server = await startScratchServer('mcp-framework.ts', dir);
  });
  afterAll(async () => {
    await server.close();
  });

  itAnswersTheThreeCalls(() => server, '"fine"'); // mcp-framework answers a returned value as JSON text
});

/**
 * xmcp (1.1): each tool file's default export is registered with the SDK's McpServer (v2) inside xmcp's own runtime,
 * and a returned result with `content` (and `isError`, `_meta`) passes through as it is. xmcp offers no place for one
 * line (no server hook: its middlewares are HTTP request handlers), so the recipe (docs/frameworks.md) wraps each tool
 * file's default export with `withClientVisibleErrors`. The project (servers/xmcp/) is built by `xmcp build` in a
 * scratch install beside the packed package (scripts/frameworks.sh), and its built stdio server is driven by the
 * real v2 client. xmcp has no error class of its own for "show the user this".
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { itAnswersTheThreeCalls, scratchOf, startStdioServer, type ScratchServer } from './scratch.js';

const { dir, skip } = scratchOf('xmcp', 'xmcp');

describe.skipIf(skip)('xmcp with each tool file under withClientVisibleErrors', () => {
  let server: ScratchServer;
  beforeAll(async () => {
    server = await startStdioServer([join(dir, 'dist', 'stdio.js')], {}, 'v2');
  });
  afterAll(async () => {
    await server.close();
  });

  itAnswersTheThreeCalls(() => server, 'fine'); // xmcp makes a returned string the text
});

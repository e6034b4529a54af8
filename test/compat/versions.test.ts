/**
 * Which copies of the SDK and zod the tests really loaded, read from the stack frames of errors those copies construct
 * (so a redirection that silently fell back to the project's node_modules is caught). scripts/matrix.sh sets
 * COMPAT_EXPECT_SDK / COMPAT_EXPECT_ZOD / COMPAT_EXPECT_SERVER for each cell, and COMPAT_REPORT to collect what ran.
 */
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { thrownBy, versionOf } from './loaded.js';

function sdkError(): unknown {
  const server = new McpServer({ name: 'probe', version: '1.0.0' });
  server.registerTool('probe', {}, () => ({ content: [] }));
  return thrownBy(() => server.registerTool('probe', {}, () => ({ content: [] })));
}

describe('the versions under test', () => {
  const loaded = {
    node: process.versions.node,
    sdk: versionOf(sdkError(), '@modelcontextprotocol/sdk'),
    zod: versionOf(
      thrownBy(() =>
        z
          .string()
          .transform(() => {
            throw new Error('probe');
          })
          .parse('x'),
      ),
      'zod',
    ),
  };

  it('are the ones the matrix cell asked for', () => {
    const env = process.env;
    if (env['COMPAT_REPORT'] !== undefined && env['COMPAT_REPORT'] !== '') appendFileSync(env['COMPAT_REPORT'], `${JSON.stringify(loaded)}\n`);
    expect(loaded.sdk).toMatch(/^1\.\d+\.\d+$/);
    if (env['COMPAT_EXPECT_SDK']) expect(loaded.sdk).toBe(env['COMPAT_EXPECT_SDK']);
    if (env['COMPAT_EXPECT_ZOD']) expect(loaded.zod).toBe(env['COMPAT_EXPECT_ZOD']);
    if (env['COMPAT_EXPECT_NODE_MAJOR']) expect(process.versions.node.split('.')[0]).toBe(env['COMPAT_EXPECT_NODE_MAJOR']);
  });
});

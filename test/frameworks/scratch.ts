/**
 * Framework servers that cannot be installed beside the project's own dependencies (mcp-framework wants zod 3; Mastra
 * wants Node 22): scripts/frameworks.sh installs each into .tmp/frameworks/<name>/, and the server file of
 * test/frameworks/servers/ runs as a stdio subprocess whose bare imports resolve there (redirect.mjs); a project built
 * there by its framework (xmcp) runs as it was built. The tests of such a framework skip while its scratch install is
 * missing, unless FRAMEWORKS_SCRATCH=1 (the script sets it) makes a missing install a failure.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, it } from 'vitest';
import type { LogRecord } from '../../src/index.js';
import { expectCrash, expectShown, TOOL_ERROR } from './support.js';

/**
 * The scratch directory of `name`, and whether its tests skip: `pkg` is not installed there (or the framework needs
 * Node `minNode` and this is older), and FRAMEWORKS_SCRATCH is not 1.
 */
export function scratchOf(name: string, pkg: string, minNode = 20): { dir: string; skip: boolean } {
  const dir = resolve('.tmp/frameworks', name);
  const runnable = existsSync(join(dir, 'node_modules', pkg, 'package.json')) && Number(process.versions.node.split('.')[0]) >= minNode;
  return { dir, skip: !runnable && process.env['FRAMEWORKS_SCRATCH'] !== '1' };
}

/** The records a server wrote so far (as `RECORD <json>` lines), and a way to wait for the next ones. */
export type RecordLines = Pick<ScratchServer, 'records' | 'takeRecords'>;

/** Reads the `RECORD <json>` lines out of `text()`, the output a server wrote so far. */
export function recordLines(text: () => string): RecordLines {
  let taken = 0;
  const records = (): LogRecord[] =>
    text()
      .split('\n')
      .filter((line) => line.startsWith('RECORD '))
      .map((line) => JSON.parse(line.slice('RECORD '.length)) as LogRecord);
  return {
    records,
    takeRecords: async (count) => {
      const until = Date.now() + 10_000;
      while (records().length < taken + count && Date.now() < until) await new Promise((done) => setTimeout(done, 10));
      const out = records().slice(taken);
      taken += out.length;
      return out;
    },
  };
}

/** A framework server running from its scratch install, a client connected to it, and the records it logged. */
export interface ScratchServer {
  readonly client: { callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<unknown> };
  /** The records logged so far (the server writes each as a `RECORD <json>` line on stderr). */
  records(): LogRecord[];
  /** Waits (up to 10 s) until `count` records have been logged, then returns them and forgets them. */
  takeRecords(count: number): Promise<LogRecord[]>;
  /** Everything the server wrote to stderr so far (servers started by `startStdioServer`). */
  stderr?(): string;
  close(): Promise<void>;
}

/**
 * Starts `test/frameworks/servers/<file>` with its imports resolved from `dir`, and connects the real SDK client: v1's
 * (`'v1'`), or v2's speaking protocol revision 2026-07-28 (`'2026-07-28'`).
 */
export function startScratchServer(file: string, dir: string, protocol: 'v1' | '2026-07-28' = 'v1'): Promise<ScratchServer> {
  const args = ['--import', 'tsx', '--import', './test/frameworks/redirect.mjs', join('test/frameworks/servers', file)];
  return startStdioServer(args, { FRAMEWORK_DEPS: dir }, protocol);
}

/**
 * Starts `node <args>` (NODE_ENV production, and `env`) and connects the real SDK client over stdio: v1's (`'v1'`), v2's
 * speaking protocol revision 2026-07-28 (`'2026-07-28'`), or v2's negotiating the revision (`'v2'`).
 */
export async function startStdioServer(args: string[], env: Record<string, string>, protocol: 'v1' | 'v2' | '2026-07-28'): Promise<ScratchServer> {
  const params = {
    command: process.execPath,
    args,
    cwd: process.cwd(),
    env: { ...(process.env as Record<string, string>), NODE_ENV: 'production', ...env },
    stderr: 'pipe' as const,
  };
  const transport = protocol === 'v1' ? new StdioClientTransport(params) : new StdioClientTransportV2(params);
  let text = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const info = { name: 'test-client', version: '1.0.0' };
  const client =
    protocol === 'v1' ? new Client(info) : new ClientV2(info, protocol === 'v2' ? {} : { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport as never);
  return {
    client,
    ...recordLines(() => text),
    stderr: () => text,
    close: () => client.close(),
  };
}

/**
 * The three calls every scratch framework test makes of the server `session()` returns, with its tools `crash`,
 * `tool_error` and `ok`: a crash masked, a ToolError shown (one exact record each), and `ok`'s success answered with
 * the text `okText`, nothing logged.
 */
export function itAnswersTheThreeCalls(session: () => Pick<ScratchServer, 'client' | 'takeRecords'>, okText: string): void {
  it('masks a crash with a reference (one error record with its stack)', async () => {
    const answer = await session().client.callTool({ name: 'crash', arguments: {} });
    expectCrash(answer, await session().takeRecords(1), 'crash');
  });

  it('shows a ToolError (one info record)', async () => {
    const answer = await session().client.callTool({ name: 'tool_error', arguments: {} });
    expectShown(answer, await session().takeRecords(1), 'tool_error', { name: 'ToolError', message: TOOL_ERROR, rule: 'deliberate' });
  });

  it('leaves a success as it was', async () => {
    expect(await session().client.callTool({ name: 'ok', arguments: {} })).toEqual({ content: [{ type: 'text', text: okText }] });
    expect(await session().takeRecords(0)).toEqual([]);
  });
}

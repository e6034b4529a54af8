/**
 * Where there is no `process.stderr` (workerd), the default logger writes each record through the console method of
 * its level, one text without a trailing newline: a real McpServer under applyErrorPolicy's default logger, called
 * through a real Client, with `process.stderr` taken away for the test. (scripts/runtimes.sh sees the same on workerd.)
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyErrorPolicy, ToolError } from '../../src/index.js';
import { connect, newServer, type Session } from '../support/session.js';

const stderr = Object.getOwnPropertyDescriptor(process, 'stderr')!;
let session: Session | undefined;
beforeEach(() => {
  Object.defineProperty(process, 'stderr', { value: undefined, configurable: true });
});
afterEach(async () => {
  Object.defineProperty(process, 'stderr', stderr);
  vi.restoreAllMocks();
  await session?.close();
  session = undefined;
});

describe('the default logger without process.stderr', () => {
  it('writes each record through console.info, console.warn or console.error, without a trailing newline', async () => {
    const written: [string, unknown[]][] = [];
    for (const level of ['info', 'warn', 'error', 'log', 'debug'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void written.push([level, args]));
    }
    const server = newServer();
    applyErrorPolicy(server);
    server.registerTool('deliberate', {}, () => {
      throw new ToolError('Sheet name must not be empty');
    });
    server.registerTool('network', {}, () => {
      throw Object.assign(new Error('Network connection lost.'), { remote: true, retryable: true });
    });
    server.registerTool('crash', {}, () => {
      throw new Error('boom');
    });
    session = await connect(server);
    for (const name of ['deliberate', 'network', 'crash']) await session.client.callTool({ name, arguments: {} });

    expect(written.map(([level, args]) => [level, args.length])).toEqual([
      ['info', 1],
      ['warn', 1],
      ['error', 1],
    ]);
    const [info, warn, error] = written.map(([, args]) => String(args[0]));
    expect(info).toMatch(/^\[mcp-error-policy\] INFO tool "deliberate" failed: ToolError "Sheet name must not be empty" \(correlation [0-9a-f]{12}\)$/);
    expect(warn).toMatch(/^\[mcp-error-policy\] WARN tool "network" failed \(rule network\): Error "Network connection lost\." \(correlation [0-9a-f]{12}\)\n {4}at /);
    expect(error).toMatch(/^\[mcp-error-policy\] ERROR tool "crash" crashed \(reference [0-9a-f]{12}\): Error "boom"\n {4}at /);
    for (const text of [info, warn, error]) expect(text).not.toMatch(/\n$/);
  });
});

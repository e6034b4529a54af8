/**
 * Cancellation over stdio, where SDK servers run most: a real server subprocess (test/server/fixtures/
 * cancel-stdio-server.ts) whose tool awaits a `fetch` to a 127.0.0.1 server of this test that never answers, and a
 * real Client over StdioClientTransport that cancels the call, with its AbortSignal and with its request timeout. The
 * SDK aborts the call's signal with the client's reason as a string, and `fetch` rejects with that string: the record
 * is one info line (no stack, no reference), the access log says 499, and nothing reaches the client's stdin for the
 * cancelled requests.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startExample, type RunningExample } from '../support/stdio.js';
import { startHangingServer, type HangingServer } from './fixtures/hanging-http.js';

const fixture = fileURLToPath(new URL('./fixtures/cancel-stdio-server.ts', import.meta.url));

let hang: HangingServer;
let running: RunningExample | undefined;
beforeEach(async () => {
  hang = await startHangingServer();
});
afterEach(async () => {
  await running?.close();
  running = undefined;
  await hang.close();
});

/** A JSON-RPC message as it crossed the pipe. */
interface Message {
  readonly id?: unknown;
  readonly method?: unknown;
}

it('a cancelled tool call is one info line and a 499 on stderr, and nothing on stdout', async () => {
  running = await startExample(fixture, { HANG_URL: hang.origin });
  const { client } = running;
  // every message the server writes to its stdout, and every request the client writes to the server's stdin
  const transport = client.transport!;
  const received: Message[] = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    received.push(message as Message);
    deliver?.call(transport, message, extra);
  };
  const sent: Message[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(message as Message);
    return send(message, options);
  };
  const access = (): number => running!.stderr().split('\n').filter((line) => line.startsWith('[access] ')).length;

  // the caller's AbortSignal, once the handler's request reached the hanging server
  const controller = new AbortController();
  const aborted = client.callTool({ name: 'slow_search', arguments: { query: 'first' } }, undefined, { signal: controller.signal }).catch((error: unknown) => error);
  await hang.requested('/search?q=first');
  controller.abort();
  expect(await aborted).toMatchObject({ code: -32001, message: 'MCP error -32001: AbortError: This operation was aborted' });
  await running.waitForStderr(() => access() === 1);
  // the client's request timeout
  const timedOut = await client.callTool({ name: 'slow_search', arguments: { query: 'second' } }, undefined, { timeout: 200 }).catch((error: unknown) => error);
  expect(timedOut).toMatchObject({ code: -32001, message: 'MCP error -32001: Request timed out' });
  await running.waitForStderr(() => access() === 2);
  // a later request is answered; the cancelled ones never were
  await client.ping();

  // the answers that came: the ping's only
  const idsOf = (method: string): unknown[] => sent.filter((message) => message.method === method).map((message) => message.id);
  expect(idsOf('tools/call')).toHaveLength(2);
  expect(received.filter((message) => message.method === undefined).map((message) => message.id)).toEqual(idsOf('ping'));
  const stderr = await running.closeAndReadStderr();
  const lines = stderr
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/\(correlation [0-9a-f]{12}\)$/, '(correlation <id>)'));
  expect(lines).toEqual([
    '[mcp-error-policy] INFO tool "slow_search" cancelled: string "AbortError: This operation was aborted" (correlation <id>)',
    '[access] {"kind":"tool","name":"slow_search","status":499}',
    '[mcp-error-policy] INFO tool "slow_search" cancelled: string "McpError: MCP error -32001: Request timed out" (correlation <id>)',
    '[access] {"kind":"tool","name":"slow_search","status":499}',
  ]);
}, 30_000);

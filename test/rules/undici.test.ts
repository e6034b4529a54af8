/**
 * undici's own errors, thrown for real: a tool of a real SDK v1 McpServer (under applyErrorPolicy, through a real Client)
 * calls a server on 127.0.0.1 with undici (the devDependency, `fetch` and `request` on an `Agent` with small timeouts),
 * and lets undici's error propagate. A server that never answers gives UND_ERR_HEADERS_TIMEOUT, one that sends the
 * headers and then stalls UND_ERR_BODY_TIMEOUT (both timeouts), one that closes the socket mid-response UND_ERR_SOCKET
 * (a network failure). undici's `fetch` throws `TypeError` (`fetch failed` before the response, `terminated` while
 * reading the body) with the undici error as its `cause`; `request` throws the undici error itself.
 *
 * No test depends on how long anything takes: each server never sends what the client waits for, so the timeout that
 * fires is the only way the call can end; and the socket one has sent its headers before it closes. (undici runs its
 * headers and body timeouts on its own coarse timer, which ticks every half second: a 50 ms timeout fires after about
 * a second, which is why these tests take that long.)
 */
import { createServer, type RequestListener } from 'node:http';
import { Agent, fetch, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { applyErrorPolicy, type LogRecord } from '../../src/index.js';
import { failureObject, expectCorrelated, toolFailure } from '../support/failure.js';
import { listenOnLoopback, type Listening } from '../support/loopback.js';
import { capture, connect, newServer, withoutDurations, withoutReferences, type Session } from '../support/session.js';

const SECRET_KEY = 'AIzaSyA1234567890abcdefghijklmnopqrstu';
const TOOL = 'fetch_rows';

let upstream: Listening | undefined;
let agent: Agent | undefined;
let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  await agent?.destroy();
  await upstream?.close();
  session = undefined;
  agent = undefined;
  upstream = undefined;
});

/** How the tool reads the upstream: undici's `fetch`, or its `request`; either way it returns the body's text. */
type Client = 'fetch' | 'request';

const read: Record<Client, (url: string, dispatcher: Agent) => Promise<string>> = {
  fetch: async (url, dispatcher) => (await fetch(url, { dispatcher })).text(),
  request: async (url, dispatcher) => (await request(url, { dispatcher })).body.text(),
};

/** A server that accepts the request and never answers it. */
const silent: RequestListener = () => undefined;

/** A server that sends the headers and the first part of the body, then nothing more. */
const stallsAfterHeaders: RequestListener = (_req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '100' });
  res.write('first part');
};

/** A server that sends the headers and the first part of a 100-byte body, then closes the socket. */
const closesMidResponse: RequestListener = (_req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '100' });
  res.write('first part', () => res.socket?.destroy());
};

/**
 * Starts `handler` on 127.0.0.1, registers the tool (which reads `<origin>/v1/rows?key=<secret>` with `client` on an
 * Agent made with `agentOptions`) on a server under a capturing policy, and calls it once through a real client.
 */
async function callThroughUndici(handler: RequestListener, client: Client, agentOptions: ConstructorParameters<typeof Agent>[0]) {
  upstream = await listenOnLoopback(createServer(handler));
  agent = new Agent(agentOptions);
  const url = `${upstream.origin}/v1/rows?key=${SECRET_KEY}`;
  const dispatcher = agent;
  const { policy, records, outcomes } = capture();
  const server = newServer();
  applyErrorPolicy(server, policy);
  server.registerTool(TOOL, {}, async () => ({ content: [{ type: 'text' as const, text: await read[client](url, dispatcher) }] }));
  session = await connect(server);
  const result = await session.client.callTool({ name: TOOL, arguments: {} });
  return { result, records, outcomes, url };
}

/**
 * Neither the URL, its host and path, nor the key is in the client's answer or in any record. (The port alone is not
 * looked for: a random number can stand in a stack frame's line number; wherever a URL leaks, its host does too.)
 */
function expectNoUrl(answer: unknown, records: readonly LogRecord[], url: string): void {
  for (const [what, text] of [
    ['client answer', JSON.stringify(answer)],
    ['log records', JSON.stringify(records)],
  ] as const) {
    const plain = withoutReferences(text);
    expect(plain, what).not.toContain(url);
    expect(plain, what).not.toContain('127.0.0.1');
    expect(plain, what).not.toContain('/v1/rows');
    expect(plain, what).not.toContain(SECRET_KEY);
    expect(plain, what).not.toContain('AIzaSy');
  }
}

/** What the record of a failure says about the error thrown, for `fetch` (a TypeError wrapping it) and `request`. */
function thrown(client: Client, fetchMessage: string, name: string, message: string, rule: string) {
  const matchedLine = `${name} "${message}"`;
  return client === 'fetch'
    ? {
        message: `tool "${TOOL}" failed (rule ${rule}): TypeError "${fetchMessage}"; matched cause ${matchedLine}`,
        errorName: 'TypeError',
        errorMessage: fetchMessage,
        matchedErrorName: name,
        matchedErrorMessage: message,
        // the TypeError's frames, then the undici error's
        stack: expect.stringMatching(new RegExp(`^ {4}at [^]*\\n  caused by: ${matchedLine}\\n {4}at .*undici`)),
      }
    : { message: `tool "${TOOL}" failed (rule ${rule}): ${matchedLine}`, errorName: name, errorMessage: message, stack: expect.stringMatching(/^ {4}at .*undici/) };
}

/** The three failures: the server, the Agent's options, and what the client and the record must say. */
const CASES = [
  { title: 'UND_ERR_HEADERS_TIMEOUT (a server that never answers, headersTimeout): a timeout, fixed text', handler: silent, agentOptions: { headersTimeout: 50 },
    text: 'The operation timed out', code: 'timeout', rule: 'timeout', status: 504, fetchMessage: 'fetch failed', name: 'HeadersTimeoutError', message: 'Headers Timeout Error' },
  { title: 'UND_ERR_BODY_TIMEOUT (headers, then a stalled body, bodyTimeout): a timeout, fixed text', handler: stallsAfterHeaders, agentOptions: { bodyTimeout: 50 },
    text: 'The operation timed out', code: 'timeout', rule: 'timeout', status: 504, fetchMessage: 'terminated', name: 'BodyTimeoutError', message: 'Body Timeout Error' },
  { title: 'UND_ERR_SOCKET (the server closes the socket mid-response): a network failure naming the code, never the URL', handler: closesMidResponse, agentOptions: {},
    text: 'Network error: connection closed by the other side (UND_ERR_SOCKET)', code: 'network', rule: 'network', status: 502, fetchMessage: 'terminated', name: 'SocketError', message: 'other side closed' },
] as const;

describe.each(['fetch', 'request'] as const)('undici %s, its errors thrown out of a tool', (client) => {
  it.each(CASES.map((c) => [c.title, c] as const))('%s', async (_title, { handler, agentOptions, text, code, rule, status, fetchMessage, name, message }) => {
    const { result, records, outcomes, url } = await callThroughUndici(handler, client, agentOptions);
    expect(result).toEqual(toolFailure(`Error executing tool ${TOOL}: ${text}`, failureObject(code, true)));
    const correlationId = expectCorrelated(result, records[0]);
    expect(records).toEqual([
      { level: 'warn', kind: 'anticipated', handler: 'tool', name: TOOL, rule, status, correlationId, ...thrown(client, fetchMessage, name, message, rule) },
    ]);
    expect(withoutDurations(outcomes)).toEqual([{ kind: 'tool', name: TOOL, status, classification: 'anticipated' }]);
    expectNoUrl(result, records, url);
  });
});

/**
 * Cancellation is not a crash: a handler awaiting a `fetch` to a 127.0.0.1 server that never answers, with the call's
 * signal, and a real client that cancels the call (its AbortSignal, or its request timeout). The SDK aborts the
 * signal with the peer's reason as a string, which `fetch` rejects with; whatever the handler then throws, the
 * failure is one info line (rule `cancelled`, status 499, no reference, no stack), and nothing goes on the wire for
 * that request. Tools, resources, prompts, completions and lists; SDK v1 and v2; McpServer and the low-level Server;
 * in memory (test/server/cancel-stdio.test.ts: over stdio).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, CompleteRequestSchema, ListPromptsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { InMemoryTransport as InMemoryTransportV2, McpServer as McpServerV2, ResourceTemplate as ResourceTemplateV2, Server as ServerV2 } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyErrorPolicy, createErrorPolicy, type LogRecord, type Outcome } from '../../src/index.js';
import { failureObject, toolFailure } from '../support/failure.js';
import { link, type LinkableClient, type LinkableServer } from '../support/link.js';
import { REFERENCE, withoutDurations } from '../support/calls.js';
import { startHangingServer, type HangingServer } from './fixtures/hanging-http.js';

/** The reason SDK clients (v1 and v2) send when the caller's AbortSignal aborts: `String(new DOMException(...))`. */
const ABORTED = 'AbortError: This operation was aborted';
/** The reason SDK v1's client sends when its request timeout fires. */
const TIMED_OUT_V1 = 'McpError: MCP error -32001: Request timed out';

let hang: HangingServer;
beforeEach(async () => {
  hang = await startHangingServer();
});
afterEach(async () => {
  await hang.close();
});

/** A JSON-RPC message as a transport sends it. */
interface Message {
  readonly id?: unknown;
  readonly method?: unknown;
}

/** Records every message `transport` sends, in `into`, before sending it. */
function tap(transport: object, into: Message[]): void {
  const target = transport as { send: (message: Message, options?: unknown) => Promise<void> };
  const send = target.send.bind(target);
  target.send = (message, options) => {
    into.push(message);
    return send(message, options);
  };
}

/** Links `server` and `client` over `pair`, recording what each side puts on the wire. */
async function wired<S extends LinkableServer, C extends LinkableClient>(server: S, client: C, pair: readonly [object, object]) {
  const toClient: Message[] = [];
  const toServer: Message[] = [];
  tap(pair[0], toClient);
  tap(pair[1], toServer);
  const linked = await link(server, client, pair);
  return {
    ...linked,
    /** What the server sent in answer to the client's requests of `method` (expected: nothing, once cancelled). */
    answersTo(method: string): Message[] {
      const ids = toServer.filter((message) => message.method === method).map((message) => message.id);
      expect(ids.length).toBeGreaterThan(0);
      return toClient.filter((message) => message.method === undefined && ids.includes(message.id));
    },
  };
}

/** A policy that records, and a way to wait until its records or outcomes are in. */
function recorder() {
  const records: LogRecord[] = [];
  const outcomes: Outcome[] = [];
  let wake: (() => void) | undefined;
  const policy = createErrorPolicy({
    logger: (record) => {
      records.push(record);
      wake?.();
    },
    onOutcome: (outcome) => {
      outcomes.push(outcome);
      wake?.();
    },
  });
  return {
    policy,
    records,
    outcomes,
    /** Resolves once `done()` holds, checked after each record and outcome. */
    async until(done: () => boolean): Promise<void> {
      while (!done()) await new Promise<void>((resolve) => (wake = resolve));
    },
  };
}

/**
 * Makes `call` with an AbortSignal, aborts it once the handler's request reached the hanging server at `path`, and
 * returns what the client's call rejected with (the client's own error: the server sends nothing).
 */
async function cancelAt(path: string, call: (signal: AbortSignal) => Promise<unknown>): Promise<unknown> {
  const controller = new AbortController();
  const pending = call(controller.signal).then(
    (value) => ({ resolved: value }),
    (error: unknown) => error,
  );
  await hang.requested(path);
  controller.abort();
  return pending;
}

/** The one info line of a cancelled call. */
function cancelledRecord(handler: string, name: string, thrown: { errorName: string; errorMessage: string }, about?: string): Record<string, unknown> {
  const who = `${handler} ${JSON.stringify(name)}${about === undefined ? '' : ` (${about})`}`;
  return {
    level: 'info',
    message: `${who} cancelled: ${thrown.errorName} ${JSON.stringify(thrown.errorMessage)}`,
    kind: 'anticipated',
    handler,
    name,
    ...(about === undefined ? {} : { about }),
    rule: 'cancelled',
    status: 499,
    ...thrown,
    correlationId: expect.stringMatching(REFERENCE),
  };
}

const thrownString = (text: string) => ({ errorName: 'string', errorMessage: text });

/** What every cancellation's classification says, as `onOutcome` receives it. */
function expectCancellations(outcomes: readonly Outcome[]): void {
  for (const { classification } of outcomes) {
    expect(classification?.kind === 'anticipated' && { rule: classification.rule.name, message: classification.message, level: classification.level }).toEqual({
      rule: 'cancelled',
      message: 'The request was cancelled.',
      level: 'info',
    });
    expect(classification?.kind === 'anticipated' && classification.failure).toEqual(failureObject('cancelled', false));
  }
}

describe('SDK v1 McpServer', () => {
  it('a tool the client cancels (its AbortSignal, its request timeout): one info line, status 499, nothing on the wire', async () => {
    const { policy, records, outcomes, until } = recorder();
    const server = new McpServer({ name: 'cancel', version: '1.0.0' });
    server.registerTool('slow_search', { inputSchema: { query: z.string() } }, async ({ query }, extra) => {
      const response = await fetch(`${hang.origin}/search?q=${query}`, { signal: extra.signal });
      return { content: [{ type: 'text', text: await response.text() }] };
    });
    applyErrorPolicy(server, policy);
    const { client, answersTo } = await wired(server, new Client({ name: 'c', version: '1.0.0' }), InMemoryTransport.createLinkedPair());

    const aborted = await cancelAt('/search?q=first', (signal) => client.callTool({ name: 'slow_search', arguments: { query: 'first' } }, undefined, { signal }));
    // the client's own error for its cancelled request
    expect(aborted).toMatchObject({ code: -32001, message: `MCP error -32001: ${ABORTED}` });
    await until(() => outcomes.length === 1);
    const timedOut = await client.callTool({ name: 'slow_search', arguments: { query: 'second' } }, undefined, { timeout: 100 }).catch((error: unknown) => error);
    expect(timedOut).toMatchObject({ code: -32001, message: 'MCP error -32001: Request timed out' });
    await until(() => outcomes.length === 2);

    expect(records).toStrictEqual([cancelledRecord('tool', 'slow_search', thrownString(ABORTED)), cancelledRecord('tool', 'slow_search', thrownString(TIMED_OUT_V1))]);
    expect(withoutDurations(outcomes)).toEqual([
      { kind: 'tool', name: 'slow_search', status: 499, classification: 'anticipated' },
      { kind: 'tool', name: 'slow_search', status: 499, classification: 'anticipated' },
    ]);
    expectCancellations(outcomes);
    // a later request is answered; the cancelled ones never were
    await client.ping();
    expect(answersTo('ping')).toHaveLength(1);
    expect(answersTo('tools/call')).toEqual([]);
  });

  it('a resource, a prompt and a template list callback: whatever they throw once the call is cancelled', async () => {
    const { policy, records, outcomes, until } = recorder();
    const server = new McpServer({ name: 'cancel', version: '1.0.0' });
    // an AbortError (a DOMException) of its own, in place of what fetch rejected with
    server.registerResource('sheet', new ResourceTemplate('sheet://{name}', { list: undefined }), {}, async (uri, _variables, extra) => {
      await fetch(`${hang.origin}/sheet`, { signal: extra.signal }).catch(() => {
        throw new DOMException('The sheet read was aborted', 'AbortError');
      });
      return { contents: [{ uri: uri.href, text: '' }] };
    });
    // a TypeError the abort caused: the failed fetch's response is read anyway
    server.registerPrompt('summarize', {}, async (extra) => {
      const response = await fetch(`${hang.origin}/summary`, { signal: extra.signal }).catch(() => undefined);
      return { messages: [{ role: 'user', content: { type: 'text', text: await (response as Response).text() } }] };
    });
    // resources/list runs the template list callbacks (src/wrap/request.ts)
    server.registerResource('files', new ResourceTemplate('file://{name}', { list: async (extra) => {
      await fetch(`${hang.origin}/files`, { signal: extra.signal });
      return { resources: [] };
    } }), {}, () => ({ contents: [] }));
    applyErrorPolicy(server, policy);
    const { client, answersTo } = await wired(server, new Client({ name: 'c', version: '1.0.0' }), InMemoryTransport.createLinkedPair());

    expect(await cancelAt('/sheet', (signal) => client.readResource({ uri: 'sheet://q3' }, { signal }))).toMatchObject({ code: -32001 });
    await until(() => outcomes.length === 1);
    expect(await cancelAt('/summary', (signal) => client.getPrompt({ name: 'summarize' }, { signal }))).toMatchObject({ code: -32001 });
    await until(() => outcomes.length === 2);
    expect(await cancelAt('/files', (signal) => client.listResources(undefined, { signal }))).toMatchObject({ code: -32001 });
    await until(() => records.length === 3);

    expect(records).toStrictEqual([
      cancelledRecord('resource', 'sheet://q3', { errorName: 'AbortError', errorMessage: 'The sheet read was aborted' }),
      cancelledRecord('prompt', 'summarize', { errorName: 'TypeError', errorMessage: "Cannot read properties of undefined (reading 'text')" }),
      cancelledRecord('resource', 'resources/list', thrownString(ABORTED), 'resource template "files"'),
    ]);
    // lists get no access-log outcome
    expect(withoutDurations(outcomes)).toEqual([
      { kind: 'resource', name: 'sheet://q3', status: 499, classification: 'anticipated' },
      { kind: 'prompt', name: 'summarize', status: 499, classification: 'anticipated' },
    ]);
    expectCancellations(outcomes);
    await client.ping();
    expect(answersTo('ping')).toHaveLength(1);
    expect([...answersTo('resources/read'), ...answersTo('prompts/get'), ...answersTo('resources/list')]).toEqual([]);
  });

  it('a failure while the call is not cancelled stays as it was: the handler aborting its own fetch is the core abort rule', async () => {
    const { policy, records, outcomes } = recorder();
    const server = new McpServer({ name: 'cancel', version: '1.0.0' });
    server.registerTool('own_abort', {}, async () => {
      const own = new AbortController();
      own.abort();
      await fetch(`${hang.origin}/own`, { signal: own.signal });
      return { content: [] };
    });
    applyErrorPolicy(server, policy);
    const { client } = await wired(server, new Client({ name: 'c', version: '1.0.0' }), InMemoryTransport.createLinkedPair());

    const result = await client.callTool({ name: 'own_abort', arguments: {} });
    expect(result).toEqual(toolFailure('Error executing tool own_abort: The operation was aborted', failureObject('aborted', false)));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level: 'warn', rule: 'abort', status: 499, errorName: 'AbortError', message: 'tool "own_abort" failed (rule abort): AbortError "This operation was aborted"' });
    expect(records[0]?.stack).toMatch(/^ {4}at /);
    expect(withoutDurations(outcomes)).toEqual([{ kind: 'tool', name: 'own_abort', status: 499, classification: 'anticipated' }]);
  });
});

describe('SDK v1 low-level Server', () => {
  it('tools/call, completion/complete and prompts/list handlers the client cancels', async () => {
    const { policy, records, outcomes, until } = recorder();
    const server = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {}, prompts: {}, completions: {} } });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      await fetch(`${hang.origin}/call/${request.params.name}`, { signal: extra.signal });
      return { content: [] };
    });
    applyErrorPolicy(server, policy);
    server.setRequestHandler(CompleteRequestSchema, async (_request, extra) => {
      await fetch(`${hang.origin}/complete`, { signal: extra.signal });
      return { completion: { values: [] } };
    });
    server.setRequestHandler(ListPromptsRequestSchema, async (_request, extra) => {
      await fetch(`${hang.origin}/prompts`, { signal: extra.signal });
      return { prompts: [] };
    });
    const { client, answersTo } = await wired(server, new Client({ name: 'c', version: '1.0.0' }), InMemoryTransport.createLinkedPair());

    await cancelAt('/call/slow_search', (signal) => client.callTool({ name: 'slow_search', arguments: {} }, undefined, { signal }));
    await until(() => outcomes.length === 1);
    await cancelAt('/complete', (signal) => client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'sheet', value: 'Q' } }, { signal }));
    await until(() => records.length === 2);
    await cancelAt('/prompts', (signal) => client.listPrompts(undefined, { signal }));
    await until(() => records.length === 3);

    expect(records).toStrictEqual([
      cancelledRecord('tool', 'slow_search', thrownString(ABORTED)),
      cancelledRecord('prompt', 'completion/complete', thrownString(ABORTED), 'prompt "summarize" argument "sheet"'),
      cancelledRecord('prompt', 'prompts/list', thrownString(ABORTED)),
    ]);
    expect(withoutDurations(outcomes)).toEqual([{ kind: 'tool', name: 'slow_search', status: 499, classification: 'anticipated' }]);
    expectCancellations(outcomes);
    await client.ping();
    expect(answersTo('ping')).toHaveLength(1);
    expect([...answersTo('tools/call'), ...answersTo('completion/complete'), ...answersTo('prompts/list')]).toEqual([]);
  });
});

describe('SDK v2 (@modelcontextprotocol/server)', () => {
  it('an McpServer tool (ctx.mcpReq.signal) and a template list callback the client cancels', async () => {
    const { policy, records, outcomes, until } = recorder();
    const server = new McpServerV2({ name: 'cancel-v2', version: '1.0.0' });
    server.registerTool('slow_search', { inputSchema: z.object({ query: z.string() }) }, async ({ query }, ctx) => {
      const response = await fetch(`${hang.origin}/search?q=${query}`, { signal: ctx.mcpReq.signal });
      return { content: [{ type: 'text', text: await response.text() }] };
    });
    server.registerResource('files', new ResourceTemplateV2('file://{name}', { list: async (ctx) => {
      await fetch(`${hang.origin}/files`, { signal: ctx.mcpReq.signal });
      return { resources: [] };
    } }), {}, () => ({ contents: [] }));
    applyErrorPolicy(server, policy);
    const { client, answersTo } = await wired(server, new ClientV2({ name: 'c', version: '1.0.0' }), InMemoryTransportV2.createLinkedPair());

    await cancelAt('/search?q=first', (signal) => client.callTool({ name: 'slow_search', arguments: { query: 'first' } }, { signal }));
    await until(() => outcomes.length === 1);
    const timedOut = await client.callTool({ name: 'slow_search', arguments: { query: 'second' } }, { timeout: 100 }).catch((error: unknown) => error);
    await until(() => outcomes.length === 2);
    await cancelAt('/files', (signal) => client.listResources(undefined, { signal }));
    await until(() => records.length === 3);

    expect(records).toStrictEqual([
      cancelledRecord('tool', 'slow_search', thrownString(ABORTED)),
      // v2's client sends its timeout error as the reason
      cancelledRecord('tool', 'slow_search', thrownString(String(timedOut))),
      cancelledRecord('resource', 'resources/list', thrownString(ABORTED), 'resource template "files"'),
    ]);
    expect(String(timedOut)).toMatch(/timed out/i);
    expect(withoutDurations(outcomes)).toEqual([
      { kind: 'tool', name: 'slow_search', status: 499, classification: 'anticipated' },
      { kind: 'tool', name: 'slow_search', status: 499, classification: 'anticipated' },
    ]);
    expectCancellations(outcomes);
    await client.ping();
    expect(answersTo('ping')).toHaveLength(1);
    expect([...answersTo('tools/call'), ...answersTo('resources/list')]).toEqual([]);
  });

  it('a low-level Server tools/call handler the client cancels', async () => {
    const { policy, records, outcomes, until } = recorder();
    const server = applyErrorPolicy(new ServerV2({ name: 'low-v2', version: '1.0.0' }, { capabilities: { tools: {} } }), policy);
    server.setRequestHandler('tools/call', async (request, ctx) => {
      await fetch(`${hang.origin}/call/${request.params.name}`, { signal: ctx.mcpReq.signal });
      return { content: [] };
    });
    const { client, answersTo } = await wired(server, new ClientV2({ name: 'c', version: '1.0.0' }), InMemoryTransportV2.createLinkedPair());

    await cancelAt('/call/slow_search', (signal) => client.callTool({ name: 'slow_search', arguments: {} }, { signal }));
    await until(() => outcomes.length === 1);

    expect(records).toStrictEqual([cancelledRecord('tool', 'slow_search', thrownString(ABORTED))]);
    expect(withoutDurations(outcomes)).toEqual([{ kind: 'tool', name: 'slow_search', status: 499, classification: 'anticipated' }]);
    expectCancellations(outcomes);
    await client.ping();
    expect(answersTo('ping')).toHaveLength(1);
    expect(answersTo('tools/call')).toEqual([]);
  });
});

/**
 * applyErrorPolicy on a real SDK v1 McpServer, through a real Client over InMemoryTransport: every registration path,
 * before and after the call, update(), idempotence, hand-wrapped callbacks, no list_changed notifications, and the
 * SDK's own answers (unknown names, bad URIs, invalid arguments) kept and counted once in the access log.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  applyErrorPolicy,
  createErrorPolicy,
  defaultPolicy,
  ToolError,
  withClientVisibleErrors,
  withClientVisiblePromptErrors,
  withClientVisibleResourceErrors,
} from '../../src/index.js';
import { expectAppliedWithoutNotifications } from '../support/apply.js';
import { expectCorrelated, failureObject } from '../support/failure.js';
import { capture, connect, correlationIdOf, FAILURE_KEY, failureObjectOf, newServer, referenceIn, rpcError, textOf, withoutDurations, withStderr } from '../support/session.js';

const CANARY = 'CANARY-7f3e: /srv/secret/path';

function crash(): never {
  throw new Error(CANARY);
}

type Registration = (server: McpServer, cb: () => never) => void;

/** One registration per method of the SDK v1 McpServer, each with a callback that crashes. */
const registrations: Record<string, { register: Registration; call: 'tool' | 'resource' | 'prompt'; target: string; text: string }> = {
  registerTool: {
    register: (s, cb) => s.registerTool('t_reg', {}, cb),
    call: 'tool',
    target: 't_reg',
    text: 'Error executing tool t_reg',
  },
  tool: { register: (s, cb) => s.tool('t_legacy', 'legacy tool', cb), call: 'tool', target: 't_legacy', text: 'Error executing tool t_legacy' },
  'registerResource (static)': {
    register: (s, cb) => s.registerResource('r_reg', 'static://reg', {}, cb),
    call: 'resource',
    target: 'static://reg',
    text: 'MCP error -32603: Error reading resource static://reg',
  },
  'resource (static)': {
    register: (s, cb) => s.resource('r_legacy', 'static://legacy', cb),
    call: 'resource',
    target: 'static://legacy',
    text: 'MCP error -32603: Error reading resource static://legacy',
  },
  'registerResource (template)': {
    register: (s, cb) => s.registerResource('tpl_reg', new ResourceTemplate('tplreg://{id}', { list: undefined }), {}, cb),
    call: 'resource',
    target: 'tplreg://42',
    text: 'MCP error -32603: Error reading resource tplreg://42',
  },
  'resource (template)': {
    register: (s, cb) => s.resource('tpl_legacy', new ResourceTemplate('tpllegacy://{id}', { list: undefined }), { mimeType: 'text/plain' }, cb),
    call: 'resource',
    target: 'tpllegacy://42',
    text: 'MCP error -32603: Error reading resource tpllegacy://42',
  },
  registerPrompt: {
    register: (s, cb) => s.registerPrompt('p_reg', { argsSchema: { q: z.string() } }, cb),
    call: 'prompt',
    target: 'p_reg',
    text: 'MCP error -32603: Error getting prompt p_reg',
  },
  prompt: { register: (s, cb) => s.prompt('p_legacy', cb), call: 'prompt', target: 'p_legacy', text: 'MCP error -32603: Error getting prompt p_legacy' },
};

/** Calls `target` and returns the text the client shows for its failure, and the answer (result or error). */
async function failureText(client: Awaited<ReturnType<typeof connect>>['client'], call: 'tool' | 'resource' | 'prompt', target: string): Promise<{ shown: string; answer: unknown }> {
  if (call === 'tool') {
    const result = await client.callTool({ name: target, arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    return { shown: textOf(result), answer: result };
  }
  const error = await rpcError(call === 'resource' ? client.readResource({ uri: target }) : client.getPrompt({ name: target, arguments: { q: 'x' } }));
  expect(error.code).toBe(-32603);
  // the policy's own data only: the failure object
  expect(Object.keys(error.data as object)).toEqual([FAILURE_KEY]);
  return { shown: error.message, answer: error };
}

describe('applyErrorPolicy covers every registration method', () => {
  for (const [method, { register, call, target, text }] of Object.entries(registrations)) {
    for (const when of ['before', 'after'] as const) {
      it(`${method}, registered ${when} the call: one masked answer, one record, one outcome`, async () => {
        const { policy, records, outcomes } = capture();
        const server = newServer();
        if (when === 'before') register(server, crash);
        expect(applyErrorPolicy(server, policy)).toBe(server);
        if (when === 'after') register(server, crash);
        const { client } = await connect(server);

        const { shown, answer } = await failureText(client, call, target);
        const reference = referenceIn(shown);
        expect(shown).toBe(`${text} (reference ${reference})`);
        expect(failureObjectOf(answer)).toEqual(failureObject('internal', false, { correlationId: reference }));
        expect(expectCorrelated(answer, records[0])).toBe(reference);
        expect(shown).not.toContain('CANARY');
        expect(records).toHaveLength(1);
        expect(records[0]).toMatchObject({
          level: 'error',
          kind: 'crash',
          handler: call,
          name: target,
          status: 500,
          reference,
          errorName: 'Error',
          errorMessage: CANARY,
        });
        expect(records[0]?.message).toBe(`${call} ${JSON.stringify(target)} crashed (reference ${reference}): Error ${JSON.stringify(CANARY)}`);
        expect(withoutDurations(outcomes)).toEqual([{ kind: call, name: target, status: 500, classification: 'crash' }]);
      });
    }
  }
});

describe('update({ callback }) after applyErrorPolicy', () => {
  it('wraps the new callback of a tool, static resource, resource template and prompt', async () => {
    const { policy, records, outcomes } = capture();
    const server = newServer();
    const ok = { content: [{ type: 'text' as const, text: 'fine' }] };
    const tool = server.registerTool('t', {}, () => ok);
    const resource = server.registerResource('r', 'static://r', {}, (uri) => ({ contents: [{ uri: uri.href, text: 'fine' }] }));
    const template = server.registerResource('tpl', new ResourceTemplate('tpl://{id}', { list: undefined }), {}, (uri) => ({
      contents: [{ uri: uri.href, text: 'fine' }],
    }));
    const prompt = server.registerPrompt('p', {}, () => ({ messages: [] }));
    applyErrorPolicy(server, policy);
    const { client } = await connect(server);

    tool.update({ callback: crash });
    resource.update({ callback: crash });
    template.update({ callback: crash });
    prompt.update({ callback: crash });

    expect(textOf(await client.callTool({ name: 't', arguments: {} }))).toMatch(/^Error executing tool t \(reference [0-9a-f]{12}\)$/);
    expect((await rpcError(client.readResource({ uri: 'static://r' }))).message).toMatch(
      /^MCP error -32603: Error reading resource static:\/\/r \(reference [0-9a-f]{12}\)$/,
    );
    expect((await rpcError(client.readResource({ uri: 'tpl://1' }))).message).toMatch(
      /^MCP error -32603: Error reading resource tpl:\/\/1 \(reference [0-9a-f]{12}\)$/,
    );
    expect((await rpcError(client.getPrompt({ name: 'p' }))).message).toMatch(/^MCP error -32603: Error getting prompt p \(reference [0-9a-f]{12}\)$/);
    expect(records.map((r) => [r.handler, r.name, r.kind])).toEqual([
      ['tool', 't', 'crash'],
      ['resource', 'static://r', 'crash'],
      ['resource', 'tpl://1', 'crash'],
      ['prompt', 'p', 'crash'],
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([500, 500, 500, 500]);
  });

  it('names the failures of a renamed tool and prompt by their new names', async () => {
    const { policy, records } = capture();
    const server = newServer();
    const before = server.registerTool('old_tool', {}, crash);
    const prompt = server.registerPrompt('old_prompt', {}, crash);
    applyErrorPolicy(server, policy);
    const after = server.registerTool('late_tool', {}, crash);
    const { client } = await connect(server);

    before.update({ name: 'new_tool' });
    after.update({ name: 'renamed_late' });
    prompt.update({ name: 'new_prompt' });

    expect(textOf(await client.callTool({ name: 'new_tool', arguments: {} }))).toMatch(/^Error executing tool new_tool \(reference [0-9a-f]{12}\)$/);
    expect(textOf(await client.callTool({ name: 'renamed_late', arguments: {} }))).toMatch(/^Error executing tool renamed_late \(reference/);
    expect((await rpcError(client.getPrompt({ name: 'new_prompt' }))).message).toMatch(/^MCP error -32603: Error getting prompt new_prompt \(reference/);
    expect(records.map((r) => r.name)).toEqual(['new_tool', 'renamed_late', 'new_prompt']);
  });

  it('keeps enable(), disable() and remove() working', async () => {
    const { policy, outcomes } = capture();
    const server = newServer();
    const tool = server.registerTool('t', {}, () => ({ content: [{ type: 'text', text: 'on' }] }));
    applyErrorPolicy(server, policy);
    const { client } = await connect(server);
    tool.disable();
    expect(textOf(await client.callTool({ name: 't', arguments: {} }))).toBe('MCP error -32602: Tool t disabled');
    tool.enable();
    expect(textOf(await client.callTool({ name: 't', arguments: {} }))).toBe('on');
    tool.remove();
    expect(textOf(await client.callTool({ name: 't', arguments: {} }))).toBe('MCP error -32602: Tool t not found');
    expect(withoutDurations(outcomes)).toEqual([
      { kind: 'tool', name: 't', status: 404 },
      { kind: 'tool', name: 't', status: 200 },
      { kind: 'tool', name: 't', status: 404 },
    ]);
  });
});

describe('applyErrorPolicy is idempotent', () => {
  it('applied twice: one record and one outcome per failure, and the same server back', async () => {
    const { policy, records, outcomes } = capture();
    const server = newServer();
    server.registerTool('before', {}, crash);
    applyErrorPolicy(server, policy);
    expect(applyErrorPolicy(server, policy)).toBe(server);
    server.registerTool('after', {}, crash);
    server.registerResource('r', 'static://r', {}, crash);
    const { client } = await connect(server);

    await client.callTool({ name: 'before', arguments: {} });
    await client.callTool({ name: 'after', arguments: {} });
    await rpcError(client.readResource({ uri: 'static://r' }));
    expect(records.map((r) => r.name)).toEqual(['before', 'after', 'static://r']);
    expect(outcomes.map((o) => [o.name, o.status])).toEqual([
      ['before', 500],
      ['after', 500],
      ['static://r', 500],
    ]);
  });

  it('refuses a second, different policy for the same server', () => {
    const server = newServer();
    applyErrorPolicy(server, createErrorPolicy());
    expect(() => applyErrorPolicy(server, createErrorPolicy())).toThrow(
      new Error('applyErrorPolicy: this server already has another policy; apply one policy per server'),
    );
  });

  it('callbacks wrapped by hand, registered before and after, then applied: one record and one outcome each', async () => {
    const { policy, records, outcomes } = capture();
    const server = newServer();
    server.registerTool('hand_before', {}, withClientVisibleErrors(crash, { name: 'hand_before', policy }));
    server.registerResource('hr', 'static://hand', {}, withClientVisibleResourceErrors(crash, { policy }));
    server.registerPrompt('hp', {}, withClientVisiblePromptErrors(crash, { name: 'hp', policy }));
    server.registerTool(
      'hand_ok',
      {},
      withClientVisibleErrors(() => ({ content: [{ type: 'text' as const, text: 'ok' }] }), { name: 'hand_ok', policy }),
    );
    applyErrorPolicy(server, policy);
    server.registerTool('hand_after', {}, withClientVisibleErrors(crash, { name: 'hand_after', policy }));
    const { client } = await connect(server);

    expect(textOf(await client.callTool({ name: 'hand_before', arguments: {} }))).toMatch(/^Error executing tool hand_before \(reference/);
    expect(textOf(await client.callTool({ name: 'hand_after', arguments: {} }))).toMatch(/^Error executing tool hand_after \(reference/);
    expect(textOf(await client.callTool({ name: 'hand_ok', arguments: {} }))).toBe('ok');
    expect((await rpcError(client.readResource({ uri: 'static://hand' }))).message).toMatch(/^MCP error -32603: Error reading resource static:\/\/hand/);
    expect((await rpcError(client.getPrompt({ name: 'hp' }))).message).toMatch(/^MCP error -32603: Error getting prompt hp \(reference/);
    expect(records.map((r) => r.name)).toEqual(['hand_before', 'hand_after', 'static://hand', 'hp']);
    expect(withoutDurations(outcomes)).toEqual([
      { kind: 'tool', name: 'hand_before', status: 500, classification: 'crash' },
      { kind: 'tool', name: 'hand_after', status: 500, classification: 'crash' },
      { kind: 'tool', name: 'hand_ok', status: 200 },
      { kind: 'resource', name: 'static://hand', status: 500, classification: 'crash' },
      { kind: 'prompt', name: 'hp', status: 500, classification: 'crash' },
    ]);
  });
});

describe('applyErrorPolicy on a connected server', () => {
  it('sends no list_changed notification (a later update() still sends the SDK its own)', async () => {
    const server = newServer();
    const tool = server.registerTool('t', {}, crash);
    server.registerResource('r', 'static://r', {}, crash);
    server.registerResource('tpl', new ResourceTemplate('tpl://{id}', { list: undefined }), {}, crash);
    server.registerPrompt('p', {}, crash);
    await expectAppliedWithoutNotifications(await connect(server), tool);
  });
});

describe('the SDK answers itself; the access log counts those calls once, with no log record', () => {
  async function answers(server: McpServer) {
    const { client } = await connect(server);
    return [
      await client.callTool({ name: 'nope', arguments: {} }),
      await client.callTool({ name: 'typed', arguments: { n: 'not a number' } }),
      await rpcError(client.getPrompt({ name: 'nope' })),
      await rpcError(client.getPrompt({ name: 'ask', arguments: {} })),
      await rpcError(client.readResource({ uri: 'other://x' })),
      await rpcError(client.readResource({ uri: 'not a uri' })),
    ];
  }

  function build(): McpServer {
    const server = newServer();
    server.registerTool('typed', { inputSchema: { n: z.number() } }, ({ n }) => ({ content: [{ type: 'text', text: String(n) }] }));
    server.registerPrompt('ask', { argsSchema: { q: z.string() } }, ({ q }) => ({ messages: [{ role: 'user', content: { type: 'text', text: q } }] }));
    server.registerResource('tpl', new ResourceTemplate('tpl://{id}', { list: undefined }), {}, (uri) => ({ contents: [{ uri: uri.href, text: 'x' }] }));
    return server;
  }

  it('unknown tool, invalid arguments, unknown prompt, a URI no template matches, an invalid URI: same answers as without the policy', async () => {
    const plain = await answers(build());
    const { policy, records, outcomes } = capture();
    const covered = await answers(applyErrorPolicy(build(), policy));
    expect(covered).toEqual(plain);
    expect(plain[0]).toEqual({ content: [{ type: 'text', text: 'MCP error -32602: Tool nope not found' }], isError: true });
    expect(plain[2]).toEqual({ code: -32602, message: 'MCP error -32602: MCP error -32602: Prompt nope not found', data: undefined });
    expect(plain[4]).toEqual({ code: -32602, message: 'MCP error -32602: MCP error -32602: Resource other://x not found', data: undefined });
    expect(plain[5]).toEqual({ code: -32603, message: 'MCP error -32603: Invalid URL', data: undefined });
    expect(records).toEqual([]);
    expect(withoutDurations(outcomes)).toEqual([
      { kind: 'tool', name: 'nope', status: 404 },
      { kind: 'tool', name: 'typed', status: 400 },
      { kind: 'prompt', name: 'nope', status: 404 },
      { kind: 'prompt', name: 'ask', status: 400, classification: 'protocol' },
      { kind: 'resource', name: 'other://x', status: 404 },
      { kind: 'resource', name: 'not a uri', status: 400 },
    ]);
  });

  it('bounds and scrubs the peer-supplied name of a rejected call', async () => {
    const { policy, outcomes } = capture();
    const server = applyErrorPolicy(newServer(), policy);
    server.registerTool('t', {}, crash);
    server.registerResource('r', 'static://r', {}, crash);
    const { client } = await connect(server);
    await client.callTool({ name: `x${'y'.repeat(5000)}`, arguments: {} });
    await rpcError(client.readResource({ uri: 'https://example.com/a?access_token=ya29.SECRET' }));
    expect(outcomes[0]?.name).toBe(`x${'y'.repeat(198)}…`);
    expect(outcomes[1]?.name).toBe('https://example.com/a?access_token=[REDACTED]');
  });

  it('without an access log, the only request-level work on tools/call is the answer keeper (SDK 1.13.0/1.13.1): one record, the policy text', async () => {
    const records: unknown[] = [];
    const server = newServer();
    server.registerTool('t', {}, crash);
    applyErrorPolicy(server, createErrorPolicy({ logger: (r) => records.push(r) }));
    const { client } = await connect(server);
    expect(textOf(await client.callTool({ name: 't', arguments: {} }))).toMatch(/^Error executing tool t \(reference/);
    expect(records).toHaveLength(1);
  });
});

describe('task tools (registerToolTask) under the policy', () => {
  type Store = { createTask(p: { pollInterval: number }): Promise<{ taskId: string; status: string }>; storeTaskResult(id: string, status: string, result: unknown): Promise<void> };

  function taskServer() {
    return new McpServer({ name: 'tasks', version: '1.0.0' }, { capabilities: { tasks: { requests: { tools: { call: {} } } } }, taskStore: new InMemoryTaskStore() });
  }

  /** A task handler whose createTask stores `result` at once, or runs `fail`. */
  function taskHandler(fail?: () => never) {
    return {
      async createTask(extra: { taskStore: unknown }) {
        if (fail !== undefined) fail();
        const store = extra.taskStore as Store;
        const task = await store.createTask({ pollInterval: 5 });
        await store.storeTaskResult(task.taskId, 'completed', { content: [{ type: 'text', text: 'task done' }] });
        return { task };
      },
      async getTask() {
        throw new Error('unused');
      },
      async getTaskResult() {
        throw new Error('unused');
      },
    };
  }

  it('a task tool registered before the call still runs, and its call gets one outcome', async () => {
    const { policy, records, outcomes } = capture();
    const server = taskServer();
    server.experimental.tasks.registerToolTask('slow', { execution: { taskSupport: 'optional' } }, taskHandler() as never);
    applyErrorPolicy(server, policy);
    const { client } = await connect(server);
    expect(textOf(await client.callTool({ name: 'slow', arguments: {} }))).toBe('task done');
    expect(records).toEqual([]);
    expect(withoutDurations(outcomes)).toEqual([{ kind: 'tool', name: 'slow', status: 200 }]);
  });

  it('a crash in createTask, registered before or after the call: masked with a reference, one record, one outcome', async () => {
    const { policy, records, outcomes } = capture();
    const server = taskServer();
    server.experimental.tasks.registerToolTask('before', { execution: { taskSupport: 'optional' } }, taskHandler(crash) as never);
    applyErrorPolicy(server, policy);
    server.experimental.tasks.registerToolTask('after', { execution: { taskSupport: 'required' } }, taskHandler(crash) as never);
    server.experimental.tasks.registerToolTask('deliberate', { execution: { taskSupport: 'optional' } }, taskHandler(() => {
      throw new ToolError('The queue is full');
    }) as never);
    const { client } = await connect(server);

    // called without a task: the SDK makes the task and polls it, and answers what createTask threw as an isError result
    const before = textOf(await client.callTool({ name: 'before', arguments: {} }));
    expect(before).toBe(`Error executing tool before (reference ${referenceIn(before)})`);
    expect(textOf(await client.callTool({ name: 'deliberate', arguments: {} }))).toBe('Error executing tool deliberate: The queue is full');
    // called with a task, through the client's task API: the SDK answers with its own error, without the crash text
    const messages: { type: string; error?: { code?: unknown; message?: unknown } }[] = [];
    for await (const message of client.experimental.tasks.callToolStream({ name: 'after', arguments: {} }, undefined, { task: {} })) messages.push(message as never);
    expect(messages.map((m) => m.type)).toEqual(['error']);
    expect(messages[0]?.error?.code).toBe(-32602);
    // (SDK v1's McpError message holds its prefix, and the client adds one)
    expect(String(messages[0]?.error?.message)).toMatch(/^MCP error -32602: MCP error -32602: Invalid task creation result: \[/);
    expect(JSON.stringify(messages)).not.toContain('CANARY');

    expect(records.map(({ level, kind, name }) => ({ level, kind, name }))).toEqual([
      { level: 'error', kind: 'crash', name: 'before' },
      { level: 'info', kind: 'anticipated', name: 'deliberate' },
      { level: 'error', kind: 'crash', name: 'after' },
    ]);
    expect(records[0]?.reference).toBe(referenceIn(before));
    expect(withoutDurations(outcomes)).toEqual([
      { kind: 'tool', name: 'before', status: 500, classification: 'crash' },
      { kind: 'tool', name: 'deliberate', status: 500, classification: 'anticipated' },
      { kind: 'tool', name: 'after', status: 500, classification: 'crash' },
    ]);
  });
});

describe('argument validation', () => {
  it('refuses a value that is no server with a TypeError naming `server`', () => {
    const message = /^Expected `server` to be an McpServer or a low-level Server of @modelcontextprotocol\/sdk 1\.x or @modelcontextprotocol\/server 2\.x, a FastMCP, tmcp or mcp-use server, or a Nuxt NitroApp, got /;
    for (const bad of [undefined, null, 42, 'server', {}, [], () => undefined]) {
      expect(() => applyErrorPolicy(bad as never)).toThrow(TypeError);
      expect(() => applyErrorPolicy(bad as never)).toThrow(message);
    }
  });

  it('refuses an McpServer whose internals it does not know with an Error naming the SDK version, wrapping nothing', () => {
    const lookalike = { registerTool() {}, registerResource() {}, registerPrompt() {}, server: {} };
    expect(() => applyErrorPolicy(lookalike)).toThrow(
      /^applyErrorPolicy: this McpServer's internals are not a layout mcp-error-policy knows \(found @modelcontextprotocol\/server 2\.\d+\.\d+: no `_registeredTools`, `_registeredResources`, `_registeredResourceTemplates`, `_registeredPrompts`\)\. Supported: /,
    );
    // a real server whose tool registry holds an entry of a shape no SDK version has: refused before anything changes
    const server = newServer();
    server.registerTool('odd', {}, async () => ({ content: [] }));
    const registry = (server as unknown as { _registeredTools: Record<string, Record<string, unknown>> })._registeredTools;
    const entry = registry['odd']!;
    const callbackKey = 'handler' in entry ? 'handler' : 'callback';
    const original = entry[callbackKey];
    Reflect.deleteProperty(entry, callbackKey);
    const registerTool = server.registerTool;
    expect(() => applyErrorPolicy(server)).toThrow(/\(found @modelcontextprotocol\/sdk 1\.\d+\.\d+: no tool `callback` function\)/);
    expect(server.registerTool).toBe(registerTool);
    entry[callbackKey] = original;
  });

  it('refuses a bad policy with a TypeError naming `policy`, and leaves the server untouched', () => {
    const server = newServer();
    const registerTool = server.registerTool;
    for (const bad of [null, 42, {}, { rules: [] }, 'policy']) {
      expect(() => applyErrorPolicy(server, bad as never)).toThrow(TypeError);
      expect(() => applyErrorPolicy(server, bad as never)).toThrow(/^Expected `policy` to be a policy made by createErrorPolicy\(\), got /);
    }
    expect(server.registerTool).toBe(registerTool);
  });

  it('takes defaultPolicy when none is given', async () => {
    const server = newServer();
    server.registerTool('t', {}, () => {
      throw new ToolError('Sheet name must not be empty');
    });
    applyErrorPolicy(server);
    expect(() => applyErrorPolicy(server, defaultPolicy)).not.toThrow();
    const { client } = await connect(server);
    const { value: result, written } = await withStderr(() => client.callTool({ name: 't', arguments: {} }));
    expect(textOf(result)).toBe('Error executing tool t: Sheet name must not be empty');
    // the default policy's logger: one line on stderr
    expect(written).toEqual([`[mcp-error-policy] INFO tool "t" failed: ToolError "Sheet name must not be empty" (correlation ${correlationIdOf(result)})\n`]);
  });
});

/**
 * The SDK floor is one fact: the McpServer of `@modelcontextprotocol/sdk` 1.13.0 or later is taken by
 * `applyErrorPolicy(server)`, in the types and at run time; an older one (1.12: `tool()` and `registerTool`, no
 * `registerResource` or `registerPrompt`) is refused by both, each naming 1.13.0 and the way forward. Run on the SDK
 * of the lock file by `npm test`, and by scripts/matrix.sh on 1.13.0 (the floor), 1.13.2 (the first whose failing
 * tools with an output schema get the policy's answer from the SDK itself) and 1.12.3 (below it), where `COMPAT_DEPS` names the scratch
 * directory the SDK is installed in. Below 1.23.0 the SDK sends no `data` with a JSON-RPC error: a resource's or
 * prompt's failure then carries no failure object (a tool's does). On 1.13.0 and 1.13.1 the SDK refuses a failing
 * tool's isError result when the tool declares an `outputSchema` (-32602, fixed in 1.13.2): the line answers that
 * refusal with the policy's answer, so every version from the floor gets the same answer.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyErrorPolicy, createErrorPolicy, ToolError, withClientVisibleErrors, type LogRecord } from '../../src/index.js';
import { FAILURE_KEY, REFERENCE, referenceIn, rpcError } from '../support/calls.js';
import { link } from '../support/link.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEPS = process.env['COMPAT_DEPS'] === undefined || process.env['COMPAT_DEPS'] === '' ? ROOT : process.env['COMPAT_DEPS'];

async function sdkVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(join(DEPS, 'node_modules/@modelcontextprotocol/sdk/package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

function atLeast(version: string, floor: string): boolean {
  const [a, b] = [version, floor].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i += 1) if ((a?.[i] ?? 0) !== (b?.[i] ?? 0)) return (a?.[i] ?? 0) > (b?.[i] ?? 0);
  return true;
}

/** What `tsc` says of the README's one line, compiled against the SDK in DEPS. */
async function compileOneLine(): Promise<string> {
  const dir = await mkdtemp(join(DEPS, '.floor-'));
  try {
    const file = join(dir, 'one-line.ts');
    await writeFile(
      file,
      [
        "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
        `import { applyErrorPolicy } from ${JSON.stringify(join(ROOT, 'src/index.js'))};`,
        "import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';",
        "const server = applyErrorPolicy(new McpServer({ name: 'x', version: '1.0.0' }));",
        'export async function start(): Promise<void> {',
        '  await server.connect(new StdioServerTransport());',
        '}',
      ].join('\n'),
    );
    const args = ['--noEmit', '--strict', '--exactOptionalPropertyTypes', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022'];
    const types = ['--typeRoots', join(ROOT, 'node_modules/@types'), '--types', 'node'];
    try {
      await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), ...args, ...types, file], { cwd: dir });
      return '';
    } catch (error) {
      return String((error as { stdout?: unknown }).stdout);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the McpServer floor: 1.13.0, in the types and at run time', () => {
  it('takes an McpServer at or above it, and refuses an older one naming the version and the way forward', async () => {
    const version = await sdkVersion();
    const server = new McpServer({ name: 'floor', version: '1.0.0' });
    const policy = createErrorPolicy({ logger: () => undefined });
    const compiled = await compileOneLine();
    if (atLeast(version, '1.13.0')) {
      expect(compiled).toBe('');
      expect(applyErrorPolicy(server, policy)).toBe(server);
    } else {
      // One error, on the one line: the call's result is still the server, so the lines using it compile.
      expect(compiled.match(/error TS\d+/g)).toEqual(['error TS2769']);
      expect(compiled).toContain('error TS2769: No overload matches this call.');
      expect(compiled).toContain('McpServer_requires_sdk_1_13_or_later__wrap_handlers_with_withClientVisibleErrors');
      expect(() => applyErrorPolicy(server as never, policy)).toThrow(
        new TypeError(
          'Expected `server` to be an McpServer or a low-level Server of @modelcontextprotocol/sdk 1.x or @modelcontextprotocol/server 2.x, a FastMCP, tmcp or mcp-use server, or a Nuxt NitroApp, ' +
            'got an McpServer of @modelcontextprotocol/sdk older than 1.13.0 (no registerResource or registerPrompt), which applyErrorPolicy does not take: ' +
            'update the SDK to 1.13.0 or later, or wrap each callback with withClientVisibleErrors',
        ),
      );
    }
  }, 60_000);
});

describe('the one line at and above the floor', () => {
  it('masks a crash of a tool, a resource and a prompt; resources and prompts carry the failure object from 1.23.0', async () => {
    const version = await sdkVersion();
    if (!atLeast(version, '1.13.0')) return;
    const records: LogRecord[] = [];
    const server = applyErrorPolicy(new McpServer({ name: 'floor', version: '1.0.0' }), createErrorPolicy({ logger: (record) => records.push(record) }));
    const crash = (): never => {
      throw new Error('CANARY-floor /srv/internal');
    };
    server.registerTool('t', {}, crash);
    server.registerResource('r', 'mem://r', {}, crash);
    server.registerPrompt('p', {}, crash);
    const { client, close } = await link(server, new Client({ name: 'floor-client', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
    try {
      const tool = (await client.callTool({ name: 't', arguments: {} })) as { content: { text: string }[]; _meta?: Record<string, unknown> };
      const resource = await rpcError(client.readResource({ uri: 'mem://r' }));
      const prompt = await rpcError(client.getPrompt({ name: 'p' }));
      expect(tool.content[0]?.text).toMatch(/^Error executing tool t \(reference [0-9a-f]{12}\)$/);
      expect(tool._meta?.[FAILURE_KEY]).toMatchObject({ code: 'internal', correlationId: referenceIn(tool.content[0]!.text) });
      expect(resource.message).toMatch(/^MCP error -32603: Error reading resource mem:\/\/r \(reference [0-9a-f]{12}\)$/);
      expect(prompt.message).toMatch(/^MCP error -32603: Error getting prompt p \(reference [0-9a-f]{12}\)$/);
      const carried = atLeast(version, '1.23.0');
      for (const answer of [resource, prompt]) {
        const failure = (answer.data as Record<string, unknown> | undefined)?.[FAILURE_KEY];
        if (carried) expect(failure).toMatchObject({ code: 'internal', correlationId: referenceIn(answer.message) });
        else expect(answer.data).toBeUndefined();
      }
      expect(records.map(({ kind, reference }) => ({ kind, reference }))).toEqual([
        { kind: 'crash', reference: expect.stringMatching(REFERENCE) },
        { kind: 'crash', reference: referenceIn(resource.message) },
        { kind: 'crash', reference: referenceIn(prompt.message) },
      ]);
      expect(JSON.stringify([tool, resource, prompt])).not.toContain('CANARY');
    } finally {
      await close();
    }
  });
});

describe('a failing tool that declares an outputSchema', () => {
  it('gets the policy’s isError answer on every SDK from the floor (1.13.0 and 1.13.1 refuse it with -32602: the adapter answers it), logged once', async () => {
    const version = await sdkVersion();
    if (!atLeast(version, '1.13.0')) return;
    const records: LogRecord[] = [];
    const policy = createErrorPolicy({ logger: (record) => records.push(record) });
    const server = applyErrorPolicy(new McpServer({ name: 'floor', version: '1.0.0' }), policy);
    const config = { inputSchema: { id: z.string() }, outputSchema: { rows: z.number() } };
    server.registerTool('count_rows', config, () => {
      throw new ToolError('Sheet name must not be empty');
    });
    server.registerTool('sum_rows', config, () => {
      throw new Error('CANARY-floor /srv/internal');
    });
    // a callback wrapped on its own: the same answers
    server.registerTool('wrapped', config, withClientVisibleErrors(() => {
      throw new ToolError('Sheet name must not be empty');
    }, { name: 'wrapped', policy }));
    const { client, close } = await link(server, new Client({ name: 'floor-client', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
    try {
      const answers = [];
      for (const name of ['count_rows', 'sum_rows', 'wrapped']) {
        answers.push(await client.callTool({ name, arguments: { id: 'x' } }).then((result) => ({ result }), async (error: unknown) => ({ error: await rpcError(Promise.reject(error)) })));
      }
      // 1.13.0 and 1.13.1 refuse an isError result of such a tool with their own -32602: the adapter answers the
      // policy's answer all the same
      const texts = answers.map((answer) => ((answer as { result: { content: { text: string }[]; isError?: boolean } }).result));
      expect(texts.map((result) => result.isError)).toEqual([true, true, true]);
      expect(texts[0]?.content[0]?.text).toBe('Error executing tool count_rows: Sheet name must not be empty');
      expect(texts[1]?.content[0]?.text).toMatch(/^Error executing tool sum_rows \(reference [0-9a-f]{12}\)$/);
      expect(texts[2]?.content[0]?.text).toBe('Error executing tool wrapped: Sheet name must not be empty');
      // Logged once each, whatever the SDK answered.
      expect(records.map(({ kind, name }) => ({ kind, name }))).toEqual([
        { kind: 'anticipated', name: 'count_rows' },
        { kind: 'crash', name: 'sum_rows' },
        { kind: 'anticipated', name: 'wrapped' },
      ]);
      expect(JSON.stringify(answers)).not.toContain('CANARY');
    } finally {
      await close();
    }
  });
});

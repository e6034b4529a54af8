/**
 * The file-system rule through a real McpServer and Client: a path the caller passed (as given, or resolved) is named
 * in the client text, any other path stays hidden; a routine failure on the caller's own path is one info line, any
 * other file-system failure a warn record with its stack.
 */
import { copyFile, mkdtemp, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyErrorPolicy, classifyError } from '../../src/index.js';
import { link, type Linked } from '../support/link.js';
import { capture, rpcError, textOf } from '../support/calls.js';

let dir: string;
let session: Linked<McpServer, Client>;
const { policy, records } = capture();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fs-paths-'));
  await writeFile(join(dir, 'a.txt'), 'alpha');
  await writeFile(join(dir, 'b.txt'), 'beta');
  const server = applyErrorPolicy(new McpServer({ name: 'files', version: '1.0.0' }), policy);
  server.registerTool('read', { inputSchema: { path: z.string() } }, async ({ path }) => ({ content: [{ type: 'text', text: await readFile(path, 'utf8') }] }));
  server.registerTool('read_in', { inputSchema: { name: z.string() } }, async ({ name }) => ({ content: [{ type: 'text', text: await readFile(join(dir, 'data', name), 'utf8') }] }));
  server.registerTool('move', { inputSchema: { from: z.string(), to: z.string() } }, async ({ from, to }) => {
    await rename(from, to);
    return { content: [{ type: 'text', text: 'moved' }] };
  });
  server.registerTool('backup', { inputSchema: { file: z.string() } }, async ({ file }) => {
    await copyFile(file, join(dir, 'no-such-dir', 'backup.txt'));
    return { content: [{ type: 'text', text: 'copied' }] };
  });
  server.registerTool('create', { inputSchema: { paths: z.array(z.string()) } }, async ({ paths }) => {
    for (const path of paths) await (await open(path, 'wx')).close();
    return { content: [{ type: 'text', text: 'created' }] };
  });
  server.registerResource('file', new ResourceTemplate('file:///{name}', { list: undefined }), {}, async (uri, { name }) => ({
    contents: [{ uri: uri.href, text: await readFile(join(dir, String(name)), 'utf8') }],
  }));
  session = await link(server, new Client({ name: 'c', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
});

afterAll(async () => {
  await session.close();
  await rm(dir, { recursive: true, force: true });
});

async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; record: (typeof records)[number] }> {
  const before = records.length;
  const text = textOf(await session.client.callTool({ name, arguments: args }));
  expect(records.length).toBe(before + 1);
  return { text, record: records[before]! };
}

describe('file-system errors name the caller\'s own path and no other', () => {
  it('names a relative path as the caller gave it, and logs the ENOENT at info on one line', async () => {
    const path = relative(process.cwd(), join(dir, 'missing.txt'));
    const { text, record } = await call('read', { path });
    expect(text).toBe(`Error executing tool read: File system error: no such file or directory (ENOENT, open '${path}')`);
    expect(record).toMatchObject({ level: 'info', rule: 'file-system', status: 500 });
    expect(record.stack).toBeUndefined();
    expect(record.message).not.toContain('\n');
  });

  it('names an absolute path as the caller gave it', async () => {
    const path = join(dir, 'missing.txt');
    const { text, record } = await call('read', { path });
    expect(text).toBe(`Error executing tool read: File system error: no such file or directory (ENOENT, open '${path}')`);
    expect(record.level).toBe('info');
  });

  it('hides a path the server built from the caller\'s name, and logs it at warn with its stack', async () => {
    const { text, record } = await call('read_in', { name: 'missing.txt' });
    expect(text).toBe('Error executing tool read_in: File system error: no such file or directory (ENOENT, open)');
    expect(text).not.toContain(dir);
    expect(record.level).toBe('warn');
    expect(record.stack).toMatch(/^\s+at /);
  });

  it('says which of two paths failed: both the caller\'s', async () => {
    const from = join(dir, 'gone.txt');
    const to = join(dir, 'c.txt');
    const { text, record } = await call('move', { from, to });
    expect(text).toBe(`Error executing tool move: File system error: no such file or directory (ENOENT, rename from '${from}' to '${to}')`);
    expect(record.level).toBe('info');
  });

  it('says which of two paths failed: only the caller\'s source is named, the server\'s destination stays hidden', async () => {
    const file = join(dir, 'a.txt');
    const { text, record } = await call('backup', { file });
    expect(text).toBe(`Error executing tool backup: File system error: no such file or directory (ENOENT, copyfile from '${file}')`);
    expect(text).not.toContain('no-such-dir');
    expect(record.level).toBe('info');
  });

  it('finds the caller\'s path inside an array argument (EEXIST)', async () => {
    const existing = join(dir, 'b.txt');
    const { text, record } = await call('create', { paths: [join(dir, 'new.txt'), existing] });
    expect(text).toBe(`Error executing tool create: File system error: file already exists (EEXIST, open '${existing}')`);
    expect(record).toMatchObject({ level: 'info', status: 500 });
    expect(record.stack).toBeUndefined();
  });

  it('logs an EISDIR whose error names no path at warn: nothing shows it is the caller\'s', async () => {
    const { text, record } = await call('read', { path: dir });
    expect(text).toBe(`Error executing tool read: File system error: is a directory (EISDIR, read)`);
    // read(2) on a directory names no path: nothing to show, and nothing proves it is the caller's: warn
    expect(record.level).toBe('warn');
  });

  it('names a resource template variable the caller sent when it is the whole path, and hides the server\'s folder', async () => {
    const failure = await rpcError(session.client.readResource({ uri: 'file:///missing.txt' }));
    expect(failure.message).toBe('MCP error -32603: File system error: no such file or directory (ENOENT, open)');
    expect(failure.message).not.toContain(dir);
  });

  it('classifyError, which knows no call, names no path', async () => {
    const error = await readFile('docs/missing.txt').catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: 'ENOENT', path: 'docs/missing.txt' });
    const c = classifyError(error, policy);
    expect(c).toMatchObject({ kind: 'anticipated', message: 'File system error: no such file or directory (ENOENT, open)', level: 'warn' });
  });
});

/**
 * ownErrorRule through real servers over stdio and the real SDK Client. One tiny server package (a tool per kind of
 * failure, and a dependency under its own node_modules that throws plain Errors) is laid out as a checkout and as
 * installed under some node_modules/ (as npx starts it), and bundled with esbuild into one file. Each is started as
 * its users start it; the client text and the server's one log record per failure (JSON lines on stderr) are checked.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreRules, createErrorPolicy, ownErrorRule, type LogRecord } from '../../src/index.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const tsx = join(repo, 'node_modules/tsx/dist/esm/index.mjs');
const CANARY = 'CANARY-dependency-text-7f3a';

/** The server's one file: imports this package's source and the SDK by absolute path, logs records as JSON lines. */
const SERVER = `
import { McpServer } from ${JSON.stringify(join(repo, 'node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js'))};
import { StdioServerTransport } from ${JSON.stringify(join(repo, 'node_modules/@modelcontextprotocol/sdk/dist/esm/server/stdio.js'))};
import { applyErrorPolicy, coreRules, createErrorPolicy, ownErrorRule } from ${JSON.stringify(join(repo, 'src/index.ts'))};
import { failInDependency } from 'dep';

// OWN_REPORT=1: report mode with the core rules only, whose records advise the rule to add
const report = process.env.OWN_REPORT === '1';
const policy = createErrorPolicy({
  ...(report ? { mode: 'report', rules: coreRules } : { rules: [ownErrorRule(), ...coreRules] }),
  logger: (record) => process.stderr.write(JSON.stringify(record) + '\\n'),
});
const server = applyErrorPolicy(new McpServer({ name: 'own', version: '1.0.0' }), policy);
function notFound(name) {
  return new Error('Entity with name ' + name + ' not found');
}
class NotFoundError extends Error {}
const tools = {
  plain: () => { throw notFound('Nobody'); },
  secret: () => { throw new Error('Bad token Bearer abcdefghijklmnopqrstuvwxyz0123456789'); },
  long: () => { throw new Error('x'.repeat(5000)); },
  type_error: () => { throw new TypeError('Cannot read properties of undefined'); },
  range_error: () => { throw new RangeError('Invalid array length'); },
  syntax_error: () => JSON.parse('{"corrupt'),
  aggregate: () => { throw new AggregateError([], 'several'); },
  subclass: () => { throw new NotFoundError('subclassed'); },
  system_fields: () => { throw Object.assign(new Error('own text with a code'), { code: 'E_OWN' }); },
  dependency: () => failInDependency(${JSON.stringify(CANARY)}),
  // "catch, add context, rethrow" of a crash: an own Error that the exit gate masks for what it says
  rethrown: () => {
    try {
      return JSON.parse('{}').body.text;
    } catch (e) {
      throw new Error('Could not close ticket TCK-1: ' + e.message, { cause: e });
    }
  },
  internal_url: () => { throw new Error('GET http://127.0.0.1:8080/items/42?api_key=abc123 failed (see https://status.example.com/incidents)'); },
  // http.md's recipe for fetch: an Error carrying the Response, from a real fetch to the test's API on 127.0.0.1
  http_answer: async () => {
    const response = await fetch(process.env.API_URL);
    throw Object.assign(new Error('GET ' + process.env.API_URL + ' failed with ' + response.status), { response });
  },
};
for (const [name, fn] of Object.entries(tools)) server.registerTool(name, {}, async () => fn());
server.connect(new StdioServerTransport());
`;

/** The dependency, under the server package's own node_modules: it throws plain Errors with the caller's text. */
const DEPENDENCY = `export function failInDependency(text) { throw new Error('dependency says ' + text); }\n`;

let scratch: string;
/** The API the http_answer tool calls: 429 with Retry-After: 7, on 127.0.0.1. */
let api: Server;
let apiUrl: string;

/** Writes the server package into `dir`: package.json, dist/server.mjs, node_modules/dep. */
function writePackage(dir: string): void {
  mkdirSync(join(dir, 'dist'), { recursive: true });
  mkdirSync(join(dir, 'node_modules/dep'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'own-server', version: '1.0.0', type: 'module' }));
  writeFileSync(join(dir, 'dist/server.mjs'), SERVER);
  writeFileSync(join(dir, 'node_modules/dep/package.json'), JSON.stringify({ name: 'dep', version: '1.0.0', type: 'module', exports: './index.js' }));
  writeFileSync(join(dir, 'node_modules/dep/index.js'), DEPENDENCY);
}

beforeAll(async () => {
  api = createServer((_request, response) => response.writeHead(429, { 'retry-after': '7' }).end('{"message":"slow down"}'));
  await new Promise<void>((listening) => api.listen(0, '127.0.0.1', listening));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/items`;
  scratch = mkdtempSync(join(tmpdir(), 'own-error-'));
  writePackage(join(scratch, 'checkout/own-server'));
  // as npx installs it: the package under a node_modules of a cache folder, started from there
  mkdirSync(join(scratch, 'npx-cache/node_modules'), { recursive: true });
  cpSync(join(scratch, 'checkout/own-server'), join(scratch, 'npx-cache/node_modules/own-server'), { recursive: true });
  // one file built by esbuild (this package, the SDK and the dependency inside), with its source map
  const bundled = join(scratch, 'bundled/own-server');
  mkdirSync(join(bundled, 'dist'), { recursive: true });
  writeFileSync(join(bundled, 'package.json'), JSON.stringify({ name: 'own-server', version: '1.0.0' }));
  await build({
    entryPoints: [join(scratch, 'checkout/own-server/dist/server.mjs')],
    outfile: join(bundled, 'dist/server.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    sourcemap: true,
    logLevel: 'silent',
  });
}, 60_000);

afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await new Promise((closed) => api.close(closed));
});

interface Run {
  readonly texts: Record<string, string>;
  readonly records: LogRecord[];
}

/** Starts `node <args>` over stdio, calls every tool once, and returns each tool's text and the records. */
async function runServer(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const transport = new StdioClientTransport({ command: process.execPath, args, env: { PATH: process.env.PATH ?? '', API_URL: apiUrl, ...env }, cwd: scratch, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const ended = new Promise((done) => transport.stderr?.on('end', done));
  const client = new Client({ name: 'own-error-test', version: '1.0.0' });
  await client.connect(transport);
  const texts: Record<string, string> = {};
  for (const { name } of (await client.listTools()).tools) {
    const result = (await client.callTool({ name, arguments: {} })) as { content: { text: string }[]; isError?: boolean };
    expect(result.isError, name).toBe(true);
    texts[name] = result.content[0]!.text;
  }
  await client.close();
  await ended;
  const records = stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogRecord);
  expect(records.map((record) => record.name).sort()).toEqual(Object.keys(texts).sort());
  return { texts, records };
}

const MASKED = /^Error executing tool (\w+) \(reference [0-9a-f]{12}\)$/;
const MASKED_TOOLS = ['type_error', 'range_error', 'syntax_error', 'aggregate', 'subclass', 'system_fields', 'dependency', 'rethrown'];

function recordOf(run: Run, name: string): LogRecord {
  return run.records.find((record) => record.name === name)!;
}

/** What a server whose own folder is found shows: its own plain Errors (scrubbed, bounded), and masks all else. */
function expectOwnShown(run: Run): void {
  expect(run.texts.plain).toBe('Error executing tool plain: Entity with name Nobody not found');
  expect(run.texts.secret).toBe('Error executing tool secret: Bad token Bearer [REDACTED]');
  expect(run.texts.long).toBe(`Error executing tool long: ${'x'.repeat(3999)}…`);
  for (const name of ['plain', 'secret', 'long']) {
    const record = recordOf(run, name);
    expect(record).toMatchObject({ level: 'warn', kind: 'anticipated', rule: 'own-error', status: 500, errorName: 'Error' });
    expect(record.stack).toMatch(/^ {4}at /);
  }
  expect(recordOf(run, 'plain').stack).toContain('notFound');
  // an internal host in the server's own text goes, as in every rule's text; a public one stays
  expect(run.texts.internal_url).toBe('Error executing tool internal_url: GET /items/42?api_key=[REDACTED] failed (see https://status.example.com/incidents)');
  expect(recordOf(run, 'internal_url')).toMatchObject({ level: 'warn', rule: 'own-error' });
  expectOthersMasked(run);
}

function expectOthersMasked(run: Run): void {
  for (const name of MASKED_TOOLS) {
    expect(run.texts[name], name).toMatch(MASKED);
    expect(recordOf(run, name)).toMatchObject({ level: 'error', kind: 'crash' });
  }
  expect(JSON.stringify(run.texts)).not.toContain(CANARY);
  // an own Error carrying an HTTP answer is the HTTP rules', ownErrorRule first or not: the status and the delay
  expect(run.texts.http_answer).toBe('Error executing tool http_answer: HTTP request failed with status 429. Retry after 7 s.');
  expect(recordOf(run, 'http_answer')).toMatchObject({ level: 'warn', kind: 'anticipated', rule: 'http-status', status: 429 });
}

describe('ownErrorRule: the server\'s own plain Errors, wherever the server runs', () => {
  it('(a) from a checkout: own plain Errors shown; TypeError, SyntaxError, subclasses, system fields and the dependency\'s masked', async () => {
    expectOwnShown(await runServer(['--import', tsx, join(scratch, 'checkout/own-server/dist/server.mjs')]));
  }, 30_000);

  it('(b) installed under node_modules and started from there, as npx does: the same', async () => {
    expectOwnShown(await runServer(['--import', tsx, join(scratch, 'npx-cache/node_modules/own-server/dist/server.mjs')]));
  }, 30_000);

  it('(e) bundled into one file: nothing is own (this package shares the file), so every plain Error is masked', async () => {
    const run = await runServer([join(scratch, 'bundled/own-server/dist/server.cjs')]);
    for (const name of ['plain', 'secret', 'long', 'internal_url']) expect(run.texts[name], name).toMatch(MASKED);
    expectOthersMasked(run);
  }, 30_000);

  it('(e) bundled, run with --enable-source-maps: the sources decide again (the bundled dependency stays masked)', async () => {
    expectOwnShown(await runServer(['--enable-source-maps', join(scratch, 'bundled/own-server/dist/server.cjs')]));
  }, 30_000);
});

describe('report mode advises ownErrorRule() for the server\'s own plain Errors, and nothing for the rest', () => {
  it('installed under node_modules, started from there: the bare texts, and records naming the rule to add', async () => {
    const run = await runServer(['--import', tsx, join(scratch, 'npx-cache/node_modules/own-server/dist/server.mjs')], { OWN_REPORT: '1' });
    expect(run.texts.plain).toBe('Entity with name Nobody not found');
    for (const name of ['plain', 'secret', 'long', 'internal_url']) expect(recordOf(run, name), name).toMatchObject({ report: true, wouldShowWith: 'ownErrorRule()' });
    for (const name of MASKED_TOOLS) expect(recordOf(run, name).wouldShowWith, name).toBeUndefined();
    // never advised for an own Error the exit gate would mask: the record says it is a crash
    expect(recordOf(run, 'rethrown').message).toContain('; a crash: fix it, or throw a ToolError');
    // the bare text; the advice for an HTTP answer is the HTTP rules', which add the service's message
    expect(run.texts.http_answer).toBe(`GET ${apiUrl} failed with 429`);
    expect(recordOf(run, 'http_answer')).toMatchObject({ report: true, rule: 'http-status', wouldShowWith: '...httpRules' });
  }, 30_000);
});

describe('ownErrorRule: options and the catch-all probe', () => {
  it('is no catch-all: createErrorPolicy takes it without allowCatchAll (the probe\'s Error is made in this package)', () => {
    const rule = ownErrorRule({ root: scratch });
    expect(createErrorPolicy({ rules: [rule, ...coreRules] }).rules.map((r) => r.name)).toEqual(['own-error', ...coreRules.map((r) => r.name)]);
    expect(rule.predicate(new Error('made in this repository, outside root'))).toBe(false);
  });

  it('accepts nothing when called from a file of this package\'s own folder (as in a bundle)', () => {
    expect(ownErrorRule().predicate(new Error('made beside this package\'s code'))).toBe(false);
  });

  it('checks root when it is made: a TypeError naming it', () => {
    expect(() => ownErrorRule({ root: 42 as unknown as string })).toThrow(new TypeError('Expected `root` to be a non-empty string (a folder), got the number 42'));
    expect(() => ownErrorRule({ root: join(scratch, 'no-such-folder') })).toThrow(/^Expected `root` to be an existing folder, got the string /);
    expect(() => ownErrorRule({ rot: '.' } as never)).toThrow(new TypeError('Unknown option `rot`: expected root'));
    expect(() => ownErrorRule(null as never)).toThrow(new TypeError('Expected `options` to be an object, got null'));
  });

  it('never throws on hostile values', () => {
    const rule = ownErrorRule({ root: scratch });
    const revoked = Proxy.revocable(new Error('x'), {});
    revoked.revoke();
    const getters = Object.defineProperty(new Error('x'), 'stack', {
      get() {
        throw new Error('boom');
      },
    });
    for (const value of [revoked.proxy, getters, null, undefined, 'text', Symbol('s'), Object.create(null), new Proxy(new Error('p'), {})]) {
      expect(rule.predicate(value)).toBe(false);
    }
  });
});

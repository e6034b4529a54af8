// Runs every example in a folder as its header says, and checks that what it prints is what its header says.
//
//   node examples.mjs <examples folder> [file.ts ...]
//
// Run from a project whose node_modules has tsx and what the examples import: scripts/examples-packed.sh runs it in a
// fresh project that installed the packed tarball, against node_modules/mcp-error-policy/examples. Exits 1 when an
// example does not do what its header says.
//
// A header (the first /** */ block) says, one line each:
//   Install: npm install <packages>                 what to install (scripts/examples-packed.sh installs these)
//   Before: npx tsx examples/support/<fake>.ts      optional: a fake service to start first; the NAME=value lines it
//                                                   prints are the example's environment
//   Try: [NAME=value ...] npx tsx examples/<file>.ts ...          how to run it
//   Connect: <url> with "<Header>: <value>"         optional: an MCP server over Streamable HTTP, not stdio
// and then what a run shows, one `<what> → <text>` line each (indented), in the order the calls are made:
//   <tool> {<arguments as JSON>} → <text>           a tools/call: the text of the result's content
//   <scheme>://<uri> → <text>                       a resources/read: the text of the contents, or the error's message
//   prompt <name> {<arguments>} → <text>            a prompts/get: the first message's text, or the error's message
//   stderr → <text>  /  stdout → <text>             a line the example writes there starts with <text>
// An example with no call runs to its end (exit code 0). In <text>, a trailing ` …` means "starts with"; ids of 12 hex
// digits, ports of 127.0.0.1, UUIDs and durations in ms stand for any such value.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [folder, ...only] = process.argv.slice(2);
assert.ok(folder, 'usage: node examples.mjs <examples folder> [file.ts ...]');
const packageRoot = join(folder, '..');

/** The header's lines, without the comment's ` * `. */
function headerLines(text) {
  const block = /^\/\*\*\n([\s\S]*?)\n \*\//.exec(text)?.[1] ?? '';
  return block.split('\n').map((line) => line.replace(/^ \* ?/, ''));
}

/** What the header says: how to run the example, and what a run shows. */
function readHeader(file) {
  const lines = headerLines(readFileSync(join(folder, file), 'utf8'));
  const find = (pattern) => lines.map((line) => pattern.exec(line)).find((match) => match !== null);
  const tryLine = find(/^Try: ((?:[A-Z][A-Z0-9_]*=\S*\s+)*)npx tsx (examples\/\S+\.ts)\b/);
  assert.ok(tryLine, `${file}: its header has no "Try: npx tsx examples/<file>.ts" line`);
  assert.ok(find(/^Install: npm install \S/), `${file}: its header has no "Install: npm install ..." line`);
  const env = Object.fromEntries(tryLine[1].split(/\s+/).filter(Boolean).map((pair) => pair.split(/=(.*)/s).slice(0, 2)));
  const before = find(/^Before: npx tsx (examples\/\S+\.ts)\b/)?.[1];
  const connect = find(/^Connect: (http:\/\/\S+) with "([\w-]+): ([^"]+)"/);
  const shows = lines
    .map((line) => /^ {2,}(.+?) → (.+)$/.exec(line))
    .filter((match) => match !== null)
    .map(([, what, text]) => ({ what, text }));
  assert.ok(shows.length > 0, `${file}: its header says nothing a run shows ("<what> → <text>" lines)`);
  return { run: tryLine[2], env, before, connect: connect && { url: connect[1], headers: { [connect[2]]: connect[3] } }, shows };
}

/** Values that differ from run to run, made the same: ids, ports, UUIDs, durations. */
function normalized(text) {
  return text
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<uuid>')
    .replace(/\b[0-9a-f]{12}\b/g, '<id>')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
    .replace(/\b\d+(?:\.\d+)?ms\b/g, '<ms>');
}

/** Whether `actual` is what `expected` (a header's text) says. */
function matches(actual, expected) {
  const want = normalized(expected);
  const got = normalized(actual);
  return want.endsWith(' …') ? got.startsWith(want.slice(0, -2)) : got === want;
}

/** Starts `file` under tsx (`node --import tsx`, as `npx tsx` does), from this project. */
function start(file, env) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(packageRoot, file)], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => (output.stdout += chunk));
  child.stderr.on('data', (chunk) => (output.stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output, exited };
}

/** Waits (up to 15 s) until `done()`. */
async function until(done, what) {
  for (const stop = Date.now() + 15_000; !done(); ) {
    if (Date.now() > stop) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The fake a header's Before line names, started; the environment it printed (its `NAME=value` lines). */
async function startBefore(file) {
  const fake = start(file, {});
  const printed = () => [...fake.output.stdout.matchAll(/^\s+([A-Z][A-Z0-9_]*)=(\S+)$/gm)];
  try {
    await until(() => printed().length > 0 || fake.child.exitCode !== null, `${file} to print its environment`);
    // the rest of its lines come in the same write, or a moment later
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(fake.child.exitCode === null, `${file} exited (${String(fake.child.exitCode)}): ${fake.output.stderr}`);
  } catch (error) {
    fake.child.kill();
    throw error;
  }
  return { env: Object.fromEntries(printed().map(([, name, value]) => [name, value])), stop: () => fake.child.kill() };
}

/** The text a call's answer shows: a result's text, or a JSON-RPC error's message. */
async function answerText(client, what) {
  try {
    const prompt = /^prompt (\S+) (\{.*\})$/.exec(what);
    if (prompt) return (await client.getPrompt({ name: prompt[1], arguments: JSON.parse(prompt[2]) })).messages[0]?.content.text ?? '';
    if (/^\S+:\/\/\S+$/.test(what)) return (await client.readResource({ uri: what })).contents.map((content) => content.text ?? '').join('\n');
    const tool = /^(\S+) (\{.*\})$/.exec(what);
    assert.ok(tool, `not a call: ${what}`);
    const result = await client.callTool({ name: tool[1], arguments: JSON.parse(tool[2]) });
    return result.content.map((content) => content.text ?? `[${content.type}]`).join('\n');
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Runs one example as its header says; returns the differences between what it showed and what the header says. */
async function check(file) {
  const header = readHeader(file);
  const before = header.before === undefined ? undefined : await startBefore(header.before);
  const env = { NODE_ENV: 'production', ...before?.env, ...header.env };
  const calls = header.shows.filter(({ what }) => what !== 'stderr' && what !== 'stdout');
  const wrong = [];
  const expect = (what, actual, text) => {
    if (!matches(actual, text)) wrong.push(`${what}\n    header: ${text}\n    run:    ${actual.split('\n').join('\n            ')}`);
  };
  let output;
  let close;
  try {
    if (calls.length === 0) {
      const run = start(header.run, env);
      output = run.output;
      close = () => run.child.kill();
      const code = await Promise.race([run.exited, new Promise((resolve) => setTimeout(() => resolve('none: still running after 120 s'), 120_000).unref())]);
      if (code !== 0) wrong.push(`exit code ${String(code)}; stderr:\n${output.stderr}`);
    } else if (header.connect) {
      const run = start(header.run, env);
      output = run.output;
      close = async () => {
        run.child.kill();
        await run.exited;
      };
      const client = new Client({ name: 'examples-check', version: '1.0.0' });
      await until(() => output.stderr.includes(header.connect.url) || run.child.exitCode !== null, `${file} to say it listens on ${header.connect.url}`);
      await client.connect(new StreamableHTTPClientTransport(new URL(header.connect.url), { requestInit: { headers: header.connect.headers } }));
      for (const { what, text } of calls) expect(what, await answerText(client, what), text);
      await client.close();
    } else {
      const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', join(packageRoot, header.run)], env: { ...process.env, ...env }, stderr: 'pipe' });
      output = { stdout: '', stderr: '' };
      transport.stderr?.on('data', (chunk) => (output.stderr += chunk));
      const client = new Client({ name: 'examples-check', version: '1.0.0' });
      await client.connect(transport);
      close = () => client.close();
      for (const { what, text } of calls) expect(what, await answerText(client, what), text);
    }
    const lines = (stream) => output[stream].split('\n');
    const seen = ({ what, text }) => lines(what).some((line) => matches(line, text.endsWith(' …') ? text : `${text} …`));
    const streamed = header.shows.filter(({ what }) => what === 'stderr' || what === 'stdout');
    await until(() => streamed.every(seen), `what the header says on stderr and stdout`).catch(() => {});
    for (const show of streamed.filter((show) => !seen(show))) wrong.push(`${show.what} has no line with\n    ${show.text}\n  it has:\n    ${lines(show.what).join('\n    ')}`);
  } finally {
    await close?.();
    before?.stop();
  }
  return { calls: calls.length, streamed: header.shows.length - calls.length, wrong };
}

const files = only.length > 0 ? only : readdirSync(folder).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'));
assert.ok(files.length > 0, `no examples in ${folder}`);
let failed = 0;
for (const file of files.sort()) {
  const { calls, streamed, wrong } = await check(file).catch((error) => ({ calls: 0, streamed: 0, wrong: [String(error?.stack ?? error)] }));
  if (wrong.length === 0) {
    console.log(`ok ${file}: ${calls} calls and ${streamed} output lines as its header says`);
  } else {
    failed += 1;
    console.log(`FAIL ${file}:\n  ${wrong.join('\n  ')}`);
  }
}
console.log(`${files.length - failed} of ${files.length} examples do what their headers say`);
process.exitCode = failed === 0 ? 0 : 1;

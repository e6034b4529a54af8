// Driven by scripts/published.sh in its scratch project: each published server, as installed (the original) and as
// adopted (one edit: applyErrorPolicy(new McpServer(...))), over stdio with a real SDK Client. The same calls go to
// both. A call that worked before answers exactly as before; a call that failed answers with the policy's text and
// failure object, leaks no path of the scratch project and no stack, and leaves exactly one [mcp-error-policy] record
// on stderr at the expected level. The originals are the negative control: they leak what the adopted copies don't.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { failureOf, recordsIn, STACK, text } from './expect.mjs';
import { overStdio } from './stdio.mjs';

const project = process.cwd();
const files = join(project, 'files');

// Each run starts from the same files, so that both variants see the same world.
function resetFiles() {
  rmSync(files, { recursive: true, force: true });
  mkdirSync(join(files, 'notes'), { recursive: true });
  writeFileSync(join(files, 'a.txt'), 'alpha\nbeta\ngamma\n');
  writeFileSync(join(files, 'notes', 'b.md'), '# B\n');
  writeFileSync(join(files, 'memory.jsonl'), '');
}

// ok: calls that succeed (answers compared exactly). fail: calls that fail, with what the adopted copy answers:
// 'text' (`Error executing tool <name>: ...`) or 'masked' (`Error executing tool <name> (reference <id>)`), and the
// level of its one record; or 'sdk': arguments that fail the tool's input schema, which the SDK answers before any
// handler runs (`MCP error -32602: Input validation error: ...`), as before, with no failure object and no record.
// A fifth element 'shown': under the copy with step 3's rule (adopted-rules/), the text is the server's own
// (`Error executing tool <name>: <the original text>`), with one info record; otherwise it answers as the one-line copy.
const servers = [
  {
    name: 'server-memory',
    entry: 'dist/index.js',
    args: [],
    env: () => ({ MEMORY_FILE_PATH: join(files, 'memory.jsonl') }),
    ok: [
      [
        'create_entities',
        {
          entities: [
            { name: 'Ada', entityType: 'person', observations: ['wrote a program'] },
            { name: 'Engine', entityType: 'machine', observations: [] },
          ],
        },
      ],
      ['create_relations', { relations: [{ from: 'Ada', to: 'Engine', relationType: 'programmed' }] }],
      ['add_observations', { observations: [{ entityName: 'Ada', contents: ['was a mathematician'] }] }],
      ['search_nodes', { query: 'mathematician' }],
      ['open_nodes', { names: ['Ada', 'Nobody'] }],
      ['read_graph', {}],
      ['delete_observations', { deletions: [{ entityName: 'Ada', observations: ['wrote a program'] }] }],
      ['delete_relations', { relations: [{ from: 'Ada', to: 'Engine', relationType: 'programmed' }] }],
      ['delete_entities', { entityNames: ['Engine', 'Nobody'] }],
      ['read_graph', {}],
    ],
    fail: [
      ['add_observations', { observations: [{ entityName: 'Nobody', contents: ['x'] }] }, 'masked', 'error', 'shown'],
      ['create_entities', { entities: 'Ada' }, 'sdk'],
    ],
  },
  {
    name: 'server-filesystem',
    entry: 'dist/index.js',
    args: () => [files],
    env: () => ({}),
    ok: [
      ['list_allowed_directories', {}],
      ['read_text_file', { path: join(files, 'a.txt') }],
      ['read_text_file', { path: join(files, 'a.txt'), head: 2 }],
      ['read_multiple_files', { paths: [join(files, 'a.txt'), join(files, 'notes', 'b.md')] }],
      ['list_directory', { path: files }],
      ['directory_tree', { path: files }],
      ['search_files', { path: files, pattern: '**/*.md' }],
      ['write_file', { path: join(files, 'c.txt'), content: 'new\n' }],
      ['edit_file', { path: join(files, 'c.txt'), edits: [{ oldText: 'new', newText: 'newer' }], dryRun: true }],
      ['create_directory', { path: join(files, 'made') }],
      ['move_file', { source: join(files, 'c.txt'), destination: join(files, 'made', 'c.txt') }],
    ],
    fail: [
      ['read_text_file', { path: '/etc/hostname' }, 'masked', 'error'],
      ['read_text_file', { path: join(files, 'missing.txt') }, 'text', 'warn'],
      ['read_text_file', { path: join(files, 'a.txt'), head: 1, tail: 1 }, 'masked', 'error', 'shown'],
      ['edit_file', { path: join(files, 'a.txt'), edits: [{ oldText: 'delta', newText: 'x' }] }, 'masked', 'error', 'shown'],
      ['move_file', { source: join(files, 'a.txt'), destination: join(files, 'notes', 'b.md') }, 'masked', 'error'],
      ['list_directory', { path: 42 }, 'sdk'],
    ],
  },
  {
    name: 'server-everything',
    entry: 'dist/index.js',
    args: ['stdio'],
    env: () => ({}),
    ok: [
      ['echo', { message: 'hello' }],
      ['get-sum', { a: 2, b: 3 }],
      ['get-tiny-image', {}],
      ['get-structured-content', { location: 'New York' }],
      ['get-annotated-message', { messageType: 'error', includeImage: false }],
      ['get-resource-links', { count: 2 }],
    ],
    fail: [
      ['get-resource-reference', { resourceType: 'Text', resourceId: 0 }, 'masked', 'error', 'shown'],
      ['get-sum', { a: 'two', b: 3 }, 'sdk'],
      ['gzip-file-as-resource', { name: 'x.gz', data: 'ftp://user:hunter2@127.0.0.1/x' }, 'masked', 'error'],
    ],
  },
];

// PUBLISHED_ONLY=<server name> drives one server (while working on this file).
const only = process.env.PUBLISHED_ONLY ?? '';
const leaked = { crashTexts: 0, paths: 0, passwords: 0 };

async function run(server, variant) {
  resetFiles();
  const base = variant === 'original' ? join('node_modules', '@modelcontextprotocol', server.name) : join(variant, server.name);
  const args = typeof server.args === 'function' ? server.args() : server.args;
  const { value, stderr } = await overStdio({ args: [join(project, base, server.entry), ...args], env: server.env(), cwd: project }, async (client) => {
    const tools = await client.listTools();
    const ok = [];
    for (const [name, args] of server.ok) ok.push(await client.callTool({ name, arguments: args }));
    const fail = [];
    for (const [name, args] of server.fail) fail.push(await client.callTool({ name, arguments: args }));
    return { tools, ok, fail };
  });
  return { ...value, stderr };
}

// What worked before answers as before, exactly; what failed answers with the policy's text and failure object, one
// record each, and leaks no path, password or stack.
function compare(label, server, before, after, variant) {
  assert.deepEqual(after.tools, before.tools, `${label}: tools/list`);
  server.ok.forEach(([name], i) => {
    assert.notEqual(before.ok[i].isError, true, `${label}: ${name} #${i} should succeed: ${JSON.stringify(before.ok[i])}`);
    assert.deepEqual(after.ok[i], before.ok[i], `${label}: ${name} #${i}`);
  });
  const records = recordsIn(after.stderr);
  const handled = server.fail.filter(([, , kind]) => kind !== 'sdk').length;
  assert.equal(records.length, handled, `${label}: one record per failed call:\n${after.stderr}`);
  server.fail.forEach(([name, , oneLine, oneLineLevel, withRule], i) => {
    const shown = variant === 'adopted-rules' && withRule === 'shown';
    const kind = shown ? 'shown' : oneLine;
    const level = shown ? 'info' : oneLineLevel;
    const was = before.fail[i];
    const now = after.fail[i];
    const call = `${label}: ${name} #${i}`;
    assert.equal(was.isError, true, `${call} should fail: ${JSON.stringify(was)}`);
    assert.equal(was._meta?.['mcp-error-policy/failure'], undefined, `${call}: the original has no failure object`);
    const wasText = text(was);
    const nowText = text(now);
    if (kind === 'sdk') {
      assert.deepEqual(now, was, `${call}: the SDK's input validation answers as before`);
      assert.match(nowText, new RegExp(`^MCP error -32602: Input validation error: Invalid arguments for tool ${name}: `));
      console.log(`${call}: as before, the SDK's ${JSON.stringify(nowText)}, no record`);
      return;
    }
    assert.equal(now.isError, true);
    const failure = failureOf(now, call);
    assert.equal(failure.retryAfterMs, undefined, call);
    if (kind === 'masked') {
      assert.equal(nowText, `Error executing tool ${name} (reference ${failure.correlationId})`, call);
      assert.equal(failure.code, 'internal');
    } else if (kind === 'shown') {
      assert.equal(nowText, `Error executing tool ${name}: ${wasText}`, call);
    } else {
      assert.ok(nowText.startsWith(`Error executing tool ${name}: `), `${call}: text, got ${JSON.stringify(nowText)}`);
      assert.notEqual(nowText, `Error executing tool ${name}: ${wasText}`, `${call}: the policy's text, not the error's`);
    }
    const answer = JSON.stringify(now);
    assert.ok(!answer.includes(project), `${call}: the adopted answer names the scratch directory: ${answer}`);
    assert.doesNotMatch(answer, STACK, `${call}: the adopted answer has a stack`);
    assert.ok(!answer.includes('hunter2'), `${call}: the adopted answer has a password`);
    if (variant === 'adopted') {
      if (wasText.includes(project)) leaked.paths += 1;
      if (wasText.includes('hunter2')) leaked.passwords += 1;
      if (kind === 'masked') leaked.crashTexts += 1;
    }
    const mine = records.filter((line) => line.includes(failure.correlationId));
    assert.equal(mine.length, 1, `${call}: one record with ${failure.correlationId}:\n${records.join('\n')}`);
    assert.ok(mine[0].startsWith(`[mcp-error-policy] ${level.toUpperCase()} tool "${name}" `), `${call}: ${mine[0]}`);
    console.log(`${call}: ${JSON.stringify(wasText)}\n  -> ${JSON.stringify(nowText)} (${failure.code}, one ${level} record)`);
  });
  console.log(`${label}: tools/list and ${server.ok.length} working calls as before; ${handled} failures by the policy`);
}

for (const server of servers) {
  if (only !== '' && only !== server.name) continue;
  const manifest = `./node_modules/@modelcontextprotocol/${server.name}/package.json`;
  const { version } = (await import(manifest, { with: { type: 'json' } })).default;
  const before = await run(server, 'original');
  for (const variant of ['adopted', 'adopted-rules']) {
    compare(`${server.name}@${version} ${variant}`, server, before, await run(server, variant), variant);
  }
}

// The negative control: the originals sent crash texts, the scratch directory's path and a password to the client.
console.log(`the originals leaked: ${JSON.stringify(leaked)}`);
if (only === '') {
  const all = leaked.crashTexts > 0 && leaked.paths > 0 && leaked.passwords > 0;
  assert.ok(all, 'the originals should leak what the adopted copies hide');
}

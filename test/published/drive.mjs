// Driven by scripts/published.sh in its scratch project: each published server, as installed (the original) and as
// adopted (adopted/: applyErrorPolicy(new McpServer(...)); adopted-rules/: the same with ownErrorRule() before the core
// rules), each copy started from a node_modules folder as npx starts it, over stdio with a real SDK Client. The same
// calls go to all. A call that worked before answers exactly as before; a call that failed answers with the policy's
// text and failure object, names no path of the scratch project but the caller's own, shows no stack, and leaves
// exactly one [mcp-error-policy] record on stderr at the expected level. The originals are the negative control: they
// leak what the adopted copies don't. At the end, the counts of issue 32's "Done when" for the ownErrorRule copies.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scrubSecrets } from 'mcp-error-policy';
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

// ok: calls that succeed (answers compared exactly). fail: calls that fail, with what the one-line copy (adopted/)
// answers: 'path' (the file-system rule's text naming the caller's own path), 'text' (another text of the policy's),
// or 'masked' (`Error executing tool <name> (reference <id>)`), and the level of its one record; or 'sdk': arguments
// that fail the tool's input schema, which the SDK answers before any handler runs, as before, with no failure object
// and no record. A fifth element 'shown' marks a message the server wrote for its user: under ownErrorRule
// (adopted-rules/) its text is the server's own, scrubbed (`Error executing tool <name>: <the original text>`), with one
// warn record; every other call answers there as in the one-line copy ('crash': a crash, masked under ownErrorRule
// too). A sixth element runs before the call (to corrupt a file, say).
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
      // a corrupt memory file: JSON.parse's SyntaxError, right to mask under ownErrorRule too
      ['read_graph', {}, 'masked', 'error', 'crash', () => writeFileSync(join(files, 'memory.jsonl'), '{"type":"entity","name":\n')],
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
      ['read_text_file', { path: '/etc/hostname' }, 'masked', 'error', 'shown'],
      ['read_text_file', { path: join(files, 'missing.txt') }, 'path', 'info'],
      ['read_text_file', { path: join(files, 'a.txt'), head: 1, tail: 1 }, 'masked', 'error', 'shown'],
      ['edit_file', { path: join(files, 'a.txt'), edits: [{ oldText: 'delta', newText: 'x' }] }, 'masked', 'error', 'shown'],
      ['move_file', { source: join(files, 'a.txt'), destination: join(files, 'notes', 'b.md') }, 'masked', 'error', 'shown'],
      ['move_file', { source: join(files, 'gone.txt'), destination: join(files, 'notes', 'gone.txt') }, 'path', 'info'],
      ['write_file', { path: join(files, 'no-dir', 'x.txt'), content: 'x' }, 'path', 'info'],
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
      ['gzip-file-as-resource', { name: 'x.gz', data: 'ftp://user:hunter2@127.0.0.1/x' }, 'masked', 'error', 'shown'],
    ],
  },
  {
    name: 'server-sequential-thinking',
    entry: 'dist/index.js',
    args: [],
    env: () => ({ DISABLE_THOUGHT_LOGGING: 'true' }),
    ok: [
      ['sequentialthinking', { thought: 'First, list the facts.', nextThoughtNeeded: true, thoughtNumber: 1, totalThoughts: 2 }],
      ['sequentialthinking', { thought: 'Then conclude.', nextThoughtNeeded: false, thoughtNumber: 2, totalThoughts: 2 }],
    ],
    fail: [['sequentialthinking', { thought: 'x', nextThoughtNeeded: 'maybe', thoughtNumber: 1, totalThoughts: 1 }, 'sdk']],
  },
];

// PUBLISHED_ONLY=<server name> drives one server (while working on this file).
const only = process.env.PUBLISHED_ONLY ?? '';
const leaked = { crashTexts: 0, paths: 0, passwords: 0 };
// Issue 32's counts for the ownErrorRule copies: messages meant for users, and how many of them were masked; crash texts
// that reached the client; file-system texts naming a path that is not the caller's.
const own = { userMessages: 0, userMessagesMasked: 0, crashes: 0, crashTextsShown: 0, fileSystemTexts: 0, otherPathsNamed: 0 };

/** The absolute paths under the scratch project that a text names. */
function projectPaths(text) {
  return text.match(new RegExp(`${project.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^'\\s,)]*`, 'g')) ?? [];
}

async function run(server, variant) {
  resetFiles();
  const base = join(variant === 'original' ? '' : variant, 'node_modules', '@modelcontextprotocol', server.name);
  const args = typeof server.args === 'function' ? server.args() : server.args;
  const { value, stderr } = await overStdio({ args: [join(project, base, server.entry), ...args], env: server.env(), cwd: project }, async (client) => {
    const tools = await client.listTools();
    const ok = [];
    for (const [name, args] of server.ok) ok.push(await client.callTool({ name, arguments: args }));
    const fail = [];
    for (const [name, args, , , , before] of server.fail) {
      before?.();
      fail.push(await client.callTool({ name, arguments: args }));
    }
    return { tools, ok, fail };
  });
  return { ...value, stderr };
}

// Report mode's counts: failure answers byte-identical to the original's, and identical but for a secret scrubbed.
const reported = { identical: 0, scrubbed: 0 };

/** The same answer with the scrubber run over its texts: what report mode may send in place of a crash's text. */
function scrubbedAnswer(answer) {
  return { ...answer, content: answer.content.map((item) => (item.type === 'text' ? { ...item, text: scrubSecrets(item.text) } : item)) };
}

// Report mode (adopted-report/): every answer, failures included, byte for byte the original's (a known secret
// scrubbed from a text is the one difference allowed), and one report record per failure a handler threw, in call
// order, advising ownErrorRule() for the server's own messages and calling the rest crashes or what the core shows.
function compareReport(label, server, before, after) {
  assert.equal(JSON.stringify(after.tools), JSON.stringify(before.tools), `${label}: tools/list`);
  server.ok.forEach(([name], i) => assert.equal(JSON.stringify(after.ok[i]), JSON.stringify(before.ok[i]), `${label}: ${name} #${i}`));
  const records = recordsIn(after.stderr);
  const handled = server.fail.filter(([, , kind]) => kind !== 'sdk');
  assert.equal(records.length, handled.length, `${label}: one record per failed call:\n${after.stderr}`);
  server.fail.forEach(([name], i) => {
    const [was, now] = [JSON.stringify(before.fail[i]), JSON.stringify(after.fail[i])];
    const call = `${label}: ${name} #${i}`;
    const kept = now === was;
    assert.ok(kept || now === JSON.stringify(scrubbedAnswer(before.fail[i])), `${call}: report mode changed the answer:\n${was}\n${now}`);
    assert.ok(!now.includes('hunter2'), `${call}: report mode sent the password: ${now}`);
    reported[kept ? 'identical' : 'scrubbed'] += 1;
    console.log(`${call}: ${kept ? 'as the original' : `the original with its secret scrubbed: ${JSON.stringify(text(after.fail[i]))}`}`);
  });
  handled.forEach(([name, , kind, , forUser], j) => {
    const record = records[j];
    assert.match(record, new RegExp(`^\\[mcp-error-policy\\] (INFO|WARN|ERROR) report: tool "${name}" `), `${label}: ${record}`);
    if (forUser === 'shown') assert.ok(record.includes('ownErrorRule()'), `${label}: ${name}: the record should advise ownErrorRule(): ${record}`);
    else if (kind === 'masked') assert.ok(record.includes('a crash: fix it'), `${label}: ${name}: the record should call it a crash: ${record}`);
  });
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
  server.fail.forEach(([name, args, oneLine, oneLineLevel, forUser], i) => {
    const shown = variant === 'adopted-rules' && forUser === 'shown';
    const kind = shown ? 'shown' : oneLine;
    const level = shown ? 'warn' : oneLineLevel;
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
    const masked = `Error executing tool ${name} (reference ${failure.correlationId})`;
    const callerPaths = new Set(JSON.stringify(args).match(/"[^"]*"/g)?.map((quoted) => JSON.parse(quoted)) ?? []);
    const otherPaths = projectPaths(nowText).filter((path) => !callerPaths.has(path));
    if (variant === 'adopted-rules') {
      if (forUser === 'shown') {
        own.userMessages += 1;
        if (nowText === masked) own.userMessagesMasked += 1;
      } else if (oneLine === 'masked') {
        own.crashes += 1;
        if (nowText !== masked) own.crashTextsShown += 1;
      }
      if (nowText.startsWith(`Error executing tool ${name}: File system error: `)) {
        own.fileSystemTexts += 1;
        if (otherPaths.length > 0) own.otherPathsNamed += 1;
      }
    }
    assert.equal(failure.retryAfterMs, undefined, call);
    if (kind === 'masked') {
      assert.equal(nowText, masked, call);
      assert.equal(failure.code, 'internal');
    } else if (kind === 'shown') {
      assert.equal(nowText, `Error executing tool ${name}: ${scrubSecrets(wasText)}`, call);
      assert.equal(failure.code, 'own-error');
    } else {
      assert.ok(nowText.startsWith(`Error executing tool ${name}: `), `${call}: text, got ${JSON.stringify(nowText)}`);
      assert.notEqual(nowText, `Error executing tool ${name}: ${wasText}`, `${call}: the policy's text, not the error's`);
      assert.deepEqual(otherPaths, [], `${call}: names a path that is not the caller's: ${nowText}`);
      if (kind === 'path') assert.ok(projectPaths(nowText).length > 0, `${call}: names the caller's path: ${nowText}`);
    }
    const answer = JSON.stringify(now);
    // the server's own words (shown) may name its folders; any other text names none but the caller's
    if (kind !== 'shown') assert.deepEqual(projectPaths(answer).filter((path) => !callerPaths.has(path)), [], `${call}: the adopted answer names the scratch directory: ${answer}`);
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
  compareReport(`${server.name}@${version} adopted-report`, server, before, await run(server, 'adopted-report'));
}

// The negative control: the originals sent crash texts, the scratch directory's path and a password to the client.
console.log(`the originals leaked: ${JSON.stringify(leaked)}`);
// Issue 32, "Done when": under the one line plus ownErrorRule, 0 messages meant for users masked, 0 crash texts shown,
// file-system texts naming no path but the caller's.
console.log(`with ownErrorRule: ${JSON.stringify(own)}`);
assert.equal(own.userMessagesMasked, 0, 'messages meant for users were masked');
assert.equal(own.crashTextsShown, 0, 'crash texts reached the client');
assert.equal(own.otherPathsNamed, 0, "file-system texts named a path that was not the caller's");
// Report mode: every answer byte-identical to the bare server's, but for a known secret scrubbed from a crash's text.
console.log(`report mode: ${JSON.stringify(reported)}`);
assert.ok(reported.identical > 0 && reported.scrubbed > 0, 'report mode: the calls should include answers kept as they were and a secret scrubbed');
if (only === '') {
  const all = leaked.crashTexts > 0 && leaked.paths > 0 && leaked.passwords > 0;
  assert.ok(all, 'the originals should leak what the adopted copies hide');
}

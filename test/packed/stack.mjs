// Runs in a fresh project that installed the packed tarball (scripts/smoke-packed.sh): the shipped JavaScript is
// readable. A crash that goes through the package leaves a stack whose frames into the package name functions the
// source declares (ESM and CJS), and no shipped file declares a function with a mangled one- or two-letter name.
//
//   node stack.mjs <repository root>   (src/ is read there, to know the names the source declares)
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as esm from 'mcp-error-policy';

const root = process.argv[2];
assert.ok(root, 'usage: node stack.mjs <repository root>');
const require = createRequire(import.meta.url);
const cjs = require('mcp-error-policy');
const packageDir = dirname(require.resolve('mcp-error-policy/package.json'));

/** Every file under `dir` whose name ends with one of `extensions`. */
function filesUnder(dir, extensions) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && extensions.some((extension) => entry.name.endsWith(extension)))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The names src/ declares: functions, classes, methods and the consts and lets a function is assigned to. */
const source = filesUnder(join(root, 'src'), ['.ts']).map((file) => readFileSync(file, 'utf8')).join('\n');
const declared = new Set(
  [
    ...source.matchAll(
      /\b(?:function\*?|class)\s+([\w$]+)|\b(?:const|let)\s+([\w$]+)\s*(?::[^=\n]+)?=\s*(?:async\s+)?(?:function\b|\(|[\w$]+\s*=>)|^[ \t]+(?:(?:async|static|get|set)\s+)*([\w$]+)\s*\([^)]*\)\s*(?::[^{\n]+)?\{/gm,
    ),
  ].map((m) => m[1] ?? m[2] ?? m[3]),
);

/**
 * The function names of the frames of `stack` that are in the package's dist/ (`at [async ][Type.]name (…/dist/…)`),
 * without the `$1` suffix the bundler gives the second of two modules' same names.
 */
function packageFrames(stack) {
  const dist = join(packageDir, 'dist');
  return stack
    .split('\n')
    .filter((line) => line.includes(dist))
    .map((line) => /^\s+at (?:async )?(?:new )?(?:[\w$]+\.)?([\w$<>]+) \(/.exec(line)?.[1] ?? `(unnamed) ${line.trim()}`)
    .map((name) => name.replace(/\$\d+$/, ''));
}

/** The name of the tool handler below: the package's wrapper takes its handler's name, so frames may show it. */
const HANDLER = 'readSheet';

/** A tool handler that crashes synchronously, inside the package's wrapper, as a bug in a server does. */
async function crashThroughTheWrapper(lib) {
  const records = [];
  const policy = lib.createErrorPolicy({ logger: (record) => records.push(record) });
  const handler = {
    [HANDLER](_args) {
      throw new TypeError('CANARY: a bug in the tool');
    },
  }[HANDLER];
  const tool = lib.withClientVisibleErrors(handler, { name: 'read_sheet', policy });
  const result = await tool({}, { requestId: 1, signal: new AbortController().signal });
  assert.match(result.content[0].text, /^Error executing tool read_sheet \(reference [0-9a-f]{12}\)$/);
  assert.equal(records.length, 1);
  assert.equal(records[0].level, 'error');
  return records[0].stack ?? '';
}

/** A bad option: createErrorPolicy throws, from inside the package. */
function badOption(lib) {
  try {
    lib.createErrorPolicy({ maxMessageLength: -1 });
  } catch (error) {
    assert.ok(error instanceof TypeError);
    return error.stack ?? '';
  }
  assert.fail('createErrorPolicy accepted maxMessageLength: -1');
}

for (const [format, lib] of [
  ['ESM', esm],
  ['CJS', cjs],
]) {
  const crashed = packageFrames(await crashThroughTheWrapper(lib));
  const refused = packageFrames(badOption(lib));
  const own = crashed.filter((name) => name !== HANDLER);
  assert.ok(own.length >= 2, `${format}: the crash's logged stack has frames of the package's wrapper: ${crashed.join(', ')}`);
  assert.ok(refused.includes('createErrorPolicy'), `${format}: the bad option's stack names createErrorPolicy: ${refused.join(', ')}`);
  const unknown = [...own, ...refused].filter((name) => !declared.has(name));
  assert.deepEqual(unknown, [], `${format}: every frame into dist/ names a function src/ declares`);
  console.log(`stack (${format}): a crash through withClientVisibleErrors names ${[...new Set(crashed)].join(', ')} (${HANDLER}: the wrapper, named after its handler); a bad option names ${[...new Set(refused)].join(', ')}`);
}

// No mangled names: every function the shipped JavaScript declares has a name src/ declares, and none is one or two
// letters long (a minifier's names).
const shipped = filesUnder(join(packageDir, 'dist'), ['.mjs', '.cjs']);
assert.ok(shipped.length >= 10, `dist/ holds ESM and CJS for every entry (${shipped.length} files)`);
for (const file of shipped) {
  const text = readFileSync(file, 'utf8');
  const functions = [...text.matchAll(/\bfunction\*?\s+([\w$]+)\s*\(/g)].map((m) => m[1].replace(/\$\d+$/, ''));
  assert.ok(functions.length > 0, `${file} declares functions`);
  const short = functions.filter((name) => name.length <= 2);
  assert.deepEqual(short, [], `${file}: no one- or two-letter function names`);
  const foreign = functions.filter((name) => !declared.has(name) && !name.startsWith('__'));
  assert.deepEqual(foreign, [], `${file}: every function name is one src/ declares`);
  const lines = text.split('\n');
  assert.ok(lines.length > 100 && Math.max(...lines.map((line) => line.length)) < 1000, `${file}: one statement a line, no whitespace-free lines`);
}
console.log(`stack: ${shipped.length} shipped JavaScript files declare only functions the source names; none is mangled`);

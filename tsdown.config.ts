import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, type Node } from 'acorn';
import { defineConfig, type UserConfig } from 'tsdown';

// Compressed JavaScript with short names, without whitespace but with a line break before each statement (compactLines
// below): a stack frame into it gives a file and a line that is one statement, and Node's report of an uncaught error
// (a bad option at start-up) quotes one short line, not the whole file. Class names are kept (a logged error's class is
// what a reader looks for); function names are not: keeping them cost 10 kB of the core's 73 kB, 1.2 kB gzipped, and
// about 0.3 ms of import time. No comments: the TSDoc lives in the type declarations, where editors read it.
const common: UserConfig = {
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  outputOptions: { legalComments: 'none' },
  minify: { compress: true, mangle: { keepNames: { function: false, class: true }, toplevel: true }, codegen: { removeWhitespace: true } },
};

/** The offsets where a statement (or class member) of `code` starts: its line breaks go there. */
function statementStarts(code: string, sourceType: 'module' | 'script'): number[] {
  const starts: number[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== 'object' || value === null || typeof (value as { type?: unknown }).type !== 'string') return;
    const node = value as Node & Record<string, unknown>;
    const list = node.type === 'SwitchCase' ? node['consequent'] : node.type === 'Program' || node.type === 'BlockStatement' || node.type === 'StaticBlock' || node.type === 'ClassBody' ? node['body'] : undefined;
    if (Array.isArray(list)) for (const statement of list as Node[]) starts.push(statement.start);
    for (const key of Object.keys(node)) visit(node[key]);
  };
  visit(parse(code, { ecmaVersion: 'latest', sourceType }));
  return starts.sort((a, b) => a - b);
}

/**
 * Puts a line break before each statement of the whitespace-free output (only there: never inside a string, template
 * or regular expression, and never where a line break changes the meaning, as after `return`), so that lines stay as
 * short as the statements. Smaller and quicker to load than the formatted output (indentation and one array element
 * a line), with the same short lines. The result is parsed again, to be sure.
 */
export function compactLines(code: string, sourceType: 'module' | 'script'): string {
  let out = '';
  let from = 0;
  for (const at of statementStarts(code, sourceType)) {
    if (at === 0 || at === from) continue;
    out += code.slice(from, at);
    if (!out.endsWith('\n')) out += '\n';
    from = at;
  }
  out += code.slice(from);
  parse(out, { ecmaVersion: 'latest', sourceType });
  return out;
}

/**
 * One copy of the declarations serves both formats: the `.d.mts` of an entry re-exports its `.d.cts` (ES modules may
 * import CommonJS; TypeScript follows `export *` there in every module mode). The packed tarball then carries the
 * TSDoc'd declarations once instead of twice. scripts/smoke-packed.sh type-checks a user's ESM and CJS files against
 * the packed package, and @arethetypeswrong/cli checks both conditions.
 *
 * The file goes into the build's own output folder (`options.outDir`, resolved by tsdown: `dist/` by default, or the
 * folder given with `-d`, as the import test does with a scratch folder), never into a path relative to the working
 * directory. A build without declarations (`--no-dts`) gets no `.d.mts` either.
 */
function declarationsOnce(entry: string): NonNullable<UserConfig['hooks']> {
  const base = entry.split('/').pop() ?? entry;
  return {
    // once per format: the JavaScript of that format's build
    'build:done': async ({ options, chunks }) => {
      for (const chunk of chunks) {
        if (chunk.type !== 'chunk' || !/\.[cm]js$/.test(chunk.fileName)) continue;
        const sourceType = chunk.fileName.endsWith('.cjs') ? 'script' : 'module';
        await writeFile(join(chunk.outDir, chunk.fileName), compactLines(chunk.code, sourceType));
      }
      if (options.dts === false) return;
      await writeFile(
        join(options.outDir, `${entry}.d.mts`),
        `// The declarations, with their TSDoc, are in ${base}.d.cts: one copy for both formats.\nexport * from './${base}.cjs';\n`,
      );
    },
  };
}

// One build per entry, so that each entry is one file: a chunk shared by the two entries is one more module for Node
// to resolve, read and link when the package is imported (about 0.4 ms of start-up). The few readers and text helpers
// the Google and HTTP entries share with the core are copied into each; they hold no state.
export default defineConfig([
  { ...common, entry: { index: 'src/index.ts' }, hooks: declarationsOnce('index') },
  { ...common, entry: { 'google/index': 'src/google/index.ts' }, hooks: declarationsOnce('google/index') },
  { ...common, entry: { 'http/index': 'src/http/index.ts' }, hooks: declarationsOnce('http/index') },
  { ...common, entry: { 'opentelemetry/index': 'src/opentelemetry/index.ts' }, hooks: declarationsOnce('opentelemetry/index') },
  { ...common, entry: { 'client/index': 'src/client/index.ts' }, hooks: declarationsOnce('client/index') },
]);

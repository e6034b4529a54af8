import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineConfig, type UserConfig } from 'tsdown';

// The compiler's plain output, as a library ships it: ESM and CJS, names as in the source (a name two modules share
// gets a `$1` suffix in the second), one statement a line, indented. Nothing is minified: an application's bundler
// minifies what it bundles. A stack frame into the package names the function the source names, and the package reads,
// and steps in a debugger, in node_modules. `minify` below only chooses the printer: with its three passes off (no
// compression, no renaming, no whitespace removal) it prints the same code without the comments, which are the TSDoc,
// already in the type declarations where editors read it, and would make the tarball nearly twice as large.
const common: UserConfig = {
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  minify: { compress: false, mangle: false, codegen: { removeWhitespace: false } },
};

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
    'build:done': async ({ options }) => {
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
  // the NestJS filter uses the core through the package's own name (self-reference): no second copy of the core
  { ...common, entry: { 'nestjs/index': 'src/nestjs/index.ts' }, external: ['mcp-error-policy'], hooks: declarationsOnce('nestjs/index') },
]);

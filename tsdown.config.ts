import { rm, writeFile } from 'node:fs/promises';
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
 * import CommonJS; TypeScript follows `export *` there in every module mode), and a declarations chunk shared by
 * entries is kept in its `.d.cts` form alone (the `.d.cts` files import it). The packed tarball then carries the
 * TSDoc'd declarations once instead of twice. scripts/smoke-packed.sh type-checks a user's ESM and CJS files against
 * the packed package, and @arethetypeswrong/cli checks both conditions.
 *
 * The files go into the build's own output folder (`options.outDir`, resolved by tsdown: `dist/` by default, or the
 * folder given with `-d`, as the import test does with a scratch folder), never into a path relative to the working
 * directory. A build without declarations (`--no-dts`) gets no `.d.mts` either.
 */
function declarationsOnce(...entries: string[]): NonNullable<UserConfig['hooks']> {
  return {
    'build:done': async ({ options, chunks }) => {
      if (options.dts === false) return;
      for (const chunk of chunks) {
        if (chunk.type === 'chunk' && !chunk.isEntry && chunk.fileName.endsWith('.d.mts')) {
          await rm(join(options.outDir, chunk.fileName));
        }
      }
      for (const entry of entries) {
        const base = entry.split('/').pop() ?? entry;
        await writeFile(
          join(options.outDir, `${entry}.d.mts`),
          `// The declarations, with their TSDoc, are in ${base}.d.cts: one copy for both formats.\nexport * from './${base}.cjs';\n`,
        );
      }
    },
  };
}

// The core and the Google, HTTP and OpenTelemetry entries are one build: what two of them use (the readers, the HTTP
// helpers, the rule types) is one chunk, `shared.mjs`/`.cjs`, that the entries import, instead of a copy in each.
// It is one more module for Node to resolve and read when the package is imported (docs/performance.md has its cost).
// The client entry, used in agents without the rest, stays one file; the NestJS filter uses the core through the
// package's own name (self-reference): no second copy of the core.
const sharedEntries = ['index', 'google/index', 'http/index', 'opentelemetry/index'];
export default defineConfig([
  {
    ...common,
    entry: Object.fromEntries(sharedEntries.map((entry) => [entry, `src/${entry}.ts`])),
    hooks: declarationsOnce(...sharedEntries),
    // chunks named without a content hash: a stack frame reads `dist/shared.mjs` in every version
    hash: false,
    outputOptions: {
      // the chunk's exports keep their source names: `import { readProp, … } from './shared.mjs'`, not `q as readProp`
      minifyInternalExports: false,
      // declarations (`.d.ts` modules) are split by the default rule, into a chunk named after its first module
      codeSplitting: { groups: [{ name: 'shared', minShareCount: 2, test: (id: string) => !id.endsWith('.d.ts') }] },
    },
  },
  { ...common, entry: { 'client/index': 'src/client/index.ts' }, hooks: declarationsOnce('client/index') },
  { ...common, entry: { 'nestjs/index': 'src/nestjs/index.ts' }, external: ['mcp-error-policy'], hooks: declarationsOnce('nestjs/index') },
]);

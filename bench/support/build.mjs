/**
 * Builds the package with the project's own tsdown config, into `dist/` (the bench) or a scratch directory (the
 * import-proof test, so that it never races another build of the shared `dist/`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** True when the Google entry's source exists (the build then has both entries). */
export function hasGoogleEntry() {
  return existsSync(join(ROOT, 'src/google/index.ts'));
}

/**
 * Runs tsdown with tsdown.config.ts. When src/google/index.ts does not exist yet, builds the core entry alone with
 * the same settings (the config names both entries and would fail).
 * @param {{ outDir?: string, dts?: boolean }} [options] outDir: default `dist` of the repository; dts: default true
 * @returns {{ googleEntry: boolean, ms: number }}
 */
export function buildPackage({ outDir = join(ROOT, 'dist'), dts = true } = {}) {
  const googleEntry = hasGoogleEntry();
  const args = googleEntry
    ? ['-d', outDir]
    : ['--no-config', 'src/index.ts', '-f', 'esm', '-f', 'cjs', '--platform', 'node', '--target', 'node20', '--clean', '-d', outDir];
  if (!dts) args.push('--no-dts');
  else if (!googleEntry) args.push('--dts');
  const started = performance.now();
  const result = spawnSync(join(ROOT, 'node_modules/.bin/tsdown'), [...args, '--logLevel', 'error'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) {
    throw new Error(`tsdown failed (exit ${String(result.status)}):\n${result.stdout}\n${result.stderr}`);
  }
  return { googleEntry, ms: performance.now() - started };
}

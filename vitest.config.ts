import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Two sizes of the same suite, chosen by `TEST_SIZE` (one list here says what differs):
 * - unset (`npm test`): every test file but the HEAVY_ONLY ones, the property suites at QUICK_RUNS cases in all, the
 *   HTTP status table (test/http/mcp.test.ts) on the newest version of each client library. About a minute.
 * - `heavy` (`npm run test:heavy`, CI's second test step): only the SCALED and HEAVY_ONLY files, at full size: the
 *   property suites at 100,000 cases, the HTTP table on every supported version, the same table over stdio.
 * - `full` (`npm run test:full`): every file at full size.
 * The frameworks, runtimes, published servers and the version matrix are scripts of their own (scripts/, CI).
 */
const HEAVY_ONLY = ['test/http/stdio.test.ts'];
const SCALED = ['test/http/mcp.test.ts', 'test/security/*.property.test.ts'];
const QUICK_RUNS = '5000';

const size = process.env['TEST_SIZE'] ?? 'quick';
if (!['quick', 'heavy', 'full'].includes(size)) throw new TypeError(`Expected TEST_SIZE to be quick, heavy or full, got ${JSON.stringify(size)}`);
const quick = size === 'quick';

export default defineConfig({
  resolve: {
    alias: {
      'mcp-error-policy/google': fileURLToPath(new URL('./src/google/index.ts', import.meta.url)),
      'mcp-error-policy/http': fileURLToPath(new URL('./src/http/index.ts', import.meta.url)),
      'mcp-error-policy/opentelemetry': fileURLToPath(new URL('./src/opentelemetry/index.ts', import.meta.url)),
      'mcp-error-policy/client': fileURLToPath(new URL('./src/client/index.ts', import.meta.url)),
      'mcp-error-policy': fileURLToPath(new URL('./src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: size === 'heavy' ? [...HEAVY_ONLY, ...SCALED] : ['test/**/*.test.ts'],
    exclude: quick ? [...configDefaults.exclude, ...HEAVY_ONLY] : configDefaults.exclude,
    // The suite's own knobs (test/security/support.ts, test/http/support/clients.ts); an FC_NUM_RUNS set by hand wins.
    env: { TEST_SIZE: size, FC_NUM_RUNS: process.env['FC_NUM_RUNS'] ?? (quick ? QUICK_RUNS : '100000') },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, idle while a test waits on a
    // subprocess or a timeout. TEST_WORKERS overrides.
    maxWorkers: Number(process.env['TEST_WORKERS'] ?? availableParallelism() + 1),
    // One module graph per worker, not per file: importing the SDKs and the client libraries once per worker instead
    // of once per file is most of what made the suite slow. Tests keep no state between files (each builds its own
    // servers and policies).
    isolate: false,
  },
});

/**
 * Vitest config of the compatibility matrix (scripts/matrix.sh): the project's config, plus, when `COMPAT_DEPS` names
 * a scratch directory with its own node_modules (say `.tmp/matrix/sdk-1.23.0-zod-3.25.0`), a resolver that makes the
 * project's imports (tests and src/ alike) of `@modelcontextprotocol/*`, `@opentelemetry/*` and `zod` resolve from that
 * directory. Packages keep resolving their own dependencies as installed, so the SDK under test uses the zod installed
 * beside it, and the OpenTelemetry SDK the API copy beside it, the one src/opentelemetry then loads too. Subprocesses
 * get the same redirection through test/compat/redirect.mjs.
 */
import { join } from 'node:path';
import { defineConfig, mergeConfig, type Plugin } from 'vitest/config';
import base from '../../vitest.config.js';

const REDIRECTED = /^(?:@modelcontextprotocol\/(?:sdk|server|client|core)|@opentelemetry\/[^/]+|zod)(?:\/|$)/;

function redirect(deps: string): Plugin {
  const importer = join(deps, 'package.json');
  return {
    name: 'compat-redirect',
    enforce: 'pre',
    async resolveId(source, from, options) {
      if (!REDIRECTED.test(source) || from === undefined || from.includes('/node_modules/')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (resolved === null) throw new Error(`compat-redirect: ${source} is not installed in ${deps}`);
      return resolved;
    },
  };
}

const deps = process.env['COMPAT_DEPS'];

export default mergeConfig(
  base,
  defineConfig({
    plugins: deps === undefined || deps === '' ? [] : [redirect(deps)],
    test: {
      // The matrix asks for the versions it runs; a test that sees another copy fails (test/compat/versions.test.ts).
      env: deps === undefined ? {} : { COMPAT_DEPS: deps },
    },
  }),
);

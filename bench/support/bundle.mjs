/**
 * What a user's bundle carries of the package: a one-line app bundled with esbuild (minified, ESM, platform node,
 * tree-shaken), the MCP SDK left external so that the bundle holds the package's code and the app's line only, and
 * gzipped at level 9. The package is resolved by its name from the repository root (its own `exports`, so the built
 * dist/index.mjs), as a user's bundler resolves it from node_modules.
 */
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { ROOT } from './build.mjs';

/** The apps measured: each a one-line use of the core. */
export const BUNDLED_APPS = [
  {
    label: 'an app importing only withClientVisibleErrors',
    source: "import { withClientVisibleErrors } from 'mcp-error-policy';\nexport const tool = withClientVisibleErrors(async () => ({ content: [] }));\n",
  },
  {
    label: 'a server with applyErrorPolicy',
    source:
      "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { applyErrorPolicy } from 'mcp-error-policy';\n" +
      "export const server = applyErrorPolicy(new McpServer({ name: 'app', version: '1.0.0' }));\n",
  },
];

/**
 * Bundles `source` and returns the minified and gzipped bytes of the output.
 * @param {string} source
 * @returns {Promise<{ bytes: number, gzipped: number }>}
 */
export async function bundledSize(source) {
  const result = await build({
    stdin: { contents: source, resolveDir: ROOT, loader: 'js', sourcefile: 'app.mjs' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['@modelcontextprotocol/*'],
    write: false,
    logLevel: 'error',
  });
  const output = result.outputFiles[0]?.contents;
  if (output === undefined) throw new Error('esbuild wrote no output');
  return { bytes: output.length, gzipped: gzipSync(output, { level: 9 }).length };
}

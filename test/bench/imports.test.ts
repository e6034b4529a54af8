/**
 * The built package loads none of the packages it only knows structurally: importing or requiring
 * `mcp-error-policy`, `mcp-error-policy/google` or `mcp-error-policy/http` must not load gaxios, google-auth-library,
 * googleapis, zod, either MCP SDK, the HTTP clients the http entry recognises (axios, Octokit, openai,
 * @anthropic-ai/sdk, ky), or OpenTelemetry. A user who imports the policy pays for the policy, not for the SDKs it
 * recognises. `mcp-error-policy/opentelemetry` loads `@opentelemetry/api` (its optional peer) and nothing else;
 * `mcp-error-policy/client` loads its own file alone.
 *
 * The package is built from the current src/ with the project's tsdown config into a scratch copy (never the shared
 * dist/), linked into a scratch app's node_modules, and imported by name in a fresh `node` process whose ESM loader
 * hooks record every resolved URL (and whose `require.cache` lists every CommonJS file).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage, hasGoogleEntry, ROOT } from '../../bench/support/build.mjs';
import { loadedModules, makeScratchApp } from '../../bench/support/scratch-app.mjs';

const require = createRequire(import.meta.url);

let work = '';
let packageDir = '';
let app: ReturnType<typeof makeScratchApp> | undefined;

function probe(): string {
  if (app === undefined) throw new Error('the scratch app was not made');
  return app.probe;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'mcp-error-policy-imports-'));
  packageDir = join(work, 'package');
  mkdirSync(packageDir);
  copyFileSync(join(ROOT, 'package.json'), join(packageDir, 'package.json'));
  buildPackage({ outDir: join(packageDir, 'dist'), dts: false });
  // the opentelemetry entry's peer, where a user's install puts it: beside the package
  mkdirSync(join(packageDir, 'node_modules', '@opentelemetry'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules', '@opentelemetry', 'api'), join(packageDir, 'node_modules', '@opentelemetry', 'api'), 'dir');
  app = makeScratchApp(packageDir);
}, 180_000);

afterAll(() => {
  app?.cleanup();
  if (work !== '') rmSync(work, { recursive: true, force: true });
});

/** Importing `entry` (ESM and CJS) loads its build `<built>.mjs` / `.cjs`, nothing forbidden, and nothing but its own build. */
function expectOnlyItsOwnBuild(entry: string, built: string): void {
  const loaded = loadedModules(probe(), [entry]);
  expect(loaded.esm).toContain(pathToFileURL(join(packageDir, `${built}.mjs`)).href);
  expect(loaded.cjs).toContain(pathToFileURL(join(packageDir, `${built}.cjs`)).href);
  expect(loaded.forbidden).toEqual([]);
  // Everything it loads is its own build (or Node's own modules).
  const foreign = [...loaded.esm, ...loaded.cjs].filter((url) => !url.startsWith('node:') && !url.startsWith(pathToFileURL(packageDir).href));
  expect(foreign).toEqual([]);
}

/** Importing `entry` with the modules `specifiers` (resolved from here) loaded too: the check names each of `named` as forbidden. */
function expectSeen(entry: string, specifiers: string[], named: string[]): void {
  const loaded = loadedModules(probe(), [entry, ...specifiers.map((specifier) => require.resolve(specifier))]);
  expect(loaded.forbidden).toEqual(expect.arrayContaining(named));
}

describe('importing the built package', () => {
  it('loads none of gaxios, google-auth-library, zod or the MCP SDKs for mcp-error-policy (ESM and CJS)', () => {
    expectOnlyItsOwnBuild('mcp-error-policy', 'dist/index');
  });

  it.skipIf(!hasGoogleEntry())('loads none of them for mcp-error-policy/google (ESM and CJS)', () => {
    expectOnlyItsOwnBuild('mcp-error-policy/google', 'dist/google/index');
  });

  it('loads none of them for mcp-error-policy/http (ESM and CJS)', () => {
    expectOnlyItsOwnBuild('mcp-error-policy/http', 'dist/http/index');
  });

  it('loads none of them, and nothing of the server side, for mcp-error-policy/client (ESM and CJS)', () => {
    expectOnlyItsOwnBuild('mcp-error-policy/client', 'dist/client/index');
    const loaded = loadedModules(probe(), ['mcp-error-policy/client']);
    const own = pathToFileURL(join(packageDir, 'dist')).href;
    expect([...loaded.esm, ...loaded.cjs].filter((url) => url.startsWith(own) && !url.includes('/dist/client/'))).toEqual([]);
  });

  it('loads @opentelemetry/api and nothing else for mcp-error-policy/opentelemetry (ESM and CJS)', () => {
    const loaded = loadedModules(probe(), ['mcp-error-policy/opentelemetry']);
    expect(loaded.esm).toContain(pathToFileURL(join(packageDir, 'dist/opentelemetry/index.mjs')).href);
    expect(loaded.cjs).toContain(pathToFileURL(join(packageDir, 'dist/opentelemetry/index.cjs')).href);
    expect(loaded.forbidden).toEqual(['@opentelemetry/api']);
    const own = pathToFileURL(join(packageDir, 'dist')).href;
    const api = pathToFileURL(join(ROOT, 'node_modules/@opentelemetry/api')).href;
    const foreign = [...loaded.esm, ...loaded.cjs].filter((url) => !url.startsWith('node:') && !url.startsWith(own) && !url.startsWith(api));
    expect(foreign).toEqual([]);
    // the entry is one file: it loads none of the core's build
    expect([...loaded.esm, ...loaded.cjs].filter((url) => url.startsWith(own) && !url.includes('/dist/opentelemetry/'))).toEqual([]);
  });

  it('sees each HTTP client when one does load (the check can fail)', () => {
    expectSeen('mcp-error-policy/http', ['axios', 'octokit-rest22', 'openai6', 'anthropic1', 'ky1'], ['axios', 'octokit-rest22', 'openai6', 'anthropic1', 'ky1']);
  });

  it('sees each of those packages when one does load (the check can fail)', () => {
    // Each one named (their own dependencies, such as gaxios under google-auth-library, may come along).
    expectSeen(
      'mcp-error-policy',
      ['zod', 'gaxios7', 'google-auth-library10', '@modelcontextprotocol/sdk/server/mcp.js', '@modelcontextprotocol/server', '@opentelemetry/api'],
      ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server', 'gaxios7', 'google-auth-library10', 'zod', '@opentelemetry/api'],
    );
  });
});

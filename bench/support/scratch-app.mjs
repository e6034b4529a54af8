/**
 * A scratch app directory outside the repository, laid out as a user's project: node_modules/mcp-error-policy is a
 * link to a built package directory, node_modules/one-line is a package of one line (the baseline of the start-up
 * cost), node_modules/@modelcontextprotocol/sdk a link to the repository's SDK, and at its root the import probe and
 * two servers: one that makes an McpServer, and the same with `applyErrorPolicy` (the line).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PROBE = fileURLToPath(new URL('./import-probe.mjs', import.meta.url));
const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
const HOOKS_URL = new URL('./loader-hooks.mjs', import.meta.url).href;

/**
 * Package names no entry may load: the Google libraries, zod and the MCP SDKs, and the HTTP clients the http entry
 * knows (axios, Octokit, the OpenAI and Anthropic SDKs, ky, Stripe, the AWS SDK v3, Notion, Slack; under their own names and the test aliases),
 * and OpenTelemetry (only the opentelemetry entry may load `@opentelemetry/api`, its optional peer).
 */
export const FORBIDDEN =
  /\/node_modules\/(@opentelemetry\/[^/]+|gaxios\d*|google-auth-library\d*|googleapis(?:-common)?\d*|zod|@modelcontextprotocol\/[^/]+|axios|@octokit\/[^/]+|octokit-rest\d*|openai\d*|@anthropic-ai\/[^/]+|anthropic\d*|ky\d*|stripe\d*|@aws-sdk\/[^/]+|@smithy\/[^/]+|@notionhq\/[^/]+|notion\d*|@slack\/[^/]+|slack-web-api\d*)\//;

/**
 * @param {string} packageDir a directory with the package.json and the built dist/ of mcp-error-policy
 * @returns {{ dir: string, probe: string, cleanup: () => void }}
 */
export function makeScratchApp(packageDir) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-error-policy-probe-'));
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, 'one-line'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "name": "probe-app", "private": true, "type": "module" }\n');
  writeFileSync(
    join(modules, 'one-line', 'package.json'),
    '{ "name": "one-line", "version": "1.0.0", "type": "module", "exports": { "import": "./index.mjs", "require": "./index.cjs" } }\n',
  );
  writeFileSync(join(modules, 'one-line', 'index.mjs'), 'export const one = 1;\n');
  writeFileSync(join(modules, 'one-line', 'index.cjs'), 'exports.one = 1;\n');
  symlinkSync(packageDir, join(modules, 'mcp-error-policy'), 'dir');
  mkdirSync(join(modules, '@modelcontextprotocol'));
  symlinkSync(join(REPOSITORY, 'node_modules/@modelcontextprotocol/sdk'), join(modules, '@modelcontextprotocol/sdk'), 'dir');
  const probe = join(dir, 'import-probe.mjs');
  copyFileSync(PROBE, probe);
  // Each prints the CPU time its process used (user and system, ms) as its last act.
  const servers = { alone: join(dir, 'server-alone.mjs'), withLine: join(dir, 'server-with-line.mjs') };
  const sdk = "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\n";
  const cpu = 'const { user, system } = process.cpuUsage();\nprocess.stdout.write(`${(user + system) / 1000}\\n`);\n';
  writeFileSync(servers.alone, `${sdk}new McpServer({ name: 'app', version: '1.0.0' });\n${cpu}`);
  writeFileSync(servers.withLine, `${sdk}import { applyErrorPolicy } from 'mcp-error-policy';\napplyErrorPolicy(new McpServer({ name: 'app', version: '1.0.0' }));\n${cpu}`);
  return { dir, probe, servers, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Runs one of the scratch app's servers in a fresh process: its wall time, from spawning to exit, and the CPU time it
 * reported.
 * @param {string} file
 * @param {string} [node] the node binary
 * @returns {{ wallMs: number, cpuMs: number }}
 */
export function runApp(file, node = process.execPath) {
  const started = performance.now();
  const result = spawnSync(node, [file], { encoding: 'utf8', timeout: 60_000 });
  const wallMs = performance.now() - started;
  if (result.status !== 0) throw new Error(`${file} failed (exit ${String(result.status)}):\n${result.stderr}`);
  return { wallMs, cpuMs: Number(result.stdout.trim()) };
}

/**
 * Runs the probe in a fresh process.
 * @param {string} probe
 * @param {string[]} args
 * @param {string} [node] the node binary
 * @returns {{ out: any, wallMs: number }}
 */
export function runProbe(probe, args, node = process.execPath) {
  const started = performance.now();
  const result = spawnSync(node, [probe, ...args], { encoding: 'utf8', timeout: 60_000 });
  const wallMs = performance.now() - started;
  if (result.status !== 0) throw new Error(`probe ${args.join(' ')} failed (exit ${String(result.status)}):\n${result.stderr}`);
  return { out: JSON.parse(result.stdout), wallMs };
}

/**
 * Imports and requires `specifiers` in a fresh process and returns the forbidden packages it loaded, with every file
 * it loaded (to show the check saw them).
 * @param {string} probe
 * @param {string[]} specifiers
 * @param {string} [node]
 * @returns {{ forbidden: string[], esm: string[], cjs: string[] }}
 */
export function loadedModules(probe, specifiers, node) {
  const { out } = runProbe(probe, ['loaded', HOOKS_URL, ...specifiers], node);
  /** @type {string[]} */
  const esm = out.esm;
  /** @type {string[]} */
  const cjs = out.cjs.map((file) => pathToFileURL(file).href);
  const forbidden = [...new Set([...esm, ...cjs].filter((url) => FORBIDDEN.test(url)).map((url) => FORBIDDEN.exec(url)?.[1] ?? url))];
  return { forbidden, esm, cjs };
}

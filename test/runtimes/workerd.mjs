// Runs worker.mjs on workerd under `wrangler dev --config <file>` (127.0.0.1, bounded in time; with and without
// nodejs_compat) and checks it from Node: the shapes of
// workerd's fetch failures (written to the file named by the first argument, for scripts/runtimes.sh to compare with
// shapes.json), then every scenario of scenarios.mjs through the real SDK Client over Streamable HTTP, and the records
// the policy's default logger wrote through the console, each at the console method of its level (workerd prints
// console.info on stdout, console.warn and console.error on stderr), without a blank line after it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SECRET_KEY } from './shape.mjs';
import { closedPort, resettingServer } from './loopback.mjs';
import { checkScenarios } from './scenarios.mjs';

const [shapesFile, wranglerBin, config] = process.argv.slice(2);
const READY_WITHIN_MS = 90_000;
let passed = 0;

const reset = await resettingServer();
const out = { stdout: '', stderr: '' };
const wrangler = spawn(process.execPath, [wranglerBin, 'dev', '--config', config, '--ip', '127.0.0.1', '--port', '0', '--log-level', 'info'], {
  env: { ...process.env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0', WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
wrangler.stdout.on('data', (chunk) => (out.stdout += chunk));
wrangler.stderr.on('data', (chunk) => (out.stderr += chunk));
const stop = () => {
  try {
    process.kill(-wrangler.pid, 'SIGTERM'); // wrangler and the workerd it started, by the group this script made
  } catch {
    // already gone
  }
};
process.on('exit', stop);

async function waitFor(what, test, withinMs) {
  const end = Date.now() + withinMs;
  while (!test()) {
    if (Date.now() > end || wrangler.exitCode !== null) throw new Error(`${what} not seen in time.\nstdout:\n${out.stdout}\nstderr:\n${out.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

try {
  // port 0: wrangler binds a port of the kernel's choosing and names it, so no other listener can take it first
  const READY = /Ready on (http:\/\/127\.0\.0\.1:\d+)/;
  await waitFor('wrangler ready', () => READY.test(out.stdout), READY_WITHIN_MS);
  const origin = READY.exec(out.stdout)[1];
  // taken once wrangler and the resetting server listen, so neither can be handed this port after it was closed
  const refused = await closedPort();

  const probe = await (await fetch(`${origin}/shapes?refused=${refused}&reset=${reset.port}`)).json();
  writeFileSync(shapesFile, `${JSON.stringify(probe.shapes, null, 2)}\n`);
  assert.deepEqual(probe.entries, { main: 'function', google: true, http: true, opentelemetry: 'function' });
  assert.equal(probe.userAgent, 'Cloudflare-Workers');
  // wrangler wrote "development" in place of process.env.NODE_ENV, and still the crash below is masked
  assert.equal(probe.bundledNodeEnv, 'development');
  passed += 1;

  const client = new Client({ name: 'runtimes-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp?refused=${refused}`)));
  // workerd's `internal error; reference = ...` for the unknown host stays a crash (src/kit/codes.ts says why)
  const expected = await checkScenarios(client, { network: { refused: 'connection lost (CONNECTION_LOST)', dns: 'crash' } });
  passed += Object.keys(expected).length;
  await client.close();

  // One console line per record, through the console method of its level: wrangler prints console.info as it is on
  // stdout, and marks console.warn `[WARNING]` and console.error `[ERROR]` on stderr (its own blank lines around these).
  const plain = (name) => out[name].replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
  const where = { info: ['stdout', ''], warn: ['stderr', '.*\\[WARNING\\] '], error: ['stderr', '.*\\[ERROR\\] '] };
  const lineOf = (want) => new RegExp(`^${where[want.level][1]}\\[mcp-error-policy\\] ${want.level.toUpperCase()} .*${want.correlationId}.*$`, 'm');
  await waitFor('every record', () => Object.values(expected).every((want) => lineOf(want).test(plain(where[want.level][0]))), 10_000);
  for (const want of Object.values(expected)) {
    const text = plain(where[want.level][0]);
    assert.equal(`${plain('stdout')}${plain('stderr')}`.match(new RegExp(`\\(${want.kind === 'crash' ? 'reference' : 'correlation'} ${want.correlationId}\\)`, 'g'))?.length, 1, `one record with ${want.correlationId}`);
    const line = lineOf(want).exec(text);
    if (want.level === 'info') assert.notEqual(text.slice(line.index + line[0].length, line.index + line[0].length + 2), '\n\n', `a blank line after ${line[0]}`);
  }
  assert.ok(!`${out.stdout}${out.stderr}`.includes(SECRET_KEY), 'the secret key reached the console');
  passed += 1;
  console.log(`workerd (wrangler dev, ${config}): ${passed} passed, 0 failed`);
} finally {
  stop();
  writeFileSync(`${shapesFile}.stdout`, out.stdout);
  writeFileSync(`${shapesFile}.stderr`, out.stderr);
  await reset.close();
}

#!/usr/bin/env node
/**
 * `npm run bench`: what the policy costs, measured in one run against the bare handler measured in the same run.
 *
 *   node bench/run.mjs [--quick] [--strict] [--only success,failure,telemetry,startup,size] [--no-build]
 *
 * --quick   fewer samples and start-up rounds (a smoke run, ~30 s; the numbers are rougher)
 * --strict  exit 1 when a goal is missed
 * --only    measure these groups only (rows and goals of the others are left out): `success` (MCP calls and direct
 *           calls, bare against wrapped), `failure` (classifyError, a failure to its result), `telemetry`,
 *           `startup` (fresh processes: imports, and a server with the line against the SDK alone), `size`
 * --no-build  measure dist/ as it is (another build of the package, say an earlier commit's) instead of building it
 *
 * It builds the package into dist/ with the project's tsdown config and measures the BUILT package, loaded by its
 * name (`mcp-error-policy` resolves to dist/ through the package's own exports): plain `node`, no TypeScript loader,
 * so what is timed is what users run. Mitata prints its own report per group; the last table is the summary.
 *
 * Plain JavaScript on purpose: run through tsx, code is compiled with esbuild's keepNames, which wraps every closure
 * created per call in a `__name()` call (an Object.defineProperty each time) and makes the wrapped success path look
 * ~400 ns slower than it is.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bench, do_not_optimize, group, measure, run, summary } from 'mitata';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';
import { buildPackage, ROOT } from './support/build.mjs';
import { BUNDLED_APPS, bundledSize } from './support/bundle.mjs';
import { interleave, median } from './support/interleave.mjs';
import { captureRealErrors, PLANTED_TOKEN } from './support/real-errors.mjs';
import { measureTelemetry } from './support/telemetry.mjs';
import { loadedModules, makeScratchApp, runApp, runProbe } from './support/scratch-app.mjs';

const QUICK = process.argv.includes('--quick');
const loadAtStart = loadavg()[0] ?? NaN;
const STRICT = process.argv.includes('--strict');
/** Interleaved samples: MCP calls (one call per sample), direct calls (batches of 200). */
const MCP_SAMPLES = QUICK ? 3_000 : 15_000;
const DIRECT_SAMPLES = QUICK ? 100 : 400;
const STARTUP_ROUNDS = QUICK ? 12 : 40;
/**
 * Rounds of whole processes, a server with the line, the SDK alone, and the SDK alone again, in turn (at least 20, even
 * in a quick run). One process's wall time varies by about 10% on a shared 2-core machine, so the median of 40 rounds'
 * ratios still moves by about 3% from run to run (its A/A row shows it); 100 rounds, by about 1%.
 */
const SERVER_PAIRS = QUICK ? 20 : 100;
const GROUPS = ['success', 'failure', 'telemetry', 'startup', 'size'];
const onlyAt = process.argv.findIndex((arg) => arg === '--only' || arg.startsWith('--only='));
/** The groups measured: all, or those `--only` names. */
const ONLY = onlyAt === -1 ? GROUPS : (process.argv[onlyAt]?.split('=')[1] ?? process.argv[onlyAt + 1] ?? '').split(',');
for (const name of ONLY) if (!GROUPS.includes(name)) throw new Error(`--only: unknown group ${JSON.stringify(name)} (groups: ${GROUPS.join(', ')})`);
/** @param {string} name */
const want = (name) => ONLY.includes(name);
/**
 * The table's failure-path rows: mitata's `measure` with samples of 128 calls. Mitata's default (4096 calls a sample,
 * about 10 ms for a 2.5 µs call) lets a shared machine's preemption into most samples and inflates the median; its
 * report above keeps its defaults.
 */
const TABLE_MEASURE = { batch_samples: 128, min_cpu_time: (QUICK ? 150 : 400) * 1e6 };

const GOALS = {
  mcpRatio: 1.02,
  /**
   * openTelemetry() with a real tracer provider, against the bare handler traced by hand with the same provider (the
   * SDK's span alone costs more than 10% of an in-memory MCP call, so the untraced handler is shown, not gated).
   */
  tracedRatio: 1.1,
  directAddedNs: 100,
  /** Classification is linear in the chain's length: the cost per error of a 64-deep chain at most this times a 16-deep one's. */
  chainLinearity: 1.5,
  /**
   * A process that imports the SDK's McpServer and applies the line, against one that makes the same McpServer alone:
   * the median of the per-pair ratios of whole-process wall time. (Import time and sizes have no goal: the package
   * ships readable code, and an application's bundler minifies it; the packed tarball has its guard below.)
   */
  serverStartupRatio: 1.02,
  /** The packed-tarball budget, as scripts/check-package.sh checks it (`max_bytes=`). */
  packedBytes: Number(/^max_bytes=(\d+)$/m.exec(readFileSync(new URL('../scripts/check-package.sh', import.meta.url), 'utf8'))?.[1]),
};

/** @param {string} text */
function note(text) {
  process.stderr.write(`[bench] ${text}\n`);
}

/** @param {number} ns */
function time(ns) {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(1)} ns`;
}

/** @param {number} bytes */
function kb(bytes) {
  return `${(bytes / 1000).toFixed(1)} kB`;
}

/** @param {boolean} ok */
function verdict(ok) {
  return ok ? 'pass' : 'FAIL';
}

/** @param {unknown} condition @param {string} message */
function check(condition, message) {
  if (!condition) throw new Error(`bench precondition failed: ${message}`);
}

/** Checks that `call` answers the bench tool's success, `n=1`, exactly. @param {() => Promise<unknown>} call @param {string} what */
async function checkAnswersN1(call, what) {
  check(JSON.stringify(await call()) === JSON.stringify({ content: [{ type: 'text', text: 'n=1' }] }), `${what} answers n=1`);
}

// ---------------------------------------------------------------------------------------------------------------
// Build, then load the built package by its name.
const built = process.argv.includes('--no-build') ? { googleEntry: existsSync(join(ROOT, 'dist/google/index.mjs')), ms: 0 } : buildPackage();
note(built.ms === 0 ? 'measuring dist/ as it is (--no-build)' : `built dist/ with tsdown (tsdown.config.ts) in ${(built.ms / 1000).toFixed(1)} s`);

/** @type {typeof import('../src/index.js')} */
const lib = await import('mcp-error-policy');
/** @type {typeof import('../src/google/index.js') | undefined} */
const google = built.googleEntry ? await import('mcp-error-policy/google') : undefined;
check(import.meta.resolve('mcp-error-policy') === new URL('../dist/index.mjs', import.meta.url).href, 'mcp-error-policy resolves to dist/index.mjs');

const noop = () => {};
const quietPolicy = lib.createErrorPolicy({ logger: noop });
const accessLogPolicy = lib.createErrorPolicy({ logger: noop, onOutcome: noop });
const zodPolicy = lib.createErrorPolicy({ rules: [...lib.coreRules, lib.zodErrorRule], logger: noop });
const googlePolicy = lib.createErrorPolicy({
  rules: google === undefined ? lib.coreRules : [...google.googleRules, ...lib.coreRules],
  reauthorize: 'Sign in again: run `acme auth login`.',
  logger: noop,
});

// ---------------------------------------------------------------------------------------------------------------
// Real errors, captured once; each is checked to take the path it stands for before anything is timed.
note('capturing real errors (fetch, AbortSignal.timeout, gaxios 7, google-auth-library 10, zod 4) on 127.0.0.1');
const errors = await captureRealErrors(lib.ToolError);

/**
 * Nothing is remembered between classifications (no body or URL cache), so classifying one error over and over times
 * all of it, body reading included.
 * @type {{ label: string, error: unknown, policy: import('../src/index.js').ErrorPolicy, rule: string | RegExp | undefined, note?: string }[]}
 */
const classifyCases = [
  { label: 'ToolError', error: errors.toolError, policy: lib.defaultPolicy, rule: 'deliberate' },
  { label: 'crash (TypeError)', error: errors.crash, policy: lib.defaultPolicy, rule: undefined },
  { label: 'network (fetch failed)', error: errors.network, policy: lib.defaultPolicy, rule: 'network' },
  { label: 'timeout (AbortSignal)', error: errors.timeout, policy: lib.defaultPolicy, rule: 'timeout' },
  google === undefined
    ? { label: 'Google API 403 (gaxios 7)', error: errors.googleApi, policy: googlePolicy, rule: undefined, note: 'core rules only: no Google entry' }
    : { label: 'Google API 403 (gaxios 7)', error: errors.googleApi, policy: googlePolicy, rule: /^google-api-error/ },
  google === undefined
    ? { label: 'OAuth refresh (GAL 10)', error: errors.oauthRefresh, policy: googlePolicy, rule: undefined, note: 'core rules only: no Google entry' }
    : { label: 'OAuth refresh (GAL 10)', error: errors.oauthRefresh, policy: googlePolicy, rule: 'google-oauth-refresh' },
  { label: 'zod 4 (zodErrorRule)', error: errors.zod, policy: zodPolicy, rule: 'zod' },
];
const chainCases = [
  { label: '16-deep cause chain', depth: 16, error: errors.chain16, policy: lib.defaultPolicy, rule: 'deliberate' },
  { label: '64-deep cause chain', depth: 64, error: errors.chain64, policy: lib.defaultPolicy, rule: 'deliberate' },
];
/** Worst case of a miss: every rule of the recommended Google + core policy is tried and none matches. */
const missCase = { label: 'crash, Google + core rules', error: errors.crash, policy: googlePolicy, rule: undefined };
const infoCases = [missCase];

for (const c of [...classifyCases, ...chainCases, ...infoCases]) {
  const result = lib.classifyError(c.error, c.policy);
  if (c.rule === undefined) {
    check(result.kind === 'crash', `${c.label} is a crash, got ${result.kind}`);
  } else {
    check(result.kind === 'anticipated', `${c.label} is anticipated, got ${result.kind}`);
    const name = result.kind === 'anticipated' ? result.rule.name : '';
    check(typeof c.rule === 'string' ? name === c.rule : c.rule.test(name), `${c.label} matches rule ${String(c.rule)}, got ${name}`);
    check(result.kind === 'anticipated' && !result.message.includes(PLANTED_TOKEN), `${c.label}: the planted token stays out of the client text`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Handlers: the bare one and the same function wrapped, through a real McpServer and Client over InMemoryTransport.
/** @param {{ n: number }} args */
const asyncTool = async ({ n }) => ({ content: [{ type: 'text', text: `n=${n}` }] });
/** @param {{ n: number }} args */
const syncTool = ({ n }) => ({ content: [{ type: 'text', text: `n=${n}` }] });
const wrappedAsync = lib.withClientVisibleErrors(asyncTool, { name: 'echo' });
const wrappedAsyncLogged = lib.withClientVisibleErrors(asyncTool, { name: 'echo', policy: accessLogPolicy });
const wrappedSync = lib.withClientVisibleErrors(syncTool, { name: 'echo' });
/** @param {unknown} error */
const rethrow = (error) => {
  throw error;
};
/**
 * The floor: the least that any wrapper which catches a handler's rejection adds on success, one `then` on the
 * handler's promise (this one catches nothing: it rethrows). Timed in the same runs as the policy's wrappers, so that
 * the table tells what of their cost is theirs and what any catching wrapper pays.
 * @param {(...args: any[]) => Promise<unknown>} handler
 */
const oneThen = (handler) => (/** @type {any[]} */ ...args) => handler(...args).then(undefined, rethrow);
const floorAsync = oneThen(asyncTool);

const server = new McpServer({ name: 'bench', version: '1.0.0' });
server.registerTool('bare', { inputSchema: { n: z.number() } }, asyncTool);
server.registerTool('bare-again', { inputSchema: { n: z.number() } }, asyncTool);
server.registerTool('wrapped', { inputSchema: { n: z.number() } }, wrappedAsync);
server.registerTool('floor', { inputSchema: { n: z.number() } }, floorAsync);
const client = new Client({ name: 'bench-client', version: '1.0.0' });
const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
const callBare = () => client.callTool({ name: 'bare', arguments: { n: 1 } });
const callBareAgain = () => client.callTool({ name: 'bare-again', arguments: { n: 1 } });
const callWrapped = () => client.callTool({ name: 'wrapped', arguments: { n: 1 } });
const callFloor = () => client.callTool({ name: 'floor', arguments: { n: 1 } });
await checkAnswersN1(callBare, 'bare tool');
await checkAnswersN1(callWrapped, 'wrapped tool');
await checkAnswersN1(callFloor, 'the floor tool');

// The low-level Server (setRequestHandler): the same tools/call handler on a bare server, on one under
// applyErrorPolicy (default policy) and on one whose request handler has only the floor's `then`, each with its own
// client.
/** @param {{ params: { arguments?: { n?: unknown } } }} request */
const lowLevelCall = async (request) => ({ content: [{ type: 'text', text: `n=${String(request.params.arguments?.n)}` }] });
/** @param {'bare' | 'applied' | 'floor'} mode */
async function lowLevelClient(mode) {
  const low = new Server({ name: 'bench-low', version: '1.0.0' }, { capabilities: { tools: {} } });
  low.setRequestHandler(CallToolRequestSchema, lowLevelCall);
  if (mode === 'applied') lib.applyErrorPolicy(low);
  if (mode === 'floor') low['_requestHandlers'].set('tools/call', oneThen(low['_requestHandlers'].get('tools/call')));
  const lowClient = new Client({ name: 'bench-low-client', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([low.connect(serverSide), lowClient.connect(clientSide)]);
  // The server's tools/call request handler, called as its protocol layer calls it (the bench may read the SDK's
  // private map; the package reads it only in src/adapters/low-level-internals.ts): the wrapper's own cost, without a
  // round trip whose noise is a hundred times larger.
  /** @type {(request: unknown, extra: unknown) => Promise<unknown>} */
  const handler = low['_requestHandlers'].get('tools/call');
  const request = { method: 'tools/call', params: { name: 'echo', arguments: { n: 1 } } };
  const extra = { signal: new AbortController().signal, requestId: 1, sendNotification: async () => {}, sendRequest: async () => ({}) };
  return { low, lowClient, call: () => lowClient.callTool({ name: 'echo', arguments: { n: 1 } }), direct: () => handler(request, extra) };
}
const lowBare = await lowLevelClient('bare');
const lowApplied = await lowLevelClient('applied');
// A/A control for the low-level rows: a second bare server, made after the applied one (each server is its own
// instance, so the low-level ratio carries instance noise that the McpServer rows, one server, do not)
const lowBareAgain = await lowLevelClient('bare');
const lowFloor = await lowLevelClient('floor');
await checkAnswersN1(lowBare.call, 'bare low-level tool');
await checkAnswersN1(lowApplied.call, 'low-level tool under applyErrorPolicy');
await checkAnswersN1(lowApplied.direct, 'the applied request handler, called directly,');
check(lowApplied.low['_requestHandlers'].get('tools/call') !== lowBare.low['_requestHandlers'].get('tools/call'), 'applyErrorPolicy replaced the tools/call request handler');
await checkAnswersN1(lowFloor.call, 'the floor low-level tool');

const args = { n: 1 };

// The crash path: a handler that really crashes (reads a property of undefined), each call a fresh TypeError.
/** @param {{ n: number }} _args */
const crashingTool = async (_args) => {
  /** @type {{ sheet?: { id: string } }} */
  const config = {};
  return { content: [{ type: 'text', text: config.sheet.id }] };
};
/** @param {{ n: number }} _args */
const refusingTool = async (_args) => {
  throw new lib.ToolError('Sheet name must not be empty');
};
const wrappedCrashing = lib.withClientVisibleErrors(crashingTool, { name: 'echo', policy: quietPolicy });
const wrappedRefusing = lib.withClientVisibleErrors(refusingTool, { name: 'echo', policy: quietPolicy });
const crashResult = await wrappedCrashing(args);
check(crashResult.isError === true && /^Error executing tool echo \(reference [0-9a-f]{12}\)$/.test(crashResult.content[0]?.text ?? ''), 'crash answers with a reference');
const refusedResult = await wrappedRefusing(args);
check(refusedResult.content[0]?.text === 'Error executing tool echo: Sheet name must not be empty', 'ToolError answers with its text');
/** @param {(args: { n: number }) => Promise<unknown>} handler */
const bareThrow = async (handler) => {
  try {
    return await handler(args);
  } catch (error) {
    return error;
  }
};

// ---------------------------------------------------------------------------------------------------------------
// Mitata: every case, printed by group.
if (want('success')) group('success path: tool call through McpServer + Client (InMemoryTransport)', () => {
  summary(() => {
    bench('mcp: bare handler', callBare).baseline();
    bench('mcp: withClientVisibleErrors', callWrapped);
    bench('low-level: bare handler', lowBare.call);
    bench('low-level: applyErrorPolicy', lowApplied.call);
  });
});
if (want('success')) group('success path: direct callback call', () => {
  summary(() => {
    bench('direct async: bare', async () => do_not_optimize(await asyncTool(args))).baseline();
    bench('direct async: wrapped', async () => do_not_optimize(await wrappedAsync(args)));
    bench('direct async: wrapped + onOutcome', async () => do_not_optimize(await wrappedAsyncLogged(args)));
    bench('direct sync: bare', () => do_not_optimize(syncTool(args)));
    bench('direct sync: wrapped', () => do_not_optimize(wrappedSync(args)));
  });
});
/** The failure-path cases, by name: printed by mitata's report, then measured again for the table. */
/** @type {Map<string, () => unknown>} */
const failureCases = new Map();
for (const c of [...classifyCases, ...chainCases, ...infoCases]) {
  failureCases.set(`classify: ${c.label}`, () => do_not_optimize(lib.classifyError(c.error, c.policy)));
}
failureCases.set('crash: bare handler, caught', () => bareThrow(crashingTool));
failureCases.set('crash: wrapped, to isError', () => wrappedCrashing(args));
failureCases.set('ToolError: bare handler, caught', () => bareThrow(refusingTool));
failureCases.set('ToolError: wrapped, to isError', () => wrappedRefusing(args));
/** @param {string} name */
const failureCase = (name) => {
  const fn = failureCases.get(name);
  if (fn === undefined) throw new Error(`no case ${name}`);
  return fn;
};
if (want('failure')) group('failure path: classifyError', () => {
  for (const [name, fn] of failureCases) if (name.startsWith('classify: ')) bench(name, fn);
});
if (want('failure')) group('failure path: handler failure to isError result (direct call, no-op function logger)', () => {
  summary(() => {
    bench('crash: bare handler, caught', failureCase('crash: bare handler, caught')).baseline();
    bench('crash: wrapped, to isError', failureCase('crash: wrapped, to isError'));
    bench('ToolError: bare handler, caught', failureCase('ToolError: bare handler, caught'));
    bench('ToolError: wrapped, to isError', failureCase('ToolError: wrapped, to isError'));
  });
});

if (want('success') || want('failure')) await run({ colors: process.stdout.isTTY === true });
/** @type {Map<string, number>} */
const p50 = new Map();
if (want('failure')) {
  note('failure path for the table: mitata measure, 128 calls a sample');
  for (const [name, fn] of failureCases) p50.set(name, (await measure(fn, TABLE_MEASURE)).p50);
}
/** @param {string} name */
const medianOf = (name) => {
  const value = p50.get(name);
  if (value === undefined) throw new Error(`no result for ${name}`);
  return value;
};

// ---------------------------------------------------------------------------------------------------------------
// The success-path comparisons, interleaved: bare and wrapped timed in turn, sample by sample (order reversed every
// other sample), so that the load of a shared machine hits both sides of each ratio alike. Mitata's blocks above time
// each case alone; the table's success rows come from here. `bare-again` (the bare handler under a second name) is the
// A/A control: its ratio to `bare` is the noise of this measurement. MCP calls are compared by their 10th percentile
// (bench/support/interleave.mjs says why), the median's ratio shown beside it.
/** @type {Map<string, import('./support/interleave.mjs').Times>} */
let mcpTimes = new Map();
/** @type {Map<string, import('./support/interleave.mjs').Times>} */
let asyncTimes = new Map();
/** @type {Map<string, import('./support/interleave.mjs').Times>} */
let lowDirectTimes = new Map();
/** @type {Map<string, import('./support/interleave.mjs').Times>} */
let syncTimes = new Map();
if (want('success')) {
  note(`success path, interleaved: ${MCP_SAMPLES} MCP calls per case, ${DIRECT_SAMPLES} x 200 direct calls per case (request handlers: x 50)`);
  mcpTimes = await interleave(
    [
      { name: 'bare', async: true, fn: callBare },
      { name: 'bare-again', async: true, fn: callBareAgain },
      { name: 'wrapped', async: true, fn: callWrapped },
      { name: 'floor', async: true, fn: callFloor },
      { name: 'low-level bare', async: true, fn: lowBare.call },
      { name: 'low-level applied', async: true, fn: lowApplied.call },
      { name: 'low-level bare-again', async: true, fn: lowBareAgain.call },
      { name: 'low-level floor', async: true, fn: lowFloor.call },
    ],
    { samples: MCP_SAMPLES, batch: 1, warmup: 500 },
  );
  asyncTimes = await interleave(
    [
      { name: 'bare', async: true, fn: () => asyncTool(args) },
      { name: 'wrapped', async: true, fn: () => wrappedAsync(args) },
      { name: 'floor', async: true, fn: () => floorAsync(args) },
      { name: 'wrapped + onOutcome', async: true, fn: () => wrappedAsyncLogged(args) },
    ],
    { samples: DIRECT_SAMPLES, batch: 200 },
  );
  lowDirectTimes = await interleave(
    [
      { name: 'bare', async: true, fn: lowBare.direct },
      { name: 'applied', async: true, fn: lowApplied.direct },
      { name: 'bare-again', async: true, fn: lowBareAgain.direct },
      { name: 'floor', async: true, fn: lowFloor.direct },
    ],
    { samples: DIRECT_SAMPLES, batch: 50 },
  );
  syncTimes = await interleave(
    [
      { name: 'bare', fn: () => syncTool(args) },
      { name: 'wrapped', fn: () => wrappedSync(args) },
    ],
    { samples: DIRECT_SAMPLES, batch: 200 },
  );
}
/**
 * @param {Map<string, import('./support/interleave.mjs').Times>} times
 * @param {string} name
 * @param {'p50' | 'p10'} [stat] p50 for the table's time column and the direct calls (batches of 50 or 200 calls); the
 *   MCP calls' ratios compare p10 (bench/support/interleave.mjs says why)
 */
const timeOf = (times, name, stat = 'p50') => times.get(name)?.[stat] ?? NaN;
/**
 * A ratio of two MCP call cases, by p10, with the median's ratio beside it (information).
 * @param {Map<string, import('./support/interleave.mjs').Times>} times @param {string} name @param {string} base
 */
const ratioOf = (times, name, base) => ({ p10: timeOf(times, name, 'p10') / timeOf(times, base, 'p10'), p50: timeOf(times, name) / timeOf(times, base) });
/** @param {{ p10: number, p50: number }} ratio */
const showRatio = (ratio) => `${ratio.p10.toFixed(3)}x (median ${ratio.p50.toFixed(3)}x)`;
await client.close();
await server.close();
for (const { low, lowClient } of [lowBare, lowApplied, lowBareAgain, lowFloor]) {
  await lowClient.close();
  await low.close();
}

// Telemetry (bench/support/telemetry.mjs): last of the timed rows, as it turns on Node's promise hooks.
/** @type {typeof import('../src/opentelemetry/index.js')} */
const otel = await import('mcp-error-policy/opentelemetry');
if (want('telemetry')) note(`telemetry, interleaved: ${MCP_SAMPLES} MCP calls per case (no provider, then a real tracer provider)`);
const telemetryTimes = want('telemetry') ? await measureTelemetry({ lib, otel, samples: MCP_SAMPLES, check }) : undefined;

// ---------------------------------------------------------------------------------------------------------------
// Start-up: fresh processes importing the built package by name from a scratch app, against a one-line package.
/** @type {{ specifier: string, label: string }[]} */
const startupCases = [
  { specifier: 'one-line', label: 'one-line package' },
  { specifier: 'mcp-error-policy', label: 'mcp-error-policy' },
  ...(built.googleEntry ? [{ specifier: 'mcp-error-policy/google', label: 'mcp-error-policy/google' }] : []),
  // @opentelemetry/api included: the entry's optional peer, which it imports
  { specifier: 'mcp-error-policy/opentelemetry', label: 'mcp-error-policy/opentelemetry' },
];
/** @type {Map<string, { importMs: number[], cpuMs: number[], wallMs: number[] }>} */
const startup = new Map(startupCases.map((c) => [c.specifier, { importMs: [], cpuMs: [], wallMs: [] }]));
/**
 * Whole processes in turn: a server with the line, the same server with the SDK alone, and the SDK alone again (the
 * A/A control: its ratio to the first is the noise of the measurement); wall and CPU ms.
 */
const serverPairs = {
  withLine: { wallMs: /** @type {number[]} */ ([]), cpuMs: /** @type {number[]} */ ([]) },
  alone: { wallMs: /** @type {number[]} */ ([]), cpuMs: /** @type {number[]} */ ([]) },
  aloneAgain: { wallMs: /** @type {number[]} */ ([]), cpuMs: /** @type {number[]} */ ([]) },
};
/** @type {{ forbidden: string[], esm: string[], cjs: string[] } | undefined} */
let proof;
if (want('startup')) {
  note(`start-up: ${STARTUP_ROUNDS} rounds of fresh node processes importing each entry, then ${SERVER_PAIRS} pairs of server processes`);
  const app = makeScratchApp(ROOT);
  try {
    for (let round = 0; round < STARTUP_ROUNDS; round += 1) {
      const order = round % 2 === 0 ? startupCases : [...startupCases].reverse();
      for (const c of order) {
        const { out, wallMs } = runProbe(app.probe, ['time', c.specifier]);
        const samples = startup.get(c.specifier);
        samples?.importMs.push(out.ms);
        samples?.cpuMs.push(out.cpuMs);
        samples?.wallMs.push(wallMs);
      }
    }
    // in turn, so that each pair's ratio is taken while the machine's load is about the same for both
    runApp(app.servers.withLine);
    runApp(app.servers.alone);
    for (let pair = 0; pair < SERVER_PAIRS; pair += 1) {
      const sides = /** @type {const} */ ([['withLine', app.servers.withLine], ['alone', app.servers.alone], ['aloneAgain', app.servers.alone]]);
      for (const [side, file] of pair % 2 === 0 ? sides : [...sides].reverse()) {
        const { wallMs, cpuMs } = runApp(file);
        serverPairs[side].wallMs.push(wallMs);
        serverPairs[side].cpuMs.push(cpuMs);
      }
    }
    const entries = built.googleEntry ? ['mcp-error-policy', 'mcp-error-policy/google'] : ['mcp-error-policy'];
    proof = loadedModules(app.probe, entries);
    const control = loadedModules(app.probe, [...entries, join(ROOT, 'node_modules/zod/index.js')]);
    check(control.forbidden.includes('zod'), 'the import check sees a package when one is loaded (control: zod)');
    check(proof.esm.some((url) => url.endsWith('/dist/index.mjs')) && proof.cjs.some((url) => url.endsWith('/dist/index.cjs')), 'the import check saw dist/index.mjs and dist/index.cjs load');
  } finally {
    app.cleanup();
  }
}
/** @param {string} specifier @param {'importMs' | 'cpuMs' | 'wallMs'} key */
const startupMedian = (specifier, key) => median(startup.get(specifier)?.[key] ?? []);
/** @param {string} specifier */
const startupMin = (specifier) => Math.min(...(startup.get(specifier)?.importMs ?? []));

// ---------------------------------------------------------------------------------------------------------------
// Size: the packed tarball (npm pack --dry-run, no prepack: dist/ was just built) and each entry gzipped (level 9).
/** @type {{ size: number, unpackedSize: number, entryCount: number, files: { path: string, size: number }[] } | undefined} */
let pack;
/** @type {{ label: string, bytes: number, gzipped: number }[]} */
let bundled = [];
if (want('size')) {
  note('size: npm pack --dry-run, then one-line apps bundled with esbuild (minified, gzipped)');
  const packJson = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  pack = JSON.parse(packJson)[0];
  bundled = await Promise.all(BUNDLED_APPS.map(async (app) => ({ ...app, ...(await bundledSize(app.source)) })));
}
/** @param {string} file */
const gzipped = (file) => gzipSync(readFileSync(join(ROOT, file)), { level: 9 }).length;
/** Files an entry loads: itself and the chunks it imports (relative imports, one level). @param {string} file */
function withChunks(file) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const dir = file.slice(0, file.lastIndexOf('/') + 1);
  const chunks = [...text.matchAll(/(?:from\s+|require\()["'](\.{1,2}\/[^"']+)["']/g)].map((m) => join(dir, m[1] ?? '').replaceAll('\\', '/'));
  return [file, ...new Set(chunks)];
}
const entryFiles = ['index', ...(built.googleEntry ? ['google/index'] : []), 'http/index', 'opentelemetry/index', 'client/index'].flatMap((entry) => [`dist/${entry}.mjs`, `dist/${entry}.cjs`]);

// ---------------------------------------------------------------------------------------------------------------
// The table.
/** @type {[string, string, string, string][]} */
const rows = [];
/** @type {string[]} */
const missed = [];
/** @param {string} label @param {string} value @param {string} ratio @param {boolean | undefined} ok */
function row(label, value, ratio, ok) {
  rows.push([label, value, ratio, ok === undefined ? 'info' : verdict(ok)]);
  if (ok === false) missed.push(label);
}

/**
 * The rows of one comparison of MCP calls: the bare handler, bare again (A/A), the floor, and the wrapped case against
 * the bare handler and against the floor; the goal is on `judged`: the bare handler for a wrapped callback, the floor
 * (one `then` around the SDK's handler, the least a catching wrapper adds) for the low-level `Server`.
 * @param {string} server as the rows name it @param {string} prefix of its case names @param {string} wrapped its wrapped case @param {string} label what wraps it
 * @param {'bare' | 'floor'} judged
 */
function callRows(server, prefix, wrapped, label, judged) {
  const ratio = ratioOf(mcpTimes, prefix + wrapped, `${prefix}bare`);
  const toFloor = ratioOf(mcpTimes, prefix + wrapped, `${prefix}floor`);
  const goal = judged === 'bare' ? `goal <= ${GOALS.mcpRatio}x` : `the floor / goal <= ${GOALS.mcpRatio}x the floor`;
  row(`success: ${server} tool call, bare handler`, time(timeOf(mcpTimes, `${prefix}bare`)), '1.000x (baseline; ratios by p10)', undefined);
  row(`success: ${server} tool call, bare again (A/A noise)`, time(timeOf(mcpTimes, `${prefix}bare-again`)), showRatio(ratioOf(mcpTimes, `${prefix}bare-again`, `${prefix}bare`)), undefined);
  row(`success: ${server} tool call, one \`then\` (the floor)`, time(timeOf(mcpTimes, `${prefix}floor`)), showRatio(ratioOf(mcpTimes, `${prefix}floor`, `${prefix}bare`)), undefined);
  row(
    `success: ${server} tool call, ${label}`,
    time(timeOf(mcpTimes, prefix + wrapped)),
    judged === 'bare' ? `${showRatio(ratio)}, ${toFloor.p10.toFixed(3)}x the floor / ${goal}` : `${showRatio(ratio)}; ${toFloor.p10.toFixed(3)}x ${goal}`,
    (judged === 'bare' ? ratio : toFloor).p10 <= GOALS.mcpRatio,
  );
}

if (want('success')) {
  callRows('MCP', '', 'wrapped', 'withClientVisibleErrors', 'bare');
  callRows('low-level Server', 'low-level ', 'applied', 'applyErrorPolicy', 'floor');
  const handlerBare = timeOf(lowDirectTimes, 'bare');
  const handlerAdded = timeOf(lowDirectTimes, 'applied') - handlerBare;
  row('success: low-level request handler called directly, bare', time(handlerBare), `baseline (again: ${(timeOf(lowDirectTimes, 'bare-again') / handlerBare).toFixed(3)}x)`, undefined);
  row('success: low-level request handler called directly, one `then` (the floor)', time(timeOf(lowDirectTimes, 'floor')), `+${(timeOf(lowDirectTimes, 'floor') - handlerBare).toFixed(0)} ns`, undefined);
  row('success: low-level request handler called directly, applied', time(timeOf(lowDirectTimes, 'applied')), `+${handlerAdded.toFixed(0)} ns, ${((100 * handlerAdded) / timeOf(mcpTimes, 'low-level bare')).toFixed(1)}% of a call`, undefined);
  const asyncBare = timeOf(asyncTimes, 'bare');
  const asyncAdded = timeOf(asyncTimes, 'wrapped') - asyncBare;
  row('success: direct call, async handler, bare', time(asyncBare), 'baseline', undefined);
  row('success: direct call, async handler, one `then` (the floor)', time(timeOf(asyncTimes, 'floor')), `+${(timeOf(asyncTimes, 'floor') - asyncBare).toFixed(0)} ns`, undefined);
  row('success: direct call, async handler, wrapped', time(timeOf(asyncTimes, 'wrapped')), `+${asyncAdded.toFixed(0)} ns / goal < ${GOALS.directAddedNs} ns`, asyncAdded < GOALS.directAddedNs);
  row('success: direct call, async, wrapped + onOutcome', time(timeOf(asyncTimes, 'wrapped + onOutcome')), `+${(timeOf(asyncTimes, 'wrapped + onOutcome') - asyncBare).toFixed(0)} ns (access log on)`, undefined);
  const syncBare = timeOf(syncTimes, 'bare');
  const syncAdded = timeOf(syncTimes, 'wrapped') - syncBare;
  row('success: direct call, sync handler, bare', time(syncBare), 'baseline', undefined);
  row('success: direct call, sync handler, wrapped', time(timeOf(syncTimes, 'wrapped')), `+${syncAdded.toFixed(0)} ns / goal < ${GOALS.directAddedNs} ns`, syncAdded < GOALS.directAddedNs);
}
if (telemetryTimes !== undefined) {
  const { traced, noProvider } = telemetryTimes;
  const ratio = ratioOf(traced, 'openTelemetry()', 'bare');
  const byHand = ratioOf(traced, 'bare, span by hand', 'bare');
  row('telemetry: MCP tool call, bare handler, tracer provider set', time(timeOf(traced, 'bare')), '1.000x (baseline; ratios by p10)', undefined);
  row('telemetry: MCP tool call, bare handler in a span by hand', time(timeOf(traced, 'bare, span by hand')), `${showRatio(byHand)} (the span itself)`, undefined);
  const vsHand = ratioOf(traced, 'openTelemetry()', 'bare, span by hand');
  row(
    'telemetry: MCP tool call, applyErrorPolicy + openTelemetry()',
    time(timeOf(traced, 'openTelemetry()')),
    `${ratio.p10.toFixed(3)}x; ${showRatio(vsHand)} the span by hand / goal <= ${GOALS.tracedRatio}x`,
    vsHand.p10 <= GOALS.tracedRatio,
  );
  const idle = ratioOf(noProvider, 'openTelemetry(), no provider', 'plain policy');
  row('telemetry: MCP tool call, applyErrorPolicy (plain policy)', time(timeOf(noProvider, 'plain policy')), '1.000x (baseline; ratios by p10)', undefined);
  row('telemetry: MCP tool call, openTelemetry(), no provider', time(timeOf(noProvider, 'openTelemetry(), no provider')), `${showRatio(idle)} / goal <= ${GOALS.mcpRatio}x (the plain policy's)`, idle.p10 <= GOALS.mcpRatio);
}
for (const c of want('failure') ? classifyCases : []) {
  const ns = medianOf(`classify: ${c.label}`);
  // no goal: the failure path runs after a handler already failed, so it is kept simple rather than fast (what users
  // pay for is the success path, start-up and a worst case that stays linear: the chain rows below)
  row(`failure: classifyError ${c.label}${c.note === undefined ? '' : ` [${c.note}]`}`, time(ns), 'no goal (the failure path: simple, not fast)', undefined);
}
if (want('failure')) {
  const [short, long] = chainCases.map((c) => medianOf(`classify: ${c.label}`) / c.depth);
  for (const c of chainCases) {
    const ns = medianOf(`classify: ${c.label}`);
    const linear = c.depth === 64 && short !== undefined && long !== undefined;
    row(
      `failure: classifyError ${c.label} (ToolError at the bottom)`,
      time(ns),
      linear ? `${time(long)} per error, ${(long / short).toFixed(2)}x the 16-deep's / goal <= ${GOALS.chainLinearity}x (linear)` : `${time(ns / c.depth)} per error`,
      linear ? long / short <= GOALS.chainLinearity : undefined,
    );
  }
  row(`failure: classifyError ${missCase.label} (worst miss)`, time(medianOf(`classify: ${missCase.label}`)), 'no goal', undefined);
}
if (want('failure')) {
  const bare = medianOf('crash: bare handler, caught');
  const wrapped = medianOf('crash: wrapped, to isError');
  row('failure: crash, bare handler throws, caught', time(bare), 'baseline', undefined);
  row('failure: crash to isError result (log record built)', time(wrapped), `${(wrapped / bare).toFixed(2)}x, +${time(wrapped - bare)}`, undefined);
  const tBare = medianOf('ToolError: bare handler, caught');
  const tWrapped = medianOf('ToolError: wrapped, to isError');
  row('failure: ToolError to isError result', time(tWrapped), `${(tWrapped / tBare).toFixed(2)}x, +${time(tWrapped - tBare)}`, undefined);
}
if (want('startup')) {
  const base = startupMedian('one-line', 'importMs');
  const baseCpu = startupMedian('one-line', 'cpuMs');
  const baseWall = startupMedian('one-line', 'wallMs');
  const baseMin = startupMin('one-line');
  row('start-up: import() of a one-line package', `${base.toFixed(2)} ms`, `baseline (whole process ${baseWall.toFixed(1)} ms)`, undefined);
  for (const c of startupCases.slice(1)) {
    const added = startupMedian(c.specifier, 'importMs') - base;
    /** @param {number} ms @param {number} digits */
    const signed = (ms, digits) => `${ms < 0 ? '' : '+'}${ms.toFixed(digits)}`;
    const detail = `min ${signed(startupMin(c.specifier) - baseMin, 2)}, CPU ${signed(startupMedian(c.specifier, 'cpuMs') - baseCpu, 2)}, process ${signed(startupMedian(c.specifier, 'wallMs') - baseWall, 1)} ms`;
    row(`start-up: import('${c.specifier}') adds`, `${added.toFixed(2)} ms`, `no goal (${detail})`, undefined);
  }
  /**
   * The median of the pair-by-pair ratios of `side` to the SDK alone.
   * @param {'withLine' | 'aloneAgain'} side @param {'wallMs' | 'cpuMs'} key
   */
  const pairRatio = (side, key) => median(serverPairs[side][key].map((ms, i) => ms / (serverPairs.alone[key][i] ?? NaN)));
  const wall = pairRatio('withLine', 'wallMs');
  // a steadier estimate of the same: what importing the package adds (the probe above, in-process) over the process
  const share = 1 + (startupMedian('mcp-error-policy', 'importMs') - base) / median(serverPairs.alone.wallMs);
  row('start-up: a process making an McpServer, the SDK alone', `${median(serverPairs.alone.wallMs).toFixed(1)} ms`, `baseline (CPU ${median(serverPairs.alone.cpuMs).toFixed(1)} ms)`, undefined);
  row(
    'start-up: the same, the SDK alone again (A/A noise)',
    `${median(serverPairs.aloneAgain.wallMs).toFixed(1)} ms`,
    `${pairRatio('aloneAgain', 'wallMs').toFixed(3)}x (CPU ${pairRatio('aloneAgain', 'cpuMs').toFixed(3)}x)`,
    undefined,
  );
  row(
    'start-up: the same process with applyErrorPolicy (the line)',
    `${median(serverPairs.withLine.wallMs).toFixed(1)} ms`,
    `${wall.toFixed(3)}x (median of ${SERVER_PAIRS} rounds; CPU ${pairRatio('withLine', 'cpuMs').toFixed(3)}x; the import's share ${share.toFixed(3)}x) / goal <= ${GOALS.serverStartupRatio}x`,
    wall <= GOALS.serverStartupRatio,
  );
  const names = built.googleEntry ? 'core + google, ESM + CJS' : 'core, ESM + CJS';
  const forbidden = proof?.forbidden ?? ['(not checked)'];
  row(`start-up: loads gaxios/GAL/zod/MCP SDK (${names})`, forbidden.length === 0 ? 'none' : forbidden.join(', '), 'goal: none', forbidden.length === 0);
}
if (pack !== undefined) {
  row(`size: npm pack tarball (${pack.entryCount} files)`, kb(pack.size), `guard <= ${kb(GOALS.packedBytes)} (unpacked ${kb(pack.unpackedSize)})`, pack.size <= GOALS.packedBytes);
  for (const file of entryFiles) {
    const files = withChunks(file);
    const total = files.reduce((sum, f) => sum + gzipped(f), 0);
    row(`size: ${file} gzip${files.length > 1 ? ` (+${files.length - 1} chunk)` : ''}`, kb(total), `no goal (${kb(readFileSync(join(ROOT, file)).length)} raw)`, undefined);
  }
  for (const app of bundled) row(`size: ${app.label}, bundled (esbuild, minified) gzip`, kb(app.gzipped), `no goal (${kb(app.bytes)} minified)`, undefined);
}

const header = /** @type {const} */ (['case', 'median', 'ratio vs bare / goal', 'pass/fail']);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
const line = (/** @type {readonly string[]} */ cells) => cells.map((cell, i) => (i === 1 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0))).join(' | ');
const rule = widths.map((w) => '-'.repeat(w)).join('-|-');
const cpu = cpus()[0]?.model ?? 'unknown cpu';
process.stdout.write(
  [
    '',
    `mcp-error-policy bench: node ${process.version}, ${cpu}, ${QUICK ? 'quick run' : 'full run'}${ONLY === GROUPS ? '' : ` of ${ONLY.join(', ')}`}; medians (p50), ratios of MCP calls by p10; ` +
      `load average ${loadAtStart.toFixed(1)} at start, ${(loadavg()[0] ?? NaN).toFixed(1)} at end (absolute times grow with load, ratios less)`,
    line(header),
    rule,
    ...rows.map(line),
    '',
    missed.length === 0 ? 'All goals met.' : `Goals missed: ${missed.join('; ')}`,
    '',
  ].join('\n'),
);
if (STRICT && missed.length > 0) process.exitCode = 1;

#!/usr/bin/env node
/**
 * What `openTelemetry()` costs a call when no tracer or meter provider is registered, and where it goes:
 *
 *   npm run build && node bench/telemetry-idle.mjs
 *
 * The `tools/call` request handler of an McpServer under `applyErrorPolicy`, called as the SDK's protocol layer calls
 * it (no transport: the difference is a few hundred ns of a 15 µs round trip), timed interleaved for: the plain
 * policy; `openTelemetry()` with no provider; a telemetry that is never enabled (`enabled: () => false`: the same
 * wrappers, no `@opentelemetry/api` lookups); and the bare server for reference. Then the two provider lookups
 * `openTelemetry()` makes to learn that nothing is registered, `trace.getTracerProvider()` and
 * `metrics.getMeterProvider()`, alone. The built package (dist/), by its name, as bench/run.mjs measures it.
 */
import { metrics, trace } from '@opentelemetry/api';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { do_not_optimize } from 'mitata';
import { z } from 'zod';
import { interleave } from './support/interleave.mjs';

/** @type {typeof import('../src/index.js')} */
const lib = await import('mcp-error-policy');
/** @type {typeof import('../src/opentelemetry/index.js')} */
const otel = await import('mcp-error-policy/opentelemetry');

const noop = () => {};
/** @param {{ n: number }} args */
const tool = async ({ n }) => ({ content: [{ type: 'text', text: `n=${n}` }] });
const request = { method: 'tools/call', params: { name: 'echo', arguments: { n: 1 } } };

/**
 * The server's tools/call request handler, as its protocol layer calls it (a fresh `extra` per call, as each request
 * gets its own); `policy`: under applyErrorPolicy with it, or the bare server.
 * @param {import('../src/index.js').ErrorPolicy | undefined} policy
 */
function callOf(policy) {
  const server = new McpServer({ name: 'idle', version: '1.0.0' });
  if (policy !== undefined) lib.applyErrorPolicy(server, policy);
  server.registerTool('echo', { inputSchema: { n: z.number() } }, tool);
  /** @type {(request: unknown, extra: unknown) => Promise<unknown>} */
  const handler = server.server['_requestHandlers'].get('tools/call');
  return () => handler(request, { signal: new AbortController().signal, requestId: 1, sendNotification: async () => {}, sendRequest: async () => ({}) });
}

const cases = [
  { name: 'bare server', async: true, fn: callOf(undefined) },
  { name: 'plain policy', async: true, fn: callOf(lib.createErrorPolicy({ logger: noop })) },
  { name: 'openTelemetry(), no provider', async: true, fn: callOf(lib.createErrorPolicy({ logger: noop, telemetry: otel.openTelemetry() })) },
  { name: 'a telemetry never enabled', async: true, fn: callOf(lib.createErrorPolicy({ logger: noop, telemetry: { enabled: () => false, start: () => undefined } })) },
];
for (const c of cases) {
  const answer = JSON.stringify(await c.fn());
  if (answer !== JSON.stringify({ content: [{ type: 'text', text: 'n=1' }] })) throw new Error(`${c.name} answered ${answer}`);
}
const times = await interleave(cases, { samples: 400, batch: 50, warmup: 60 });
const lookups = await interleave([{ name: 'lookups', fn: () => do_not_optimize([trace.getTracerProvider(), metrics.getMeterProvider()]) }], { samples: 200, batch: 1000 });

const p50 = (/** @type {string} */ name) => times.get(name)?.p50 ?? NaN;
const plain = p50('plain policy');
for (const c of cases) {
  const added = p50(c.name) - plain;
  process.stdout.write(`${c.name.padEnd(30)} ${p50(c.name).toFixed(0).padStart(6)} ns a call${c.name === 'plain policy' ? '' : `, ${added >= 0 ? '+' : ''}${added.toFixed(0)} ns against the plain policy`}\n`);
}
process.stdout.write(`trace.getTracerProvider() and metrics.getMeterProvider(), no provider: ${(lookups.get('lookups')?.p50 ?? NaN).toFixed(1)} ns the pair\n`);

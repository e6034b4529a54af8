/**
 * Runs in a fresh `node` process, from a scratch app directory whose node_modules holds `mcp-error-policy` (a link to
 * the built package) and `one-line` (a one-line package), so that bare specifiers resolve the way they do for a user.
 *
 *   node import-probe.mjs time <specifier>
 *     prints `{"ms": <wall time of await import(specifier)>, "cpuMs": <CPU time of the process meanwhile>}`
 *   node import-probe.mjs loaded <hooks-url> <specifier>...
 *     registers loader hooks, imports each specifier (ESM), requires each (CJS), and prints
 *     `{"esm": [resolved URLs], "cjs": [require.cache files]}`
 */
import { createRequire, register } from 'node:module';

const [mode, ...rest] = process.argv.slice(2);

if (mode === 'time') {
  const specifier = rest[0] ?? '';
  const cpu = process.cpuUsage();
  const started = performance.now();
  await import(specifier);
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  process.stdout.write(`${JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000 })}\n`);
} else if (mode === 'loaded') {
  const [hooks, ...specifiers] = rest;
  register(hooks ?? '', import.meta.url);
  const require = createRequire(import.meta.url);
  for (const specifier of specifiers) await import(specifier);
  for (const specifier of specifiers) require(specifier);
  const { default: esm } = await import('import-probe:resolved');
  process.stdout.write(`${JSON.stringify({ esm, cjs: Object.keys(require.cache) })}\n`);
} else {
  process.stderr.write('usage: import-probe.mjs time <specifier> | loaded <hooks-url> <specifier>...\n');
  process.exitCode = 2;
}

/**
 * Interleaved timing, for comparisons of small differences on a busy machine: every case is timed in turn, sample by
 * sample (each case in each position in turn), so that a change of load hits all cases alike. Each case gets its own
 * compiled loop (as mitata does), so that one case's type feedback cannot slow another's.
 */
import { do_not_optimize } from 'mitata';

/**
 * @typedef {object} Case
 * @property {string} name
 * @property {() => unknown} fn
 * @property {boolean} [async] await each call
 */

/** @param {Case} c @returns {(n: number) => unknown} */
function loopFor(c) {
  const body = c.async === true
    ? 'return async function loop(n) { for (let i = 0; i < n; i++) await fn(); };'
    : 'return function loop(n) { for (let i = 0; i < n; i++) keep(fn()); };';
  return new Function('fn', 'keep', body)(c.fn, do_not_optimize);
}

/** @param {number[] | Float64Array} values */
export function median(values) {
  const sorted = Array.from(values).sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

/** The value below which a share `q` of `values` lie (nearest rank). @param {number[] | Float64Array} values @param {number} q */
function quantile(values, q) {
  const sorted = Array.from(values).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/**
 * A case's times per call: the median, and the 10th percentile. On a shared machine a call of 15 µs timed alone is
 * often preempted or caught by another process's burst, and the median of such samples moves by several per cent
 * between runs (and between two identical cases of one run); the 10th percentile, the calls that ran undisturbed,
 * moves by less (up to 2% in the A/A rows of four full runs, against up to 5% for the median). Ratios of MCP calls
 * are compared by it.
 * @typedef {{ p50: number, p10: number }} Times
 */

/**
 * @param {Case[]} cases
 * @param {{ samples: number, batch: number, warmup?: number }} options batch: calls per sample
 * @returns {Promise<Map<string, Times>>} ns per call, by case name
 */
export async function interleave(cases, { samples, batch, warmup = 20 }) {
  const loops = cases.map(loopFor);
  for (let w = 0; w < warmup; w += 1) for (const loop of loops) await loop(batch);
  const times = cases.map(() => new Float64Array(samples));
  const n = cases.length;
  // Every case takes every position in turn (rotations, then the same reversed), so that no case always follows the
  // same other case.
  const orders = [];
  for (let r = 0; r < n; r += 1) orders.push(cases.map((_, i) => (i + r) % n));
  for (let r = 0; r < n; r += 1) orders.push([...(orders[r] ?? [])].reverse());
  for (let s = 0; s < samples; s += 1) {
    for (const i of orders[s % orders.length] ?? []) {
      const loop = loops[i];
      const started = process.hrtime.bigint();
      await loop?.(batch);
      const row = times[i];
      if (row !== undefined) row[s] = Number(process.hrtime.bigint() - started) / batch;
    }
  }
  return new Map(cases.map((c, i) => [c.name, { p50: median(times[i] ?? []), p10: quantile(times[i] ?? [], 0.1) }]));
}

/**
 * The cause chain: a thrown value and the errors it wraps (`cause`, `error`, `errors[]`), breadth-first (outermost
 * first), each once, bounded. Cycle-safe and never throwing, whatever the values.
 */
import { isObjectLike, readProp } from './read.js';

/**
 * Most errors visited on one cause chain by classification; past it the walk stops (and an unmatched failure is a
 * crash).
 */
export const MAX_CHAIN_NODES = 128;

/** Most members of one `errors` array visited by classification. */
export const MAX_ERRORS_MEMBERS = 16;

/**
 * The errors directly wrapped by `value`: its `cause` (ES2022), its `error` (gaxios), and the first `maxMembers`
 * members of its `errors` array (AggregateError), as far as they can be read. Plain objects count: gaxios 7 puts a
 * plain object in `cause`.
 */
export function linkedErrors(value: unknown, maxMembers: number): unknown[] {
  if (!isObjectLike(value)) return [];
  const out: unknown[] = [];
  for (const key of ['cause', 'error']) {
    const linked = readProp(value, key);
    if (isObjectLike(linked)) out.push(linked);
  }
  const errors = readProp(value, 'errors');
  try {
    if (Array.isArray(errors)) {
      const n = Math.min(errors.length, maxMembers);
      for (let i = 0; i < n; i += 1) {
        const member: unknown = errors[i];
        if (isObjectLike(member)) out.push(member);
      }
    }
  } catch {
    // a hostile array (or a revoked Proxy, on which even Array.isArray throws): stop here
  }
  return out;
}

/**
 * Visits `error`, then the errors it wraps, breadth-first, each once, at most `maxNodes` in all, and returns the first
 * answer `visit` gives (anything but `undefined`). A visit that answers stops the walk: nothing further is read.
 * Linear in the number of errors visited.
 */
export function findInChain<T>(
  error: unknown,
  visit: (node: unknown) => T | undefined,
  maxNodes = MAX_CHAIN_NODES,
  maxMembers = MAX_ERRORS_MEMBERS,
): T | undefined {
  const queue: unknown[] = [error];
  const seen = new Set<unknown>(queue);
  for (let i = 0; i < queue.length && i < maxNodes; i += 1) {
    const node = queue[i];
    const answer = visit(node);
    if (answer !== undefined) return answer;
    if (queue.length >= maxNodes) continue;
    for (const linked of linkedErrors(node, maxMembers)) {
      if (!seen.has(linked)) {
        seen.add(linked);
        queue.push(linked);
      }
    }
  }
  return undefined;
}

/** True when `test` holds for `error` or an error it wraps ({@link findInChain}, with the same bounds). */
export function someInChain(error: unknown, test: (node: unknown) => boolean, maxNodes?: number, maxMembers?: number): boolean {
  return findInChain(error, (node) => (test(node) ? true : undefined), maxNodes, maxMembers) === true;
}

/**
 * The cause chain: a thrown value and the errors it wraps (`cause`, `error`, `errors[]`), breadth-first (outermost
 * first), each once, bounded. Cycle-safe and never throwing, whatever the values.
 */
import { linkedErrors } from './read.js';

/**
 * Most errors visited on one cause chain by classification; past it the walk stops (and an unmatched failure is a
 * crash).
 * @example
 * ```ts
 * // a ToolError wrapped in more than MAX_CHAIN_NODES - 1 plain Errors is classified as a crash
 * ```
 */
export const MAX_CHAIN_NODES = 128;

/** Most members of one `errors` array visited by classification. */
export const MAX_ERRORS_MEMBERS = 16;

/**
 * Visits `error`, then the errors it wraps, breadth-first, each once, at most `maxNodes` in all, and returns the first
 * answer `visit` gives (anything but `undefined`). A visit that answers stops the walk: nothing further is read.
 */
export function findInChain<T>(
  error: unknown,
  visit: (node: unknown) => T | undefined,
  maxNodes = MAX_CHAIN_NODES,
  maxMembers = MAX_ERRORS_MEMBERS,
): T | undefined {
  // Most failures are decided by the thrown value itself: no queue until its links are needed.
  if (maxNodes < 1) return undefined;
  const first = visit(error);
  if (first !== undefined) return first;
  const queue: unknown[] = [error];
  let seen: Set<unknown> | undefined;
  for (let i = 0; i < queue.length && i < maxNodes; i += 1) {
    const node = queue[i];
    if (i > 0) {
      const answer = visit(node);
      if (answer !== undefined) return answer;
    }
    if (queue.length >= maxNodes) continue;
    for (const linked of linkedErrors(node, maxMembers)) {
      seen ??= new Set<unknown>([error]);
      if (!seen.has(linked)) {
        seen.add(linked);
        queue.push(linked);
      }
    }
  }
  return undefined;
}

/**
 * The cause chain: a thrown value and the errors it wraps (`cause`, `error`, `errors[]`), breadth-first (outermost
 * first), each once, bounded. Cycle-safe and never throwing, whatever the values.
 */
import { linkedErrors } from './read.js';

/** Most errors visited on one cause chain by classification; past it the walk stops. */
export const MAX_CHAIN_NODES = 128;

/** Most members of one `errors` array visited by classification. */
export const MAX_ERRORS_MEMBERS = 16;

/**
 * Yields `error`, then the errors it wraps, breadth-first, each once, at most `maxNodes` in all. Lazy: a caller that
 * stops at the first match reads no further.
 */
export function* errorChain(error: unknown, maxNodes = MAX_CHAIN_NODES, maxMembers = MAX_ERRORS_MEMBERS): Generator<unknown, void, undefined> {
  const queue: unknown[] = [error];
  const seen = new Set<unknown>([error]);
  for (let i = 0; i < queue.length && i < maxNodes; i += 1) {
    const node = queue[i];
    yield node;
    if (queue.length >= maxNodes) continue;
    for (const linked of linkedErrors(node, maxMembers)) {
      if (!seen.has(linked)) {
        seen.add(linked);
        queue.push(linked);
      }
    }
  }
}

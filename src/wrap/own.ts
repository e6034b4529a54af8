/**
 * A callback under a server's policy: what every server adapter does with a handler it is given.
 */
import type { HandlerKind } from '../log.js';
import { bindGuard, isWrapped, type Binding } from './guard.js';
import { withClientVisiblePromptErrors } from './prompt.js';
import { withClientVisibleResourceErrors } from './resource.js';
import { withClientVisibleErrors } from './tool.js';

type Fn = (this: unknown, ...args: unknown[]) => unknown;

function wrap(fn: Fn, kind: HandlerKind): Fn {
  if (kind === 'tool') return withClientVisibleErrors(fn);
  if (kind === 'resource') return withClientVisibleResourceErrors(fn);
  return withClientVisiblePromptErrors(fn);
}

/**
 * `fn` under the server's policy and `binding`: a wrapper of this package is bound (its own `policy` and `name`
 * options still win); a plain function is wrapped and bound; a wrapper of another copy of the package is kept.
 */
export function ownHandler(fn: Fn, kind: HandlerKind, binding: Binding): Fn {
  const bound = bindGuard(fn, binding);
  if (bound !== undefined) return bound;
  if (isWrapped(fn)) return fn;
  return bindGuard(wrap(fn, kind), binding) ?? fn;
}

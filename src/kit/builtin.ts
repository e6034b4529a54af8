/** Node's built-in modules where the runtime has them (Node 20.16+, Bun, Deno), without importing them. */
import { readProp } from './read.js';

/** `process.getBuiltinModule(id)`, or `undefined` where there is none (Cloudflare Workers without it, browsers). */
export function nodeBuiltin<T>(id: `node:${string}`): T | undefined {
  try {
    const process = readProp(globalThis, 'process');
    const get = readProp(process, 'getBuiltinModule');
    return typeof get === 'function' ? ((get as (id: string) => T | undefined).call(process, id) ?? undefined) : undefined;
  } catch {
    return undefined;
  }
}

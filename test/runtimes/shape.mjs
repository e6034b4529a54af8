// How the runtimes' network failures look, as test/runtimes/shapes.json records them: shared by capture.mjs (Node,
// Bun, Deno) and the Worker (workerd), and read back by shapes.test.ts, which rebuilds each error from its shape.
// Plain JavaScript that every runtime runs as it is.

/** The URL path and the secret every captured request carries: neither may reach a client. */
export const SECRET_KEY = 'AIzaSyRUNTIMESxxxxxxxxxxxxxxxxxxxxxxx';
export const PATH = `/v1/rows?key=${SECRET_KEY}`;

/** An unknown host: `.invalid` is reserved (RFC 6761), so no resolver answers it with an address. */
export const UNKNOWN_HOST = 'no-such-host.invalid';

/** Properties left out of a shape: the text and chain themselves, and where Bun's error was thrown in the source. */
const SKIPPED = new Set(['message', 'stack', 'cause', 'line', 'column', 'originalLine', 'originalColumn', 'sourceURL']);

/**
 * The error's shape: name, message, its own primitive properties (but SKIPPED), and its cause's
 * shape; ports and workerd's internal reference ids replaced, so that two runs compare equal.
 */
export function shapeOf(error, depth = 0) {
  if (error === null || typeof error !== 'object') return { thrown: typeof error };
  const props = {};
  for (const key of Object.getOwnPropertyNames(error).sort()) {
    if (SKIPPED.has(key)) continue;
    const value = error[key];
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) props[key] = key === 'port' ? 'PORT' : stable(value);
  }
  const shape = { name: String(error.name), message: stable(String(error.message)), props };
  if (error.cause !== undefined && depth < 3) shape.cause = shapeOf(error.cause, depth + 1);
  return shape;
}

function stable(value) {
  return typeof value === 'string' ? value.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT').replace(/reference = [0-9a-z]+/g, 'reference = REF') : value;
}

/** Fetches each URL and returns the shape of what each threw (or `{ thrown: 'nothing' }`). */
export async function fetchFailures(urls) {
  const shapes = {};
  for (const [name, url] of Object.entries(urls)) {
    try {
      await (await fetch(url)).text();
      shapes[name] = { thrown: 'nothing' };
    } catch (error) {
      shapes[name] = shapeOf(error);
    }
  }
  return shapes;
}

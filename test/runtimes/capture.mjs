// Prints, as JSON, the shape of what this runtime's `fetch` throws for a closed port, an unknown host and a reset
// connection (scripts/runtimes.sh runs it on Bun and Deno and compares it with shapes.json).
import { PATH, UNKNOWN_HOST, fetchFailures } from './shape.mjs';
import { closedPort, failingUrls, resettingServer } from './loopback.mjs';

const reset = await resettingServer();
const shapes = await fetchFailures(failingUrls(await closedPort(), reset.port, PATH, UNKNOWN_HOST));
await reset.close();
console.log(JSON.stringify(shapes, null, 2));

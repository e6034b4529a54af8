/** Which runtime this is, where the policy must behave differently. */
import { readProp } from './read.js';

/**
 * True on Cloudflare Workers (workerd, `wrangler dev` included): `navigator.userAgent` is `Cloudflare-Workers`. There,
 * dev mode is never on by default and records go to the console, whatever `nodejs_compat` provides.
 */
export function onCloudflareWorkers(): boolean {
  return readProp(readProp(globalThis, 'navigator'), 'userAgent') === 'Cloudflare-Workers';
}

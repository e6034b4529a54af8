/** gaxios 8 (needs Node 22: run through scripts/test-google-node22.sh; codes TimeoutError / AbortError). */
import { describe } from 'vitest';
import { gaxiosSuite, type GaxiosModule } from './gaxios-suite.js';
import { NODE_MAJOR } from './support.js';

describe.skipIf(NODE_MAJOR < 22)('gaxios 8', () => {
  gaxiosSuite(async () => (await import('gaxios8')) as unknown as GaxiosModule, { nativeFetch: true, readsStreamedErrorBody: false });
});

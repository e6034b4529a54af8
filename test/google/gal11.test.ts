/** google-auth-library 11 (gaxios 8 inside; needs Node 22: run through scripts/test-google-node22.sh). */
import { describe } from 'vitest';
import { galSuite, type GalModule } from './gal-suite.js';
import { NODE_MAJOR } from './support.js';

describe.skipIf(NODE_MAJOR < 22)('google-auth-library 11', () => {
  galSuite(async () => (await import('google-auth-library11')) as unknown as GalModule, { credentialFilePrefix: true });
});

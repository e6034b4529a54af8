/** google-auth-library 9 (gaxios 6 inside; errors[].message joined; credential-file errors without the env prefix). */
import { describe } from 'vitest';
import { galSuite, type GalModule } from './gal-suite.js';

describe('google-auth-library 9', () => {
  galSuite(async () => (await import('google-auth-library9')) as unknown as GalModule, { credentialFilePrefix: false });
});

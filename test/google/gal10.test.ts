/** google-auth-library 10 (gaxios 7 inside; refresh token in clear in config.data). */
import { describe } from 'vitest';
import { galSuite, type GalModule } from './gal-suite.js';

describe('google-auth-library 10', () => {
  galSuite(async () => (await import('google-auth-library10')) as unknown as GalModule, { credentialFilePrefix: true });
});

/** googleapis-common 8 (google-auth-library 10, gaxios 7; `http2: true` throws plain Errors whose cause is the response). */
import { describe } from 'vitest';
import { googleapisCommonSuite, type GoogleapisCommonModule, type OAuthModule } from './googleapis-common-suite.js';

describe('googleapis-common 8', () => {
  googleapisCommonSuite(
    async () => ({
      common: (await import('googleapis-common8')) as unknown as GoogleapisCommonModule,
      auth: (await import('google-auth-library10')) as unknown as OAuthModule,
    }),
    { http2: true },
  );
});

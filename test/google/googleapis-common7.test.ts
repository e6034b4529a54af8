/** googleapis-common 7 (google-auth-library 9, gaxios 6: errors[].message joined, an own `errors` array). */
import { describe } from 'vitest';
import { googleapisCommonSuite, type GoogleapisCommonModule, type OAuthModule } from './googleapis-common-suite.js';

describe('googleapis-common 7', () => {
  googleapisCommonSuite(
    async () => ({
      common: (await import('googleapis-common7')) as unknown as GoogleapisCommonModule,
      auth: (await import('google-auth-library9')) as unknown as OAuthModule,
    }),
    { http2: false },
  );
});

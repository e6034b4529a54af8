/** googleapis-common 7 (google-auth-library 9, gaxios 6: errors[].message joined, an own `errors` array). */
import { describe } from 'vitest';
import { googleapisCommonSuite } from './googleapis-common-suite.js';

describe('googleapis-common 7', () => {
  googleapisCommonSuite(() => import('googleapis-common7'), () => import('google-auth-library9'), { http2: false });
});

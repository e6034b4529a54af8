/** googleapis-common 8 (google-auth-library 10, gaxios 7; `http2: true` throws plain Errors whose cause is the response). */
import { describe } from 'vitest';
import { googleapisCommonSuite } from './googleapis-common-suite.js';

describe('googleapis-common 8', () => {
  googleapisCommonSuite(() => import('googleapis-common8'), () => import('google-auth-library10'), { http2: true });
});

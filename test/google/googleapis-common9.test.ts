/**
 * googleapis-common 9 (needs Node 22: run through scripts/test-google-node22.sh; google-auth-library 11, gaxios 8;
 * `http2: true` throws plain Errors whose cause is the response).
 */
import { describe } from 'vitest';
import { googleapisCommonSuite } from './googleapis-common-suite.js';
import { NODE_MAJOR } from './support.js';

describe.skipIf(NODE_MAJOR < 22)('googleapis-common 9', () => {
  googleapisCommonSuite(() => import('googleapis-common9'), () => import('google-auth-library11'), { http2: true });
});

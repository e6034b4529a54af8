/**
 * scripts/test-google-node22.sh sets GOOGLE_TESTS_NODE22=1: then this fails unless the tests really run on Node 22 or
 * later, so that the gaxios 8 and google-auth-library 11 suites cannot skip themselves unnoticed.
 */
import { describe, expect, it } from 'vitest';
import { NODE_MAJOR } from './support.js';

describe('the Node 22 run', () => {
  it.runIf(process.env['GOOGLE_TESTS_NODE22'] === '1')('runs on Node 22 or later, so gaxios 8 and google-auth-library 11 are tested', () => {
    expect(NODE_MAJOR).toBeGreaterThanOrEqual(22);
  });
});

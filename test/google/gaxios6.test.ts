/** gaxios 6 (node-fetch; plain header objects, string `config.url`, message `Request failed with status code N`). */
import { describe } from 'vitest';
import { gaxiosSuite, type GaxiosModule } from './gaxios-suite.js';

describe('gaxios 6', () => {
  gaxiosSuite(async () => (await import('gaxios6')) as unknown as GaxiosModule, { nativeFetch: false, readsStreamedErrorBody: true });
});

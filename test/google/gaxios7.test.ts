/** gaxios 7 (Headers, URL objects, message from the body; timeouts without a code). */
import { describe } from 'vitest';
import { gaxiosSuite, type GaxiosModule } from './gaxios-suite.js';

describe('gaxios 7', () => {
  gaxiosSuite(async () => (await import('gaxios7')) as unknown as GaxiosModule, { nativeFetch: true, readsStreamedErrorBody: false });
});

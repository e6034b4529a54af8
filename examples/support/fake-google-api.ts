/**
 * A fake Google API on 127.0.0.1 for trying examples/google-server.ts by hand (with the MCP Inspector, say). It reuses
 * the tests' fake (test/support/fake-google.ts): AIP-193 JSON errors, an OAuth token endpoint, quota errors with
 * retry-after. It prints the environment the server needs, then serves until Ctrl-C.
 *
 * Run: npx tsx examples/support/fake-google-api.ts
 */
import { closedPortUrl, startFakeGoogle } from '../../test/support/fake-google.js';

const fake = await startFakeGoogle();
const unreachable = await closedPortUrl('');
process.stdout.write(
  [
    `Fake Google API on ${fake.origin} (Ctrl-C to stop). Environment for examples/google-server.ts:`,
    `  GOOGLE_API_BASE=${fake.origin}`,
    `  CALENDAR_API_BASE=${unreachable}`,
    '',
  ].join('\n'),
);

const stop = (): void => {
  void fake.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

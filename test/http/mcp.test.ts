/**
 * End to end, for every client library at every supported version: a real McpServer whose tools call the real
 * library against the fake services (support/fake-apis.ts) on 127.0.0.1, a real Client over InMemoryTransport. The
 * client sees exactly the expected text and failure object (support/expected.ts), the access log gets the rule's
 * status, the one log record per call names the rule, carries the request (method, credential-free URL, status, the
 * service's request id) and the failure object's correlation id, and no planted secret (sent in headers, URLs and
 * bodies, and echoed back by the fake) reaches the wire or a record, nor any of a proxy's HTML page the wire. The same
 * table runs over stdio in stdio.test.ts.
 * Libraries that need Node 22 skip below it (scripts/test-http-node22.sh runs them). `npm test` runs the newest
 * version of each library; `npm run test:heavy` every version (TABLE_VARIANTS).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogRecord, Outcome } from '../../src/index.js';
import { scrubSecrets } from '../../src/scrub.js';
import { ALL_SECRETS, NODE_MAJOR, TABLE_VARIANTS, installedVersion, type Variant } from './support/clients.js';
import { casesOf, expected, type CaseName } from './support/expected.js';
import { PAGE_CANARY, closedOrigin, startFakeApis, type FakeApis } from './support/fake-apis.js';
import { connect, type Session } from './support/session.js';
import { checkRow } from './support/table.js';
import { tableServer } from './support/table-server.js';

function suite(variant: Variant): void {
  describe.skipIf(NODE_MAJOR < variant.nodeMajor)(`${variant.label} (${installedVersion(variant.module)}) through a real McpServer and Client`, () => {
    let fake: FakeApis;
    let session: Session;
    const records: LogRecord[] = [];
    const outcomes: Outcome[] = [];

    beforeAll(async () => {
      fake = await startFakeApis();
      const server = await tableServer({
        variant,
        origin: fake.origin,
        refusedOrigin: await closedOrigin(),
        logger: (record: LogRecord) => records.push(record),
        onOutcome: (outcome) => outcomes.push(outcome),
      });
      session = await connect(server);
    });

    afterAll(async () => {
      await session.close();
      await fake.close();
    });

    it.each(casesOf(variant))('%s: the exact text, the failure object, the access-log status and one record with the request', async (which: CaseName) => {
      const [records0, outcomes0] = [records.length, outcomes.length];
      const result = await session.client.callTool({ name: which, arguments: {} });
      checkRow({ which, result, records: records.slice(records0), outcomes: outcomes.slice(outcomes0) }, expected(variant, which, fake.origin));
    });

    it('sent every planted secret of its kind, and none reached the wire or a record', async () => {
      const sent = ALL_SECRETS.filter((secret) => fake.received(secret));
      expect(sent.length).toBeGreaterThan(0);
      const wire: string[] = [];
      for (const which of casesOf(variant)) wire.push(JSON.stringify(await session.client.callTool({ name: which, arguments: {} })));
      const everything = [wire.join('\n'), JSON.stringify(records), JSON.stringify(outcomes.map((o) => ({ ...o, classification: undefined })))].join('\n');
      for (const secret of ALL_SECRETS) expect(everything).not.toContain(secret);
      // The fake echoed the credentials back (500 bodies, OpenAI's, Stripe's 401 message): the scrubbing had something to
      // do. Slack's errors keep no response text (a 500's body is read by no rule and is in no message): nothing to scrub.
      if (variant.rules !== 'slack') expect(everything).toContain('[REDACTED]');
      // The proxy's pages (`html`, `maintenance`) reached the client library; nothing of them reaches the client. The
      // canary is no secret shape: had a text held it, the scrubber would have left it there.
      expect(scrubSecrets(PAGE_CANARY)).toBe(PAGE_CANARY);
      expect(wire.join('\n')).not.toContain(PAGE_CANARY);
    });
  });
}

for (const variant of TABLE_VARIANTS) suite(variant);

describe('the Node 22 run', () => {
  it.runIf(process.env['HTTP_TESTS_NODE22'] === '1')('runs on Node 22 or later, so openai 7 and ky 2 are tested', () => {
    expect(NODE_MAJOR).toBeGreaterThanOrEqual(22);
  });
});

/**
 * End to end, for every client library at every supported version: a real McpServer whose tools call the real
 * library against the fake services (support/fake-apis.ts) on 127.0.0.1, a real Client over InMemoryTransport. The
 * client sees exactly the expected text (support/expected.ts), the access log gets the rule's status, the one log
 * record per call names the rule and carries the request (method, credential-free URL, status, the service's request
 * id), and no planted secret (sent in headers, URLs and bodies, and echoed back by the fake) reaches the wire or a
 * record. Libraries that need Node 22 skip below it (scripts/test-http-node22.sh runs them).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreRules, createErrorPolicy, withClientVisibleErrors, type LogRecord, type Outcome } from '../../src/index.js';
import { httpRules } from '../../src/http/index.js';
import { ALL_SECRETS, NODE_MAJOR, VARIANTS, installedVersion, type Variant } from './support/clients.js';
import { CASES, REAUTHORIZE, expected, type CaseName } from './support/expected.js';
import { closedOrigin, startFakeApis, type FakeApis } from './support/fake-apis.js';
import { connect, textOf, type Session } from './support/session.js';

/** The client's timeout: the fake's `slow` case answers after 5 s. */
const TIMEOUT_MS = 400;

function suite(variant: Variant): void {
  describe.skipIf(NODE_MAJOR < variant.nodeMajor)(`${variant.label} (${installedVersion(variant.module)}) through a real McpServer and Client`, () => {
    let fake: FakeApis;
    let session: Session;
    const records: LogRecord[] = [];
    const outcomes: Outcome[] = [];

    beforeAll(async () => {
      fake = await startFakeApis();
      const call = await variant.make(fake.origin, TIMEOUT_MS);
      const refused = await variant.make(await closedOrigin(), TIMEOUT_MS);
      const policy = createErrorPolicy({
        rules: [...httpRules, ...coreRules],
        reauthorize: REAUTHORIZE,
        logger: (record: LogRecord) => records.push(record),
        onOutcome: (outcome) => outcomes.push(outcome),
      });
      const server = new McpServer({ name: 'http-rules-test', version: '1.0.0' });
      for (const which of CASES) {
        server.registerTool(
          which,
          { description: `fails with ${which}` },
          withClientVisibleErrors(
            async (): Promise<CallToolResult> => {
              await (which === 'refused' ? refused('missing') : call(which));
              return { content: [{ type: 'text', text: 'unreachable' }] };
            },
            { name: which, policy },
          ),
        );
      }
      session = await connect(server);
    });

    afterAll(async () => {
      await session.close();
      await fake.close();
    });

    it.each(CASES)('%s: the exact text, the access-log status and one record with the request', async (which: CaseName) => {
      const want = expected(variant, which, fake.origin);
      const before = records.length;
      const result = await session.client.callTool({ name: which, arguments: {} });
      expect({ isError: result.isError, text: textOf(result) }).toEqual({ isError: true, text: `Error executing tool ${which}: ${want.text}` });
      expect(records.length).toBe(before + 1);
      const record = records.at(-1);
      expect(record).toMatchObject({ name: which, level: 'warn', kind: 'anticipated', rule: want.rule, status: want.status });
      const fields = { httpMethod: record?.httpMethod, httpUrl: record?.httpUrl, httpStatus: record?.httpStatus, httpRequestId: record?.httpRequestId };
      if (want.request === undefined) {
        expect(fields.httpStatus).toBeUndefined();
      } else {
        expect(fields).toEqual({ httpMethod: undefined, httpUrl: undefined, httpRequestId: undefined, ...want.request });
      }
      expect(outcomes.at(-1)).toMatchObject({ name: which, status: want.status });
    });

    it('sent every planted secret of its kind, and none reached the wire or a record', async () => {
      const sent = ALL_SECRETS.filter((secret) => fake.received(secret));
      expect(sent.length).toBeGreaterThan(0);
      const wire: string[] = [];
      for (const which of CASES) wire.push(JSON.stringify(await session.client.callTool({ name: which, arguments: {} })));
      const everything = [wire.join('\n'), JSON.stringify(records), JSON.stringify(outcomes.map((o) => ({ ...o, classification: undefined })))].join('\n');
      for (const secret of ALL_SECRETS) expect(everything).not.toContain(secret);
      // The fake echoed the credentials back (500 bodies, OpenAI's, Stripe's 401 message): the scrubbing had something to
      // do. Slack's errors keep no response text (a 500's body is read by no rule and is in no message): nothing to scrub.
      if (variant.rules !== 'slack') expect(everything).toContain('[REDACTED]');
    });
  });
}

for (const variant of VARIANTS) suite(variant);

describe('the Node 22 run', () => {
  it.runIf(process.env['HTTP_TESTS_NODE22'] === '1')('runs on Node 22 or later, so openai 7 and ky 2 are tested', () => {
    expect(NODE_MAJOR).toBeGreaterThanOrEqual(22);
  });
});

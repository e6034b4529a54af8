/**
 * The per-status table of mcp.test.ts (the same cases, expectations and row check), through a real MCP client over
 * stdio: for each client library at each supported version, a server subprocess (fixtures/table-server.ts, `node
 * --import tsx`) whose tools call the real library against the fakes on 127.0.0.1, and the real SDK Client over
 * StdioClientTransport. Each row: the exact wire text, the failure object (its correlation id the record's), one log
 * record and one access-log outcome, both read back from the subprocess's stderr. Then every planted secret is
 * searched for in every answer and in the whole stderr (the records, and anything else the libraries wrote there),
 * and a proxy's HTML page in every answer.
 * Libraries that need Node 22 skip below it (scripts/test-http-node22.sh runs them).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogRecord } from '../../src/index.js';
import { ALL_SECRETS, NODE_MAJOR, VARIANTS, installedVersion, type Variant } from './support/clients.js';
import { casesOf, expected, type CaseName } from './support/expected.js';
import { PAGE_CANARY, closedOrigin, startFakeApis, type FakeApis } from './support/fake-apis.js';
import { checkRow } from './support/table.js';
import { startExample, type RunningExample } from '../support/stdio.js';

const fixture = fileURLToPath(new URL('./fixtures/table-server.ts', import.meta.url));

interface Outcome {
  readonly kind: string;
  readonly name: string;
  readonly status: number;
}

/** The JSON of every complete stderr line that starts with `prefix`. */
function linesOf<T>(stderr: string, prefix: string): T[] {
  const complete = stderr.slice(0, stderr.lastIndexOf('\n') + 1);
  return complete
    .split('\n')
    .filter((line) => line.startsWith(prefix))
    .map((line) => JSON.parse(line.slice(prefix.length)) as T);
}

function suite(variant: Variant): void {
  describe.skipIf(NODE_MAJOR < variant.nodeMajor)(`${variant.label} (${installedVersion(variant.module)}) in a server subprocess, through a real Client over stdio`, () => {
    let fake: FakeApis;
    let example: RunningExample;
    const records = (): LogRecord[] => linesOf<LogRecord>(example.stderr(), '[record] ');
    const outcomes = (): Outcome[] => linesOf<Outcome>(example.stderr(), '[outcome] ');

    beforeAll(async () => {
      fake = await startFakeApis();
      example = await startExample(fixture, { HTTP_TABLE_VARIANT: variant.label, HTTP_TABLE_ORIGIN: fake.origin, HTTP_TABLE_REFUSED: await closedOrigin() });
    });

    afterAll(async () => {
      await example?.close();
      await fake?.close();
    });

    it.each(casesOf(variant))('%s: the exact text, the failure object, the access-log status and one record with the request', async (which: CaseName) => {
      const [records0, outcomes0] = [records().length, outcomes().length];
      const result = await example.client.callTool({ name: which, arguments: {} });
      // The outcome line follows the record on the subprocess's stderr: once it is here, so is the record.
      await example.waitForStderr(() => outcomes().length > outcomes0);
      checkRow({ which, result, records: records().slice(records0), outcomes: outcomes().slice(outcomes0) }, expected(variant, which, fake.origin));
    });

    it('sent every planted secret of its kind, and none reached the wire or stderr', async () => {
      expect(ALL_SECRETS.filter((secret) => fake.received(secret)).length).toBeGreaterThan(0);
      const wire: string[] = [];
      for (const which of casesOf(variant)) {
        const outcomes0 = outcomes().length;
        wire.push(JSON.stringify(await example.client.callTool({ name: which, arguments: {} })));
        await example.waitForStderr(() => outcomes().length > outcomes0);
      }
      const everything = `${wire.join('\n')}\n${example.stderr()}`;
      for (const secret of ALL_SECRETS) expect(everything).not.toContain(secret);
      if (variant.rules !== 'slack') expect(everything).toContain('[REDACTED]');
      // Nothing of a proxy's HTML page reaches the client (mcp.test.ts shows the canary is no secret shape).
      expect(wire.join('\n')).not.toContain(PAGE_CANARY);
    });
  });
}

for (const variant of VARIANTS) suite(variant);

/**
 * Property: the exit gate holds whatever wraps a hostile text. Each case throws, from a tool or a resource of a real
 * McpServer under `applyErrorPolicy` with `ownErrorRule()`, one of the carriers published servers use (an `McpError`
 * with InternalError or a deliberate code, the server's own `Error` rethrown with added context, with and without
 * `cause`, a `ToolError`), around a payload that must never reach a client (a real runtime error's message, a stack
 * frame, an HTML page, an internal host, a private address, a source location, an upstream 5xx body, its cause's
 * message), each carrying the canary, between arbitrary strings. The wire never holds the canary; each call leaves
 * exactly one well-formed record; a crash's record is at error with its stack. Case count: 2% of FC_NUM_RUNS, at
 * least 100 (support.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyErrorPolicy, coreRules, createErrorPolicy, ownErrorRule, ToolError } from '../../src/index.js';
import { captureLogs } from '../support/calls.js';
import { CANARY, expectWellFormedRecord, openSession, TOTAL_RUNS, type WireSession } from './support.js';

/** A private address planted beside the canary (an address carries no canary of its own). */
const PRIVATE_ADDRESS = '10.77.0.1';

const CARRIERS = ['mcpInternal', 'mcpDeliberate', 'ownRethrow', 'ownRethrowCause', 'toolError', 'toolErrorCause'] as const;
type Carrier = (typeof CARRIERS)[number];

/** The message of a real TypeError of the runtime that names the canary. */
function runtimeMessage(): string {
  try {
    const missing = JSON.parse('null') as Record<string, unknown>;
    return String(missing[CANARY]);
  } catch (error) {
    return (error as Error).message;
  }
}

const PAYLOADS: Readonly<Record<string, string>> = {
  runtime: runtimeMessage(),
  frame: `failed\n    at closeTicket (/srv/${CANARY}/tickets.js:10:5)`,
  html: `<!DOCTYPE html><html><body><h1>${CANARY}</h1></body></html>`,
  host: `could not connect to ${CANARY}.internal:5432`,
  url: `GET http://${CANARY}/api/items failed`,
  address: `connect ECONNREFUSED ${PRIVATE_ADDRESS}:6379 (${CANARY}.lan)`,
  source: `bad row in /srv/${CANARY}/app/models/ticket.rb:42`,
  upstream: `Ticketing API error 502 Bad Gateway: ${CANARY} upstream body`,
};

/** The server's own code, in a folder of its own, as a published server has it. */
const OWN_CODE = 'export const rethrow = (message, cause) => new Error(message, cause === undefined ? undefined : { cause });\n';

let root: string;
let session: WireSession;
const { records, logger } = captureLogs();

function thrownFor(carrier: Carrier, text: string, rethrow: (message: string, cause?: unknown) => Error): unknown {
  // a cause no rule shows, whose message the text quotes
  const cause = new TypeError(`${CANARY} pool drained`);
  switch (carrier) {
    case 'mcpInternal':
      return new McpError(ErrorCode.InternalError, `Tool execution failed: ${text}`);
    case 'mcpDeliberate':
      return new McpError(ErrorCode.InvalidParams, text, { detail: text });
    case 'ownRethrow':
      return rethrow(`Could not close ticket: ${text}`);
    case 'ownRethrowCause':
      return rethrow(`Could not close ticket: ${text} (${cause.message})`, cause);
    case 'toolError':
      return new ToolError(text);
    case 'toolErrorCause':
      return new ToolError(`Sync failed: ${cause.message}; ${text}`, { cause });
  }
}

/** What the tool or the resource throws: planted by the property before each call. */
let thrown: unknown;
let rethrow: (message: string, cause?: unknown) => Error;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'exit-gate-property-'));
  writeFileSync(join(root, 'own.mjs'), OWN_CODE);
  ({ rethrow } = (await import(join(root, 'own.mjs'))) as { rethrow: typeof rethrow });
  const policy = createErrorPolicy({ rules: [ownErrorRule({ root }), ...coreRules], logger, exposeCrashDetails: false });
  session = await openSession((server) => {
    applyErrorPolicy(server, policy);
    // the hostile text never travels in the call's arguments: what the caller sent may be shown back to it
    server.registerTool('fail', {}, () => {
      throw thrown;
    });
    server.registerResource('note', 'note://fail', {}, () => {
      throw thrown;
    });
  });
});

afterAll(async () => {
  await session.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the exit gate, whatever wraps a hostile text', () => {
  it('no canary or private address on the wire; one well-formed record per call; every crash at error with its stack', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CARRIERS),
        fc.constantFrom(...Object.keys(PAYLOADS)),
        fc.string({ maxLength: 24 }),
        fc.string({ maxLength: 24 }),
        fc.boolean(),
        async (carrier, payload, before, after, viaResource) => {
          records.length = 0;
          session.wire.length = 0;
          const text = `${before} ${PAYLOADS[payload]!} ${after}`;
          thrown = thrownFor(carrier, text, rethrow);
          if (viaResource) {
            await session.client.readResource({ uri: 'note://fail' }).then(
              () => expect.unreachable('the read fails'),
              () => undefined,
            );
          } else {
            await session.client.callTool({ name: 'fail', arguments: {} });
          }
          const wire = session.wire.join('\n');
          expect(wire, `${carrier} ${payload}`).not.toContain(CANARY);
          expect(wire, `${carrier} ${payload}`).not.toContain(PRIVATE_ADDRESS);
          expect(records).toHaveLength(1);
          const record = records[0]!;
          expectWellFormedRecord(record, 4000);
          if (record.kind === 'crash') {
            expect(record.level).toBe('error');
            expect(record.stack).toMatch(/^ {4}at /);
          }
        },
      ),
      { numRuns: Math.max(100, Math.round(TOTAL_RUNS * 0.02)) },
    );
  }, 300_000);
});

/**
 * Property: a credential of no known shape, given away only by its context (arbitraries.ts' contextCredential: an
 * unknown vendor prefix or none, after `token`, `API key:`, `credential`, a camelCase JSON key, a header of no known
 * name...), planted in a deliberate ToolError and ResourceError, the server's own plain Error (ownErrorRule) and a
 * crash, with the text in their causes and stacks too, through a real McpServer and the SDK Client. No part of it is
 * on the wire or in the record; the client gets the text with `[REDACTED]` in its place and every other word as it
 * was. Case count: half the `secretsDirect` share of FC_NUM_RUNS (support.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { coreRules, createErrorPolicy, ownErrorRule, ResourceError, ToolError, withClientVisibleErrors, withClientVisibleResourceErrors } from '../../src/index.js';
import { contextCredential } from './arbitraries.js';
import { openSession, recordLogger, runs, settle, timeoutFor, type WireSession } from './support.js';

// V8's own stack formatting, as a production server has it (ownErrorRule reads the frame that made the error).
delete (Error as { prepareStackTrace?: unknown }).prepareStackTrace;

let root: string;
let session: WireSession;
/** The text the resource fails with (set by each case; the session runs in this process). */
let resourceText = '';
const { records, logger } = recordLogger();

/** The failure with `text` in its message, its cause's message and its stack. */
function causeWith(text: string): Error {
  return Object.assign(new Error(`upstream: ${text}`), { stack: `Error: upstream: ${text}\n    at request (/srv/app/client.js:1:1)` });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'context-secrets-property-'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'own-server' }));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'make.mjs'), 'export const make = (text) => new Error(text);\n');
  const { make } = (await import(join(root, 'src', 'make.mjs'))) as { make: (text: string) => Error };
  const policy = createErrorPolicy({ rules: [ownErrorRule({ root }), ...coreRules], logger, exposeCrashDetails: false });
  const { ResourceTemplate } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const input = { text: z.string() };
  session = await openSession((server) => {
    server.registerTool('deliberate', { inputSchema: input }, withClientVisibleErrors(({ text }: { text: string }) => {
      throw new ToolError(text, { cause: causeWith(text) });
    }, { name: 'deliberate', policy }));
    server.registerTool('own', { inputSchema: input }, withClientVisibleErrors(({ text }: { text: string }) => {
      throw make(text);
    }, { name: 'own', policy }));
    server.registerTool('crash', { inputSchema: input }, withClientVisibleErrors(({ text }: { text: string }) => {
      throw new Error(text, { cause: causeWith(text) });
    }, { name: 'crash', policy }));
    server.registerResource('doc', new ResourceTemplate('doc://{id}', { list: undefined }), {}, withClientVisibleResourceErrors(() => {
      throw new ResourceError(resourceText, { cause: causeWith(resourceText) });
    }, { policy }));
  });
});

afterAll(async () => {
  await session.close();
  rmSync(root, { recursive: true, force: true });
});

/** A window of 8 characters of `secret` found in `text`, or undefined. */
function leakOf(secret: string, text: string): string | undefined {
  for (let i = 0; i + 8 <= secret.length; i += 1) if (text.includes(secret.slice(i, i + 8))) return secret.slice(i, i + 8);
  return undefined;
}

/** The text of the last tool answer on the wire. */
function lastToolText(): string {
  return (JSON.parse(session.wire.at(-1)!) as { result: { content: { text: string }[] } }).result.content[0]!.text;
}

const share = runs('secretsDirect');
const numRuns = Math.max(20, Math.round(share.numRuns / 2));

describe('credentials known only by their context, planted by the hostile arbitraries', () => {
  it(
    'never on the wire or in a record; the client text is the text with [REDACTED] in the credential\'s place',
    async () => {
      await fc.assert(
        fc.asyncProperty(contextCredential, async ({ text, secret, scrubbed }) => {
          // the negative control: the check finds the credential in the text as planted
          expect(leakOf(secret, text)).toBeDefined();
          records.length = 0;
          session.wire.length = 0;
          for (const name of ['deliberate', 'own', 'crash']) {
            await session.client.callTool({ name, arguments: { text } });
            if (name === 'crash') expect(lastToolText()).toMatch(/^Error executing tool crash \(reference [0-9a-f]{12}\)$/);
            else expect(lastToolText()).toBe(`Error executing tool ${name}: ${scrubbed}`);
          }
          resourceText = text;
          const read = await settle(session.client.readResource({ uri: 'doc://1' }));
          expect(read.rejected).toBe(true);
          expect((JSON.parse(session.wire.at(-1)!) as { error: { message: string } }).error.message).toBe(scrubbed);
          expect(records).toHaveLength(4);
          for (const record of records) expect(record.errorMessage).toBe(scrubbed);
          expect(leakOf(secret, session.wire.join('\n')), 'on the wire').toBeUndefined();
          expect(leakOf(secret, JSON.stringify(records)), 'in a record').toBeUndefined();
        }),
        { ...share, numRuns },
      );
    },
    timeoutFor('secretsDirect', 3),
  );
});

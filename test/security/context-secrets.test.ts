/**
 * Credentials of no known shape, recognised by their context, through a real McpServer and the real SDK Client: a
 * deliberate ToolError quoting a 401 (a vendor token with a prefix no scanner lists, after "token", and a 32-hex key
 * after "API key:"), the same text as the server's own plain Error (ownErrorRule), as a crash, and as a ResourceError.
 * Neither credential is on the wire or in any log output (records, stderr); the sentences around them are intact.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreRules, createErrorPolicy, ownErrorRule, ResourceError, ToolError, withClientVisibleErrors, withClientVisibleResourceErrors, type LogRecord } from '../../src/index.js';
import { FAILURE_KEY } from '../support/calls.js';
import { FORM, leakIn } from './secrets.js';
import { captureStderr, openSession, recordLogger, settle, type WireSession } from './support.js';

// V8's own stack formatting, as a production server has it (ownErrorRule reads the frame that made the error).
delete (Error as { prepareStackTrace?: unknown }).prepareStackTrace;

/** What an HTTP client's 401 says, quoting both credentials; and the same with both scrubbed. */
const UPSTREAM = `Upstream answered 401 Unauthorized: token ${FORM.unknownPrefixToken} is invalid; Invalid API key: ${FORM.hexApiKey}. Check the dashboard.`;
const SCRUBBED = 'Upstream answered 401 Unauthorized: token [REDACTED] is invalid; Invalid API key: [REDACTED]. Check the dashboard.';

/** The upstream failure the deliberate errors wrap: the text in its message and in its stack. */
function upstreamCause(): Error {
  return Object.assign(new Error(UPSTREAM), { name: 'HttpError', stack: `HttpError: ${UPSTREAM}\n    at request (/srv/app/client.js:10:5)` });
}

let root: string;
let makeOwn: (text: string) => Error;

beforeAll(async () => {
  // The server's own code: a file under its root that makes a plain Error (as a handler's `throw new Error(...)`).
  root = mkdtempSync(join(tmpdir(), 'context-secrets-'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'own-server' }));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'make.mjs'), 'export const make = (text) => new Error(text);\n');
  makeOwn = ((await import(join(root, 'src', 'make.mjs'))) as { make: (text: string) => Error }).make;
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A session whose tools and resource fail with UPSTREAM, under a policy logging to `logger` (the default: stderr). */
async function serve(logger?: (record: LogRecord) => void): Promise<WireSession> {
  const policy = createErrorPolicy({ rules: [ownErrorRule({ root }), ...coreRules], exposeCrashDetails: false, ...(logger === undefined ? {} : { logger }) });
  const { ResourceTemplate } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  return openSession((server) => {
    server.registerTool('deliberate', {}, withClientVisibleErrors(() => {
      throw new ToolError(UPSTREAM, { cause: upstreamCause() });
    }, { name: 'deliberate', policy }));
    server.registerTool('own', {}, withClientVisibleErrors(() => {
      throw makeOwn(UPSTREAM);
    }, { name: 'own', policy }));
    server.registerTool('crash', {}, withClientVisibleErrors(() => {
      throw Object.assign(new Error(UPSTREAM, { cause: upstreamCause() }), { config: { headers: { 'x-acme-token': FORM.unknownPrefixToken } } });
    }, { name: 'crash', policy }));
    server.registerResource('doc', new ResourceTemplate('doc://{id}', { list: undefined }), {}, withClientVisibleResourceErrors(() => {
      throw new ResourceError(UPSTREAM, { cause: upstreamCause() });
    }, { policy }));
  });
}

/** The text of a tool's answer on the wire (the last message the server sent). */
function toolText(session: WireSession): string {
  const message = JSON.parse(session.wire.at(-1)!) as { result: { content: { text: string }[]; isError: boolean } };
  expect(message.result.isError).toBe(true);
  return message.result.content[0]!.text;
}

describe('credentials known only by their context, through a real session', () => {
  it('neither credential reaches the wire or a record; the client and the records keep the sentence around them', async () => {
    const { records, logger } = recordLogger();
    const session = await serve(logger);
    try {
      // the negative control: the leak check finds both credentials in the text as thrown
      expect(leakIn(UPSTREAM)).toBeDefined();

      await session.client.callTool({ name: 'deliberate', arguments: {} });
      expect(toolText(session)).toBe(`Error executing tool deliberate: ${SCRUBBED}`);
      await session.client.callTool({ name: 'own', arguments: {} });
      expect(toolText(session)).toBe(`Error executing tool own: ${SCRUBBED}`);
      await session.client.callTool({ name: 'crash', arguments: {} });
      expect(toolText(session)).toMatch(/^Error executing tool crash \(reference [0-9a-f]{12}\)$/);
      const read = await settle(session.client.readResource({ uri: 'doc://1' }));
      expect(read.rejected).toBe(true);
      const error = (JSON.parse(session.wire.at(-1)!) as { error: { code: number; message: string; data: Record<string, unknown> } }).error;
      expect(error).toEqual({ code: -32603, message: SCRUBBED, data: { [FAILURE_KEY]: expect.objectContaining({ code: 'resource_error' }) } });

      expect(leakIn(session.wire.join('\n'))).toBeUndefined();
      expect(records.map((r) => [r.name, r.kind, r.level])).toEqual([
        ['deliberate', 'anticipated', 'info'],
        ['own', 'anticipated', 'warn'],
        ['crash', 'crash', 'error'],
        ['doc://1', 'anticipated', 'info'],
      ]);
      expect(leakIn(JSON.stringify(records))).toBeUndefined();
      // Every record holds the sentence, scrubbed: the operator still reads what failed.
      for (const record of records) expect(record.errorMessage, record.name).toBe(SCRUBBED);
      // The crash's stack and cause chain are logged, scrubbed, the sentence intact.
      expect(records[2]!.stack).toContain(SCRUBBED);
    } finally {
      await session.close();
    }
  });

  it('the default logger writes neither credential to stderr', async () => {
    const session = await serve();
    try {
      const written = await captureStderr(async () => {
        for (const name of ['deliberate', 'own', 'crash']) await session.client.callTool({ name, arguments: {} });
        await settle(session.client.readResource({ uri: 'doc://1' }));
      });
      expect(written.match(/^\[mcp-error-policy\] /gm)).toHaveLength(4);
      expect(written).toContain(SCRUBBED);
      expect(leakIn(written)).toBeUndefined();
      expect(leakIn(session.wire.join('\n'))).toBeUndefined();
    } finally {
      await session.close();
    }
  });
});

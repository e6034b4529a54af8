/**
 * The exit gate on the patterns of servers nobody here wrote, through a real McpServer (SDK 1.x) and the real SDK
 * Client: the McpError catch block that wraps whatever failed, "catch, add context, rethrow" with and without `cause`,
 * an own helper that throws an upstream 500 body (from a real HTTP server on 127.0.0.1), a deliberate error naming an
 * internal host, a protocol error quoting a token and a source location in its text and data, an HTTP status sent as
 * a protocol code. Each call: the exact answer on the wire, exactly one record, no crash text, canary token, internal
 * host or server path on the wire, no token in any record, and every crash in an error record with its stack.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyErrorPolicy, coreRules, createErrorPolicy, ownErrorRule, ToolError, type LogRecord } from '../../src/index.js';
import { captureLogs, FAILURE_KEY, rpcError, textOf } from '../support/calls.js';
import { startHttp } from '../support/loopback.js';
import { openSession, type WireSession } from './support.js';

/** A Google access token's shape: planted in a protocol error's text, it must reach neither the wire nor a record. */
const TOKEN = 'ya29.a0AfB_CANARYexitgate0123456789';

/** What must never be on the wire: crash texts, the token, internal hosts, server paths, the upstream body. */
const NEVER_ON_WIRE = [TOKEN, 'CANARYexitgate', 'Cannot destructure', 'is not a function', 'Cannot read properties', 'socket hang up', 'PG::ConnectionBad', 'db-primary', 'ticket.rb', '/srv/', '10.0.0.7', '127.0.0.1', 'billing.internal'];

/** The server's own code, in a folder of its own (`ownErrorRule({ root })`), as a published server has it. */
const OWN_CODE = `
export const rethrow = (message, cause) => new Error(message, cause === undefined ? undefined : { cause });
export async function getTicket(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(\`Ticketing API error \${res.status} \${res.statusText} on GET \${res.url}: \${await res.text()}\`);
  return res.json();
}
`;

interface Own {
  rethrow(message: string, cause?: unknown): Error;
  getTicket(url: string): Promise<unknown>;
}

let root: string;
let upstream: { url: string; close: () => Promise<void> };
let session: WireSession;
const { records, logger } = captureLogs();

/** A real TypeError of the runtime, caught as a server's catch block catches it. */
function runtimeError(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a TypeError');
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'exit-gate-'));
  writeFileSync(join(root, 'own.mjs'), OWN_CODE);
  const own = (await import(join(root, 'own.mjs'))) as Own;
  upstream = await startHttp((_req, res) => {
    res.writeHead(500, { 'content-type': 'text/plain' }).end('PG::ConnectionBad: could not connect to server at db-primary.int.acme-corp.lan:5432\n/srv/ticketd/app/models/ticket.rb:42');
  });
  const policy = createErrorPolicy({ rules: [ownErrorRule({ root }), ...coreRules], logger, exposeCrashDetails: false });
  session = await openSession((server) => {
    applyErrorPolicy(server, policy);
    const tool = (name: string, run: () => unknown): void => {
      server.registerTool(name, {}, async () => {
        await run();
        return { content: [{ type: 'text', text: 'ok' }] };
      });
    };
    tool('chart', () => {
      try {
        const { metadata } = JSON.parse('null') as { metadata: unknown };
        return metadata;
      } catch (e) {
        throw new McpError(ErrorCode.InternalError, `Failed to generate chart: ${(e as Error).message}`);
      }
    });
    tool('items', () => {
      try {
        const response = JSON.parse('{"data":{"items":{"a":1}}}') as { data: { items: unknown[] } };
        return (response.data.items || []).map((item) => item);
      } catch (e) {
        throw new McpError(ErrorCode.InternalError, `Internal error: ${(e as Error).message}`);
      }
    });
    tool('header', () => {
      throw new McpError(ErrorCode.InvalidRequest, `Bad Request: Invalid value for header Authorization: Bearer ${TOKEN}`);
    });
    tool('close_ticket', () => {
      const e = runtimeError(() => (JSON.parse('{}') as { body: { text: string } }).body.text);
      throw own.rethrow(`Could not close ticket TCK-1: ${e.message}`);
    });
    tool('close_ticket_cause', () => {
      const e = runtimeError(() => (JSON.parse('{}') as { body: { text: string } }).body.text);
      throw own.rethrow(`Could not close ticket TCK-1: ${e.message}`, e);
    });
    tool('sync', () => {
      const cause = new TypeError('socket hang up on pool 7f3a');
      throw own.rethrow(`Sync failed: ${cause.message}`, cause);
    });
    tool('ticket', () => own.getTicket(`${upstream.url}/api/tickets/TCK-1`));
    tool('billing', () => {
      throw new ToolError('Cannot reach the billing service at billing.internal:8443; try again later');
    });
    tool('allowed', () => {
      throw new ToolError('Access denied - path outside allowed directories: /tmp/x not in /tmp/allowed');
    });
    server.registerTool('fetch_url', { inputSchema: { url: z.string() } }, ({ url }) => {
      throw new ToolError(`Cannot fetch ${url}: the host refused the connection (from fetcher.internal)`);
    });
    tool('missing', () => {
      throw own.rethrow('Entity with name foo not found');
    });
    server.registerResource('sheet', new ResourceTemplate('sheet://{name}', { list: undefined }), {}, () => {
      throw new McpError(ErrorCode.InvalidParams, 'Unknown sheet; see /srv/app/src/sheets.ts:42', { at: '/srv/app/src/sheets.ts:42', hint: 'list the sheets first' });
    });
    server.registerResource('status', 'api://status', {}, () => {
      throw new McpError(404 as ErrorCode, 'Not Found at http://10.0.0.7/api');
    });
  });
});

afterAll(async () => {
  await session.close();
  await upstream.close();
  rmSync(root, { recursive: true, force: true });
});

beforeEach(() => {
  records.length = 0;
  session.wire.length = 0;
});

/** The one record of the call, with no token in it; a crash's carries its stack. */
function oneRecord(): LogRecord {
  expect(records).toHaveLength(1);
  const record = records[0]!;
  expect(JSON.stringify(record)).not.toContain('CANARYexitgate');
  if (record.kind === 'crash') {
    expect(record.level).toBe('error');
    expect(record.stack).toMatch(/^ {4}at /);
  }
  return record;
}

function expectCleanWire(): void {
  const wire = session.wire.join('\n');
  for (const text of NEVER_ON_WIRE) expect(wire, text).not.toContain(text);
}

async function call(name: string): Promise<string> {
  const text = textOf(await session.client.callTool({ name, arguments: {} }));
  expectCleanWire();
  return text;
}

const CRASH_TEXT = (name: string) => new RegExp(`^Error executing tool ${name} \\(reference [0-9a-f]{12}\\)$`);

describe('McpError(InternalError, `…${e.message}`): judged like any error', () => {
  it.each([
    ['chart', "Failed to generate chart: Cannot destructure property 'metadata' of"],
    ['items', 'Internal error: (response.data.items || []).map is not a function'],
  ])('%s: masked with a reference, one error record with the crash text and the stack', async (name, logged) => {
    expect(await call(name)).toMatch(CRASH_TEXT(name));
    const record = oneRecord();
    expect(record).toMatchObject({ kind: 'crash', level: 'error', status: 500, errorName: 'McpError' });
    expect(record.errorMessage).toContain(logged);
  });
});

describe("a handler's deliberate protocol error keeps its code and words, through the gate", () => {
  it('a token in its text is scrubbed on the wire and in the record', async () => {
    expect(await call('header')).toBe('MCP error -32600: Bad Request: Invalid value for header Authorization: [REDACTED]');
    expect(oneRecord()).toMatchObject({ kind: 'protocol', level: 'info', status: 400 });
  });

  it('a resource: its code, its text and its data without the source location', async () => {
    const error = await rpcError(session.client.readResource({ uri: 'sheet://Q3' }));
    expectCleanWire();
    expect(error).toEqual({ code: -32602, message: 'MCP error -32602: MCP error -32602: Unknown sheet; see [source]', data: { at: '[source]', hint: 'list the sheets first' } });
    expect(oneRecord()).toMatchObject({ kind: 'protocol', level: 'info', status: 400 });
  });

  it('an HTTP status as `code` is never sent as a JSON-RPC code: a crash', async () => {
    const error = await rpcError(session.client.readResource({ uri: 'api://status' }));
    expectCleanWire();
    expect(error.code).toBe(-32603);
    expect(error.message).toMatch(/^MCP error -32603: Error reading resource api:\/\/status \(reference [0-9a-f]{12}\)$/);
    expect(oneRecord()).toMatchObject({ kind: 'crash', status: 500 });
  });
});

describe("the server's own Error (ownErrorRule) is shown for what it says, not for being own", () => {
  it.each(['close_ticket', 'close_ticket_cause'])('%s: "catch, add context, rethrow" of a TypeError is a crash', async (name) => {
    expect(await call(name)).toMatch(CRASH_TEXT(name));
    const record = oneRecord();
    expect(record).toMatchObject({ kind: 'crash', errorName: 'Error', withheld: 'its text carries a runtime error' });
    expect(record.errorMessage).toBe("Could not close ticket TCK-1: Cannot read properties of undefined (reading 'text')");
    expect(record.message).toContain('; not shown: its text carries a runtime error');
  });

  it("sync: a text that quotes its cause's message (a cause no rule shows) is a crash", async () => {
    expect(await call('sync')).toMatch(CRASH_TEXT('sync'));
    expect(oneRecord()).toMatchObject({ kind: 'crash', withheld: "its text carries its cause's message" });
  });

  it("ticket: an own helper's upstream 500 body: the status and the service's name, never the body or the URL", async () => {
    expect(await call('ticket')).toBe('Error executing tool ticket: Ticketing API error 500 Internal Server Error.');
    const record = oneRecord();
    expect(record).toMatchObject({ kind: 'anticipated', rule: 'own-error', level: 'warn' });
    // the operator's record keeps the whole text
    expect(record.errorMessage).toContain('PG::ConnectionBad: could not connect to server at db-primary.int.acme-corp.lan:5432\n/srv/ticketd/app/models/ticket.rb:42');
  });

  it('missing: an own message for the user is shown as written', async () => {
    expect(await call('missing')).toBe('Error executing tool missing: Entity with name foo not found');
    expect(oneRecord()).toMatchObject({ kind: 'anticipated', rule: 'own-error' });
  });
});

describe('deliberate errors pass the same gate', () => {
  it('an internal host goes, the sentence stays', async () => {
    expect(await call('billing')).toBe('Error executing tool billing: Cannot reach the billing service at [internal host]; try again later');
    expect(oneRecord()).toMatchObject({ kind: 'anticipated', rule: 'deliberate', level: 'info' });
  });

  it('an internal host the caller sent itself is shown back; the server\'s own is not', async () => {
    const result = await session.client.callTool({ name: 'fetch_url', arguments: { url: 'http://10.0.0.9:8080/report' } });
    expect(textOf(result)).toBe('Error executing tool fetch_url: Cannot fetch http://10.0.0.9:8080/report: the host refused the connection (from [internal host])');
    expect(oneRecord()).toMatchObject({ kind: 'anticipated', rule: 'deliberate' });
  });

  it('a directory named on purpose stays', async () => {
    expect(await call('allowed')).toBe('Error executing tool allowed: Access denied - path outside allowed directories: /tmp/x not in /tmp/allowed');
    const result = await session.client.callTool({ name: 'allowed', arguments: {} });
    expect((result._meta as Record<string, { code: string }>)[FAILURE_KEY]?.code).toBe('tool_error');
  });
});

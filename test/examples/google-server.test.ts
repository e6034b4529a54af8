/**
 * examples/google-server.ts over stdio, twice: with mcp-error-policy (the default) and with MCP_ERROR_POLICY=off (the
 * SDK's own behaviour, which the demo shows first). The server calls the fake Google on 127.0.0.1 through the real
 * gaxios 7 and google-auth-library 10; every client text and every stderr record is checked exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl, GOOGLE_MESSAGES, ISSUED_ACCESS_TOKEN, startFakeGoogle, type FakeGoogle } from '../support/fake-google.js';
import { correlationIdOf, REFERENCE, splitFailure } from '../support/calls.js';
import { failureData, failureObject } from '../support/failure.js';
import { startExample, type RunningExample } from '../support/stdio.js';

/** The fake credentials planted by examples/google-server.ts. */
const API_KEY = 'AIzaSyDEMO-fakeKey-0123456789abcdefghij';
const REFRESH_TOKEN = '1//0gDEMO-fakeRefreshToken-0123456789';
const CLIENT_SECRET = 'GOCSPX-DEMO-fakeClientSecret-012345';
const SECRETS = [API_KEY, REFRESH_TOKEN, CLIENT_SECRET, ISSUED_ACCESS_TOKEN];
const REAUTHORIZE = 'Sign in again: run `sheets-mcp auth login`.';

let fake: FakeGoogle;
let calendar: string;
let withPolicy: RunningExample;
let withoutPolicy: RunningExample;

beforeAll(async () => {
  fake = await startFakeGoogle();
  calendar = await closedPortUrl('');
  const env = { GOOGLE_API_BASE: fake.origin, CALENDAR_API_BASE: calendar };
  [withPolicy, withoutPolicy] = await Promise.all([
    startExample('examples/google-server.ts', env),
    startExample('examples/google-server.ts', { ...env, MCP_ERROR_POLICY: 'off' }),
  ]);
});
afterAll(async () => {
  await Promise.all([withPolicy?.close(), withoutPolicy?.close()]);
  await fake?.close();
});

/** What a client got from a tool: its text, isError and failure object (without the correlation id). */
interface ToolAnswer {
  readonly text: string;
  readonly isError: boolean;
  readonly failure?: unknown;
}

/** Calls a tool: its answer, and apart the correlation id of its failure object (when it has one; 12 hex digits). */
async function callTool(example: RunningExample, name: string, args: Record<string, unknown> = {}): Promise<{ answer: ToolAnswer; correlationId?: string }> {
  const result = await example.client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  expect(result.structuredContent).toBeUndefined();
  const { failure, correlationId } = splitFailure(result);
  if (correlationId !== undefined) expect(correlationId).toMatch(REFERENCE);
  const answer = { text: content[0]!.text, isError: result.isError === true, ...(failure === undefined ? {} : { failure }) };
  return { answer, ...(correlationId === undefined ? {} : { correlationId: correlationId as string }) };
}

/** The text of a tool's answer, isError, and its failure object without the correlation id (when it has one). */
async function toolText(example: RunningExample, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  return (await callTool(example, name, args)).answer;
}

/** What the default logger's first line of a failure other than a crash ends with: the id the client received. */
function correlation(correlationId: string | undefined): string {
  expect(correlationId).toMatch(REFERENCE);
  return ` (correlation ${correlationId!})`;
}

/** Waits for the one record a failure writes after `before`, and returns its lines. */
async function recordAfter(example: RunningExample, before: number): Promise<string[]> {
  await example.waitForStderr((all) => all.length > before && all.endsWith('\n'));
  // A record is one write; give a split read a moment to complete before reading it.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return example.stderr().slice(before).trimEnd().split('\n');
}

/** A warn/error record: the headline, then stack frames, with `causes` as its "caused by" lines, in order. */
function expectRecord(lines: string[], headline: string, causes: string[]): void {
  expect(lines[0]).toBe(headline);
  const rest = lines.slice(1);
  expect(rest.filter((line) => line.startsWith('  caused by: '))).toEqual(causes);
  expect(rest.filter((line) => !line.startsWith('  caused by: ')).every((line) => line.startsWith('    at '))).toBe(true);
  expect(rest.filter((line) => line.startsWith('    at ')).length).toBeGreaterThan(0);
}

function expectNoSecrets(text: string): void {
  for (const secret of SECRETS) expect(text.includes(secret), secret).toBe(false);
}

describe('examples/google-server.ts with mcp-error-policy', () => {
  it('answers a good call and logs nothing', async () => {
    expect(await toolText(withPolicy, 'find_sheet', { name: 'Q2' })).toEqual({ text: 'Q2', isError: false });
    expect(await withPolicy.client.readResource({ uri: 'sheet://budget' })).toEqual({
      contents: [{ uri: 'sheet://budget', text: '{"title":"Budget","sheets":["Q1","Q2","Q3","Q4"]}' }],
    });
    expect(withPolicy.stderr()).toBe('');
  });

  it('deliberate: the ToolError text, one info line without a stack', async () => {
    const before = withPolicy.stderr().length;
    const { answer, correlationId } = await callTool(withPolicy, 'find_sheet', { name: 'Q5' });
    expect(answer).toEqual({
      isError: true,
      text: 'Error executing tool find_sheet: No sheet named "Q5" in Budget (it has Q1, Q2, Q3, Q4)',
      failure: { code: 'tool_error', retryable: false },
    });
    expect(await recordAfter(withPolicy, before)).toEqual([
      `[mcp-error-policy] INFO tool "find_sheet" failed: ToolError "No sheet named \\"Q5\\" in Budget (it has Q1, Q2, Q3, Q4)"${correlation(correlationId)}`,
    ]);
  });

  it('crash: only a reference for the client; the TypeError and its stack on stderr under the same reference', async () => {
    const before = withPolicy.stderr().length;
    const { text, isError, failure } = await toolText(withPolicy, 'summarize_sheet');
    expect(isError).toBe(true);
    expect(failure).toEqual({ code: 'internal', retryable: false });
    const reference = /^Error executing tool summarize_sheet \(reference ([0-9a-f]{12})\)$/.exec(text)?.[1];
    expect(reference, text).toBeDefined();
    const lines = await recordAfter(withPolicy, before);
    expectRecord(lines, `[mcp-error-policy] ERROR tool "summarize_sheet" crashed (reference ${reference}): TypeError "Cannot read properties of undefined (reading '0')"`, []);
    expect(lines[1]).toMatch(/^ {4}at .*examples\/google-server\.ts:\d+:\d+\)?$/);
    // a crash's line names its reference, which is its correlation id: no correlation suffix
    expect(lines.join('\n')).not.toContain('(correlation ');
  });

  it('revoked token: the OAuth description and the re-authorization text', async () => {
    const before = withPolicy.stderr().length;
    const { answer, correlationId } = await callTool(withPolicy, 'list_files');
    expect(answer).toEqual({
      isError: true,
      text: `Error executing tool list_files: Google authorization failed (invalid_grant): ${GOOGLE_MESSAGES.invalidGrant}\n\n${REAUTHORIZE}`,
      failure: { code: 'invalid_grant', retryable: false },
    });
    expectRecord(await recordAfter(withPolicy, before), `[mcp-error-policy] WARN tool "list_files" failed (rule google-oauth-refresh: POST ${fake.origin}/token/invalid_grant -> 400): Error "invalid_grant"${correlation(correlationId)}`, []);
  });

  // Google API errors: Google's message first, then status, reason and the request with the key redacted (the path only:
  // the fake's host is a loopback address); a warn line with the URL.
  it.each([
    { what: '403', tool: 'share_sheet', path: '/v1/forbidden', rule: 'google-api-error', status: 403, message: GOOGLE_MESSAGES.permissionDenied, head: '403 PERMISSION_DENIED', retry: '', failure: { code: 'permission_denied', retryable: false } },
    { what: '429 quota, with the retry-after delay', tool: 'read_range', path: '/v1/quota', rule: 'google-quota', status: 429, message: GOOGLE_MESSAGES.quota, head: '429 RESOURCE_EXHAUSTED RATE_LIMIT_EXCEEDED', retry: '. Retry after 30 s.', failure: { code: 'rate_limit_exceeded', retryable: true, retryAfterMs: 30_000 } },
    { what: '503, retryable without a delay', tool: 'export_sheet', path: '/v1/unavailable', rule: 'google-api-error', status: 503, message: 'Service Unavailable', logged: GOOGLE_MESSAGES.unavailable, head: '503 UNAVAILABLE', retry: '', failure: { code: 'unavailable', retryable: true } },
  ])('Google $what: the message, the request without its key, the failure object, one warn line', async ({ tool, path, rule, status, message, logged, head, retry, failure }) => {
    const before = withPolicy.stderr().length;
    const { answer, correlationId } = await callTool(withPolicy, tool);
    const request = `${fake.origin}${path}?key=[REDACTED]`;
    expect(answer).toEqual({ isError: true, text: `Error executing tool ${tool}: ${message} (${head} from Google API GET ${path}?key=[REDACTED])${retry}`, failure });
    expectRecord(await recordAfter(withPolicy, before), `[mcp-error-policy] WARN tool "${tool}" failed (rule ${rule}: GET ${request} -> ${status}): Error "${logged ?? message}"${correlation(correlationId)}`, []);
  });

  it('network: the code only; the log keeps the URL with the key redacted', async () => {
    const before = withPolicy.stderr().length;
    const { answer, correlationId } = await callTool(withPolicy, 'list_holidays');
    expect(answer).toEqual({
      isError: true,
      text: 'Error executing tool list_holidays: Network error while calling the Google API (ECONNREFUSED).',
      failure: { code: 'network', retryable: true, upstream: 'unreached' },
    });
    const port = new URL(calendar).port;
    const message = `request to ${calendar}/calendar/v3/calendars/en.usa%23holiday/events?key=[REDACTED] failed, reason: connect ECONNREFUSED 127.0.0.1:${port}`;
    expectRecord(await recordAfter(withPolicy, before), `[mcp-error-policy] WARN tool "list_holidays" failed (rule google-network): Error "${message}"${correlation(correlationId)}`, [
      `  caused by: FetchError "${message}"`,
    ]);
  });

  it('resource not found: JSON-RPC -32002 with the text, one info line', async () => {
    const before = withPolicy.stderr().length;
    const error = await withPolicy.client.readResource({ uri: 'sheet://nope' }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      code: -32002,
      message: 'MCP error -32002: No spreadsheet with id nope',
      data: failureData(failureObject('resource_not_found', false), 'sheet://nope'),
    });
    expect(await recordAfter(withPolicy, before)).toEqual([
      `[mcp-error-policy] INFO resource "sheet://nope" failed: ResourceNotFoundError "No spreadsheet with id nope"${correlation(correlationIdOf(error))}`,
    ]);
  });

  it('logged each failure once, and no planted secret reached stderr, although the fake Google received all of them', () => {
    const headlines = withPolicy.stderr().split('\n').filter((line) => line.startsWith('[mcp-error-policy] '));
    expect(headlines).toHaveLength(8);
    expectNoSecrets(withPolicy.stderr());
    expect(fake.received(`key=${API_KEY}`)).toBe(true);
    expect(fake.received(`Bearer ${ISSUED_ACCESS_TOKEN}`)).toBe(true);
    expect(fake.received(`refresh_token=${REFRESH_TOKEN}`)).toBe(true);
    expect(fake.received(`client_secret=${CLIENT_SECRET}`)).toBe(true);
  });
});

describe('examples/google-server.ts with MCP_ERROR_POLICY=off (the SDK default the demo compares with)', () => {
  it('sends each error message as it is, leaks the API key of a network failure, and logs nothing', async () => {
    const port = new URL(calendar).port;
    const seen = {
      find_sheet: await toolText(withoutPolicy, 'find_sheet', { name: 'Q5' }),
      summarize_sheet: await toolText(withoutPolicy, 'summarize_sheet'),
      share_sheet: await toolText(withoutPolicy, 'share_sheet'),
      list_files: await toolText(withoutPolicy, 'list_files'),
      read_range: await toolText(withoutPolicy, 'read_range'),
      list_holidays: await toolText(withoutPolicy, 'list_holidays'),
    };
    expect(seen).toEqual({
      find_sheet: { isError: true, text: 'No sheet named "Q5" in Budget (it has Q1, Q2, Q3, Q4)' },
      summarize_sheet: { isError: true, text: "Cannot read properties of undefined (reading '0')" },
      share_sheet: { isError: true, text: GOOGLE_MESSAGES.permissionDenied },
      list_files: { isError: true, text: 'invalid_grant' },
      read_range: { isError: true, text: GOOGLE_MESSAGES.quota },
      list_holidays: {
        isError: true,
        text: `request to ${calendar}/calendar/v3/calendars/en.usa%23holiday/events?key=${API_KEY} failed, reason: connect ECONNREFUSED 127.0.0.1:${port}`,
      },
    });
    await expect(withoutPolicy.client.readResource({ uri: 'sheet://nope' })).rejects.toMatchObject({
      code: -32603,
      message: 'MCP error -32603: No spreadsheet with id nope',
    });
    // Nothing arrives on stderr, however long one waits; a record from the policy would be there well within this.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(withoutPolicy.stderr()).toBe('');
  });
});

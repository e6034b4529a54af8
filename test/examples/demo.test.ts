/**
 * `npm run demo` (examples/demo.ts), run as a user runs it: a subprocess through tsx. Its whole output is checked line
 * by line; only the ports, the crash reference, the correlation ids at the end of the log lines and the number of
 * stack lines (which vary by run and Node version) are read from the output first. The demo prints the client's text,
 * not its failure object, so a line's correlation id is checked for its form and place (12 hex digits at the end of
 * every line but the crash's, each failure its own): test/examples/google-server.test.ts ties each to the client's.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';

const API_KEY = 'AIzaSyDEMO-fakeKey-0123456789abcdefghij';

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

let run: Run;
beforeAll(async () => {
  run = await new Promise<Run>((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'examples/demo.ts'], { cwd: process.cwd(), timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, stdout, stderr });
    });
  });
}, 60_000);

/**
 * The demo's output text with what varies between runs made fixed: ports, crash references, correlation ids, stack
 * line counts.
 */
function normalized(text: string): string[] {
  return text
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/reference [0-9a-f]{12}/g, 'reference REF')
    .replace(/\(correlation [0-9a-f]{12}\)/g, '(correlation ID)')
    .replace(/\+ \d+ more lines/g, '+ N more lines')
    .split('\n');
}

/** The README's trimmed demo output: the first ```text block after the `## Demo` heading, if the README has one. */
function readmeDemoBlock(): string | undefined {
  const readme = readFileSync('README.md', 'utf8');
  const at = readme.search(/^## Demo\b/m);
  if (at === -1) return undefined;
  return /```text\n([\s\S]*?)```/.exec(readme.slice(at))?.[1];
}

function section(heading: string): string {
  const start = run.stdout.indexOf(`=== ${heading} ===`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const end = run.stdout.indexOf('\n=== ', start + 1);
  return run.stdout.slice(start, end === -1 ? undefined : end);
}

describe('npm run demo', () => {
  it('exits 0 and writes nothing to stderr', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('prints what the client saw and what the server logged, without and then with the policy', () => {
    const header = /^Google is faked on (http:\/\/127\.0\.0\.1:\d+); the "calendar" API is a closed port \((http:\/\/127\.0\.0\.1:(\d+))\)\.$/m.exec(run.stdout);
    expect(header, run.stdout).not.toBeNull();
    const [, api, calendar, calendarPort] = header as unknown as [string, string, string, string];
    const reference = /Error executing tool summarize_sheet \(reference ([0-9a-f]{12})\)/.exec(run.stdout)?.[1];
    expect(reference, run.stdout).toBeDefined();
    // Every record line but the crash's ends with its correlation id: six, one per failure, in order.
    const correlations = [...run.stdout.matchAll(/ \(correlation ([0-9a-f]{12})\)$/gm)].map((m) => m[1]!);
    expect(correlations, run.stdout).toHaveLength(6);
    expect(new Set(correlations).size).toBe(6);
    expect(correlations).not.toContain(reference);
    const [deliberateId, forbiddenId, revokedId, quotaId, networkId, notFoundId] = correlations.map((id) => ` (correlation ${id})`);
    const quota =
      "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:123456789'.";
    const holidays = `${calendar}/calendar/v3/calendars/en.usa%23holiday/events`;
    const refused = `failed, reason: connect ECONNREFUSED 127.0.0.1:${calendarPort}`;
    const lines = run.stdout.replace(/\+ \d+ more lines/g, '+ N more lines').split('\n');
    expect(lines).toEqual([
      'mcp-error-policy demo: examples/google-server.ts over stdio, driven by the MCP SDK client.',
      `Google is faked on ${api}; the "calendar" API is a closed port (${calendar}).`,
      'Requests carry a fake API key (?key=AIza...) and an OAuth access token (Authorization: Bearer ya29...).',
      '',
      '=== without mcp-error-policy (the SDK default) ===',
      '',
      '1. deliberate (tool find_sheet): the tool throws a ToolError',
      '   client sees (isError result):',
      '     No sheet named "Q5" in Budget (it has Q1, Q2, Q3, Q4)',
      '   server logged:',
      '     (nothing)',
      '',
      '2. crash (tool summarize_sheet): a bug in the tool, a TypeError',
      '   client sees (isError result):',
      "     Cannot read properties of undefined (reading '0')",
      '   server logged:',
      '     (nothing)',
      '',
      '3. Google 403 (tool share_sheet): the API answers 403 PERMISSION_DENIED',
      '   client sees (isError result):',
      '     The caller does not have permission',
      '   server logged:',
      '     (nothing)',
      '',
      '4. revoked token (tool list_files): the token endpoint answers invalid_grant to the refresh token',
      '   client sees (isError result):',
      '     invalid_grant',
      '   server logged:',
      '     (nothing)',
      '',
      '5. quota (tool read_range): the API answers 429 RESOURCE_EXHAUSTED, retry-after: 30',
      '   client sees (isError result):',
      `     ${quota}`,
      '   server logged:',
      '     (nothing)',
      '',
      '6. network (tool list_holidays): the connection is refused',
      '   client sees (isError result):',
      `     request to ${holidays}?key=${API_KEY} ${refused}   <-- leaks the API key`,
      '   server logged:',
      '     (nothing)',
      '',
      '7. resource not found (resource sheet://nope): the template throws a ResourceNotFoundError',
      '   client sees (JSON-RPC error):',
      '     MCP error -32603: No spreadsheet with id nope',
      '   server logged:',
      '     (nothing)',
      '',
      '=== with mcp-error-policy ===',
      '',
      '1. deliberate (tool find_sheet): the tool throws a ToolError',
      '   client sees (isError result):',
      '     Error executing tool find_sheet: No sheet named "Q5" in Budget (it has Q1, Q2, Q3, Q4)',
      '   server logged:',
      `     [mcp-error-policy] INFO tool "find_sheet" failed: ToolError "No sheet named \\"Q5\\" in Budget (it has Q1, Q2, Q3, Q4)"${deliberateId}`,
      '',
      '2. crash (tool summarize_sheet): a bug in the tool, a TypeError',
      '   client sees (isError result):',
      `     Error executing tool summarize_sheet (reference ${reference})`,
      '   server logged:',
      `     [mcp-error-policy] ERROR tool "summarize_sheet" crashed (reference ${reference}): TypeError "Cannot read properties of undefined (reading '0')"`,
      '       + N more lines: stack trace',
      '',
      '3. Google 403 (tool share_sheet): the API answers 403 PERMISSION_DENIED',
      '   client sees (isError result):',
      `     Error executing tool share_sheet: The caller does not have permission (403 PERMISSION_DENIED from Google API GET /v1/forbidden?key=[REDACTED])`,
      '   server logged:',
      `     [mcp-error-policy] WARN tool "share_sheet" failed (rule google-api-error: GET ${api}/v1/forbidden?key=[REDACTED] -> 403): Error "The caller does not have permission"${forbiddenId}`,
      '       + N more lines: stack trace',
      '',
      '4. revoked token (tool list_files): the token endpoint answers invalid_grant to the refresh token',
      '   client sees (isError result):',
      '     Error executing tool list_files: Google authorization failed (invalid_grant): Token has been expired or revoked.',
      '',
      '     Sign in again: run `sheets-mcp auth login`.',
      '   server logged:',
      `     [mcp-error-policy] WARN tool "list_files" failed (rule google-oauth-refresh: POST ${api}/token/invalid_grant -> 400): Error "invalid_grant"${revokedId}`,
      '       + N more lines: stack trace',
      '',
      '5. quota (tool read_range): the API answers 429 RESOURCE_EXHAUSTED, retry-after: 30',
      '   client sees (isError result):',
      `     Error executing tool read_range: ${quota} (429 RESOURCE_EXHAUSTED RATE_LIMIT_EXCEEDED from Google API GET /v1/quota?key=[REDACTED]). Retry after 30 s.`,
      '   server logged:',
      `     [mcp-error-policy] WARN tool "read_range" failed (rule google-quota: GET ${api}/v1/quota?key=[REDACTED] -> 429): Error "${quota}"${quotaId}`,
      '       + N more lines: stack trace',
      '',
      '6. network (tool list_holidays): the connection is refused',
      '   client sees (isError result):',
      '     Error executing tool list_holidays: Network error while calling the Google API (ECONNREFUSED).',
      '   server logged:',
      `     [mcp-error-policy] WARN tool "list_holidays" failed (rule google-network): Error "request to ${holidays}?key=[REDACTED] ${refused}"${networkId}`,
      '       + N more lines: stack trace and 1 cause',
      '',
      '7. resource not found (resource sheet://nope): the template throws a ResourceNotFoundError',
      '   client sees (JSON-RPC error):',
      '     MCP error -32002: No spreadsheet with id nope',
      '   server logged:',
      `     [mcp-error-policy] INFO resource "sheet://nope" failed: ResourceNotFoundError "No spreadsheet with id nope"${notFoundId}`,
      '',
      '=== summary ===',
      'without mcp-error-policy: 0 of 7 failures logged; secrets shown: the API key.',
      'with mcp-error-policy:    7 of 7 failures logged; secrets shown: none.',
      'Secrets the fake Google received (so their absence above is real): key=AIza..., Bearer ya29..., refresh_token=1//..., client_secret=GOCSPX-...',
      '',
    ]);
  });

  it('the "with" section holds no credential, the "without" section shows the API key once', () => {
    const withPolicy = section('with mcp-error-policy');
    for (const shape of [/AIza[0-9A-Za-z_-]{20,}/, /ya29\.[0-9A-Za-z]/, /1\/\/0[0-9A-Za-z]/, /GOCSPX-[0-9A-Za-z]/]) {
      expect(withPolicy).not.toMatch(shape);
    }
    expect(withPolicy).not.toContain('<-- leaks');
    expect(section('without mcp-error-policy (the SDK default)').split(API_KEY)).toHaveLength(2);
  });

  // The README shows a trimmed copy of this output ("[...]" marks what was cut): each non-blank line it keeps must be a
  // line the demo prints, in the same order. (Skipped until the README has its "## Demo" section.)
  const block = readmeDemoBlock();
  it.skipIf(block === undefined)('is what the README shows, trimmed', () => {
    const output = normalized(run.stdout);
    const shown = normalized(block ?? '').filter((line) => line !== '[...]' && line !== '');
    let at = 0;
    for (const line of shown) {
      const found = output.indexOf(line, at);
      expect(found, `README line not in the demo output (in order): ${JSON.stringify(line)}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
    expect(shown.length).toBeGreaterThanOrEqual(6);
  });
});

/**
 * The demo: the same Google-style MCP server (examples/google-server.ts), run twice over stdio against a fake Google
 * API on 127.0.0.1 (examples/support/fake-google-api.ts): first without mcp-error-policy (the SDK's default), then
 * with it. For each failure it prints what the MCP client saw beside what the server logged on stderr. No traffic
 * leaves 127.0.0.1.
 *
 * Install: npm install mcp-error-policy @modelcontextprotocol/sdk zod gaxios google-auth-library tsx
 * Try: npx tsx examples/demo.ts (in a clone: npm run demo). It ends with
 *   stdout → without mcp-error-policy: 0 of 7 failures logged; secrets shown: the API key.
 *   stdout → with mcp-error-policy:    7 of 7 failures logged; secrets shown: none.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath } from 'node:url';
import { startFakeGoogleApi, unreachableUrl } from './support/fake-google-api.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const serverFile = fileURLToPath(new URL('./google-server.ts', import.meta.url));

/** One failure to provoke: a tool call or a resource read. */
interface Scenario {
  readonly name: string;
  readonly title: string;
  readonly tool?: string;
  readonly arguments?: Record<string, unknown>;
  readonly resource?: string;
}

const SCENARIOS: readonly Scenario[] = [
  { name: 'deliberate', title: 'the tool throws a ToolError', tool: 'find_sheet', arguments: { name: 'Q5' } },
  { name: 'crash', title: 'a bug in the tool, a TypeError', tool: 'summarize_sheet' },
  { name: 'Google 403', title: 'the API answers 403 PERMISSION_DENIED', tool: 'share_sheet' },
  { name: 'revoked token', title: 'the token endpoint answers invalid_grant to the refresh token', tool: 'list_files' },
  { name: 'quota', title: 'the API answers 429 RESOURCE_EXHAUSTED, retry-after: 30', tool: 'read_range' },
  { name: 'network', title: 'the connection is refused', tool: 'list_holidays' },
  { name: 'resource not found', title: 'the template throws a ResourceNotFoundError', resource: 'sheet://nope' },
];

/** Credential shapes, to point at a leak wherever one shows up. */
const SECRET_SHAPES: readonly (readonly [RegExp, string])[] = [
  [/AIza[0-9A-Za-z_-]{20,}/, 'the API key'],
  [/ya29\.[0-9A-Za-z._-]+/, 'the access token'],
  [/1\/\/0[0-9A-Za-z._-]{6,}/, 'the refresh token'],
  [/GOCSPX-[0-9A-Za-z_-]+/, 'the client secret'],
];

function leaksIn(text: string): string[] {
  return SECRET_SHAPES.filter(([shape]) => shape.test(text)).map(([, what]) => what);
}

const print = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

/** Prints `text` indented, one output line per line of text, marking lines that hold a secret. */
function printBlock(text: string, indent: string): void {
  for (const line of text.split('\n')) {
    const leaks = leaksIn(line);
    print(`${indent}${line}${leaks.length === 0 ? '' : `   <-- leaks ${leaks.join(' and ')}`}`.trimEnd());
  }
}

/** What the client saw: a tool result's text, or the JSON-RPC error a resource read was answered with. */
async function callScenario(client: Client, scenario: Scenario): Promise<{ label: string; text: string }> {
  if (scenario.resource !== undefined) {
    try {
      const result = await client.readResource({ uri: scenario.resource });
      return { label: 'result', text: JSON.stringify(result) };
    } catch (error) {
      return { label: 'JSON-RPC error', text: error instanceof Error ? error.message : String(error) };
    }
  }
  const result = await client.callTool({ name: scenario.tool ?? '', arguments: scenario.arguments ?? {} });
  const content = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
  const text = content.map((part) => (part.type === 'text' ? (part.text ?? '') : `[${part.type}]`)).join('\n');
  return { label: result.isError === true ? 'isError result' : 'result', text };
}

/**
 * The server's stderr, shortened: each record's first line as it is, then how many stack and cause lines follow it
 * (the policy writes a record as one line, plus the stack for warn and error records).
 */
function summarizeLog(text: string): string[] {
  const lines: string[] = [];
  let frames = 0;
  let causes = 0;
  const flush = (): void => {
    if (frames + causes > 0) {
      const what = causes === 0 ? 'stack trace' : `stack trace and ${causes} ${causes === 1 ? 'cause' : 'causes'}`;
      lines.push(`  + ${frames + causes} more lines: ${what}`);
    }
    frames = 0;
    causes = 0;
  };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (/^\s+at /.test(line) || line.startsWith('    (no stack')) frames += 1;
    else if (line.startsWith('  caused by: ')) causes += 1;
    else {
      flush();
      lines.push(line);
    }
  }
  flush();
  return lines;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const RECORD = /^\[mcp-error-policy\] /gm;

/**
 * Runs every scenario against one server process; returns the secrets seen and how many records were logged.
 * `awaitRecords`: wait (up to 5 s) for each failure's record, rather than only a moment.
 */
async function run(heading: string, env: Record<string, string>, awaitRecords: boolean): Promise<{ leaks: Set<string>; logged: number }> {
  print(`=== ${heading} ===`);
  const transport = new StdioClientTransport({
    // the server runs as this demo does: under tsx (its loader is in this process's execArgv)
    command: process.execPath,
    args: [...process.execArgv, serverFile],
    cwd: root,
    env: { NODE_ENV: 'production', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'mcp-error-policy-demo', version: '1.0.0' });
  await client.connect(transport);
  const leaks = new Set<string>();
  let logged = 0;
  try {
    for (const [i, scenario] of SCENARIOS.entries()) {
      const before = stderr.length;
      const what = scenario.resource === undefined ? `tool ${scenario.tool ?? ''}` : `resource ${scenario.resource}`;
      print();
      print(`${i + 1}. ${scenario.name} (${what}): ${scenario.title}`);
      const seen = await callScenario(client, scenario);
      // stderr and stdout are separate pipes: the log may arrive after the answer. Wait for it, then for silence.
      const deadline = awaitRecords ? 5000 : 100;
      for (let waited = 0, last = -1; waited < 5000; waited += 25) {
        if (stderr.length === last && (waited >= deadline || stderr.length > before)) break;
        last = stderr.length;
        await sleep(25);
      }
      print(`   client sees (${seen.label}):`);
      printBlock(seen.text, '     ');
      for (const leak of leaksIn(seen.text)) leaks.add(leak);
      const log = stderr.slice(before);
      print('   server logged:');
      if (log.trim() === '') {
        print('     (nothing)');
      } else {
        logged += (log.match(RECORD) ?? []).length;
        for (const line of summarizeLog(log)) printBlock(line, '     ');
        for (const leak of leaksIn(log)) leaks.add(leak);
      }
    }
  } finally {
    await client.close();
  }
  print();
  return { leaks, logged };
}

const fake = await startFakeGoogleApi();
const unreachable = await unreachableUrl();
try {
  const env = { GOOGLE_API_BASE: fake.origin, CALENDAR_API_BASE: unreachable };
  print('mcp-error-policy demo: examples/google-server.ts over stdio, driven by the MCP SDK client.');
  print(`Google is faked on ${fake.origin}; the "calendar" API is a closed port (${unreachable}).`);
  print('Requests carry a fake API key (?key=AIza...) and an OAuth access token (Authorization: Bearer ya29...).');
  print();
  const without = await run('without mcp-error-policy (the SDK default)', { ...env, MCP_ERROR_POLICY: 'off' }, false);
  const withPolicy = await run('with mcp-error-policy', { ...env, MCP_ERROR_POLICY: 'on' }, true);
  print('=== summary ===');
  const shown = (leaks: Set<string>): string => (leaks.size === 0 ? 'none' : [...leaks].join(', '));
  print(`without mcp-error-policy: ${without.logged} of ${SCENARIOS.length} failures logged; secrets shown: ${shown(without.leaks)}.`);
  print(`with mcp-error-policy:    ${withPolicy.logged} of ${SCENARIOS.length} failures logged; secrets shown: ${shown(withPolicy.leaks)}.`);
  // The fake saw the secrets: they were really sent, so their absence above means something.
  const sent = ['key=AIza', 'Bearer ya29', 'refresh_token=1//', 'client_secret=GOCSPX-'].filter((needle) => fake.received(needle));
  print(`Secrets the fake Google received (so their absence above is real): ${sent.map((needle) => `${needle}...`).join(', ')}`);
  // With the policy, every failure is logged once and no secret is shown: anything else is a bug worth a red exit.
  process.exitCode = withPolicy.leaks.size > 0 || withPolicy.logged !== SCENARIOS.length ? 1 : 0;
} finally {
  await fake.close();
}

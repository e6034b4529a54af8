/**
 * Cloudflare's `McpAgent` (`agents` 0.32, feature-frozen upstream): a Durable Object whose `server` is an McpServer of
 * SDK v1. The Worker (servers/mcp-agent/) runs under `wrangler dev` on workerd, on 127.0.0.1 (wrangler needs Node 22:
 * `npx -y node@22`), from a scratch install beside the packed package (scripts/frameworks.sh); the real v1 client
 * drives it over Streamable HTTP. Two agents, one for each place the one line can go: where the `server` field is made
 * (`FieldAgent`), and in `init()` after the registrations (`InitAgent`). The records are the `RECORD <json>` lines the
 * Worker's logger writes through console.log, which wrangler prints on its stdout. McpAgent has no error class of its
 * own for "show the user this".
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe } from 'vitest';
import { itAnswersTheThreeCalls, recordLines, scratchOf, type RecordLines } from './scratch.js';

const { dir, skip } = scratchOf('mcp-agent', 'wrangler');
const READY = /Ready on (http:\/\/127\.0\.0\.1:\d+)/;

/** `wrangler dev` on port 0 of 127.0.0.1, in its own process group; its origin once it says it is ready. */
async function startWrangler(): Promise<{ wrangler: ChildProcess; origin: string; output: () => string }> {
  const args = ['-y', 'node@22', join(dir, 'node_modules/wrangler/bin/wrangler.js'), 'dev', '--ip', '127.0.0.1', '--port', '0'];
  const wrangler = spawn('npx', args, {
    cwd: dir,
    env: { ...process.env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0', WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', XDG_CONFIG_HOME: join(dir, '.config') },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  wrangler.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  wrangler.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const until = Date.now() + 90_000;
  while (!READY.test(stdout)) {
    if (Date.now() > until || wrangler.exitCode !== null) {
      stop(wrangler);
      throw new Error(`wrangler did not start:\n${stdout}\n${stderr}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  return { wrangler, origin: READY.exec(stdout)![1]!, output: () => stdout };
}

/** Ends wrangler and the workerd it started, by the process group made for it here. */
function stop(wrangler: ChildProcess | undefined): void {
  if (wrangler?.pid === undefined) return;
  try {
    process.kill(-wrangler.pid, 'SIGTERM');
  } catch {
    // the group has ended already
  }
}

describe.skipIf(skip)('McpAgent (Durable Objects, wrangler dev) with applyErrorPolicy on its server', () => {
  let wrangler: ChildProcess | undefined;
  let origin: string;
  let log: RecordLines;
  beforeAll(async () => {
    const started = await startWrangler();
    wrangler = started.wrangler;
    origin = started.origin;
    log = recordLines(started.output);
  }, 120_000);
  afterAll(() => stop(wrangler));

  describe.each([
    ['/field', 'in the server field'],
    ['/init', 'in init(), after the registrations'],
  ])('%s: the policy applied %s', (path) => {
    let client: Client;
    beforeAll(async () => {
      client = new Client({ name: 'test-client', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(path, origin)));
    }, 30_000);
    afterAll(async () => {
      await client.close();
    });

    itAnswersTheThreeCalls(() => ({ client, ...log }), 'fine');
  });
});

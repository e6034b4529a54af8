/**
 * Runs the compatibility table through the real SDK v1 client over each transport: InMemoryTransport, stdio (a
 * subprocess running test/compat/server.ts), and Streamable HTTP on 127.0.0.1 (stateful and stateless, the SDK's
 * StreamableHTTPServerTransport behind a plain node:http server).
 *
 * For every call it returns what the client got (normalised: reference ids written `<ref>`) and the log records that
 * call produced: from a function logger in-process, and from the subprocess's stderr for stdio (the default logger's
 * lines, each followed by its whole record: see server.ts).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { McpError, UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import type { LogRecord } from '../../src/index.js';
import { inProcessCall, observe, type RunningTransport } from './observe.js';
import { captureRecords, closedPortUrl, compatSdk, makePolicies, registerScenarios, type CompatSdk, type Install, type ScenarioContext } from './scenarios.js';

export type { Observed, ObservedRecord, RunningTransport } from './observe.js';

/** SDK v1 as the table sees it. */
export const sdkV1: CompatSdk = compatSdk('v1', 'compat-server', { McpServer, ResourceTemplate, ProtocolError: McpError, UrlElicitationRequiredError });

/** The per-process inputs of the table. */
async function makeContext(logger?: (record: LogRecord) => void): Promise<ScenarioContext> {
  return { ...makePolicies(logger), closedUrl: await closedPortUrl(), sdk: sdkV1 };
}

function newClient(): Client {
  return new Client({ name: 'compat-client', version: '1.0.0' });
}

/** In-process server and client over InMemoryTransport. */
export async function startMemory(install: Install): Promise<RunningTransport> {
  const { records, logger } = captureRecords();
  const context = await makeContext(logger);
  const server = sdkV1.newServer();
  registerScenarios(server, context, install);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await (server as unknown as McpServer).connect(serverSide);
  const client = newClient();
  await client.connect(clientSide);
  return {
    id: `memory (${install})`,
    call: inProcessCall(client, records),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

const SERVER_FILE = fileURLToPath(new URL('./server.ts', import.meta.url));
const REDIRECT_FILE = fileURLToPath(new URL('./redirect.mjs', import.meta.url));
const MARK = '[compat-mark] ';
/** What test/compat/server.ts writes before each whole record, after the default logger's lines. */
export const RECORD_MARK = '[compat-record] ';

/** test/compat/server.ts as a stdio subprocess (`node --import tsx`), logging with the default stderr logger. */
export async function startStdio(install: Install): Promise<RunningTransport> {
  const deps = process.env['COMPAT_DEPS'];
  const redirect = deps === undefined || deps === '' ? [] : ['--import', REDIRECT_FILE];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', ...redirect, SERVER_FILE],
    cwd: process.cwd(),
    env: { ...(process.env as Record<string, string>), NODE_ENV: 'production', COMPAT_INSTALL: install },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = newClient();
  await client.connect(transport);
  let consumed = 0;
  let marks = 0;

  /** Asks the server to write a mark on stderr and waits for it: every record written before it has arrived. */
  async function untilMark(): Promise<string> {
    marks += 1;
    const mark = `${MARK}${marks}\n`;
    await client.callTool({ name: 'compat_mark', arguments: { mark: String(marks) } });
    const until = Date.now() + 10_000;
    while (!stderr.includes(mark, consumed)) {
      if (Date.now() > until) throw new Error(`no mark ${marks} on stderr; it is:\n${stderr.slice(consumed)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const end = stderr.indexOf(mark, consumed);
    const chunk = stderr.slice(consumed, end);
    consumed = end + mark.length;
    return chunk;
  }

  await untilMark();
  return {
    id: `stdio (${install})`,
    call: async (scenario) => {
      const observed = await observe(client, scenario);
      const chunk = await untilMark();
      const lines = chunk.split('\n');
      const headlines = lines.filter((line) => line.startsWith('[mcp-error-policy] '));
      const full = lines.filter((line) => line.startsWith(RECORD_MARK)).map((line) => JSON.parse(line.slice(RECORD_MARK.length)) as LogRecord);
      if (full.length !== headlines.length) throw new Error(`${headlines.length} stderr records but ${full.length} whole ones:\n${chunk}`);
      return { observed, records: headlines.map((line, i) => ({ line, record: full[i]! })) };
    },
    close: () => client.close(),
  };
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: URL; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`http://127.0.0.1:${port}/mcp`), server };
}

function closeHttp(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/**
 * Streamable HTTP on 127.0.0.1. Stateful: one server and one transport with session ids. Stateless: a new server and
 * transport for each request, as the SDK documents for stateless servers.
 */
export async function startHttp(mode: 'stateful' | 'stateless', install: Install): Promise<RunningTransport> {
  const { records, logger } = captureRecords();
  const context = await makeContext(logger);
  let handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  let closeMcp: () => Promise<void> = async () => {};
  if (mode === 'stateful') {
    const server = sdkV1.newServer();
    registerScenarios(server, context, install);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await (server as unknown as McpServer).connect(transport);
    handle = (req, res) => transport.handleRequest(req, res);
    closeMcp = () => server.close();
  } else {
    handle = async (req, res) => {
      const server = sdkV1.newServer();
      registerScenarios(server, context, install);
      // No sessionIdGenerator: stateless.
      const transport = new StreamableHTTPServerTransport({});
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await (server as unknown as McpServer).connect(transport);
      await transport.handleRequest(req, res);
    };
  }
  const { url, server: http } = await listen((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(url));
  return {
    id: `http ${mode} (${install})`,
    call: inProcessCall(client, records),
    close: async () => {
      await client.close();
      await closeMcp();
      await closeHttp(http);
    },
  };
}

/**
 * The server the client tests call: a real McpServer (SDK v1 or v2) under applyErrorPolicy, whose six tools fail the
 * ways issue 34 lists, against a fake HTTP API on 127.0.0.1 (the real axios talking to it) and a refused port:
 * - `search` (read-only): the API answers 429 with `Retry-After: 2` once, then the results;
 * - `charge` (no hints: it has side effects): the API answers 503;
 * - `status` (no hints): a connection refused, so the request never reached the API;
 * - `report` (read-only): a crash;
 * - `lookup` (read-only): a `ToolError`;
 * - `profile` (read-only): the API answers 401, a sign-in (`reauthorize: { text, url }`).
 */
import { createServer } from 'node:http';
import axios from 'axios';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { applyErrorPolicy, coreRules, createErrorPolicy, ToolError, type LogRecord, type Outcome } from '../../src/index.js';
import { httpRules } from '../../src/http/index.js';
import { closedPort, listenOn, type Listening } from '../support/loopback.js';

export const SIGN_IN = { text: 'Sign in to Acme again.', url: 'https://acme.example/login?next=%2Fprofile' };
export const TOOL_NAMES = ['search', 'charge', 'status', 'report', 'lookup', 'profile'] as const;

/** The fake API: what it answers per path, and the requests it got (`GET /search`, ...). */
export interface FakeApi extends Listening {
  readonly requests: string[];
}

export async function startFakeApi(): Promise<FakeApi> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const line = `${request.method ?? ''} ${request.url ?? ''}`;
    requests.push(line);
    if (line === 'GET /search') {
      const first = requests.filter((seen) => seen === line).length === 1;
      response.writeHead(first ? 429 : 200, first ? { 'retry-after': '2' } : { 'content-type': 'application/json' });
      response.end(first ? 'slow down' : '{"hits":3}');
    } else {
      response.writeHead(line === 'GET /profile' ? 401 : 503);
      response.end('no');
    }
  });
  const listening = await listenOn(server, 'http', () => server.closeAllConnections());
  return Object.assign(listening, { requests });
}

export type AnyServer = McpServer;

/** A server of `sdk` with the six tools, under a policy that writes into `records` and `outcomes`. */
export async function newServer(sdk: 'v1' | 'v2', api: FakeApi, records: LogRecord[], outcomes: Outcome[]): Promise<AnyServer> {
  const refused = await closedPort();
  const server = sdk === 'v1' ? new McpServer({ name: 'acme', version: '1.0.0' }) : (new McpServerV2({ name: 'acme', version: '1.0.0' }) as unknown as McpServer);
  applyErrorPolicy(
    server,
    createErrorPolicy({
      rules: [...httpRules, ...coreRules],
      reauthorize: SIGN_IN,
      logger: (record) => records.push(record),
      onOutcome: (outcome) => outcomes.push(outcome),
    }),
  );
  const readOnly = { annotations: { readOnlyHint: true } };
  const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
  server.registerTool('search', readOnly, async () => text(JSON.stringify((await axios.get(`${api.origin}/search`)).data)));
  server.registerTool('charge', { annotations: { destructiveHint: true } }, async () => text(String((await axios.post(`${api.origin}/charge`, { cents: 100 })).status)));
  server.registerTool('status', {}, async () => text(String((await axios.get(`http://127.0.0.1:${refused}/status`)).status)));
  server.registerTool('report', readOnly, async () => {
    throw new Error('CANARY the report cache at /srv/acme/cache broke');
  });
  server.registerTool('lookup', readOnly, async () => {
    throw new ToolError('No order 42');
  });
  server.registerTool('profile', readOnly, async () => text(String((await axios.get(`${api.origin}/profile`)).status)));
  return server;
}

/**
 * A web-standard fetch handler (`(request: Request) => Promise<Response>`, what mcp-handler, Hono and agents give)
 * served over node:http on 127.0.0.1, so that a real client reaches it over Streamable HTTP; and the suite the
 * frameworks that hand out an McpServer share.
 */
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { LogRecord } from '../../src/index.js';
import { listenOnLoopback, type Listening } from '../support/loopback.js';
import { expectCrash, expectShown, TOOL_ERROR } from './support.js';

/** Serves `handler` on 127.0.0.1; request bodies are streamed through, responses too. */
export function serveFetch(handler: (request: Request) => Promise<Response>): Promise<Listening> {
  const server = createServer((req, res) => {
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
    const body = req.method === 'POST' ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined;
    const init = { method: req.method ?? 'GET', headers, ...(body === undefined ? {} : { body, duplex: 'half' }) } as RequestInit;
    void handler(new Request(`http://127.0.0.1${req.url ?? '/'}`, init)).then(
      (response) => {
        const out: Record<string, string> = {};
        response.headers.forEach((value, key) => {
          out[key] = value;
        });
        res.writeHead(response.status, out);
        if (response.body === null) res.end();
        else Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>).pipe(res);
      },
      () => {
        res.writeHead(500).end();
      },
    );
  });
  return listenOnLoopback(server);
}

/** A connected MCP client of either SDK, as the framework suites use it. */
interface SuiteClient {
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * The suite every framework that hands out an McpServer gets: `handler` (with tools `crash` and `tool_error` under the
 * policy whose records are `records`) served on 127.0.0.1, `connect` a real client to its `/mcp` URL, a crash masked
 * and a ToolError shown, each with one exact record.
 */
export function describeOverHttp(
  title: string,
  handler: (request: Request) => Promise<Response>,
  connect: (url: URL) => Promise<SuiteClient>,
  records: LogRecord[],
  close: () => Promise<void> = async () => undefined,
): void {
  let listening: Listening;
  let client: SuiteClient;
  beforeAll(async () => {
    listening = await serveFetch(handler);
    client = await connect(new URL(`${listening.origin}/mcp`));
  });
  afterAll(async () => {
    await client.close();
    await close();
    await listening.close();
  });

  describe(title, () => {
    it('masks a crash with a reference (one error record with its stack)', async () => {
      records.length = 0;
      expectCrash(await client.callTool({ name: 'crash', arguments: {} }), records, 'crash');
    });

    it('shows a ToolError (one info record)', async () => {
      records.length = 0;
      expectShown(await client.callTool({ name: 'tool_error', arguments: {} }), records, 'tool_error', { name: 'ToolError', message: TOOL_ERROR, rule: 'deliberate' });
    });
  });
}

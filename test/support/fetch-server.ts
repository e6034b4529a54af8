/**
 * A web-standard fetch handler (`(request: Request) => Promise<Response>`: SDK v2's web-standard transport, and what
 * mcp-handler, Hono and agents give) served over node:http on 127.0.0.1, so that a real client reaches it over
 * Streamable HTTP.
 */
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { listenOnLoopback, type Listening } from './loopback.js';

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

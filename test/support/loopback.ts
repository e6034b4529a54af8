/** Test support: real network failures against servers on 127.0.0.1 only. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createConnection, type AddressInfo, type Server as NetServer } from 'node:net';

/**
 * Ports below 1024 that nothing listens on in a test run. Every server the tests start listens on port 0, which the OS
 * hands out from its ephemeral range (32768 and up), so none of them can take one of these between the check below and
 * the connection a test makes: a refused connection stays refused, whatever runs beside it. None of them is on fetch's
 * list of blocked ports (1, 7, 9, 13, ... answer `bad port` without connecting).
 */
const UNUSED_PORTS = [2, 3, 4, 5, 6, 8, 10, 12];

/** Whether a connection to 127.0.0.1:`port` is refused now. */
function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** A port on 127.0.0.1 where a connection is refused (ECONNREFUSED): the first of {@link UNUSED_PORTS} that refuses. */
export async function closedPort(): Promise<number> {
  for (const port of UNUSED_PORTS) {
    if (await refuses(port)) return port;
  }
  throw new Error(`every one of ports ${UNUSED_PORTS.join(', ')} on 127.0.0.1 accepts connections: none is closed`);
}

/** A server listening on 127.0.0.1. */
export interface Listening {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  /** Ends every open connection (a test's hanging request included), then the server. */
  close(): Promise<void>;
}

/**
 * Starts `server` (HTTP, or HTTPS for `scheme: 'https'`) on 127.0.0.1, on a port the OS hands out; its `close` calls
 * `endConnections` before closing the server.
 */
export async function listenOn(server: NetServer, scheme: 'http' | 'https', endConnections: () => void): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${scheme}://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        endConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts the HTTP `server` on 127.0.0.1, on a port the OS hands out. */
export function listenOnLoopback(server: Server): Promise<Listening> {
  return listenOn(server, 'http', () => server.closeAllConnections());
}

/** Starts an HTTP server on 127.0.0.1; returns its base URL and a close function. */
export async function startHttp(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; close: () => Promise<void> }> {
  const { origin, close } = await listenOnLoopback(createServer(handler));
  return { url: origin, close };
}

/** Awaits `promise` and returns what it rejected with (fails when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** The whole body of a request a fake server received, as text (whatever arrived, should the request fail). */
export function readRequestBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

// The local ends of the network failures, on 127.0.0.1 (Node, Bun and Deno run it as it is): a port nothing listens
// on, and a server that resets each connection once the request arrives.
import net from 'node:net';

/** A port on 127.0.0.1 that was free a moment ago and is closed now. */
export async function closedPort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A server on 127.0.0.1 that resets every connection (TCP RST) when the request arrives. */
export async function resettingServer() {
  const server = net.createServer((socket) => {
    socket.on('data', () => (typeof socket.resetAndDestroy === 'function' ? socket.resetAndDestroy() : socket.destroy()));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: server.address().port, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** The URLs whose fetch fails, each with the secret key in its query. */
export function failingUrls(refusedPort, resetPort, path, unknownHost) {
  return {
    refused: `http://127.0.0.1:${refusedPort}${path}`,
    dns: `http://${unknownHost}${path}`,
    reset: `http://127.0.0.1:${resetPort}${path}`,
  };
}

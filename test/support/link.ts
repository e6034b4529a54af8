/**
 * Connects a server and a client of the same SDK (v1 `@modelcontextprotocol/sdk`, v2 `@modelcontextprotocol/server` and
 * `client`) over a linked pair of in-memory transports. Imports no SDK, so that tests of either major version share it
 * (the compatibility matrix runs v2 tests where the v1 SDK is not installed).
 */

/** The members of a v1 or v2 McpServer that connecting needs. */
export interface LinkableServer {
  connect(transport: never): Promise<void>;
  close(): Promise<void>;
}

/** The members of a v1 or v2 Client that connecting needs. */
export interface LinkableClient {
  connect(transport: never): Promise<void>;
  close(): Promise<void>;
  fallbackNotificationHandler?: ((notification: { method: string }) => Promise<void>) | undefined;
}

/** A server and a client talking to it; `notifications` collects the method of every notification the client gets. */
export interface Linked<S, C> {
  readonly server: S;
  readonly client: C;
  readonly notifications: string[];
  close(): Promise<void>;
}

/** Connects `server` (registrations done or still to come) to `client` over `pair` (`InMemoryTransport.createLinkedPair()`). */
export async function link<S extends LinkableServer, C extends LinkableClient>(server: S, client: C, pair: readonly [serverSide: unknown, clientSide: unknown]): Promise<Linked<S, C>> {
  const notifications: string[] = [];
  client.fallbackNotificationHandler = async (notification) => {
    notifications.push(notification.method);
  };
  await server.connect(pair[0] as never);
  await client.connect(pair[1] as never);
  return {
    server,
    client,
    notifications,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** Records every message the server side of a transport sends, as JSON text. */
export function tap<T extends { send(message: unknown, options?: unknown): Promise<void> }>(serverSide: T, wire: string[]): T {
  const send = serverSide.send.bind(serverSide);
  serverSide.send = async (message, options) => {
    wire.push(JSON.stringify(message));
    return send(message, options);
  };
  return serverSide;
}

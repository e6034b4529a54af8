/** Test support: start an example server as a stdio subprocess (through tsx) and connect the real SDK Client. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll } from 'vitest';

/** A running example and a connected client. */
export interface RunningExample {
  readonly client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Waits (up to 10 s) until the stderr text satisfies `done`. */
  waitForStderr(done: (text: string) => boolean): Promise<void>;
  close(): Promise<void>;
  /** Closes the client, waits until the server's stderr ended, and returns all of it. */
  closeAndReadStderr(): Promise<string>;
}

/** Starts `file` with `node --import tsx`, stderr piped, and connects a client (made with `clientOptions`). */
export async function startExample(file: string, env: Record<string, string> = {}, clientOptions?: ConstructorParameters<typeof Client>[1]): Promise<RunningExample> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', file],
    cwd: process.cwd(),
    env: { ...(process.env as Record<string, string>), NODE_ENV: 'production', ...env },
    stderr: 'pipe',
  });
  let text = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const ended = new Promise((resolve) => transport.stderr?.on('end', resolve));
  const client = new Client({ name: 'example-test', version: '1.0.0' }, clientOptions);
  try {
    await client.connect(transport);
  } catch (error) {
    // A server that exits before it answers leaves only "Connection closed": say what it wrote before it went.
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 1000))]);
    throw new Error(`${file} did not start (${String(error)}); its stderr:\n${text}`, { cause: error });
  }
  return {
    client,
    stderr: () => text,
    waitForStderr: async (done) => {
      const until = Date.now() + 10_000;
      while (!done(text)) {
        if (Date.now() > until) throw new Error(`stderr never matched; it is: ${text}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () => client.close(),
    closeAndReadStderr: async () => {
      await client.close();
      await ended;
      return text;
    },
  };
}

/**
 * The example `file`, started before the tests of the calling file and closed after them (vitest beforeAll/afterAll):
 * the returned object stands for the running example from then on.
 */
export function exampleForThisFile(file: string, env: Record<string, string> = {}): RunningExample {
  let running: RunningExample | undefined;
  const started = (): RunningExample => {
    if (running === undefined) throw new Error(`${file} is not running (used outside a test?)`);
    return running;
  };
  beforeAll(async () => {
    running = await startExample(file, env);
  });
  afterAll(async () => {
    await running?.close();
  });
  return {
    get client() {
      return started().client;
    },
    stderr: () => started().stderr(),
    waitForStderr: (done) => started().waitForStderr(done),
    close: () => started().close(),
    closeAndReadStderr: () => started().closeAndReadStderr(),
  };
}

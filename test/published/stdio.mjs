// Runs a published server's entry over stdio with the real SDK Client, for test/published/drive.mjs and apis.mjs.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/**
 * Starts `node <args>` in `cwd` with only `env` (and PATH), connects a client, runs `drive(client)`, closes, and
 * returns what drive returned and all the server wrote to stderr.
 */
export async function overStdio({ args, env, cwd }, drive) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: { PATH: process.env.PATH ?? '', ...env },
    cwd,
    stderr: 'pipe',
  });
  let stderr = '';
  const stderrStream = transport.stderr;
  stderrStream.setEncoding('utf8');
  stderrStream.on('data', (chunk) => (stderr += chunk));
  const ended = new Promise((resolve) => stderrStream.on('end', resolve));
  const client = new Client({ name: 'published-driver', version: '1.0.0' });
  await client.connect(transport);
  const value = await drive(client);
  await client.close();
  await ended;
  return { value, stderr };
}

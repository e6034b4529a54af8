/**
 * The suite the frameworks that hand out an McpServer share, each served by {@link serveFetch} (a web-standard fetch
 * handler over node:http on 127.0.0.1) and reached by a real client over Streamable HTTP.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { LogRecord } from '../../src/index.js';
import { serveFetch } from '../support/fetch-server.js';
import type { Listening } from '../support/loopback.js';
import { expectCrash, expectShown, TOOL_ERROR } from './support.js';

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

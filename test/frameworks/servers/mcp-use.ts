/**
 * An mcp-use MCPServer (npm `mcp-use` 2.x) under the policy, as docs/frameworks.md shows it: `applyErrorPolicy` right
 * after `new MCPServer(...)`, then tools, resources and prompts as mcp-use registers them, then `listen()` on
 * 127.0.0.1 (an ephemeral port, printed as `LISTENING <url>` on stdout). With POLICY=off the same server runs without
 * the policy (the tests compare its successes byte for byte). Each record is a `RECORD <json>` line on stderr, each
 * access-log outcome an `OUTCOME <json>` line.
 * FAKE_APIS and FAKE_GOOGLE are the origins of the local fakes the axios and gaxios tools call. Runs from a scratch
 * install on Node 22 (scripts/frameworks.sh: mcp-use wants Node >= 22.22).
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import axios from 'axios';
import { request } from 'gaxios';
import { error, MCPServer } from 'mcp-use';
import { z } from 'zod';
import { applyErrorPolicy, coreRules, createErrorPolicy, ResourceNotFoundError, ToolError, type LogRecord } from '../../../src/index.js';
import { googleRules } from '../../../src/google/index.js';

const policy = createErrorPolicy({
  rules: [...googleRules, ...coreRules],
  logger: (record: LogRecord) => process.stderr.write(`RECORD ${JSON.stringify(record)}\n`),
  onOutcome: ({ kind, name, status }) => process.stderr.write(`OUTCOME ${JSON.stringify({ kind, name, status })}\n`),
});
// the line, as docs/frameworks.md shows it (its result is the MCPServer, typed as mcp-use types it)
const server =
  process.env['POLICY'] === 'off' ? new MCPServer({ name: 'sheets', version: '1.0.0' }) : applyErrorPolicy(new MCPServer({ name: 'sheets', version: '1.0.0' }), policy);

const sheets: Record<string, { title: string } | undefined> = {};

server.tool({ name: 'crash', description: 'a bug' }, async () => {
  // a real TypeError: `Cannot read properties of undefined (reading 'title')`
  return { content: [{ type: 'text', text: sheets['q3']!.title }] };
});
server.tool({ name: 'tool_error', description: 'says no' }, async () => {
  throw new ToolError('Sheet name must not be empty');
});
server.tool({ name: 'own_error', description: 'mcp-use\'s error() result' }, async () => error('Sheet "q3" is locked'));
server.tool({ name: 'protocol_error', description: 'a ProtocolError of the SDK mcp-use serves with' }, async () => {
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Unknown sheet "q3"');
});
server.tool({ name: 'rate_limited', description: 'an HTTP 429 from axios' }, async () => {
  await axios.get(`${process.env['FAKE_APIS']}/api/items/limited`);
  return { content: [{ type: 'text', text: 'unreachable' }] };
});
server.tool({ name: 'google_error', description: 'a Google API error from gaxios' }, async () => {
  await request({ url: `${process.env['FAKE_GOOGLE']}/v1/forbidden`, retry: false });
  return { content: [{ type: 'text', text: 'unreachable' }] };
});
server.tool(
  { name: 'get_sheet', description: 'reads a sheet', inputSchema: z.object({ name: z.string() }) },
  async ({ name }) => ({ content: [{ type: 'text', text: `Sheet ${name}: 3 rows` }], structuredContent: { name, rows: 3 } }),
);

server.resource({ name: 'config', uri: 'config://app' }, async () => {
  throw new TypeError(`Cannot read properties of undefined (reading 'host')`);
});
server.resource({ name: 'about', uri: 'about://app', mimeType: 'text/plain' }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'sheets 1.0.0' }],
}));
server.resourceTemplate({ name: 'sheet', uriTemplate: 'sheet://{name}' }, async (_uri, { name }) => {
  throw new ResourceNotFoundError(`No sheet named ${String(name)}`);
});

server.prompt({ name: 'summary', description: 'a bug' }, async () => {
  throw new TypeError(`Cannot read properties of undefined (reading 'rows')`);
});
server.prompt({ name: 'greeting', description: 'hello', schema: z.object({ who: z.string() }) }, async ({ who }) => ({
  messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${who}` } }],
}));

const { url } = await server.listen(0, { host: '127.0.0.1' });
process.stdout.write(`LISTENING ${url}\n`);

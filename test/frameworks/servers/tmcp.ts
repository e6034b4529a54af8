/**
 * A tmcp McpServer (stdio: @tmcp/transport-stdio, schemas: @tmcp/adapter-zod with zod 4) under the policy, the way
 * docs/frameworks.md shows it. Runs from a scratch install (scripts/frameworks.sh). Environment:
 * - TMCP_POLICY=off: the same server without the policy (what tmcp alone sends);
 * - TMCP_EARLY=1: one tool, `early`, registered before the line;
 * - TMCP_MODE=report: the policy in report mode;
 * - FAKE_HTTP: a local URL that answers 429 (axios); FAKE_GOOGLE: the origin of the suite's fake Google (gaxios).
 * The records are written to stderr as `RECORD <json>` lines.
 */
import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { StdioTransport } from '@tmcp/transport-stdio';
import axios from 'axios';
import { request } from 'gaxios';
import { McpError, McpServer } from 'tmcp';
import { tool } from 'tmcp/utils';
import { z } from 'zod';
import { applyErrorPolicy, coreRules, createErrorPolicy, ResourceNotFoundError, ToolError, type LogRecord } from '../../../src/index.js';
import { googleRules } from '../../../src/google/index.js';

const policy = createErrorPolicy({
  rules: [...googleRules, ...coreRules],
  ...(process.env['TMCP_MODE'] === 'report' ? { mode: 'report' as const } : {}),
  logger: (record: LogRecord) => process.stderr.write(`RECORD ${JSON.stringify(record)}\n`),
});

const server = new McpServer(
  { name: 'sheets', version: '1.0.0', description: 'Sheets' },
  { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: {}, resources: {}, prompts: {} } },
);

if (process.env['TMCP_EARLY'] === '1') {
  server.tool({ name: 'early', description: 'registered before the line' }, () => {
    throw new Error('Cannot read /srv/app/secrets/config.json');
  });
}
if (process.env['TMCP_POLICY'] !== 'off') applyErrorPolicy(server, policy);

server.tool({ name: 'crash', description: 'crashes' }, () => {
  throw new Error('Cannot read /srv/app/secrets/config.json');
});
server.tool({ name: 'leaky', description: 'a token in its message and the request in its own fields' }, () => {
  const url = 'http://127.0.0.1:9/v1/items?api_key=sk-live-CANARY1234567890abcdef';
  throw Object.assign(new Error(`upstream refused sk-live-CANARY1234567890abcdef`), { config: { url } });
});
server.tool({ name: 'tool_error', description: 'says no' }, () => {
  throw new ToolError('Sheet name must not be empty');
});
server.tool({ name: 'mcp_error', description: 'refuses' }, () => {
  throw new McpError(-32602, 'Unknown sheet Q3');
});
server.tool({ name: 'error_result', description: "tmcp's own deliberate error" }, () => tool.error('Sheet Q3 is locked'));
server.tool({ name: 'rate_limited', description: 'axios, 429' }, async () => tool.text(String((await axios.get(process.env['FAKE_HTTP'] ?? '')).data)));
server.tool({ name: 'google', description: 'gaxios, 403' }, async () => {
  await request({ url: `${process.env['FAKE_GOOGLE'] ?? ''}/v1/forbidden?key=AIzaSyA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tU1v&fields=id` });
  return tool.text('unreachable');
});
server.tool(
  { name: 'get_sheet', description: 'reads a sheet', schema: z.object({ name: z.string() }), outputSchema: z.object({ name: z.string(), rows: z.number() }) },
  ({ name }) => tool.structured({ name, rows: 3 }),
);
server.tool({ name: 'ask', description: 'asks the user', replayable: true }, async () => {
  const answer = await server.elicitation('Which sheet?', z.object({ name: z.string() }));
  return tool.text(`chose ${JSON.stringify(answer.content)}`);
});

server.resource({ name: 'today', description: "today's log", uri: 'file:///logs/today' }, () => {
  throw new Error('Cannot read /srv/app/secrets/config.json');
});
server.resource({ name: 'readme', description: 'the readme', uri: 'file:///readme' }, (uri) => ({ contents: [{ uri, text: 'hello' }] }));
server.template({ name: 'log', description: 'a log', uri: 'file:///logs/{day}' }, (uri, { day }) => {
  if (day === 'missing') throw new ResourceNotFoundError(`No log for ${String(day)}`);
  if (day === 'refused') throw new McpError(-32602, `Invalid day ${String(day)}`);
  throw new Error('Cannot read /srv/app/secrets/config.json');
});
server.prompt({ name: 'summary', description: 'a summary' }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarise' } }] }));
server.prompt({ name: 'broken', description: 'crashes' }, () => {
  throw new Error('Cannot read /srv/app/secrets/config.json');
});

new StdioTransport(server).listen();

/**
 * The one-policy scenario (one-policy.ts) served over stdio: `node --import tsx test/compat/one-policy-server.ts`,
 * with `ONE_POLICY_SDK` (`v1` or `v2`) and `FAKE_GOOGLE_ORIGIN`. Each record and outcome is one JSON line on stderr
 * (`[record] {...}`, `[outcome] {...}`), tagged with the policy it went to; the `mark` tool writes `[mark] <n>`, so the
 * test knows every line written before it has arrived.
 */
import { applyErrorPolicy } from '../../src/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { buildOnePolicyServer, type PolicyTag } from './one-policy.js';
import type { LooseServer } from './scenarios.js';

const origin = process.env['FAKE_GOOGLE_ORIGIN'] ?? '';
const v2 = process.env['ONE_POLICY_SDK'] === 'v2';
const line = (kind: string, tag: PolicyTag, value: object): void => {
  process.stderr.write(`[${kind}] ${JSON.stringify({ tag, ...value })}\n`);
};

let server: LooseServer;
let transport: unknown;
if (v2) {
  const sdk = await import('@modelcontextprotocol/server');
  const stdio = await import('@modelcontextprotocol/server/stdio');
  server = new sdk.McpServer({ name: 'one-policy-v2', version: '1.0.0' }) as unknown as LooseServer;
  transport = new stdio.StdioServerTransport();
} else {
  const { McpServer: McpServerV1 } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  server = new McpServerV1({ name: 'one-policy-v1', version: '1.0.0' }) as unknown as LooseServer;
  transport = new StdioServerTransport();
}
await buildOnePolicyServer(server, (s, policy) => applyErrorPolicy(s as unknown as McpServer, policy), origin, {
  record: (tag, record) => line('record', tag, record),
  outcome: (tag, outcome) => line('outcome', tag, { ...outcome, classification: undefined }),
});
// Registered last: a plain tool, counted like any other by the server's access log (the test drops its outcome).
server.registerTool('mark', {}, async () => {
  process.stderr.write('[mark] done\n');
  return { content: [{ type: 'text', text: 'marked' }] };
});
await server.connect(transport as never);

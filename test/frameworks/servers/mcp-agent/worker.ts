// A Cloudflare Worker with two McpAgent subclasses (Durable Objects; McpAgent serves an McpServer of SDK v1), run by
// `wrangler dev` on workerd from .tmp/frameworks/mcp-agent/ (scripts/frameworks.sh copies it there, beside agents,
// wrangler and the packed mcp-error-policy). Both places for the one line work: `FieldAgent` applies the policy where
// its `server` field is made (when the Durable Object is constructed), `InitAgent` in `init()` after its tools are
// registered (McpAgent calls `init()` in `onStart`, before it connects the server). The test reads the records from
// the console, one `RECORD <json>` line each.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpAgent } from 'agents/mcp';
import { applyErrorPolicy, createErrorPolicy, ToolError, type LogRecord } from 'mcp-error-policy';

const policy = createErrorPolicy({ logger: (record: LogRecord) => console.log(`RECORD ${JSON.stringify(record)}`) });

function registerTools(server: McpServer): void {
  server.registerTool('crash', {}, () => {
    throw new Error('Cannot read /srv/app/secrets/config.json');
  });
  server.registerTool('tool_error', {}, () => {
    throw new ToolError('Sheet name must not be empty');
  });
  server.registerTool('ok', {}, () => ({ content: [{ type: 'text' as const, text: 'fine' }] }));
}

/** The policy on the field. */
export class FieldAgent extends McpAgent {
  server = applyErrorPolicy(new McpServer({ name: 'sheets', version: '1.0.0' }), policy);
  async init(): Promise<void> {
    registerTools(this.server);
  }
}

/** The policy in init(), after the registrations. */
export class InitAgent extends McpAgent {
  server = new McpServer({ name: 'sheets', version: '1.0.0' });
  async init(): Promise<void> {
    registerTools(this.server);
    applyErrorPolicy(this.server, policy);
  }
}

const routes = {
  '/field': FieldAgent.serve('/field', { binding: 'FIELD' }),
  '/init': InitAgent.serve('/init', { binding: 'INIT' }),
};
type Fetch = (typeof routes)['/field']['fetch'];

export default {
  fetch(request: Request, env: Parameters<Fetch>[1], ctx: Parameters<Fetch>[2]): Promise<Response> | Response {
    const route = routes[new URL(request.url).pathname as keyof typeof routes];
    return route ? route.fetch(request, env, ctx) : new Response('not found', { status: 404 });
  },
};

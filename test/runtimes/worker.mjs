/* global Response, navigator -- a Worker's globals */
// A Cloudflare Worker (run by `wrangler dev` on workerd, scripts/runtimes.sh): an MCP server over Streamable HTTP
// (stateless, JSON responses) under applyErrorPolicy with its default logger, and the shapes of workerd's fetch
// failures. The four entries are bundled in by wrangler, as a user's Worker bundles them.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import * as main from 'mcp-error-policy';
import { googleRules } from 'mcp-error-policy/google';
import { httpRules } from 'mcp-error-policy/http';
import { openTelemetry } from 'mcp-error-policy/opentelemetry';
import { PATH, UNKNOWN_HOST, fetchFailures } from './shape.mjs';
import { registerScenarios } from './tools.mjs';

const entries = { main: typeof main.applyErrorPolicy, google: googleRules.length > 0, http: httpRules.length > 0, opentelemetry: typeof openTelemetry };

export default {
  async fetch(request) {
    const url = new URL(request.url);
    const port = (name) => url.searchParams.get(name);
    if (url.pathname === '/shapes') {
      const shapes = await fetchFailures({ refused: `http://127.0.0.1:${port('refused')}${PATH}`, dns: `http://${UNKNOWN_HOST}${PATH}`, reset: `http://127.0.0.1:${port('reset')}${PATH}` });
      // what wrangler wrote in place of process.env.NODE_ENV when it bundled this Worker
      return Response.json({ shapes, entries, userAgent: navigator.userAgent, bundledNodeEnv: process.env.NODE_ENV });
    }
    const server = new McpServer({ name: 'runtimes-worker', version: '1.0.0' });
    main.applyErrorPolicy(server);
    registerScenarios(server, main, { refused: `http://127.0.0.1:${port('refused')}${PATH}`, dns: `http://${UNKNOWN_HOST}${PATH}` });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    return transport.handleRequest(request);
  },
};

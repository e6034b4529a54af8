/**
 * An MCP server that calls two HTTP APIs through their own client libraries, under one policy:
 * `[...httpRules, ...coreRules]` and a re-authorization hint for rejected credentials.
 *
 *   get_repo        the GitHub API through Octokit (`@octokit/rest` 22): `repos.get`
 *   describe_model  the OpenAI API through the OpenAI SDK (6): `models.retrieve`
 *
 * A failure of either reaches the client as the service's own words (status, code, message, and for GitHub the
 * method and URL without credentials); a bug in a tool is masked with a reference id. One record per failure goes
 * to stderr with the request (method, URL, status, the service's request id).
 *
 * Environment (test/http/example.test.ts points both at local fakes on 127.0.0.1; so does
 * examples/support/fake-http-apis.ts, which prints the environment for its own fakes):
 *   GITHUB_API_URL   GitHub API base URL (default https://api.github.com)
 *   GITHUB_TOKEN     GitHub token
 *   OPENAI_BASE_URL  OpenAI API base URL (default https://api.openai.com/v1)
 *   OPENAI_API_KEY   OpenAI API key
 *
 * Install: npm install mcp-error-policy @modelcontextprotocol/sdk zod @octokit/rest openai tsx
 * Run: GITHUB_TOKEN=... OPENAI_API_KEY=... npx tsx examples/http-server.ts (an MCP server on stdio). Without accounts:
 * Before: npx tsx examples/support/fake-http-apis.ts (fakes of both APIs on 127.0.0.1; it prints the environment to use)
 * Try: npx tsx examples/http-server.ts, with that environment. A client sees (the fakes' host is internal: not shown):
 *   get_repo {"owner":"octo-org","repo":"hello"} → octo-org/hello: A fake repository
 *   get_repo {"owner":"octo-org","repo":"missing"} → Error executing tool get_repo: GitHub API GET /github/repos/octo-org/missing failed with 404 Not Found: Not Found
 *   get_repo {"owner":"octo-org","repo":"unauthorized"} → Error executing tool get_repo: GitHub API GET /github/repos/octo-org/unauthorized failed with 401 Unauthorized: Credentials rejected: Bad credentials …
 *   describe_model {"model":"limited"} → Error executing tool describe_model: OpenAI API request failed with 429 Too Many Requests (rate_limit_exceeded): Rate limit reached for gpt-4o in organization org-abc on requests per min (RPM): Limit 500, Used 500, Requested 1. Retry after 7 s.
 *   stderr → [mcp-error-policy] INFO tool "get_repo" failed (rule github-http-error: GET http://127.0.0.1:40123/github/repos/octo-org/missing -> 404 …
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { applyErrorPolicy, coreRules, createErrorPolicy } from 'mcp-error-policy';
import { httpRules } from 'mcp-error-policy/http';
import { Octokit } from '@octokit/rest';
import OpenAI from 'openai';
import { z } from 'zod';

const github = new Octokit({
  auth: process.env['GITHUB_TOKEN'],
  baseUrl: process.env['GITHUB_API_URL'] ?? 'https://api.github.com',
  // Octokit logs failed requests with console.error by default; the policy writes the one record instead.
  log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  request: { retries: 0 },
});
const openai = new OpenAI({
  apiKey: process.env['OPENAI_API_KEY'] ?? '',
  baseURL: process.env['OPENAI_BASE_URL'] ?? 'https://api.openai.com/v1',
  maxRetries: 0,
  timeout: 10_000,
});

const policy = createErrorPolicy({
  rules: [...httpRules, ...coreRules],
  reauthorize: 'Check GITHUB_TOKEN and OPENAI_API_KEY in the server configuration.',
});
const server = applyErrorPolicy(new McpServer({ name: 'http-example', version: '1.0.0' }), policy);

server.registerTool(
  'get_repo',
  { description: 'A GitHub repository', inputSchema: { owner: z.string(), repo: z.string() } },
  async ({ owner, repo }) => {
    const { data } = await github.rest.repos.get({ owner, repo });
    return { content: [{ type: 'text', text: `${data.full_name}: ${data.description ?? ''}` }] };
  },
);

server.registerTool('describe_model', { description: 'An OpenAI model', inputSchema: { model: z.string() } }, async ({ model }) => {
  const found = await openai.models.retrieve(model);
  return { content: [{ type: 'text', text: `${found.id} (owned by ${found.owned_by})` }] };
});

await server.connect(new StdioServerTransport());

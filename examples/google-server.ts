/**
 * A Google-style MCP server: tools that call Google APIs through the real gaxios and google-auth-library (an
 * OAuth2Client refreshing its access token), under one policy: `[...googleRules, ...coreRules]` and a
 * re-authorization hint.
 *
 * Each tool fails in one way Google-backed servers do:
 *   find_sheet       a deliberate ToolError
 *   summarize_sheet  a bug in the tool (a TypeError)
 *   share_sheet      a Google API 403 PERMISSION_DENIED
 *   list_files       a revoked sign-in (invalid_grant when the refresh token is used)
 *   read_range       a quota error (429 RESOURCE_EXHAUSTED, retry-after 30)
 *   list_holidays    a network failure (connection refused)
 * and the resource template `sheet://{id}` answers "not found" with a ResourceNotFoundError.
 * The requests carry a fake API key (`?key=AIza...`) in the URL and an access token in the Authorization header.
 *
 * Environment (examples/support/fake-google-api.ts prints it for a fake Google on 127.0.0.1; the demo sets it):
 *   GOOGLE_API_BASE           base URL of the Google APIs (required), e.g. http://127.0.0.1:40123
 *   GOOGLE_TOKEN_URL          OAuth token endpoint (default: $GOOGLE_API_BASE/token/ok)
 *   GOOGLE_REVOKED_TOKEN_URL  token endpoint seen by the account whose sign-in was revoked
 *                             (default: $GOOGLE_API_BASE/token/invalid_grant)
 *   CALENDAR_API_BASE         base URL of the unreachable API (default: http://127.0.0.1:1, where nothing listens)
 *   MCP_ERROR_POLICY=off      run without mcp-error-policy: the SDK's default behaviour
 *
 * Install: npm install mcp-error-policy @modelcontextprotocol/sdk zod gaxios google-auth-library tsx
 * Before: npx tsx examples/support/fake-google-api.ts (a fake Google on 127.0.0.1; it prints the environment to use)
 * Try: npx tsx examples/google-server.ts, with that environment (an MCP server on stdio). A client sees:
 *   find_sheet {"name":"Q5"} → Error executing tool find_sheet: No sheet named "Q5" in Budget (it has Q1, Q2, Q3, Q4)
 *   summarize_sheet {} → Error executing tool summarize_sheet (reference 3f9a1c2b7d04)
 *   share_sheet {} → Error executing tool share_sheet: The caller does not have permission (403 PERMISSION_DENIED from Google API GET /v1/forbidden?key=[REDACTED])
 *   list_files {} → Error executing tool list_files: Google authorization failed (invalid_grant): Token has been expired or revoked. …
 *   read_range {} → Error executing tool read_range: Quota exceeded for quota metric 'Read requests' …
 *   list_holidays {} → Error executing tool list_holidays: Network error while calling the Google API (ECONNREFUSED).
 *   sheet://nope → MCP error -32002: No spreadsheet with id nope
 *   stderr → [mcp-error-policy] WARN tool "share_sheet" failed (rule google-api-error: GET http://127.0.0.1:40123/v1/forbidden?key=[REDACTED] -> 403): Error "The caller does not have permission" (correlation 5b0e9d3a7c21)
 * The demo, examples/demo.ts, runs it twice, without the policy and with it, and prints both side by side.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { request } from 'gaxios';
import { OAuth2Client } from 'google-auth-library';
import { applyErrorPolicy, coreRules, createErrorPolicy, ResourceNotFoundError, ToolError } from 'mcp-error-policy';
import { googleRules } from 'mcp-error-policy/google';
import { z } from 'zod';

/** Fake credentials, shaped like Google's so that the scrubber recognises them. */
const DEMO_SECRETS = {
  apiKey: 'AIzaSyDEMO-fakeKey-0123456789abcdefghij',
  refreshToken: '1//0gDEMO-fakeRefreshToken-0123456789',
  clientSecret: 'GOCSPX-DEMO-fakeClientSecret-012345',
} as const;

/** The re-authorization hint the policy appends to failures that signing in again fixes. */
const REAUTHORIZE = 'Sign in again: run `sheets-mcp auth login`.';

const apiBase = process.env['GOOGLE_API_BASE'];
if (apiBase === undefined || apiBase === '') {
  process.stderr.write('google-server: set GOOGLE_API_BASE (see examples/support/fake-google-api.ts)\n');
  process.exit(2);
}
const tokenUrl = process.env['GOOGLE_TOKEN_URL'] ?? `${apiBase}/token/ok`;
const revokedTokenUrl = process.env['GOOGLE_REVOKED_TOKEN_URL'] ?? `${apiBase}/token/invalid_grant`;
const calendarBase = process.env['CALENDAR_API_BASE'] ?? 'http://127.0.0.1:1';

/** A signed-in user: the OAuth2Client trades the refresh token for an access token (`ya29...`) on first use. */
function signedIn(endpoint: string): OAuth2Client {
  const client = new OAuth2Client({
    clientId: 'sheets-mcp-demo.apps.googleusercontent.com',
    clientSecret: DEMO_SECRETS.clientSecret,
    endpoints: { oauth2TokenUrl: endpoint },
  });
  client.setCredentials({ refresh_token: DEMO_SECRETS.refreshToken });
  return client;
}
const auth = signedIn(tokenUrl);
const revokedAuth = signedIn(revokedTokenUrl);

/** A GET through the signed-in client: access token in the Authorization header, API key in the URL. */
async function getJson(client: OAuth2Client, path: string): Promise<unknown> {
  const response = await client.request({ url: `${apiBase}${path}?key=${DEMO_SECRETS.apiKey}`, retry: false });
  return response.data;
}

const spreadsheets = new Map([['budget', { title: 'Budget', sheets: ['Q1', 'Q2', 'Q3', 'Q4'] }]]);

const server = new McpServer({ name: 'sheets-mcp', version: '1.0.0' });

// The one line the demo turns off: without it, the SDK's own error handling applies.
if (process.env['MCP_ERROR_POLICY'] !== 'off') {
  applyErrorPolicy(server, createErrorPolicy({ rules: [...googleRules, ...coreRules], reauthorize: REAUTHORIZE }));
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

server.registerTool('find_sheet', { description: 'Find a sheet by name', inputSchema: { name: z.string() } }, ({ name }) => {
  const sheet = spreadsheets.get('budget')!.sheets.find((s) => s === name);
  // Deliberate: the client is meant to read this.
  if (sheet === undefined) throw new ToolError(`No sheet named "${name}" in Budget (it has Q1, Q2, Q3, Q4)`);
  return text(sheet);
});

server.registerTool('summarize_sheet', { description: 'Summarize a spreadsheet' }, async () => {
  const data = (await getJson(auth, '/v1/ok')) as { sheets?: { properties: { title: string } }[] };
  // A bug: this response has no `sheets`.
  return text(`First sheet: ${data.sheets![0]!.properties.title}`);
});

// The API answers 403 PERMISSION_DENIED.
server.registerTool('share_sheet', { description: 'Share a spreadsheet' }, async () => text(JSON.stringify(await getJson(auth, '/v1/forbidden'))));

// This user's refresh token was revoked: the token endpoint answers invalid_grant before any API call.
server.registerTool('list_files', { description: "List the user's files" }, async () => text(JSON.stringify(await getJson(revokedAuth, '/v1/ok'))));

// The API answers 429 RESOURCE_EXHAUSTED with `retry-after: 30`.
server.registerTool('read_range', { description: 'Read a range of cells' }, async () => text(JSON.stringify(await getJson(auth, '/v1/quota'))));

// The API answers 503 UNAVAILABLE: retryable, with no delay given.
server.registerTool('export_sheet', { description: 'Export a spreadsheet' }, async () => text(JSON.stringify(await getJson(auth, '/v1/unavailable'))));

// An API-key-only call through gaxios itself; nothing listens there, so the connection is refused.
server.registerTool('list_holidays', { description: 'List public holidays (API key only)' }, async () => {
  const response = await request({
    url: `${calendarBase}/calendar/v3/calendars/en.usa%23holiday/events?key=${DEMO_SECRETS.apiKey}`,
    retry: false,
  });
  return text(JSON.stringify(response.data));
});

server.registerResource('spreadsheet', new ResourceTemplate('sheet://{id}', { list: undefined }), {}, (uri, { id }) => {
  const spreadsheet = spreadsheets.get(String(id));
  if (spreadsheet === undefined) throw new ResourceNotFoundError(`No spreadsheet with id ${String(id)}`);
  return { contents: [{ uri: uri.href, text: JSON.stringify(spreadsheet) }] };
});

await server.connect(new StdioServerTransport());

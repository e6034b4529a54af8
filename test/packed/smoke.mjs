// Runs in a fresh project that installed the packed tarball (scripts/smoke-packed.sh): ESM import, real McpServer and Client.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';
import { ToolError, createErrorPolicy, withClientVisibleErrors } from 'mcp-error-policy';

const records = [];
const policy = createErrorPolicy({ logger: (record) => records.push(record) });
const server = new McpServer({ name: 'smoke', version: '1.0.0' });
server.registerTool('sheet', { inputSchema: { name: z.string() } }, withClientVisibleErrors(async ({ name }) => {
  if (name === '') throw new ToolError('Sheet name must not be empty');
  throw new Error('CANARY internal /srv/secret/path');
}, { name: 'sheet', policy }));
const [a, b] = InMemoryTransport.createLinkedPair();
await server.connect(a);
const client = new Client({ name: 'smoke-client', version: '1.0.0' });
await client.connect(b);

const deliberate = await client.callTool({ name: 'sheet', arguments: { name: '' } });
const correlationId = records[0]?.correlationId;
assert.match(String(correlationId), /^[0-9a-f]{12}$/);
assert.deepEqual(deliberate, {
  _meta: { 'mcp-error-policy/failure': { code: 'tool_error', retryable: false, correlationId } },
  content: [{ type: 'text', text: 'Error executing tool sheet: Sheet name must not be empty' }],
  isError: true,
});
const crash = await client.callTool({ name: 'sheet', arguments: { name: 'x' } });
const reference = /^Error executing tool sheet \(reference ([0-9a-f]{12})\)$/.exec(crash.content[0].text)?.[1];
assert.ok(reference, crash.content[0].text);
assert.equal(records.length, 2);
assert.equal(records[0].level, 'info');
assert.equal(records[1].level, 'error');
assert.equal(records[1].reference, reference);

// The CommonJS build and the google entry resolve too, and the deliberate brand holds across the two builds.
const require = createRequire(import.meta.url);
const cjs = require('mcp-error-policy');
assert.equal(cjs.classifyError(new ToolError('x')).kind, 'anticipated');
assert.ok(new cjs.ToolError('y') instanceof ToolError);
const google = await import('mcp-error-policy/google');
assert.ok(Array.isArray(google.googleRules) && google.googleRules.length > 0);
assert.ok(Array.isArray(require('mcp-error-policy/google').googleRules));
// The http entry, both ways: its rules classify an Octokit-shaped error (plain data, no client installed here).
const http = await import('mcp-error-policy/http');
assert.ok(Array.isArray(require('mcp-error-policy/http').httpRules));
const octokitShaped = Object.assign(new Error('Not Found'), {
  name: 'HttpError',
  status: 404,
  request: { method: 'GET', url: 'https://api.github.com/repos/o/r?access_token=ghp_SMOKE', headers: {} },
  response: { url: 'https://api.github.com/repos/o/r', status: 404, headers: {}, data: { message: 'Not Found' } },
});
assert.equal(
  cjs.classifyError(octokitShaped, cjs.createErrorPolicy({ rules: [...http.httpRules, ...cjs.coreRules] })).message,
  'GitHub API GET https://api.github.com/repos/o/r?access_token=[REDACTED] failed with 404 Not Found: Not Found',
);
await client.close();
console.log('packed smoke: 1 passed, 0 failed');

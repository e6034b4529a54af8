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
// The NestJS entry, both ways: a filter class with `catch`, built with no arguments (Nest's `useClass`).
const { McpErrorPolicyFilter } = await import('mcp-error-policy/nestjs');
assert.equal(typeof new McpErrorPolicyFilter().catch, 'function');
assert.equal(typeof new (require('mcp-error-policy/nestjs').McpErrorPolicyFilter)().catch, 'function');
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
// The core alone (issue 32): an HTTP client's failure reads as its status, the caller's 404 logged at info.
const coreOnly = cjs.classifyError(octokitShaped);
assert.deepEqual([coreOnly.rule?.name, coreOnly.message, coreOnly.level], ['http-status', 'HTTP request failed with status 404', 'info']);
// The opentelemetry entry, both ways, with its optional peer @opentelemetry/api installed: a crash through a wrapped
// tool gives one SERVER span (a minimal tracer provider records it), whose status carries the reference, not the text.
const otel = await import('mcp-error-policy/opentelemetry');
assert.equal(typeof require('mcp-error-policy/opentelemetry').openTelemetry, 'function');
const spans = [];
const tracerProvider = {
  getTracer: () => ({
    startSpan: (name, options) => {
      const span = { name, kind: options.kind, attributes: { ...options.attributes }, status: undefined, events: [], ended: false };
      spans.push(span);
      return {
        spanContext: () => ({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 }),
        setAttribute: (key, value) => void (span.attributes[key] = value),
        setAttributes: (attributes) => void Object.assign(span.attributes, attributes),
        setStatus: (status) => void (span.status = status),
        addEvent: (eventName) => void span.events.push(eventName),
        end: () => void (span.ended = true),
        isRecording: () => true,
      };
    },
  }),
};
const traced = createErrorPolicy({ logger: () => {}, telemetry: otel.openTelemetry({ tracerProvider }) });
const tracedTool = withClientVisibleErrors(async () => {
  throw new Error('CANARY traced /srv/secret/path');
}, { name: 'traced', policy: traced });
const tracedText = (await tracedTool({}, { requestId: 7, signal: new AbortController().signal })).content[0].text;
const tracedReference = /\(reference ([0-9a-f]{12})\)$/.exec(tracedText)?.[1];
assert.ok(tracedReference, tracedText);
assert.equal(spans.length, 1);
assert.deepEqual({ ...spans[0], attributes: undefined }, {
  name: 'tools/call traced',
  kind: 1,
  attributes: undefined,
  status: { code: 2, message: `Error executing tool traced (reference ${tracedReference})` },
  events: ['exception'],
  ended: true,
});
assert.equal(spans[0].attributes['error.type'], 'tool_error');
assert.equal(spans[0].attributes['mcp_error_policy.reference'], tracedReference);
assert.equal(spans[0].attributes['jsonrpc.request.id'], '7');
assert.ok(!JSON.stringify(spans).includes('CANARY'));
// The client entry, both ways: it reads the failure object of the answer above, and never runs a ToolError twice.
const { readFailure, retryToolCall } = await import('mcp-error-policy/client');
assert.deepEqual(readFailure(deliberate), { code: 'tool_error', retryable: false, correlationId });
assert.equal(require('mcp-error-policy/client').readFailure(crash).code, 'internal');
const retried = await retryToolCall(() => client.callTool({ name: 'sheet', arguments: { name: '' } }), { tool: { annotations: { readOnlyHint: true } } });
assert.deepEqual([retried.attempts, retried.delays, retried.failure.code], [1, [], 'tool_error']);
await client.close();
console.log('packed smoke: 1 passed, 0 failed');

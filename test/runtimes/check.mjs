// Runs on Node, Bun and Deno in a project that installed the packed tarball (scripts/runtimes.sh): the four entries
// import (ESM, and `require` through createRequire), and a real McpServer under applyErrorPolicy, driven by the real
// SDK Client over the in-memory transport, answers every scenario of scenarios.mjs as on Node. `--dev`: dev mode is
// expected on (the crash's text shown). Reads no environment variable itself: on Deno that would ask for a permission.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import process from 'node:process';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import * as main from 'mcp-error-policy';
import * as google from 'mcp-error-policy/google';
import * as http from 'mcp-error-policy/http';
import * as opentelemetry from 'mcp-error-policy/opentelemetry';
import { PATH, UNKNOWN_HOST } from './shape.mjs';
import { closedPort } from './loopback.mjs';
import { checkRecords, checkScenarios } from './scenarios.mjs';
import { registerScenarios } from './tools.mjs';

const runtime = typeof globalThis.Deno === 'object' ? `Deno ${globalThis.Deno.version.deno}` : typeof globalThis.Bun === 'object' ? `Bun ${globalThis.Bun.version}` : `Node ${process.versions.node}`;
const devMode = process.argv.includes('--dev');
let passed = 0;

// The entries, both ways: the same export names from ESM and from CommonJS.
const require = createRequire(import.meta.url);
const entries = { 'mcp-error-policy': main, 'mcp-error-policy/google': google, 'mcp-error-policy/http': http, 'mcp-error-policy/opentelemetry': opentelemetry };
for (const [name, esm] of Object.entries(entries)) {
  const cjs = require(name);
  assert.deepEqual(Object.keys(cjs).filter((key) => key !== 'default' && key !== '__esModule').sort(), Object.keys(esm).filter((key) => key !== 'default').sort(), name);
  passed += 1;
}
assert.ok(google.googleRules.length > 0 && http.httpRules.length > 0 && typeof opentelemetry.openTelemetry === 'function');

const records = [];
const server = new McpServer({ name: 'runtimes', version: '1.0.0' });
main.applyErrorPolicy(server, main.createErrorPolicy({ logger: (record) => records.push(record) }));
registerScenarios(server, main, { refused: `http://127.0.0.1:${await closedPort()}${PATH}`, dns: `http://${UNKNOWN_HOST}${PATH}` });
const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: 'runtimes-client', version: '1.0.0' });
await client.connect(clientSide);
const expected = await checkScenarios(client, { devMode });
passed += Object.keys(expected).length;
checkRecords(records, expected);
passed += 1;
await client.close();
console.log(`${runtime}${devMode ? ' (dev mode)' : ''}: ${passed} passed, 0 failed`);

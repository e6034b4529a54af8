// Driven by scripts/published.sh in its scratch project: the published servers built on the low-level `Server` that
// call an HTTP API, as installed (the original) and as adopted (adopted/: the one line, applyErrorPolicy(new
// Server(...)); adopted-rules/: also the edits docs/adopting.md prescribes for the server), over stdio with a real SDK
// Client, against the fakes of test/published/fakes.mjs behind the proxy of test/published/proxy.mjs. The servers'
// code is not edited for this: HTTPS_PROXY, NODE_EXTRA_CA_CERTS and a preload (test/published/route.mjs) route them.
// The same calls go to every variant. A call that worked answers exactly as before; a failure the policy handles
// answers with its text (or the masked text) and failure object, with no secret, path or stack, and leaves exactly one
// [mcp-error-policy] record at the expected level. The originals are the negative control: they leak what the copies
// don't. The proxy refuses any host without a fake and must have answered exactly the requests expected.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakes } from './fakes.mjs';
import { failureOf, recordsIn, STACK, text } from './expect.mjs';
import { makeCertificates, startProxy } from './proxy.mjs';
import { overStdio } from './stdio.mjs';

const project = process.cwd();
const MAPS_KEY = 'AIzaSyFAKE-maps-key-0123456789abcdefgh';
const GITHUB_TOKEN = 'ghp_FAKEgithubToken0123456789abcdefghij';
const DRIVE_TOKEN = 'ya29.FAKE-drive-access-token-0123456789';
const NOTION_TOKEN = 'ntn_FAKEnotionToken0123456789abcdefghij';

const certificates = mkdtempSync(join(tmpdir(), 'published-ca-'));
const { caFile, key, cert } = makeCertificates(certificates, Object.keys(fakes));
const proxy = await startProxy({ fakes, key, cert });

// The proxy itself: it refuses hosts without a fake, by CONNECT and in absolute form, and answers absolute-form requests
// (which no client here sends: axios too tunnels with CONNECT) from the fakes.
async function throughProxy(method, path) {
  const { port } = new URL(proxy.url);
  const req = request({ host: '127.0.0.1', port, method, path });
  req.end();
  const [res] = await Promise.race([once(req, 'response'), once(req, 'connect')]);
  res.socket?.destroy();
  return res.statusCode;
}
assert.equal(await throughProxy('CONNECT', 'example.com:443'), 403);
assert.equal(await throughProxy('CONNECT', 'api.github.com:80'), 403);
assert.equal(await throughProxy('GET', 'https://example.com/'), 403);
assert.equal(await throughProxy('GET', 'https://api.github.com/repos/octo/hello/issues/1'), 200);
assert.deepEqual(proxy.refused, ['example.com:443', 'api.github.com:80', 'example.com']);
proxy.refused.length = 0;

const driveCredentials = join(project, 'gdrive-credentials.json');
writeFileSync(driveCredentials, JSON.stringify({ access_token: DRIVE_TOKEN, token_type: 'Bearer', expiry_date: 4102444800000 }));

// Each call: [method, params, expectation, what the original leaks (the negative control)].
// expectation: 'ok' (worked before, answers exactly as before); 'same' (the server answers this failure itself, as a
// result, isError or not: as before, no record); or per variant, 'same' or [how the adopted copy answers: 'masked' |
// 'text' | 'shown' (the server's own text, through a rule of step 3), the level of its one record, and where an HTTP
// rule took it, the status its record names and the failure object's code (tools)].
const servers = [
  {
    name: 'server-google-maps',
    entry: 'dist/index.js',
    env: { GOOGLE_MAPS_API_KEY: MAPS_KEY },
    secrets: [MAPS_KEY],
    calls: [
      ['tools/list'],
      ['tools/call', { name: 'maps_geocode', arguments: { address: 'Ferry Building' } }, 'ok'],
      ['tools/call', { name: 'maps_elevation', arguments: { locations: [{ latitude: 37.79, longitude: -122.39 }] } }, 'ok'],
      ['tools/call', { name: 'maps_geocode', arguments: { address: 'Nowhere' } }, 'same'],
      ['tools/call', { name: 'maps_geocode', arguments: { address: 'denied' } }, 'same'],
      ['tools/call', { name: 'maps_geocode', arguments: { address: 'over quota' } }, 'same'],
      ['tools/call', { name: 'maps_elevation', arguments: { locations: [{ latitude: 0, longitude: 0 }] } },
        { adopted: 'same', 'adopted-rules': ['masked', 'error'] }],
      ['tools/call', { name: 'maps_directions', arguments: { origin: 'A', destination: 'B' } },
        { adopted: 'same', 'adopted-rules': ['text', 'warn', undefined, 'network'] }, MAPS_KEY],
      ['tools/call', { name: 'maps_distance_matrix', arguments: { origins: ['A'], destinations: ['B'] } },
        { adopted: 'same', 'adopted-rules': ['masked', 'error'] }, 'Cannot read properties of undefined'],
    ],
  },
  {
    name: 'server-github',
    entry: 'dist/index.js',
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: GITHUB_TOKEN },
    secrets: [GITHUB_TOKEN],
    calls: [
      ['tools/list'],
      ['tools/call', { name: 'get_issue', arguments: { owner: 'octo', repo: 'hello', issue_number: 1 } }, 'ok'],
      ['tools/call', { name: 'get_file_contents', arguments: { owner: 'octo', repo: 'hello', path: 'README.md' } }, 'ok'],
      ['tools/call', { name: 'create_issue', arguments: { owner: 'octo', repo: 'hello', title: 'Found a bug' } }, 'ok'],
      ['tools/call', { name: 'get_issue', arguments: { owner: 'octo', repo: 'missing', issue_number: 1 } },
        { adopted: ['masked', 'error'], 'adopted-rules': ['text', 'info', 404, 'not_found'] }],
      ['tools/call', { name: 'get_issue', arguments: { owner: 'octo', repo: 'private', issue_number: 1 } },
        { adopted: ['masked', 'error'], 'adopted-rules': ['text', 'warn', 401, 'unauthorized'] }],
      ['tools/call', { name: 'get_issue', arguments: { owner: 'octo', repo: 'limited', issue_number: 1 } },
        { adopted: ['masked', 'error'], 'adopted-rules': ['text', 'warn', 403, 'rate_limited'] }],
      ['tools/call', { name: 'get_issue', arguments: { owner: 'octo', repo: 'busy', issue_number: 1 } },
        { adopted: ['masked', 'error'], 'adopted-rules': ['text', 'warn', 429, 'rate_limited'] }],
      ['tools/call', { name: 'get_issue', arguments: { owner: 'octo', repo: 'broken', issue_number: 1 } },
        { adopted: ['masked', 'error'], 'adopted-rules': ['text', 'warn', 500, 'server_error'] }],
      ['tools/call', { name: 'create_issue', arguments: { owner: 'octo', repo: 'missing', title: 'Found a bug' } },
        { adopted: ['masked', 'error'], 'adopted-rules': ['shown', 'info'] }],
      ['tools/call', { name: 'create_issue', arguments: { owner: 'octo', repo: 'broken', title: 'Found a bug' } },
        { adopted: ['masked', 'error'], 'adopted-rules': ['masked', 'error'] }, project],
    ],
  },
  {
    name: 'server-gdrive',
    entry: 'dist/index.js',
    env: { GDRIVE_CREDENTIALS_PATH: driveCredentials },
    secrets: [DRIVE_TOKEN],
    calls: [
      ['tools/list'],
      ['resources/list', {}, 'ok'],
      ['resources/list', { cursor: 'page-2' }, 'ok'],
      ['resources/read', { uri: 'gdrive:///doc-1' }, 'ok'],
      ['resources/read', { uri: 'gdrive:///txt-1' }, 'ok'],
      ['tools/call', { name: 'search', arguments: { query: 'plan' } }, 'ok'],
      ['resources/list', { cursor: 'broken' }, { adopted: ['text', 'warn', 500], 'adopted-rules': ['text', 'warn', 500] }],
      ['resources/list', { cursor: 'reset' }, { adopted: ['text', 'warn'], 'adopted-rules': ['text', 'warn'] },
        'https://www.googleapis.com/drive/v3/files?'],
      ['resources/read', { uri: 'gdrive:///missing' }, { adopted: ['text', 'info', 404], 'adopted-rules': ['text', 'info', 404] }],
      ['tools/call', { name: 'search', arguments: { query: 'expired' } },
        { adopted: ['text', 'warn', 401], 'adopted-rules': ['text', 'warn', 401, 'unauthenticated'] }],
      ['tools/call', { name: 'search', arguments: { query: 'limited' } },
        { adopted: ['text', 'warn', 403], 'adopted-rules': ['text', 'warn', 403, 'user_rate_limit_exceeded'] }],
      ['tools/call', { name: 'search', arguments: { query: 'broken' } },
        { adopted: ['text', 'warn', 500], 'adopted-rules': ['text', 'warn', 500, 'internal'] }],
      ['tools/call', { name: 'lookup', arguments: {} }, { adopted: ['masked', 'error'], 'adopted-rules': ['masked', 'error'] }],
    ],
  },
  {
    name: 'notion-mcp-server',
    package: '@notionhq/notion-mcp-server',
    entry: 'bin/cli.mjs',
    // axios reads HTTPS_PROXY itself: no preload.
    readsProxy: true,
    env: { NOTION_TOKEN },
    secrets: [NOTION_TOKEN],
    calls: [
      ['tools/list'],
      ['tools/call', { name: 'API-get-self', arguments: {} }, 'ok'],
      ['tools/call', { name: 'API-retrieve-a-page', arguments: { page_id: 'plan' } }, 'ok'],
      ['tools/call', { name: 'API-retrieve-a-page', arguments: { page_id: 'missing' } },
        { adopted: 'same', 'adopted-rules': ['text', 'info', 404, 'object_not_found'] }],
      ['tools/call', { name: 'API-retrieve-a-page', arguments: { page_id: 'private' } },
        { adopted: 'same', 'adopted-rules': ['text', 'warn', 401, 'unauthorized'] }],
      ['tools/call', { name: 'API-retrieve-a-page', arguments: { page_id: 'busy' } },
        { adopted: 'same', 'adopted-rules': ['text', 'warn', 429, 'rate_limited'] }],
      ['tools/call', { name: 'API-retrieve-a-page', arguments: { page_id: 'broken' } },
        { adopted: 'same', 'adopted-rules': ['text', 'warn', 500, 'server_error'] }],
      ['tools/call', { name: 'API-retrieve-a-page', arguments: { page_id: 'reset' } },
        { adopted: ['text', 'warn', undefined, 'network'], 'adopted-rules': ['text', 'warn', undefined, 'network'] }],
      ['tools/call', { name: 'API-no-such-tool', arguments: {} }, { adopted: ['masked', 'error'], 'adopted-rules': ['masked', 'error'] }],
    ],
  },
];

const VARIANTS = ['adopted', 'adopted-rules'];
// PUBLISHED_ONLY=<server name> drives one server (while working on this file).
const only = process.env.PUBLISHED_ONLY ?? '';
const { CallToolResultSchema, ListResourcesResultSchema, ListToolsResultSchema, ReadResourceResultSchema } = await import(
  '@modelcontextprotocol/sdk/types.js'
);
const resultSchemas = {
  'tools/list': ListToolsResultSchema,
  'tools/call': CallToolResultSchema,
  'resources/list': ListResourcesResultSchema,
  'resources/read': ReadResourceResultSchema,
};

// One call through the client: its result, or the JSON-RPC error the client got.
async function send(client, method, params) {
  try {
    return { result: await client.request({ method, params }, resultSchemas[method]) };
  } catch (error) {
    if (typeof error?.code !== 'number') throw error;
    return { error: { code: error.code, message: error.message, data: error.data } };
  }
}

async function run(server, variant) {
  const base = variant === 'original' ? join('node_modules', server.package ?? `@modelcontextprotocol/${server.name}`) : join(variant, server.name);
  const first = proxy.requests.length;
  const { value: answers, stderr } = await overStdio(
    {
      args: [...(server.readsProxy ? [] : ['--import', join(project, 'route.mjs')]), join(project, base, server.entry)],
      env: { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: caFile, ...server.env },
      cwd: project,
    },
    async (client) => {
      const answers = [];
      for (const [method, params = {}] of server.calls) answers.push(await send(client, method, params));
      return answers;
    },
  );
  const requests = proxy.requests.slice(first).map(({ host, via, method, path }) => `${method} https://${host}${path} (${via})`);
  return { answers, stderr, requests };
}

// Names the call in texts and records: the tool, the resource's URI, or the list method.
const nameOf = ([method, params = {}]) => (method === 'tools/call' ? params.name : (params.uri ?? method));
// The text the original answered: a tool result's, or the JSON-RPC error's message without the client's prefix.
const textOf = (answer) => (answer.result !== undefined ? text(answer.result) : answer.error.message.replace(/^MCP error -?\d+: /, ''));

const leaks = {};

function compare(label, server, before, after, variant) {
  assert.deepEqual(after.requests, before.requests, `${label}: the same requests reached the fakes`);
  const records = recordsIn(after.stderr);
  let record = 0;
  server.calls.forEach((call, i) => {
    const [method, , expectation = 'ok', leak] = call;
    const name = nameOf(call);
    const id = `${label}: ${name === method ? method : `${method} ${name}`} #${i}`;
    const was = before.answers[i];
    const now = after.answers[i];
    const expected = typeof expectation === 'string' ? expectation : expectation[variant];
    if (leak !== undefined) {
      assert.ok(JSON.stringify(was).includes(leak), `${id}: the original should show ${leak}: ${JSON.stringify(was)}`);
      if (variant === 'adopted') leaks[server.name] = (leaks[server.name] ?? 0) + 1;
    }
    if (expected === 'ok' || expected === 'same') {
      if (expected === 'ok') assert.ok(was.result !== undefined && was.result.isError !== true, `${id} should work: ${JSON.stringify(was)}`);
      else assert.ok(was.result !== undefined, `${id}: the server answers this failure itself: ${JSON.stringify(was)}`);
      assert.deepEqual(now, was, `${id}: as before`);
      if (expected === 'same' && variant === 'adopted') console.log(`${id}: as before, ${JSON.stringify(textOf(was))}, no record`);
      return;
    }
    const [kind, level, status, code] = expected;
    const wasText = textOf(was);
    let nowText;
    let correlation;
    if (method === 'tools/call') {
      assert.equal(now.result?.isError, true, `${id}: ${JSON.stringify(now)}`);
      const failure = failureOf(now.result, id);
      correlation = failure.correlationId;
      if (code !== undefined) assert.equal(failure.code, code, `${id}: ${JSON.stringify(failure)}`);
      nowText = text(now.result);
      if (kind === 'masked') {
        assert.equal(nowText, `Error executing tool ${name} (reference ${correlation})`, id);
        assert.equal(failure.code, 'internal', id);
      } else if (kind === 'shown') {
        assert.equal(nowText, `Error executing tool ${name}: ${wasText}`, id);
      } else {
        assert.ok(nowText.startsWith(`Error executing tool ${name}: `), `${id}: text, got ${JSON.stringify(nowText)}`);
        assert.notEqual(nowText, `Error executing tool ${name}: ${wasText}`, `${id}: the policy's text, not the error's`);
      }
    } else {
      // SDK 1.0.1 sends a JSON-RPC error's code and message only: the failure object (`data`) stays behind.
      assert.equal(now.error?.code, -32603, `${id}: ${JSON.stringify(now)}`);
      assert.equal(now.error.data, undefined, id);
      nowText = now.error.message;
      const reference = /\(reference ([0-9a-f]{12})\)$/.exec(nowText);
      if (kind === 'masked') {
        assert.ok(reference !== null, `${id}: masked, got ${JSON.stringify(nowText)}`);
        correlation = reference[1];
      } else {
        assert.equal(reference, null, `${id}: text, got ${JSON.stringify(nowText)}`);
        assert.notEqual(nowText.replace(/^MCP error -32603: /, ''), wasText, `${id}: the policy's text, not the error's`);
      }
    }
    const answer = JSON.stringify(now);
    for (const secret of [...server.secrets, project]) assert.ok(!answer.includes(secret), `${id}: the answer shows ${secret}: ${answer}`);
    assert.doesNotMatch(answer, STACK, `${id}: the answer has a stack`);
    if (leak !== undefined) assert.ok(!answer.includes(leak), `${id}: the answer still shows ${leak}`);
    const mine = records[record++] ?? '';
    const kindOf = method === 'tools/call' ? 'tool' : 'resource';
    assert.ok(mine.startsWith(`[mcp-error-policy] ${level.toUpperCase()} ${kindOf} ${JSON.stringify(name)} `), `${id}: record ${mine}`);
    if (correlation !== undefined) assert.ok(mine.includes(correlation), `${id}: the record names ${correlation}: ${mine}`);
    if (status !== undefined) assert.match(mine, new RegExp(`(?: -> | status )${status}[ )]`), `${id}: status ${status} in the record`);
    const failure = now.result?._meta?.['mcp-error-policy/failure'];
    console.log(`${id}: ${JSON.stringify(wasText)}\n  -> ${JSON.stringify(nowText)} (${failure?.code ?? 'JSON-RPC'}, one ${level} record)`);
  });
  assert.equal(records.length, record, `${label}: one record per failure:\n${records.join('\n')}`);
  for (const secret of server.secrets) assert.ok(!after.stderr.includes(secret), `${label}: stderr shows ${secret}`);
  const count = (wanted) => server.calls.filter(([, , e]) => (typeof e === 'string' ? e : e?.[variant]) === wanted).length;
  console.log(`${label}: tools/list and ${count('ok')} working calls as before; ${count('same')} failures the server answers`
    + ` itself as before; ${record} failures by the policy`);
}

try {
  for (const server of servers) {
    if (only !== '' && only !== server.name) continue;
    const manifest = `./node_modules/${server.package ?? `@modelcontextprotocol/${server.name}`}/package.json`;
    const { version } = (await import(manifest, { with: { type: 'json' } })).default;
    const before = await run(server, 'original');
    assert.ok(before.requests.length > 0, `${server.name}: the original reached its fake`);
    for (const variant of VARIANTS) {
      compare(`${server.name}@${version} ${variant}`, server, before, await run(server, variant), variant);
    }
  }
  // No request left 127.0.0.1: the proxy refused none, and every one it answered went to a fake.
  assert.deepEqual(proxy.refused, [], 'requests to hosts without a fake');
  // Every client tunnelled with CONNECT; the one absolute-form request is the check above.
  assert.deepEqual(proxy.requests.filter(({ via }) => via !== 'connect').length, 1);
  console.log(`the proxy answered ${proxy.requests.length} requests, all to the fakes; the originals showed secrets, URLs or stacks in: ${JSON.stringify(leaks)}`);
  const leaking = servers.filter(({ calls }) => calls.some((call) => call[3] !== undefined)).map(({ name }) => name);
  if (only === '') assert.deepEqual(Object.keys(leaks).sort(), leaking.sort(), 'the originals leak');
} finally {
  await proxy.close();
  rmSync(certificates, { recursive: true, force: true });
}

// What a client must receive from the tools of tools.mjs on every runtime, as on Node: checked by check.mjs (in
// process, on Node, Bun and Deno) and workerd.mjs (over Streamable HTTP from a Worker). Imports no SDK.
import assert from 'node:assert/strict';
import { SECRET_KEY, UNKNOWN_HOST } from './shape.mjs';

const ID = /^[0-9a-f]{12}$/;

function failureOf(result) {
  return result._meta?.['mcp-error-policy/failure'];
}

/** A tool's error result: the text, and the failure object with a 12-hex correlation id. */
function expectToolFailure(result, text, failure) {
  const correlationId = failureOf(result)?.correlationId;
  assert.match(String(correlationId), ID, JSON.stringify(result));
  assert.deepEqual(result, { _meta: { 'mcp-error-policy/failure': { ...failure, correlationId } }, content: [{ type: 'text', text }], isError: true });
  return correlationId;
}

/** A crash's answer: masked (the crash's text beside the reference in dev mode only), the reference as correlation id. */
function expectCrash(result, tool, devMode) {
  const text = result.content?.[0]?.text ?? '';
  const reference = new RegExp(`^Error executing tool ${tool}(?:: .*)? \\(reference ([0-9a-f]{12})\\)$`).exec(text)?.[1];
  assert.ok(reference, text);
  assert.equal(text.includes('CANARY'), devMode, text);
  expectToolFailure(result, text, { code: 'internal', retryable: false });
  assert.equal(failureOf(result).correlationId, reference);
  return { level: 'error', kind: 'crash', reference, correlationId: reference };
}

/** What Node's fetch gives (Bun's and Deno's too): the network text of each failure. */
export const NODE_NETWORK = { refused: 'connection refused (ECONNREFUSED)', dns: 'host not found (ENOTFOUND)' };

/**
 * Calls every scenario through `client` and checks what it received on the wire; returns, for each, what its log
 * record must hold (level, kind, rule, correlation id), for the caller to check where the records went. `devMode`:
 * the crash's text is expected beside the reference. `network`: the words of each network failure, or `'crash'` for
 * one this runtime's errors do not tell apart from a crash.
 */
export async function checkScenarios(client, { devMode = false, network = NODE_NETWORK } = {}) {
  const expected = {};
  const crash = await client.callTool({ name: 'crash', arguments: {} });
  expected.crash = expectCrash(crash, 'crash', devMode);

  const deliberate = await client.callTool({ name: 'deliberate', arguments: {} });
  const deliberateId = expectToolFailure(deliberate, 'Error executing tool deliberate: Sheet name must not be empty', { code: 'tool_error', retryable: false });
  expected.deliberate = { level: 'info', kind: 'anticipated', rule: 'deliberate', correlationId: deliberateId };

  const answers = [crash, deliberate];
  for (const [tool, words] of Object.entries(network)) {
    const result = await client.callTool({ name: tool, arguments: {} });
    answers.push(result);
    if (words === 'crash') {
      expected[tool] = expectCrash(result, tool, false);
      continue;
    }
    // a refused connection or an unknown host: the request never reached the service (`upstream: 'unreached'`)
    const unreached = /\((?:ECONNREFUSED|ENOTFOUND)\)$/.test(words) ? { upstream: 'unreached' } : {};
    const id = expectToolFailure(result, `Error executing tool ${tool}: Network error: ${words}`, { code: 'network', retryable: true, ...unreached });
    expected[tool] = { level: 'warn', kind: 'anticipated', rule: 'network', correlationId: id };
  }

  const missing = await client.readResource({ uri: 'stock://nope' }).then(
    () => assert.fail('reading stock://nope succeeded'),
    (error) => error,
  );
  assert.equal(missing.code, -32002, String(missing));
  assert.equal(missing.message, 'MCP error -32002: No item named nope');
  const resourceId = missing.data?.['mcp-error-policy/failure']?.correlationId;
  assert.match(String(resourceId), ID, JSON.stringify(missing.data));
  expected.resource = { level: 'info', kind: 'anticipated', rule: 'resource-not-found', correlationId: resourceId };

  const wire = JSON.stringify([...answers, missing.message, missing.data]);
  for (const leak of [SECRET_KEY, UNKNOWN_HOST, '127.0.0.1', devMode ? SECRET_KEY : 'CANARY']) assert.ok(!wire.includes(leak), `${leak} reached the client`);
  return expected;
}

/** The records (as LogRecord objects) match what checkScenarios expects, one each, and hold no secret. */
export function checkRecords(records, expected) {
  assert.equal(records.length, Object.keys(expected).length, JSON.stringify(records));
  for (const want of Object.values(expected)) {
    const record = records.find((r) => r.correlationId === want.correlationId);
    assert.ok(record, `no record with correlation id ${want.correlationId}`);
    assert.deepEqual({ level: record.level, kind: record.kind, ...(want.rule === undefined ? {} : { rule: record.rule }), ...(want.reference === undefined ? {} : { reference: record.reference }), correlationId: record.correlationId }, want);
  }
  assert.ok(!JSON.stringify(records).includes(SECRET_KEY), 'the secret key reached a record');
}

// What test/published/drive.mjs and test/published/apis.mjs both check in an answer of an adopted copy.
import assert from 'node:assert/strict';

/** A stack frame or a file path with line and column, as an Error's stack shows them. */
export const STACK = /\n\s+at |\(\/[^)]*:\d+:\d+\)/;

/** The one text block of a tool result. */
export function text(result) {
  assert.equal(result.content.length, 1, JSON.stringify(result));
  assert.equal(result.content[0].type, 'text');
  return result.content[0].text;
}

/** The failure object of a tool result, checked for its fields (retryAfterMs only where the service gave a delay). */
export function failureOf(result, call) {
  const failure = result._meta?.['mcp-error-policy/failure'];
  const keys = Object.keys(failure ?? {}).filter((key) => key !== 'retryAfterMs').sort();
  assert.deepEqual(keys, ['code', 'correlationId', 'retryable'], `${call}: failure object in ${JSON.stringify(result)}`);
  assert.equal(typeof failure.code, 'string');
  assert.equal(typeof failure.retryable, 'boolean');
  assert.match(failure.correlationId, /^[0-9a-f]{12}$/);
  return failure;
}

/** The [mcp-error-policy] records in a server's stderr. */
export function recordsIn(stderr) {
  return stderr.split('\n').filter((line) => line.startsWith('[mcp-error-policy]'));
}

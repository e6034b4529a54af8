/**
 * The codeless network failures of Deno and workerd, beyond the shapes captured in shapes.json: every errno number
 * that Deno's message may end with (the captured refused message with the number and words of each, as Rust prints
 * them), and what must not be taken for a network failure: another errno, an error that has a code of its own, a
 * workerd `Network connection lost.` without workerd's own properties, workerd's generic `internal error`.
 */
import { describe, expect, it } from 'vitest';
import { classifyError, defaultPolicy } from '../../src/index.js';

/** Deno's fetch cause for a refused connection (shapes.json), with `words (os error N)` at its end. */
function denoCause(tail: string): TypeError {
  const cause = new Error(`error sending request for url (http://127.0.0.1:45999/x?key=AIzaSyRUNTIMESxxxxxxxxxxxxxxxxxxxxxxx): client error (Connect): tcp connect error: ${tail}`);
  return new TypeError('fetch failed', { cause });
}

/** The client text and failure code classifyError gives. */
function outcome(error: unknown): { kind: string; text?: string; code: string } {
  const c = classifyError(error, defaultPolicy);
  return c.kind === 'anticipated' ? { kind: c.kind, text: c.message, code: c.failure.code } : { kind: c.kind, code: c.kind === 'crash' ? c.failure.code : 'protocol' };
}

describe('codeless network failures', () => {
  it.each([
    ['Connection refused (os error 111)', 'Network error: connection refused (ECONNREFUSED)'],
    ['Connection reset by peer (os error 104)', 'Network error: connection reset by peer (ECONNRESET)'],
    ['Connection timed out (os error 110)', 'Network error: connection timed out (ETIMEDOUT)'],
    ['No route to host (os error 113)', 'Network error: host unreachable (EHOSTUNREACH)'],
    ['Network is unreachable (os error 101)', 'Network error: network unreachable (ENETUNREACH)'],
    ['dns error: failed to lookup address information: Name or service not known', 'Network error: host not found (ENOTFOUND)'],
    ['dns error: failed to lookup address information: Temporary failure in name resolution', 'Network error: temporary DNS failure (EAI_AGAIN)'],
  ])('Deno: %s', (tail, text) => {
    expect(outcome(denoCause(tail))).toEqual({ kind: 'anticipated', text, code: 'network' });
  });

  it('workerd: Network connection lost., with remote and retryable', () => {
    const error = Object.assign(new Error('Network connection lost.'), { remote: true, retryable: true });
    expect(outcome(error)).toEqual({ kind: 'anticipated', text: 'Network error: connection lost (CONNECTION_LOST)', code: 'network' });
  });

  it.each([
    ['another errno (a file not found)', denoCause('No such file or directory (os error 2)')],
    ['an errno Deno never prints for a network failure', denoCause('Permission denied (os error 13)')],
    ['an error with a code of its own', Object.assign(new Error('tcp connect error: Connection refused (os error 111)'), { code: 'EACCES' })],
    ['Network connection lost. without remote and retryable', new Error('Network connection lost.')],
    ['Network connection lost. with remote only', Object.assign(new Error('Network connection lost.'), { remote: true })],
    ["workerd's internal error, for a failed DNS lookup as for any internal failure", Object.assign(new Error('internal error; reference = vd9os2nanns6plk2q845ur1q'), { remote: true })],
  ])('not a network failure: %s', (_title, error) => {
    expect(outcome(error)).toEqual({ kind: 'crash', code: 'internal' });
  });
});

/**
 * What a wrapper answers a cancelled call. The SDKs send no answer to a request whose signal was aborted (1.0.1 onward
 * and 2.x drop it: test/server/cancel*.test.ts see nothing on the wire), so the answer cannot be seen through a client;
 * here the wrappers are called as the SDK calls them, with the per-request context's signal aborted as the SDK aborts
 * it (a string reason), to pin down what would go out should anything still send it: the policy's text, never the
 * thrown text, whatever was thrown.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { withClientVisibleErrors, withClientVisiblePromptErrors, withClientVisibleResourceErrors } from '../../src/index.js';
import { failureData, failureObject, toolFailure } from '../support/failure.js';
import { capture, rpcError, withoutDurations } from '../support/calls.js';

const CANARY = 'CANARY-cancel-4e1a: /srv/app/search.ts';

/** The SDK v1 per-request context of a call the client cancelled (`extra`); v2's carries the signal in `mcpReq`. */
function cancelledExtra(sdk: 'v1' | 'v2'): object {
  const controller = new AbortController();
  controller.abort('AbortError: This operation was aborted');
  return sdk === 'v1' ? { signal: controller.signal, requestId: 7 } : { mcpReq: { id: 7, method: 'tools/call', signal: controller.signal } };
}

describe.each(['v1', 'v2'] as const)('a wrapper under a cancelled call (SDK %s context)', (sdk) => {
  it('a tool answers the fixed text with the failure object `cancelled`, whatever was thrown', async () => {
    const thrown: unknown[] = ['AbortError: This operation was aborted', new TypeError(CANARY), new McpError(ErrorCode.InternalError, CANARY), Symbol(CANARY)];
    const { policy, records, outcomes } = capture();
    for (const value of thrown) {
      const tool = withClientVisibleErrors(
        async (_args: object, _extra: object) => {
          throw value;
        },
        { name: 'slow_search', policy },
      );
      const answer = await tool({}, cancelledExtra(sdk));
      expect(answer).toEqual(toolFailure('Error executing tool slow_search: The request was cancelled.', failureObject('cancelled', false)));
      expect(JSON.stringify(answer)).not.toContain('CANARY');
    }
    expect(records.map(({ level, kind, rule, status, stack, reference }) => ({ level, kind, rule, status, stack, reference }))).toEqual(
      thrown.map(() => ({ level: 'info', kind: 'anticipated', rule: 'cancelled', status: 499, stack: undefined, reference: undefined })),
    );
    expect(withoutDurations(outcomes)).toEqual(thrown.map(() => ({ kind: 'tool', name: 'slow_search', status: 499, classification: 'anticipated' })));
  });

  it('a resource and a prompt answer a JSON-RPC error with the fixed text', async () => {
    const { policy, records } = capture();
    const read = withClientVisibleResourceErrors(
      async (_uri: URL, _extra: object) => {
        throw new Error(CANARY);
      },
      { policy },
    );
    const prompt = withClientVisiblePromptErrors(
      async (_args: object, _extra: object) => {
        throw new Error(CANARY);
      },
      { name: 'summarize', policy },
    );
    const resourceError = await rpcError(Promise.resolve(read(new URL('sheet://q3'), cancelledExtra(sdk))));
    const promptError = await rpcError(Promise.resolve(prompt({}, cancelledExtra(sdk))));
    expect(resourceError).toEqual({ code: -32603, message: 'The request was cancelled.', data: failureData(failureObject('cancelled', false)) });
    expect(promptError).toEqual({ code: -32603, message: 'The request was cancelled.', data: failureData(failureObject('cancelled', false)) });
    expect(records.map(({ message }) => message)).toEqual([
      `resource "sheet://q3" cancelled: Error ${JSON.stringify(CANARY)}`,
      `prompt "summarize" cancelled: Error ${JSON.stringify(CANARY)}`,
    ]);
  });
});

it('a call whose signal is not aborted is classified as before', async () => {
  const { policy, records } = capture();
  const tool = withClientVisibleErrors(
    async (_args: object, _extra: object) => {
      throw 'AbortError: This operation was aborted';
    },
    { name: 'slow_search', policy },
  );
  const answer = await tool({}, { signal: new AbortController().signal, requestId: 8 });
  expect(answer).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^Error executing tool slow_search \(reference [0-9a-f]{12}\)$/) }] });
  expect(records.map(({ level, kind }) => ({ level, kind }))).toEqual([{ level: 'error', kind: 'crash' }]);
});

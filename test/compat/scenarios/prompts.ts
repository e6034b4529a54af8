/** The prompt scenarios of the compatibility table (test/compat/scenarios.ts): each handler beside what it must produce. */
import { z } from 'zod';
import { ResourceNotFoundError, ToolError, withClientVisiblePromptErrors } from '../../../src/index.js';
import { abortNow, cyclicCrash, DEGRADED, GrantRevokedError, promptResult, readUndefinedY } from './fixtures.js';
import { crashed, degraded, ECONNREFUSED_TEXT, failure, INTERNAL, fetchesClosedPort, info, protocol, protocolMessage, protocolName, REFUSED, REVOKED, REVOKED_TEXT, rethrowsFailureOf, rpc, s, throws, warn, type Scenario } from './model.js';

export const promptScenarios: readonly Scenario[] = [
  s({
    id: 'prompt_deliberate',
    kind: 'prompt',
    category: 'deliberate',
    title: 'a deliberate error in a prompt: -32603 with its text',
    args: { topic: 'q3' },
    schema: { topic: z.string() },
    handler: () => async ({ topic }: { topic: string }) => {
      throw new ToolError(`No template for topic '${topic}'`);
    },
    expect: () => ({
      wire: rpc(-32603, "No template for topic 'q3'", failure('tool_error', false)),
      records: [info('prompt', 'prompt_deliberate', 'ToolError', "No template for topic 'q3'")],
    }),
  }),
  s({
    id: 'prompt_not_found',
    kind: 'prompt',
    category: 'deliberate',
    title: 'ResourceNotFoundError in a prompt keeps -32002',
    handler: throws(() => new ResourceNotFoundError('The sheet behind this prompt was deleted')),
    expect: () => ({
      wire: rpc(-32002, 'The sheet behind this prompt was deleted', failure('resource_not_found', false)),
      records: [info('prompt', 'prompt_not_found', 'ResourceNotFoundError', 'The sheet behind this prompt was deleted', 404, 'resource-not-found')],
    }),
  }),
  s({
    id: 'prompt_not_found_code',
    kind: 'prompt',
    category: 'deliberate',
    title: 'ResourceNotFoundError with a code and a retry delay in a prompt: -32002, its code, the delay',
    handler: throws(() => new ResourceNotFoundError('The sheet is still being created', { code: 'sheet_pending', retryAfterMs: 1 })),
    expect: () => ({
      wire: rpc(-32002, 'The sheet is still being created. Retry after 1 s.', failure('sheet_pending', true, 1)),
      records: [info('prompt', 'prompt_not_found_code', 'ResourceNotFoundError', 'The sheet is still being created', 404, 'resource-not-found')],
    }),
  }),
  s({
    id: 'prompt_network',
    kind: 'prompt',
    category: 'allowlisted',
    title: 'a real fetch to a closed port inside a prompt',
    handler: fetchesClosedPort,
    expect: () => ({
      wire: rpc(-32603, ECONNREFUSED_TEXT, failure('network', true)),
      records: [warn('prompt', 'prompt_network', 'network', 502, 'TypeError', 'fetch failed', REFUSED)],
    }),
  }),
  s({
    id: 'prompt_abort',
    kind: 'prompt',
    category: 'allowlisted',
    title: 'an abort inside a prompt',
    handler: () => async () => abortNow(),
    expect: () => ({
      wire: rpc(-32603, 'The operation was aborted', failure('aborted', false)),
      records: [warn('prompt', 'prompt_abort', 'abort', 499, 'AbortError', 'This operation was aborted')],
    }),
  }),
  s({
    id: 'prompt_crash',
    kind: 'prompt',
    category: 'crash',
    title: 'a prompt crash names the prompt and the reference',
    args: { topic: 'q3' },
    schema: { topic: z.string() },
    handler: () => async ({ topic }: { topic: string }) => promptResult(`${topic}: ${readUndefinedY()}`),
    expect: () => ({
      wire: rpc(-32603, 'Error getting prompt prompt_crash (reference <ref>)', INTERNAL),
      records: [crashed('prompt', 'prompt_crash', 'TypeError', "Cannot read properties of undefined (reading 'y')")],
    }),
  }),
  s({
    id: 'prompt_protocol',
    kind: 'prompt',
    category: 'protocol',
    title: 'a protocol error in a prompt passes through with its code',
    handler: throws(({ sdk }) => sdk.protocolError(-32602, 'Unknown topic')),
    expect: (sdk) => ({
      wire: rpc(-32602, protocolMessage(sdk, -32602, 'Unknown topic')),
      records: [protocol('prompt', 'prompt_protocol', -32602, 400, protocolName(sdk), protocolMessage(sdk, -32602, 'Unknown topic'))],
    }),
  }),
  s({
    id: 'prompt_hostile_cyclic',
    kind: 'prompt',
    category: 'hostile',
    title: 'a cyclic cause chain in a prompt',
    handler: throws(() => cyclicCrash()),
    expect: () => ({
      wire: rpc(-32603, 'Error getting prompt prompt_hostile_cyclic (reference <ref>)', INTERNAL),
      records: [crashed('prompt', 'prompt_hostile_cyclic', 'Error', 'Sync failed')],
    }),
  }),
  s({
    id: 'prompt_hostile_null',
    kind: 'prompt',
    category: 'hostile',
    title: 'a thrown null in a prompt',
    handler: throws(() => null),
    expect: () => ({
      wire: rpc(-32603, 'Error getting prompt prompt_hostile_null (reference <ref>)', INTERNAL),
      records: [crashed('prompt', 'prompt_hostile_null', 'null', 'null')],
    }),
  }),
  s({
    id: 'prompt_degraded',
    kind: 'prompt',
    category: 'degraded',
    title: 'degraded prompt',
    handler: ({ degradedPolicy }) =>
      withClientVisiblePromptErrors(
        async () => {
          throw new Error('the degraded handler must not run');
        },
        { name: 'prompt_degraded', policy: degradedPolicy },
      ),
    expect: () => ({ wire: rpc(-32603, DEGRADED, failure('auth_required', false)), records: [degraded('prompt', 'prompt_degraded')] }),
  }),
  s({
    id: 'prompt_reauthorize',
    kind: 'prompt',
    category: 'reauthorize',
    title: 're-authorization in a prompt',
    handler: throws(() => new GrantRevokedError()),
    expect: () => ({
      wire: rpc(-32603, REVOKED_TEXT, failure('grant-revoked', false)),
      records: [warn('prompt', 'prompt_reauthorize', 'grant-revoked', 401, 'GrantRevokedError', REVOKED)],
    }),
  }),
  s({
    id: 'prompt_nested_crash',
    kind: 'prompt',
    category: 'nested',
    title: "a prompt rethrowing a wrapped tool's crash text: the reference reaches the client",
    handler: rethrowsFailureOf('crash', ToolError),
    expect: () => ({
      wire: rpc(-32603, 'Error executing tool inner_crash (reference <ref>)', failure('tool_error', false)),
      records: [
        crashed('tool', 'inner_crash', 'TypeError', "Cannot read properties of undefined (reading 'y')"),
        info('prompt', 'prompt_nested_crash', 'ToolError', 'Error executing tool inner_crash (reference <ref>)'),
      ],
    }),
  }),
];

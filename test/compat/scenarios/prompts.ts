/**
 * The prompt scenarios of the compatibility table (test/compat/scenarios.ts): one row each, the handler beside what it
 * must produce (the words of the expectations: ./model.ts).
 */
import { z } from 'zod';
import { ResourceNotFoundError, ToolError, withClientVisiblePromptErrors } from '../../../src/index.js';
import { abortNow, cyclicCrash, DEGRADED, GrantRevokedError, mustNotRun, promptResult, readUndefinedY } from './fixtures.js';
import { answers, degraded, ECONNREFUSED_TEXT, failure, fetchesClosedPort, info, INNER_CRASH, masked, passes, prompt, REFUSED, UNREACHED, REVOKED, REVOKED_TEXT, rethrowsFailureOf, rpc, shows, throws, warn, type Scenario } from './model.js';

/** The arguments of the prompts that take a topic. */
const TOPIC = { args: { topic: 'q3' }, schema: { topic: z.string() } };

export const promptScenarios: readonly Scenario[] = [
  prompt('prompt_deliberate', 'deliberate', 'a deliberate error in a prompt: -32603 with its text',
    () => async ({ topic }: { topic: string }) => {
      throw new ToolError(`No template for topic '${topic}'`);
    },
    shows("No template for topic 'q3'", failure('tool_error', false), info('ToolError', "No template for topic 'q3'")), TOPIC),
  prompt('prompt_not_found', 'deliberate', 'ResourceNotFoundError in a prompt keeps -32002',
    throws(() => new ResourceNotFoundError('The sheet behind this prompt was deleted')),
    answers(rpc(-32002, 'The sheet behind this prompt was deleted', failure('resource_not_found', false)), info('ResourceNotFoundError', 'The sheet behind this prompt was deleted', 404, 'resource-not-found'))),
  prompt('prompt_not_found_code', 'deliberate', 'ResourceNotFoundError with a code and a retry delay in a prompt: -32002, its code, the delay',
    throws(() => new ResourceNotFoundError('The sheet is still being created', { code: 'sheet_pending', retryAfterMs: 1 })),
    answers(rpc(-32002, 'The sheet is still being created. Retry after 1 s.', failure('sheet_pending', true, 1)), info('ResourceNotFoundError', 'The sheet is still being created', 404, 'resource-not-found'))),
  prompt('prompt_network', 'allowlisted', 'a real fetch to a closed port inside a prompt',
    fetchesClosedPort, shows(ECONNREFUSED_TEXT, UNREACHED, warn('network', 502, 'TypeError', 'fetch failed', REFUSED))),
  prompt('prompt_abort', 'allowlisted', 'an abort inside a prompt',
    () => async () => abortNow(), shows('The operation was aborted', failure('aborted', false), warn('abort', 499, 'AbortError', 'This operation was aborted'))),
  prompt('prompt_crash', 'crash', 'a prompt crash names the prompt and the reference',
    () => async ({ topic }: { topic: string }) => promptResult(`${topic}: ${readUndefinedY()}`), masked('TypeError', "Cannot read properties of undefined (reading 'y')"), TOPIC),
  prompt('prompt_protocol', 'protocol', 'a protocol error in a prompt passes through with its code',
    throws(({ sdk }) => sdk.protocolError(-32602, 'Unknown topic')), passes(-32602, 400, 'Unknown topic')),
  prompt('prompt_hostile_cyclic', 'hostile', 'a cyclic cause chain in a prompt', throws(() => cyclicCrash()), masked('Error', 'Sync failed')),
  prompt('prompt_hostile_null', 'hostile', 'a thrown null in a prompt', throws(() => null), masked('null', 'null')),
  prompt('prompt_degraded', 'degraded', 'degraded prompt',
    ({ degradedPolicy }) => withClientVisiblePromptErrors(mustNotRun(), { name: 'prompt_degraded', policy: degradedPolicy }), shows(DEGRADED, failure('auth_required', false), degraded)),
  prompt('prompt_reauthorize', 'reauthorize', 're-authorization in a prompt',
    throws(() => new GrantRevokedError()), shows(REVOKED_TEXT, failure('grant-revoked', false), warn('grant-revoked', 401, 'GrantRevokedError', REVOKED))),
  prompt('prompt_nested_crash', 'nested', "a prompt rethrowing a wrapped tool's crash text: the reference reaches the client", rethrowsFailureOf('crash', ToolError),
    shows('Error executing tool inner_crash (reference <ref>)', failure('tool_error', false), INNER_CRASH, info('ToolError', 'Error executing tool inner_crash (reference <ref>)'))),
];

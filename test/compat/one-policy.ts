/**
 * One policy per server, whatever the wrapping style: a server under `applyErrorPolicy` with callbacks wrapped by hand
 * (with and without a name, before and after the install, and given later through `update({ callback })`), one with
 * its own policy, a prompt and a resource. Shared by the in-memory and stdio tests of SDK v1 and v2
 * (one-policy.test.ts, one-policy-v2.test.ts) and the stdio fixture (one-policy-server.ts).
 *
 * The Google failures are real: gaxios 7 asking a fake Google on 127.0.0.1 that answers 403 PERMISSION_DENIED.
 */
import { createErrorPolicy, coreRules, ToolError, withClientVisibleErrors, withClientVisiblePromptErrors, withClientVisibleResourceErrors } from '../../src/index.js';
import type { ErrorPolicy, LogRecord, Outcome } from '../../src/index.js';
import { googleRules } from '../../src/google/index.js';
import { CORRELATED } from './scenarios/model.js';
import type { LooseServer } from './scenarios.js';

/** A planted API key: it must never reach the client or a log. */
export const PLANTED_KEY = 'AIzaSyD-PLANTEDonePOLICYkey0123456789ab';

/** Which policy a record or outcome went to. */
export type PolicyTag = 'server' | 'explicit';

export interface Sinks {
  record(tag: PolicyTag, record: LogRecord): void;
  outcome(tag: PolicyTag, outcome: Outcome): void;
}

interface GaxiosLike {
  request(options: { url: string; retry: boolean }): Promise<unknown>;
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/**
 * Registers the scenario on `server`, installing the policy between the registrations made before and after it, as a
 * user would. `googleOrigin` is the fake Google's origin.
 */
export async function buildOnePolicyServer(
  server: LooseServer,
  apply: (server: LooseServer, policy: ErrorPolicy) => void,
  googleOrigin: string,
  sinks: Sinks,
): Promise<void> {
  const gaxios = (await import('gaxios7')) as unknown as GaxiosLike;
  const forbidden = async (): Promise<never> => {
    await gaxios.request({ url: `${googleOrigin}/v1/forbidden?key=${PLANTED_KEY}&fields=id`, retry: false });
    throw new Error('unreachable: the fake Google answers 403');
  };
  const policy = createErrorPolicy({
    rules: [...googleRules, ...coreRules],
    logger: (record) => sinks.record('server', record),
    onOutcome: (outcome) => sinks.outcome('server', outcome),
  });
  // Google rules only: the package's own ToolError must still be shown.
  const explicit = createErrorPolicy({
    rules: googleRules,
    logger: (record) => sinks.record('explicit', record),
    onOutcome: (outcome) => sinks.outcome('explicit', outcome),
  });

  // Before the install: hand-wrapped, with a name and without one.
  server.registerTool('before_403', {}, withClientVisibleErrors(forbidden, { name: 'before_403' }));
  server.registerPrompt('prompt_before', {}, withClientVisiblePromptErrors(forbidden));
  server.registerResource('note', 'note://forbidden', {}, withClientVisibleResourceErrors(forbidden));

  apply(server, policy);

  // After it.
  server.registerTool('prewrapped_403', {}, withClientVisibleErrors(forbidden, { name: 'prewrapped_403' }));
  server.registerTool('prewrapped_ok', {}, withClientVisibleErrors(async () => text('fine')));
  server.registerTool(
    'anon',
    {},
    withClientVisibleErrors(async () => {
      throw new ToolError('deliberate');
    }),
  );
  const updated = server.registerTool('updated_403', {}, async () => text('not yet')) as { update(updates: { callback: unknown }): void };
  updated.update({ callback: withClientVisibleErrors(forbidden) });
  server.registerTool(
    'explicit_deliberate',
    {},
    withClientVisibleErrors(
      async () => {
        throw new ToolError('Shown under a Google-only rules list');
      },
      { policy: explicit },
    ),
  );
}

/** What the client reads for the 403 (Google's own text, the key redacted; the path only: the fake is on a loopback address). */
export function googleText(): string {
  return `The caller does not have permission (403 PERMISSION_DENIED from Google API GET /v1/forbidden?key=[REDACTED]&fields=id)`;
}

/** The record a 403 leaves in the server's logger, under the registered name. */
export function forbiddenRecord(handler: 'tool' | 'prompt' | 'resource', name: string, origin: string, errorMessage: string): Partial<LogRecord> & { correlationId: string } {
  const url = `${origin}/v1/forbidden?key=[REDACTED]&fields=id`;
  return {
    level: 'warn',
    kind: 'anticipated',
    handler,
    name,
    rule: 'google-api-error',
    status: 403,
    httpMethod: 'GET',
    httpUrl: url,
    httpStatus: 403,
    errorName: 'Error',
    errorMessage,
    message: `${handler} ${JSON.stringify(name)} failed (rule google-api-error: GET ${url} -> 403): Error ${JSON.stringify(errorMessage)}`,
    correlationId: CORRELATED,
  };
}

/** The calls every test makes, in order, and what the client must read for each (`MCP error <code>: ` for v1 errors). */
export const TOOL_CALLS = ['before_403', 'prewrapped_403', 'updated_403', 'prewrapped_ok', 'anon', 'explicit_deliberate'] as const;

export function expectedToolTexts(): Record<(typeof TOOL_CALLS)[number], { text: string; isError?: true }> {
  return {
    before_403: { text: `Error executing tool before_403: ${googleText()}`, isError: true },
    prewrapped_403: { text: `Error executing tool prewrapped_403: ${googleText()}`, isError: true },
    updated_403: { text: `Error executing tool updated_403: ${googleText()}`, isError: true },
    prewrapped_ok: { text: 'fine' },
    anon: { text: 'Error executing tool anon: deliberate', isError: true },
    explicit_deliberate: { text: 'Error executing tool explicit_deliberate: Shown under a Google-only rules list', isError: true },
  };
}

/**
 * The failure objects the client reads, in call order (the tools, then the prompt and the resource, whose JSON-RPC
 * errors carry it in `data`), without their correlation ids. The Google 403 has no `failure` of its rule: its code is
 * the rule's name.
 */
export const EXPECTED_FAILURES: readonly ({ code: string; retryable: boolean } | undefined)[] = [
  { code: 'permission_denied', retryable: false },
  { code: 'permission_denied', retryable: false },
  { code: 'permission_denied', retryable: false },
  undefined,
  { code: 'tool_error', retryable: false },
  { code: 'tool_error', retryable: false },
  { code: 'permission_denied', retryable: false },
  { code: 'permission_denied', retryable: false },
];

/** The outcomes, in call order (tools, then the prompt, then the resource), without durations. */
export const EXPECTED_OUTCOMES: readonly { tag: PolicyTag; kind: string; name: string; status: number }[] = [
  { tag: 'server', kind: 'tool', name: 'before_403', status: 403 },
  { tag: 'server', kind: 'tool', name: 'prewrapped_403', status: 403 },
  { tag: 'server', kind: 'tool', name: 'updated_403', status: 403 },
  { tag: 'server', kind: 'tool', name: 'prewrapped_ok', status: 200 },
  { tag: 'server', kind: 'tool', name: 'anon', status: 500 },
  { tag: 'explicit', kind: 'tool', name: 'explicit_deliberate', status: 500 },
  { tag: 'server', kind: 'prompt', name: 'prompt_before', status: 403 },
  { tag: 'server', kind: 'resource', name: 'note://forbidden', status: 403 },
];

/** The records, in call order, as [tag, handler, name, level, first line]. */
export function expectedRecords(origin: string, gaxiosMessage: string): readonly (Partial<LogRecord> & { tag: PolicyTag })[] {
  return [
    { tag: 'server', ...forbiddenRecord('tool', 'before_403', origin, gaxiosMessage) },
    { tag: 'server', ...forbiddenRecord('tool', 'prewrapped_403', origin, gaxiosMessage) },
    { tag: 'server', ...forbiddenRecord('tool', 'updated_403', origin, gaxiosMessage) },
    {
      tag: 'server',
      level: 'info',
      kind: 'anticipated',
      handler: 'tool',
      name: 'anon',
      rule: 'deliberate',
      status: 500,
      errorName: 'ToolError',
      errorMessage: 'deliberate',
      message: 'tool "anon" failed: ToolError "deliberate"',
      correlationId: CORRELATED,
    },
    {
      tag: 'explicit',
      level: 'info',
      kind: 'anticipated',
      handler: 'tool',
      name: 'explicit_deliberate',
      rule: 'deliberate',
      status: 500,
      errorName: 'ToolError',
      errorMessage: 'Shown under a Google-only rules list',
      message: 'tool "explicit_deliberate" failed: ToolError "Shown under a Google-only rules list"',
      correlationId: CORRELATED,
    },
    { tag: 'server', ...forbiddenRecord('prompt', 'prompt_before', origin, gaxiosMessage) },
    { tag: 'server', ...forbiddenRecord('resource', 'note://forbidden', origin, gaxiosMessage) },
  ];
}

/**
 * A record without its stack (compared on its own), its correlation id written {@link CORRELATED} (compared with the
 * answer's), as the expectations hold it.
 */
export function withoutStack(tag: PolicyTag, record: LogRecord): Partial<LogRecord> & { tag: PolicyTag } {
  const { stack: _stack, correlationId, ...rest } = record;
  return { tag, ...rest, ...(correlationId === undefined ? {} : { correlationId: CORRELATED }) };
}

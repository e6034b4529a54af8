/** The tool scenarios of the compatibility table (test/compat/scenarios.ts): each handler beside what it must produce. */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ToolError, toToolResult, withClientVisibleErrors } from '../../../src/index.js';
import {
  abortNow,
  cyclicAllowlisted,
  cyclicCrash,
  fetchClosed,
  GrantRevokedError,
  hostileObject,
  HUGE,
  HUGE_BOUNDED,
  MISSING_FILE,
  readMissing,
  readUndefinedY,
  revokedProxy,
  SECRET_TOKEN,
  text,
  upstreamData,
  upstreamSchema,
  waitTooLong,
  DEGRADED,
} from './fixtures.js';
import {
  crashed,
  degraded,
  failure,
  INTERNAL,
  ECONNREFUSED_TEXT,
  ENOENT_MESSAGE,
  ENOENT_TEXT,
  fetchesClosedPort,
  info,
  protocol,
  protocolMessage,
  protocolName,
  REFUSED,
  REVOKED,
  REVOKED_TEXT,
  rpc,
  rethrowsFailureOf,
  s,
  throws,
  TIMED_OUT,
  tool,
  toolCrash,
  toolText,
  uriOf,
  warn,
  type Scenario,
} from './model.js';

export const toolScenarios: readonly Scenario[] = [
  // ---- deliberate -----------------------------------------------------------------------------------------------------
  s({
    id: 'tool_deliberate',
    kind: 'tool',
    category: 'deliberate',
    title: 'ToolError text reaches the client; one info record without stack',
    args: { sheet: '' },
    schema: { sheet: z.string() },
    handler: () => async ({ sheet }: { sheet: string }) => {
      if (sheet === '') throw new ToolError('Sheet name must not be empty');
      return text(sheet);
    },
    expect: () => ({ wire: toolText('tool_deliberate', 'Sheet name must not be empty', failure('tool_error', false)), records: [info('tool', 'tool_deliberate', 'ToolError', 'Sheet name must not be empty')] }),
  }),
  s({
    id: 'tool_deliberate_cause',
    kind: 'tool',
    category: 'deliberate',
    title: 'a ToolError wrapping a secret-bearing cause shows only its own text',
    handler: throws(() => new ToolError('Could not save the sheet', { cause: new Error(`PUT failed with Authorization: Bearer ${SECRET_TOKEN}`) })),
    expect: () => ({ wire: toolText('tool_deliberate_cause', 'Could not save the sheet', failure('tool_error', false)), records: [info('tool', 'tool_deliberate_cause', 'ToolError', 'Could not save the sheet')] }),
  }),
  s({
    id: 'tool_deliberate_secret',
    kind: 'tool',
    category: 'deliberate',
    title: 'a token inside a ToolError message is scrubbed for client and log',
    handler: throws(() => new ToolError(`Token ${SECRET_TOKEN} was rejected`)),
    expect: () => ({
      wire: toolText('tool_deliberate_secret', 'Token [REDACTED] was rejected', failure('tool_error', false)),
      records: [info('tool', 'tool_deliberate_secret', 'ToolError', 'Token [REDACTED] was rejected')],
    }),
  }),
  s({
    id: 'tool_deliberate_huge',
    kind: 'tool',
    category: 'deliberate',
    title: 'a 10 MB ToolError message is bounded to maxMessageLength',
    handler: throws(() => new ToolError(HUGE)),
    expect: () => ({ wire: toolText('tool_deliberate_huge', HUGE_BOUNDED, failure('tool_error', false)), records: [info('tool', 'tool_deliberate_huge', 'ToolError', HUGE_BOUNDED)] }),
  }),
  s({
    id: 'tool_deliberate_retry',
    kind: 'tool',
    category: 'deliberate',
    title: 'a ToolError with code and retryAfterMs: the object says so, the text ends with the delay',
    handler: throws(() => new ToolError('The sheet is being recalculated.', { code: 'recalculating', retryAfterMs: 29_001 })),
    expect: () => ({
      wire: toolText('tool_deliberate_retry', 'The sheet is being recalculated. Retry after 30 s.', failure('recalculating', true, 29_001)),
      records: [info('tool', 'tool_deliberate_retry', 'ToolError', 'The sheet is being recalculated.')],
    }),
  }),
  s({
    id: 'tool_to_tool_result',
    kind: 'tool',
    category: 'allowlisted',
    title: 'a tool that catches and returns toToolResult gets the wrapper text and one record',
    handler:
      ({ policy }) =>
      async () => {
        try {
          return text(await readFile(MISSING_FILE, 'utf8'));
        } catch (error) {
          return toToolResult(error, 'tool_to_tool_result', policy);
        }
      },
    expect: () => ({
      wire: toolText('tool_to_tool_result', ENOENT_TEXT, failure('file-system', false)),
      records: [warn('tool', 'tool_to_tool_result', 'file-system', 500, 'Error', ENOENT_MESSAGE)],
    }),
  }),
  // ---- allowlisted foreign errors -------------------------------------------------------------------------------------
  s({
    id: 'tool_network_fetch',
    kind: 'tool',
    category: 'allowlisted',
    title: 'a real fetch to a closed 127.0.0.1 port: fixed text, never the URL',
    handler: fetchesClosedPort,
    expect: () => ({ wire: toolText('tool_network_fetch', ECONNREFUSED_TEXT, failure('network', true)), records: [warn('tool', 'tool_network_fetch', 'network', 502, 'TypeError', 'fetch failed', REFUSED)] }),
  }),
  s({
    id: 'tool_network_wrapped',
    kind: 'tool',
    category: 'allowlisted',
    title: 'a network failure wrapped in an unvetted Error shows the network text, not the wrapper',
    handler:
      ({ closedUrl }) =>
      async () => {
        try {
          return await fetchClosed(closedUrl);
        } catch (error) {
          throw new Error('Sheet sync failed', { cause: error });
        }
      },
    expect: () => ({ wire: toolText('tool_network_wrapped', ECONNREFUSED_TEXT, failure('network', true)), records: [warn('tool', 'tool_network_wrapped', 'network', 502, 'Error', 'Sheet sync failed', REFUSED)] }),
  }),
  s({
    id: 'tool_fs_enoent',
    kind: 'tool',
    category: 'allowlisted',
    title: 'fs ENOENT: code and syscall, no path',
    handler: () => readMissing,
    expect: () => ({ wire: toolText('tool_fs_enoent', ENOENT_TEXT, failure('file-system', false)), records: [warn('tool', 'tool_fs_enoent', 'file-system', 500, 'Error', ENOENT_MESSAGE)] }),
  }),
  s({
    id: 'tool_fs_eisdir',
    kind: 'tool',
    category: 'allowlisted',
    title: 'fs EISDIR from reading a directory',
    handler: () => async () => text(await readFile('/', 'utf8')),
    expect: () => ({
      wire: toolText('tool_fs_eisdir', 'File system error: is a directory (EISDIR, read)', failure('file-system', false)),
      records: [warn('tool', 'tool_fs_eisdir', 'file-system', 500, 'Error', 'EISDIR: illegal operation on a directory, read')],
    }),
  }),
  s({
    id: 'tool_timeout',
    kind: 'tool',
    category: 'allowlisted',
    title: 'AbortSignal.timeout on a real timer: the timeout text (the abort is a timeout in disguise)',
    handler: () => waitTooLong,
    expect: () => ({
      wire: toolText('tool_timeout', 'The operation timed out', failure('timeout', true)),
      records: [warn('tool', 'tool_timeout', 'timeout', 504, 'AbortError', 'The operation was aborted', TIMED_OUT)],
    }),
  }),
  s({
    id: 'tool_abort',
    kind: 'tool',
    category: 'allowlisted',
    title: 'an aborted signal: the abort text',
    handler: () => async () => abortNow(),
    expect: () => ({ wire: toolText('tool_abort', 'The operation was aborted', failure('aborted', false)), records: [warn('tool', 'tool_abort', 'abort', 499, 'AbortError', 'This operation was aborted')] }),
  }),
  // ---- crashes --------------------------------------------------------------------------------------------------------
  s({
    id: 'tool_crash_type_error',
    kind: 'tool',
    category: 'crash',
    title: 'a TypeError from undefined.x is masked with a reference',
    handler: () => async () => text(readUndefinedY()),
    expect: () => ({
      wire: toolCrash('tool_crash_type_error', INTERNAL),
      records: [crashed('tool', 'tool_crash_type_error', 'TypeError', "Cannot read properties of undefined (reading 'y')")],
    }),
  }),
  s({
    id: 'tool_crash_sync',
    kind: 'tool',
    category: 'crash',
    title: 'a synchronous throw from a non-async handler',
    handler: () => () => text(String(new Array(-1).length)),
    expect: () => ({ wire: toolCrash('tool_crash_sync', INTERNAL), records: [crashed('tool', 'tool_crash_sync', 'RangeError', 'Invalid array length')] }),
  }),
  s({
    id: 'tool_crash_secret',
    kind: 'tool',
    category: 'crash',
    title: 'a crash whose message holds a token: masked for the client, scrubbed in the log',
    handler: throws(() => new Error(`GET https://sheets.example/v4?access_token=${SECRET_TOKEN} returned garbage`)),
    expect: () => ({
      wire: toolCrash('tool_crash_secret', INTERNAL),
      records: [crashed('tool', 'tool_crash_secret', 'Error', 'GET https://sheets.example/v4?access_token=[REDACTED] returned garbage')],
    }),
  }),
  s({
    id: 'tool_crash_zod',
    kind: 'tool',
    category: 'crash',
    title: 'a ZodError from parsing upstream data is a crash by default (the zod rule is opt-in)',
    handler: () => async () => text(upstreamSchema.parse(upstreamData).rows.join(',')),
    expect: (_sdk, facts) => ({ wire: toolCrash('tool_crash_zod', INTERNAL), records: [crashed('tool', 'tool_crash_zod', 'ZodError', facts.zodMessage)] }),
  }),
  s({
    id: 'tool_crash_huge',
    kind: 'tool',
    category: 'crash',
    title: 'a crash with a 10 MB message: the record is bounded',
    handler: throws(() => new Error(HUGE)),
    expect: () => ({ wire: toolCrash('tool_crash_huge', INTERNAL), records: [crashed('tool', 'tool_crash_huge', 'Error', HUGE_BOUNDED)] }),
  }),
  // ---- protocol errors ------------------------------------------------------------------------------------------------
  s({
    id: 'tool_protocol',
    kind: 'tool',
    category: 'protocol',
    title: 'an McpError / ProtocolError passes through untouched (the SDK shows its message)',
    handler: throws(({ sdk }) => sdk.protocolError(-32602, 'Unknown cell reference A0')),
    expect: (sdk) => ({
      wire: tool(protocolMessage(sdk, -32602, 'Unknown cell reference A0')),
      records: [protocol('tool', 'tool_protocol', -32602, 400, protocolName(sdk), protocolMessage(sdk, -32602, 'Unknown cell reference A0'))],
    }),
  }),
  s({
    id: 'tool_protocol_url_elicitation',
    kind: 'tool',
    category: 'protocol',
    title: 'UrlElicitationRequired (-32042) stays a JSON-RPC error',
    handler: throws(({ sdk }) => sdk.urlElicitationRequired()),
    expect: (sdk) => ({
      wire: rpc(-32042, protocolMessage(sdk, -32042, 'URL elicitation required')),
      records: [protocol('tool', 'tool_protocol_url_elicitation', -32042, 403, protocolName(sdk), protocolMessage(sdk, -32042, 'URL elicitation required'))],
    }),
  }),
  s({
    id: 'tool_protocol_structural',
    kind: 'tool',
    category: 'protocol',
    title: "a foreign copy's ProtocolError (name and integer code only) is recognised structurally",
    handler: throws(() => Object.assign(new Error('Sheet is read-only'), { name: 'ProtocolError', code: -32600 })),
    expect: () => ({
      wire: tool('Sheet is read-only'),
      records: [protocol('tool', 'tool_protocol_structural', -32600, 400, 'ProtocolError', 'Sheet is read-only')],
    }),
  }),
  // ---- hostile values -------------------------------------------------------------------------------------------------
  s({
    id: 'tool_hostile_string',
    kind: 'tool',
    category: 'hostile',
    title: 'a thrown string',
    handler: throws(() => 'boom'),
    expect: () => ({ wire: toolCrash('tool_hostile_string', INTERNAL), records: [crashed('tool', 'tool_hostile_string', 'string', 'boom')] }),
  }),
  s({
    id: 'tool_hostile_undefined',
    kind: 'tool',
    category: 'hostile',
    title: 'a thrown undefined',
    handler: throws(() => undefined),
    expect: () => ({ wire: toolCrash('tool_hostile_undefined', INTERNAL), records: [crashed('tool', 'tool_hostile_undefined', 'undefined', 'undefined')] }),
  }),
  s({
    id: 'tool_hostile_symbol',
    kind: 'tool',
    category: 'hostile',
    title: 'a thrown Symbol',
    handler: throws(() => Symbol('boom')),
    expect: () => ({ wire: toolCrash('tool_hostile_symbol', INTERNAL), records: [crashed('tool', 'tool_hostile_symbol', 'symbol', 'Symbol(boom)')] }),
  }),
  s({
    id: 'tool_hostile_revoked_proxy',
    kind: 'tool',
    category: 'hostile',
    title: 'a revoked Proxy',
    handler: throws(() => revokedProxy()),
    expect: () => ({ wire: toolCrash('tool_hostile_revoked_proxy', INTERNAL), records: [crashed('tool', 'tool_hostile_revoked_proxy', 'object', '')] }),
  }),
  s({
    id: 'tool_hostile_getters',
    kind: 'tool',
    category: 'hostile',
    title: 'an object whose every read throws',
    handler: throws(() => hostileObject()),
    expect: () => ({ wire: toolCrash('tool_hostile_getters', INTERNAL), records: [crashed('tool', 'tool_hostile_getters', 'object', '')] }),
  }),
  s({
    id: 'tool_hostile_cyclic_cause',
    kind: 'tool',
    category: 'hostile',
    title: 'a cyclic cause chain with nothing allowlisted',
    handler: throws(() => cyclicCrash()),
    expect: () => ({ wire: toolCrash('tool_hostile_cyclic_cause', INTERNAL), records: [crashed('tool', 'tool_hostile_cyclic_cause', 'Error', 'Sync failed')] }),
  }),
  s({
    id: 'tool_hostile_cyclic_allowlisted',
    kind: 'tool',
    category: 'hostile',
    title: 'a ToolError inside a cycle is found, and its text (not the wrapper’s) is shown',
    handler: throws(() => cyclicAllowlisted()),
    expect: () => ({
      wire: toolText('tool_hostile_cyclic_allowlisted', 'Row 7 is locked by another editor', failure('tool_error', false)),
      records: [info('tool', 'tool_hostile_cyclic_allowlisted', 'Error', 'Sync failed', 500, 'deliberate', ['ToolError', 'Row 7 is locked by another editor'])],
    }),
  }),
  // ---- nested calls (the inner handlers: see innerHandlers in ./fixtures.ts) ---------------------------------------
  s({
    id: 'tool_nested_deliberate',
    kind: 'tool',
    category: 'nested',
    title: "a tool rethrows a wrapped tool's failure text as ToolError: two failures, each logged once",
    handler: rethrowsFailureOf('locked', ToolError),
    expect: () => ({
      wire: toolText('tool_nested_deliberate', 'Error executing tool inner_locked: Row 7 is locked by another editor', failure('tool_error', false)),
      records: [
        info('tool', 'inner_locked', 'ToolError', 'Row 7 is locked by another editor'),
        info('tool', 'tool_nested_deliberate', 'ToolError', 'Error executing tool inner_locked: Row 7 is locked by another editor'),
      ],
    }),
  }),
  s({
    id: 'tool_nested_crash',
    kind: 'tool',
    category: 'nested',
    title: "a wrapped tool's crash reference reaches the outer tool's client text",
    handler: rethrowsFailureOf('crash', ToolError),
    expect: () => ({
      wire: toolText('tool_nested_crash', 'Error executing tool inner_crash (reference <ref>)', failure('tool_error', false)),
      records: [
        crashed('tool', 'inner_crash', 'TypeError', "Cannot read properties of undefined (reading 'y')"),
        info('tool', 'tool_nested_crash', 'ToolError', 'Error executing tool inner_crash (reference <ref>)'),
      ],
    }),
  }),
  s({
    id: 'tool_nested_resource',
    kind: 'tool',
    category: 'nested',
    title: "a tool awaiting a wrapped resource callback: the resource's error is logged once, not again by the tool",
    handler:
      ({ inner }) =>
      async () => {
        const read = await inner.resource(new URL(uriOf('inner_resource')));
        return text(JSON.stringify(read));
      },
    expect: () => ({
      // The resource's JSON-RPC error (its failure object in `data`) rethrown from a tool: the SDK turns it into an
    // isError result of its message, without `data`, so the tool's answer carries no failure object.
    wire: tool(`Error reading resource ${uriOf('inner_resource')} (reference <ref>)`),
      records: [crashed('resource', uriOf('inner_resource'), 'Error', 'Index corrupt')],
    }),
  }),
  // ---- degraded, re-authorization, success ----------------------------------------------------------------------------
  s({
    id: 'tool_degraded',
    kind: 'tool',
    category: 'degraded',
    title: 'while degraded the handler does not run; the client gets the degraded message',
    handler: ({ degradedPolicy }) =>
      withClientVisibleErrors(
        async () => {
          throw new Error('the degraded handler must not run');
        },
        { name: 'tool_degraded', policy: degradedPolicy },
      ),
    expect: () => ({ wire: toolText('tool_degraded', DEGRADED, failure('auth_required', false)), records: [degraded('tool', 'tool_degraded')] }),
  }),
  s({
    id: 'tool_reauthorize',
    kind: 'tool',
    category: 'reauthorize',
    title: 'a custom rule with reauthorize: true appends the sign-in text, status 401',
    handler: throws(() => new GrantRevokedError()),
    expect: () => ({ wire: toolText('tool_reauthorize', REVOKED_TEXT, failure('grant-revoked', false)), records: [warn('tool', 'tool_reauthorize', 'grant-revoked', 401, 'GrantRevokedError', REVOKED)] }),
  }),
  s({
    id: 'tool_reauthorize_cause',
    kind: 'tool',
    category: 'reauthorize',
    title: 're-authorization found on the cause chain',
    handler: throws(() => new Error('Calendar sync failed', { cause: new GrantRevokedError() })),
    expect: () => ({
      wire: toolText('tool_reauthorize_cause', REVOKED_TEXT, failure('grant-revoked', false)),
      records: [warn('tool', 'tool_reauthorize_cause', 'grant-revoked', 401, 'Error', 'Calendar sync failed', ['GrantRevokedError', 'Token has been expired or revoked.'])],
    }),
  }),
  s({
    id: 'tool_ok',
    kind: 'tool',
    category: 'success',
    title: 'a successful call: result untouched, nothing logged',
    handler: () => async () => text('A1=42'),
    expect: () => ({ wire: { result: { text: 'A1=42', isError: false } }, records: [] }),
  }),
  s({
    id: 'tool_own_is_error',
    kind: 'tool',
    category: 'success',
    title: 'a tool returning its own isError result: untouched, nothing logged',
    handler: () => async () => ({ ...text('No rows matched'), isError: true }),
    expect: () => ({ wire: { result: { text: 'No rows matched', isError: true } }, records: [] }),
  }),
];

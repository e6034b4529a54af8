/**
 * The tool scenarios of the compatibility table (test/compat/scenarios.ts): one row each, the handler beside what it
 * must produce (the words of the expectations: ./model.ts).
 */
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
  mustNotRun,
} from './fixtures.js';
import {
  answers,
  ECONNREFUSED_TEXT,
  ENOENT_MESSAGE,
  ENOENT_TEXT,
  failure,
  fetchesClosedPort,
  info,
  INNER_CRASH,
  INNER_LOCKED,
  isError,
  masked,
  of,
  crashed,
  degraded,
  passes,
  protocol,
  protocolMessage,
  REFUSED, UNREACHED,
  rethrowsFailureOf,
  REVOKED,
  REVOKED_TEXT,
  rpc,
  sdkProtocol,
  shows,
  throws,
  TIMED_OUT,
  tool,
  uriOf,
  warn,
  type Scenario,
} from './model.js';

const TOOL_ERROR = failure('tool_error', false);

export const toolScenarios: readonly Scenario[] = [
  // ---- deliberate -----------------------------------------------------------------------------------------------------
  tool('tool_deliberate', 'deliberate', 'ToolError text reaches the client; one info record without stack',
    () => async ({ sheet }: { sheet: string }) => {
      if (sheet === '') throw new ToolError('Sheet name must not be empty');
      return text(sheet);
    },
    shows('Sheet name must not be empty', TOOL_ERROR, info('ToolError', 'Sheet name must not be empty')), { args: { sheet: '' }, schema: { sheet: z.string() } }),
  tool('tool_deliberate_cause', 'deliberate', 'a ToolError wrapping a secret-bearing cause shows only its own text',
    throws(() => new ToolError('Could not save the sheet', { cause: new Error(`PUT failed with Authorization: Bearer ${SECRET_TOKEN}`) })), shows('Could not save the sheet', TOOL_ERROR, info('ToolError', 'Could not save the sheet'))),
  tool('tool_deliberate_secret', 'deliberate', 'a token inside a ToolError message is scrubbed for client and log',
    throws(() => new ToolError(`Token ${SECRET_TOKEN} was rejected`)), shows('Token [REDACTED] was rejected', TOOL_ERROR, info('ToolError', 'Token [REDACTED] was rejected'))),
  tool('tool_deliberate_huge', 'deliberate', 'a 10 MB ToolError message is bounded to maxMessageLength', throws(() => new ToolError(HUGE)), shows(HUGE_BOUNDED, TOOL_ERROR, info('ToolError', HUGE_BOUNDED))),
  tool('tool_deliberate_retry', 'deliberate', 'a ToolError with code and retryAfterMs: the object says so, the text ends with the delay',
    throws(() => new ToolError('The sheet is being recalculated.', { code: 'recalculating', retryAfterMs: 29_001 })),
    shows('The sheet is being recalculated. Retry after 30 s.', failure('recalculating', true, 29_001), info('ToolError', 'The sheet is being recalculated.'))),
  tool('tool_to_tool_result', 'allowlisted', 'a tool that catches and returns toToolResult gets the wrapper text and one record',
    ({ policy }) =>
      async () => {
        try {
          return text(await readFile(MISSING_FILE, 'utf8'));
        } catch (error) {
          return toToolResult(error, 'tool_to_tool_result', policy);
        }
      },
    shows(ENOENT_TEXT, failure('file-system', false), warn('file-system', 500, 'Error', ENOENT_MESSAGE))),
  // ---- allowlisted foreign errors -------------------------------------------------------------------------------------
  tool('tool_network_fetch', 'allowlisted', 'a real fetch to a closed 127.0.0.1 port: fixed text, never the URL',
    fetchesClosedPort, shows(ECONNREFUSED_TEXT, UNREACHED, warn('network', 502, 'TypeError', 'fetch failed', REFUSED))),
  tool('tool_network_wrapped', 'allowlisted', 'a network failure wrapped in an unvetted Error shows the network text, not the wrapper',
    ({ closedUrl }) =>
      async () => {
        try {
          return await fetchClosed(closedUrl);
        } catch (error) {
          throw new Error('Sheet sync failed', { cause: error });
        }
      },
    shows(ECONNREFUSED_TEXT, UNREACHED, warn('network', 502, 'Error', 'Sheet sync failed', REFUSED))),
  tool('tool_fs_enoent', 'allowlisted', 'fs ENOENT: code and syscall, no path', () => readMissing, shows(ENOENT_TEXT, failure('file-system', false), warn('file-system', 500, 'Error', ENOENT_MESSAGE))),
  tool('tool_fs_eisdir', 'allowlisted', 'fs EISDIR from reading a directory', () => async () => text(await readFile('/', 'utf8')),
    shows('File system error: is a directory (EISDIR, read)', failure('file-system', false), warn('file-system', 500, 'Error', 'EISDIR: illegal operation on a directory, read'))),
  tool('tool_timeout', 'allowlisted', 'AbortSignal.timeout on a real timer: the timeout text (the abort is a timeout in disguise)',
    () => waitTooLong, shows('The operation timed out', failure('timeout', true), warn('timeout', 504, 'AbortError', 'The operation was aborted', TIMED_OUT))),
  tool('tool_abort', 'allowlisted', 'an aborted signal: the abort text',
    () => async () => abortNow(), shows('The operation was aborted', failure('aborted', false), warn('abort', 499, 'AbortError', 'This operation was aborted'))),
  // ---- crashes --------------------------------------------------------------------------------------------------------
  tool('tool_crash_type_error', 'crash', 'a TypeError from undefined.x is masked with a reference',
    () => async () => text(readUndefinedY()), masked('TypeError', "Cannot read properties of undefined (reading 'y')")),
  tool('tool_crash_sync', 'crash', 'a synchronous throw from a non-async handler', () => () => text(String(new Array(-1).length)), masked('RangeError', 'Invalid array length')),
  tool('tool_crash_secret', 'crash', 'a crash whose message holds a token: masked for the client, scrubbed in the log',
    throws(() => new Error(`GET https://sheets.example/v4?access_token=${SECRET_TOKEN} returned garbage`)), masked('Error', 'GET https://sheets.example/v4?access_token=[REDACTED] returned garbage')),
  tool('tool_crash_zod', 'crash', 'a ZodError from parsing upstream data is a crash by default (the zod rule is opt-in)',
    () => async () => text(upstreamSchema.parse(upstreamData).rows.join(',')), (at, sdk, facts) => masked('ZodError', facts.zodMessage)(at, sdk, facts)),
  tool('tool_crash_huge', 'crash', 'a crash with a 10 MB message: the record is bounded', throws(() => new Error(HUGE)), masked('Error', HUGE_BOUNDED)),
  // ---- protocol errors ------------------------------------------------------------------------------------------------
  tool('tool_protocol', 'protocol', 'an McpError / ProtocolError passes through untouched (the SDK shows its message)',
    throws(({ sdk }) => sdk.protocolError(-32602, 'Unknown cell reference A0')), passes(-32602, 400, 'Unknown cell reference A0')),
  tool('tool_protocol_url_elicitation', 'protocol', 'UrlElicitationRequired (-32042) stays a JSON-RPC error', throws(({ sdk }) => sdk.urlElicitationRequired()),
    answers((_at, sdk) => rpc(-32042, protocolMessage(sdk, -32042, 'URL elicitation required')), sdkProtocol(-32042, 403, 'URL elicitation required'))),
  tool('tool_protocol_structural', 'protocol', "a foreign copy's ProtocolError (name and integer code only) is recognised structurally",
    throws(() => Object.assign(new Error('Sheet is read-only'), { name: 'ProtocolError', code: -32600 })), answers(isError('Sheet is read-only'), protocol(-32600, 400, 'ProtocolError', 'Sheet is read-only'))),
  // ---- hostile values -------------------------------------------------------------------------------------------------
  tool('tool_hostile_string', 'hostile', 'a thrown string', throws(() => 'boom'), masked('string', 'boom')),
  tool('tool_hostile_undefined', 'hostile', 'a thrown undefined', throws(() => undefined), masked('undefined', 'undefined')),
  tool('tool_hostile_symbol', 'hostile', 'a thrown Symbol', throws(() => Symbol('boom')), masked('symbol', 'Symbol(boom)')),
  tool('tool_hostile_revoked_proxy', 'hostile', 'a revoked Proxy', throws(() => revokedProxy()), masked('object', '')),
  tool('tool_hostile_getters', 'hostile', 'an object whose every read throws', throws(() => hostileObject()), masked('object', '')),
  tool('tool_hostile_cyclic_cause', 'hostile', 'a cyclic cause chain with nothing allowlisted', throws(() => cyclicCrash()), masked('Error', 'Sync failed')),
  tool('tool_hostile_cyclic_allowlisted', 'hostile', 'a ToolError inside a cycle is found, and its text (not the wrapper’s) is shown', throws(() => cyclicAllowlisted()),
    shows('Row 7 is locked by another editor', TOOL_ERROR, info('Error', 'Sync failed', 500, 'deliberate', ['ToolError', 'Row 7 is locked by another editor']))),
  // ---- nested calls (the inner handlers: see innerHandlers in ./fixtures.ts) ---------------------------------------
  tool('tool_nested_deliberate', 'nested', "a tool rethrows a wrapped tool's failure text as ToolError: two failures, each logged once",
    rethrowsFailureOf('locked', ToolError), shows('Error executing tool inner_locked: Row 7 is locked by another editor', TOOL_ERROR, INNER_LOCKED, info('ToolError', 'Error executing tool inner_locked: Row 7 is locked by another editor'))),
  tool('tool_nested_crash', 'nested', "a wrapped tool's crash reference reaches the outer tool's client text",
    rethrowsFailureOf('crash', ToolError), shows('Error executing tool inner_crash (reference <ref>)', TOOL_ERROR, INNER_CRASH, info('ToolError', 'Error executing tool inner_crash (reference <ref>)'))),
  tool('tool_nested_resource', 'nested', "a tool awaiting a wrapped resource callback: the resource's error is logged once, not again by the tool",
    ({ inner }) =>
      async () => {
        const read = await inner.resource(new URL(uriOf('inner_resource')));
        return text(JSON.stringify(read));
      },
    // The resource's JSON-RPC error (its failure object in `data`) rethrown from a tool: the SDK turns it into an
    // isError result of its message, without `data`, so the tool's answer carries no failure object.
    answers(isError(`Error reading resource ${uriOf('inner_resource')} (reference <ref>)`), of('resource', uriOf('inner_resource'), crashed('Error', 'Index corrupt')))),
  // ---- degraded, re-authorization, success ----------------------------------------------------------------------------
  tool('tool_degraded', 'degraded', 'while degraded the handler does not run; the client gets the degraded message',
    ({ degradedPolicy }) => withClientVisibleErrors(mustNotRun(), { name: 'tool_degraded', policy: degradedPolicy }), shows(DEGRADED, failure('auth_required', false), degraded)),
  tool('tool_reauthorize', 'reauthorize', 'a custom rule with reauthorize: true appends the sign-in text, status 401',
    throws(() => new GrantRevokedError()), shows(REVOKED_TEXT, failure('grant-revoked', false), warn('grant-revoked', 401, 'GrantRevokedError', REVOKED))),
  tool('tool_reauthorize_cause', 'reauthorize', 're-authorization found on the cause chain', throws(() => new Error('Calendar sync failed', { cause: new GrantRevokedError() })),
    shows(REVOKED_TEXT, failure('grant-revoked', false), warn('grant-revoked', 401, 'Error', 'Calendar sync failed', ['GrantRevokedError', 'Token has been expired or revoked.']))),
  tool('tool_ok', 'success', 'a successful call: result untouched, nothing logged', () => async () => text('A1=42'), answers({ result: { text: 'A1=42', isError: false } })),
  tool('tool_own_is_error', 'success', 'a tool returning its own isError result: untouched, nothing logged',
    () => async () => ({ ...text('No rows matched'), isError: true }), answers({ result: { text: 'No rows matched', isError: true } })),
];

/**
 * The compatibility table: one list of failure scenarios (tools, resources, prompts), each with the exact text a client
 * sees and the exact log records the server writes. test/compat/table.test.ts runs every scenario through real clients
 * over every transport; test/compat/server.ts serves the same table over stdio; test/compat/v2.test.ts runs it on
 * `@modelcontextprotocol/server` 2.x.
 *
 * A scenario registers one handler (named after the scenario) on a real McpServer. How the policy is installed is the
 * fixture's choice: each handler wrapped on its own (`withClientVisibleErrors` & co.), or the whole server at once
 * (`applyErrorPolicy`). Reference ids are written `<ref>` in the expectations.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import {
  coreRules,
  createErrorPolicy,
  ResourceError,
  ResourceNotFoundError,
  ToolError,
  toToolResult,
  withClientVisibleErrors,
  withClientVisiblePromptErrors,
  withClientVisibleResourceErrors,
  type ErrorPolicy,
  type ErrorRule,
  type LogRecord,
  type PolicyLogger,
} from '../../src/index.js';

// ---------------------------------------------------------------------------------------------------------------------
// The SDK under test, seen through the few members the table needs (v1 and v2 both have them).

/** The registration methods of an McpServer (v1 `@modelcontextprotocol/sdk` or v2 `@modelcontextprotocol/server`). */
export interface LooseServer {
  registerTool(name: string, config: Record<string, unknown>, callback: (...args: never[]) => unknown): unknown;
  registerResource(name: string, uriOrTemplate: unknown, config: Record<string, unknown>, callback: (...args: never[]) => unknown): unknown;
  registerPrompt(name: string, config: Record<string, unknown>, callback: (...args: never[]) => unknown): unknown;
  connect(transport: never): Promise<void>;
  close(): Promise<void>;
}

/** What the table needs from an SDK major version. */
export interface CompatSdk {
  /** `v1` or `v2`: selects the few expectations that differ between the SDKs. */
  readonly major: 'v1' | 'v2';
  newServer(): LooseServer;
  newTemplate(uriTemplate: string): unknown;
  /** The SDK's protocol error (`McpError` / `ProtocolError`). */
  protocolError(code: number, message: string): Error;
  /** The SDK's `UrlElicitationRequiredError`. */
  urlElicitationRequired(): Error;
  /** `applyErrorPolicy` of this package, applied to a server of this SDK. */
  applyErrorPolicy?: (server: LooseServer, policy: ErrorPolicy) => void;
}

// ---------------------------------------------------------------------------------------------------------------------
// Fixed inputs.

/** A path that does not exist on any test machine. */
export const MISSING_FILE = '/nonexistent/mcp-error-policy-compat/sheet.csv';

/** The policy's re-authorization text. */
export const REAUTHORIZE = 'Sign in again: run `acme auth login`.';

/** What the degraded policy answers. */
export const DEGRADED = 'Not signed in: run `acme auth login`.';

/** A secret planted in thrown values; it must never reach a client or a log. */
export const SECRET_TOKEN = 'ya29.a0AfB_compatSecretAccessToken0123456789';

/** An error class of the server's own that a custom rule marks as needing re-authorization. */
export class GrantRevokedError extends Error {
  constructor(message = 'Token has been expired or revoked.') {
    super(message);
    this.name = 'GrantRevokedError';
  }
}

/** The custom rule: `reauthorize: true`, so the client text gets {@link REAUTHORIZE} and the status is 401. */
export const grantRevokedRule: ErrorRule = {
  name: 'grant-revoked',
  predicate: (error) => error instanceof GrantRevokedError,
  message: (error) => (error as Error).message,
  reauthorize: true,
};

/** A URL on 127.0.0.1 where nothing listens: a port the OS handed out, closed again. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1/sheets`;
}

/** Upstream data that fails the schema a handler parses it with (a bug: not allowlisted by default). */
const upstreamSchema = z.object({ rows: z.array(z.string()) });
const upstreamData: unknown = { rows: 'not-an-array' };

/** The ZodError message the zod in use gives for {@link upstreamData} (zod 3 and 4 word it differently). */
export function upstreamZodMessage(): string {
  const parsed = upstreamSchema.safeParse(upstreamData);
  if (parsed.success) throw new Error('upstream data unexpectedly valid');
  return parsed.error.message;
}

/** A thrown object whose every property read throws. */
function hostileObject(): object {
  return new Proxy(
    {},
    {
      get() {
        throw new Error('getter trap');
      },
      getPrototypeOf() {
        throw new Error('prototype trap');
      },
    },
  );
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable(new Error('revoked'), {});
  revoke();
  return proxy;
}

function cyclicCrash(): Error {
  const outer = new Error('Sync failed');
  const inner = new Error('Row merge failed', { cause: outer });
  outer.cause = inner;
  return outer;
}

function cyclicAllowlisted(): Error {
  const deliberate = new ToolError('Row 7 is locked by another editor');
  const wrapper = new Error('Sync failed', { cause: deliberate });
  deliberate.cause = wrapper;
  return wrapper;
}

const HUGE = 'x'.repeat(10 * 1024 * 1024);
/** What a 10 MB message becomes: cut to maxMessageLength (4000) with an ellipsis. */
export const HUGE_BOUNDED = `${'x'.repeat(3999)}…`;

// ---------------------------------------------------------------------------------------------------------------------
// The table.

export type HandlerKind = 'tool' | 'resource' | 'prompt';

export type Category =
  | 'deliberate'
  | 'allowlisted'
  | 'crash'
  | 'protocol'
  | 'hostile'
  | 'nested'
  | 'degraded'
  | 'reauthorize'
  | 'success';

/** What the client gets: a tool result, or a JSON-RPC error as the server sends it (see {@link clientView}). */
export type ExpectedWire =
  | { readonly result: { readonly text: string; readonly isError: boolean } }
  | { readonly error: { readonly code: number; readonly message: string } };

/** One expected log record (`message` with `<ref>` for the reference id). */
export interface ExpectedRecord {
  readonly level: 'info' | 'warn' | 'error';
  readonly kind: 'anticipated' | 'crash' | 'protocol' | 'degraded';
  readonly handler: HandlerKind;
  readonly name: string;
  readonly status: number;
  readonly rule?: string;
  readonly errorName: string;
  /** The thrown value's message as logged (scrubbed, bounded). */
  readonly errorMessage: string;
  /** The error on the cause chain the rule accepted, when it is not the thrown one. */
  readonly matchedErrorName?: string;
  readonly matchedErrorMessage?: string;
  readonly message: string;
}

/** The error on the cause chain a rule accepted: its name and message. */
type Matched = readonly [name: string, message: string];

function matchedFields(matched: Matched | undefined): { matchedErrorName?: string; matchedErrorMessage?: string; line: string } {
  if (matched === undefined) return { line: '' };
  const [matchedErrorName, matchedErrorMessage] = matched;
  return { matchedErrorName, matchedErrorMessage, line: `; matched cause ${matchedErrorName} ${JSON.stringify(matchedErrorMessage)}` };
}

/**
 * What the client of `sdk` shows for `wire` (expectations hold the JSON-RPC error as the server sends it):
 * - SDK v1's client puts `MCP error <code>: ` before the message (so a v1 McpError, whose own message already has
 *   that prefix, shows it twice: the SDK's behaviour, kept as it is);
 * - SDK v2 never emits -32002: it sends a handler's -32002 (resource not found) as -32602 (invalid params), per the
 *   2026-07-28 spec revision; its client shows the message as it is.
 */
export function clientView(sdk: CompatSdk['major'], wire: ExpectedWire): ExpectedWire {
  if (!('error' in wire)) return wire;
  const { code, message } = wire.error;
  if (sdk === 'v1') return { error: { code, message: `MCP error ${code}: ${message}` } };
  return { error: { code: code === -32002 ? -32602 : code, message } };
}

/** A scenario's expectations as the client of `sdk` sees them. */
export function expectedFor(scenario: Scenario, sdk: CompatSdk['major'], facts: RuntimeFacts): { wire: ExpectedWire; records: readonly ExpectedRecord[] } {
  const { wire, records } = scenario.expect(sdk, facts);
  return { wire: clientView(sdk, wire), records };
}

/** Values only known at run time, from which some expectations are made. */
export interface RuntimeFacts {
  readonly zodMessage: string;
}

export interface Scenario {
  /** Unique; also the tool / prompt name, or the last segment of the resource URI. */
  readonly id: string;
  readonly kind: HandlerKind;
  readonly category: Category;
  /** What the scenario proves, in a few words. */
  readonly title: string;
  /** Arguments of the call (tools and prompts). */
  readonly args?: Readonly<Record<string, string>>;
  /** The resource URI to read (resources). */
  readonly uri?: string;
  readonly expect: (sdk: CompatSdk['major'], facts: RuntimeFacts) => { readonly wire: ExpectedWire; readonly records: readonly ExpectedRecord[] };
}

/** Everything a handler may use: the policies and the inputs made once per process. */
export interface ScenarioContext {
  readonly policy: ErrorPolicy;
  readonly degradedPolicy: ErrorPolicy;
  readonly closedUrl: string;
  readonly sdk: CompatSdk;
}

const tool = (text: string): ExpectedWire => ({ result: { text, isError: true } });
const rpc = (code: number, message: string): ExpectedWire => ({ error: { code, message } });
const toolText = (id: string, text: string): ExpectedWire => tool(`Error executing tool ${id}: ${text}`);
const toolCrash = (id: string): ExpectedWire => tool(`Error executing tool ${id} (reference <ref>)`);
const uriOf = (id: string): string => `compat://sheets/${id}`;

function info(handler: HandlerKind, name: string, errorName: string, quoted: string, status = 500, rule = 'deliberate', matched?: Matched): ExpectedRecord {
  const who = `${handler} ${JSON.stringify(name)}`;
  const { line, ...fields } = matchedFields(matched);
  return { level: 'info', kind: 'anticipated', handler, name, status, rule, errorName, errorMessage: quoted, ...fields, message: `${who} failed: ${errorName} ${JSON.stringify(quoted)}${line}` };
}

function warn(handler: HandlerKind, name: string, rule: string, status: number, errorName: string, quoted: string, matched?: Matched): ExpectedRecord {
  const who = `${handler} ${JSON.stringify(name)}`;
  const { line, ...fields } = matchedFields(matched);
  return { level: 'warn', kind: 'anticipated', handler, name, status, rule, errorName, errorMessage: quoted, ...fields, message: `${who} failed (rule ${rule}): ${errorName} ${JSON.stringify(quoted)}${line}` };
}

function crashed(handler: HandlerKind, name: string, errorName: string, quoted: string): ExpectedRecord {
  const who = `${handler} ${JSON.stringify(name)}`;
  return { level: 'error', kind: 'crash', handler, name, status: 500, errorName, errorMessage: quoted, message: `${who} crashed (reference <ref>): ${errorName} ${JSON.stringify(quoted)}` };
}

function protocol(handler: HandlerKind, name: string, code: number, status: number, errorName: string, quoted: string): ExpectedRecord {
  const who = `${handler} ${JSON.stringify(name)}`;
  return { level: 'info', kind: 'protocol', handler, name, status, errorName, errorMessage: quoted, message: `${who} failed with protocol error ${code}: ${errorName} ${JSON.stringify(quoted)}` };
}

function degraded(handler: HandlerKind, name: string): ExpectedRecord {
  const who = `${handler} ${JSON.stringify(name)}`;
  return { level: 'info', kind: 'degraded', handler, name, status: 401, errorName: 'degraded', errorMessage: DEGRADED, message: `${who} refused (degraded): ${JSON.stringify(DEGRADED)}` };
}

const s = (scenario: Scenario): Scenario => scenario;

/** The message of a protocol error: v1's McpError prefixes `MCP error <code>: `; v2's ProtocolError does not. */
const protocolMessage = (sdk: CompatSdk['major'], code: number, text: string): string => (sdk === 'v1' ? `MCP error ${code}: ${text}` : text);
/** The `name` of protocol errors and their subclasses: `McpError` (v1), `ProtocolError` (v2). */
const protocolName = (sdk: CompatSdk['major']): string => (sdk === 'v1' ? 'McpError' : 'ProtocolError');

const ECONNREFUSED_TEXT = 'Network error: connection refused (ECONNREFUSED)';
/** The system error behind a refused fetch, as the record names it (its port normalised, see normaliseRunValues). */
const REFUSED: Matched = ['Error', 'connect ECONNREFUSED 127.0.0.1:<port>'];
/** The timer behind AbortSignal.timeout's abort. */
const TIMED_OUT: Matched = ['TimeoutError', 'The operation was aborted due to timeout'];
const ENOENT_TEXT = 'File system error: no such file or directory (ENOENT, open)';
const ENOENT_MESSAGE = `ENOENT: no such file or directory, open '${MISSING_FILE}'`;
const REVOKED = 'Token has been expired or revoked.';
const REVOKED_TEXT = `${REVOKED}\n\n${REAUTHORIZE}`;

export const scenarios: readonly Scenario[] = [
  // ---- tools: deliberate --------------------------------------------------------------------------------------------
  s({
    id: 'tool_deliberate',
    kind: 'tool',
    category: 'deliberate',
    title: 'ToolError text reaches the client; one info record without stack',
    args: { sheet: '' },
    expect: () => ({ wire: toolText('tool_deliberate', 'Sheet name must not be empty'), records: [info('tool', 'tool_deliberate', 'ToolError', 'Sheet name must not be empty')] }),
  }),
  s({
    id: 'tool_deliberate_cause',
    kind: 'tool',
    category: 'deliberate',
    title: 'a ToolError wrapping a secret-bearing cause shows only its own text',
    expect: () => ({ wire: toolText('tool_deliberate_cause', 'Could not save the sheet'), records: [info('tool', 'tool_deliberate_cause', 'ToolError', 'Could not save the sheet')] }),
  }),
  s({
    id: 'tool_deliberate_secret',
    kind: 'tool',
    category: 'deliberate',
    title: 'a token inside a ToolError message is scrubbed for client and log',
    expect: () => ({
      wire: toolText('tool_deliberate_secret', 'Token [REDACTED] was rejected'),
      records: [info('tool', 'tool_deliberate_secret', 'ToolError', 'Token [REDACTED] was rejected')],
    }),
  }),
  s({
    id: 'tool_deliberate_huge',
    kind: 'tool',
    category: 'deliberate',
    title: 'a 10 MB ToolError message is bounded to maxMessageLength',
    expect: () => ({ wire: toolText('tool_deliberate_huge', HUGE_BOUNDED), records: [info('tool', 'tool_deliberate_huge', 'ToolError', HUGE_BOUNDED)] }),
  }),
  s({
    id: 'tool_to_tool_result',
    kind: 'tool',
    category: 'allowlisted',
    title: 'a tool that catches and returns toToolResult gets the wrapper text and one record',
    expect: () => ({
      wire: toolText('tool_to_tool_result', ENOENT_TEXT),
      records: [warn('tool', 'tool_to_tool_result', 'file-system', 500, 'Error', ENOENT_MESSAGE)],
    }),
  }),
  // ---- tools: allowlisted foreign errors ------------------------------------------------------------------------------
  s({
    id: 'tool_network_fetch',
    kind: 'tool',
    category: 'allowlisted',
    title: 'a real fetch to a closed 127.0.0.1 port: fixed text, never the URL',
    expect: () => ({ wire: toolText('tool_network_fetch', ECONNREFUSED_TEXT), records: [warn('tool', 'tool_network_fetch', 'network', 502, 'TypeError', 'fetch failed', REFUSED)] }),
  }),
  s({
    id: 'tool_network_wrapped',
    kind: 'tool',
    category: 'allowlisted',
    title: 'a network failure wrapped in an unvetted Error shows the network text, not the wrapper',
    expect: () => ({ wire: toolText('tool_network_wrapped', ECONNREFUSED_TEXT), records: [warn('tool', 'tool_network_wrapped', 'network', 502, 'Error', 'Sheet sync failed', REFUSED)] }),
  }),
  s({
    id: 'tool_fs_enoent',
    kind: 'tool',
    category: 'allowlisted',
    title: 'fs ENOENT: code and syscall, no path',
    expect: () => ({ wire: toolText('tool_fs_enoent', ENOENT_TEXT), records: [warn('tool', 'tool_fs_enoent', 'file-system', 500, 'Error', ENOENT_MESSAGE)] }),
  }),
  s({
    id: 'tool_fs_eisdir',
    kind: 'tool',
    category: 'allowlisted',
    title: 'fs EISDIR from reading a directory',
    expect: () => ({
      wire: toolText('tool_fs_eisdir', 'File system error: is a directory (EISDIR, read)'),
      records: [warn('tool', 'tool_fs_eisdir', 'file-system', 500, 'Error', 'EISDIR: illegal operation on a directory, read')],
    }),
  }),
  s({
    id: 'tool_timeout',
    kind: 'tool',
    category: 'allowlisted',
    title: 'AbortSignal.timeout on a real timer: the timeout text (the abort is a timeout in disguise)',
    expect: () => ({
      wire: toolText('tool_timeout', 'The operation timed out'),
      records: [warn('tool', 'tool_timeout', 'timeout', 504, 'AbortError', 'The operation was aborted', TIMED_OUT)],
    }),
  }),
  s({
    id: 'tool_abort',
    kind: 'tool',
    category: 'allowlisted',
    title: 'an aborted signal: the abort text',
    expect: () => ({ wire: toolText('tool_abort', 'The operation was aborted'), records: [warn('tool', 'tool_abort', 'abort', 499, 'AbortError', 'This operation was aborted')] }),
  }),
  // ---- tools: crashes -------------------------------------------------------------------------------------------------
  s({
    id: 'tool_crash_type_error',
    kind: 'tool',
    category: 'crash',
    title: 'a TypeError from undefined.x is masked with a reference',
    expect: () => ({
      wire: toolCrash('tool_crash_type_error'),
      records: [crashed('tool', 'tool_crash_type_error', 'TypeError', "Cannot read properties of undefined (reading 'y')")],
    }),
  }),
  s({
    id: 'tool_crash_sync',
    kind: 'tool',
    category: 'crash',
    title: 'a synchronous throw from a non-async handler',
    expect: () => ({ wire: toolCrash('tool_crash_sync'), records: [crashed('tool', 'tool_crash_sync', 'RangeError', 'Invalid array length')] }),
  }),
  s({
    id: 'tool_crash_secret',
    kind: 'tool',
    category: 'crash',
    title: 'a crash whose message holds a token: masked for the client, scrubbed in the log',
    expect: () => ({
      wire: toolCrash('tool_crash_secret'),
      records: [crashed('tool', 'tool_crash_secret', 'Error', 'GET https://sheets.example/v4?access_token=[REDACTED] returned garbage')],
    }),
  }),
  s({
    id: 'tool_crash_zod',
    kind: 'tool',
    category: 'crash',
    title: 'a ZodError from parsing upstream data is a crash by default (the zod rule is opt-in)',
    expect: (_sdk, facts) => ({ wire: toolCrash('tool_crash_zod'), records: [crashed('tool', 'tool_crash_zod', 'ZodError', facts.zodMessage)] }),
  }),
  s({
    id: 'tool_crash_huge',
    kind: 'tool',
    category: 'crash',
    title: 'a crash with a 10 MB message: the record is bounded',
    expect: () => ({ wire: toolCrash('tool_crash_huge'), records: [crashed('tool', 'tool_crash_huge', 'Error', HUGE_BOUNDED)] }),
  }),
  // ---- tools: protocol errors ------------------------------------------------------------------------------------------
  s({
    id: 'tool_protocol',
    kind: 'tool',
    category: 'protocol',
    title: 'an McpError / ProtocolError passes through untouched (the SDK shows its message)',
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
    expect: () => ({
      wire: tool('Sheet is read-only'),
      records: [protocol('tool', 'tool_protocol_structural', -32600, 400, 'ProtocolError', 'Sheet is read-only')],
    }),
  }),
  // ---- tools: hostile values ----------------------------------------------------------------------------------------------
  s({
    id: 'tool_hostile_string',
    kind: 'tool',
    category: 'hostile',
    title: 'a thrown string',
    expect: () => ({ wire: toolCrash('tool_hostile_string'), records: [crashed('tool', 'tool_hostile_string', 'string', 'boom')] }),
  }),
  s({
    id: 'tool_hostile_undefined',
    kind: 'tool',
    category: 'hostile',
    title: 'a thrown undefined',
    expect: () => ({ wire: toolCrash('tool_hostile_undefined'), records: [crashed('tool', 'tool_hostile_undefined', 'undefined', 'undefined')] }),
  }),
  s({
    id: 'tool_hostile_symbol',
    kind: 'tool',
    category: 'hostile',
    title: 'a thrown Symbol',
    expect: () => ({ wire: toolCrash('tool_hostile_symbol'), records: [crashed('tool', 'tool_hostile_symbol', 'symbol', 'Symbol(boom)')] }),
  }),
  s({
    id: 'tool_hostile_revoked_proxy',
    kind: 'tool',
    category: 'hostile',
    title: 'a revoked Proxy',
    expect: () => ({ wire: toolCrash('tool_hostile_revoked_proxy'), records: [crashed('tool', 'tool_hostile_revoked_proxy', 'object', '')] }),
  }),
  s({
    id: 'tool_hostile_getters',
    kind: 'tool',
    category: 'hostile',
    title: 'an object whose every read throws',
    expect: () => ({ wire: toolCrash('tool_hostile_getters'), records: [crashed('tool', 'tool_hostile_getters', 'object', '')] }),
  }),
  s({
    id: 'tool_hostile_cyclic_cause',
    kind: 'tool',
    category: 'hostile',
    title: 'a cyclic cause chain with nothing allowlisted',
    expect: () => ({ wire: toolCrash('tool_hostile_cyclic_cause'), records: [crashed('tool', 'tool_hostile_cyclic_cause', 'Error', 'Sync failed')] }),
  }),
  s({
    id: 'tool_hostile_cyclic_allowlisted',
    kind: 'tool',
    category: 'hostile',
    title: 'a ToolError inside a cycle is found, and its text (not the wrapper’s) is shown',
    expect: () => ({
      wire: toolText('tool_hostile_cyclic_allowlisted', 'Row 7 is locked by another editor'),
      records: [info('tool', 'tool_hostile_cyclic_allowlisted', 'Error', 'Sync failed', 500, 'deliberate', ['ToolError', 'Row 7 is locked by another editor'])],
    }),
  }),
  // ---- tools: nested calls ------------------------------------------------------------------------------------------------
  s({
    id: 'tool_nested_deliberate',
    kind: 'tool',
    category: 'nested',
    title: "a tool rethrows a wrapped tool's failure text as ToolError: two failures, each logged once",
    expect: () => ({
      wire: toolText('tool_nested_deliberate', 'Error executing tool inner_locked: Row 7 is locked by another editor'),
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
    expect: () => ({
      wire: toolText('tool_nested_crash', 'Error executing tool inner_crash (reference <ref>)'),
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
    expect: () => ({
      wire: tool(`Error reading resource ${uriOf('inner_resource')} (reference <ref>)`),
      records: [crashed('resource', uriOf('inner_resource'), 'Error', 'Index corrupt')],
    }),
  }),
  // ---- tools: degraded, re-authorization, success -------------------------------------------------------------------------
  s({
    id: 'tool_degraded',
    kind: 'tool',
    category: 'degraded',
    title: 'while degraded the handler does not run; the client gets the degraded message',
    expect: () => ({ wire: toolText('tool_degraded', DEGRADED), records: [degraded('tool', 'tool_degraded')] }),
  }),
  s({
    id: 'tool_reauthorize',
    kind: 'tool',
    category: 'reauthorize',
    title: 'a custom rule with reauthorize: true appends the sign-in text, status 401',
    expect: () => ({ wire: toolText('tool_reauthorize', REVOKED_TEXT), records: [warn('tool', 'tool_reauthorize', 'grant-revoked', 401, 'GrantRevokedError', REVOKED)] }),
  }),
  s({
    id: 'tool_reauthorize_cause',
    kind: 'tool',
    category: 'reauthorize',
    title: 're-authorization found on the cause chain',
    expect: () => ({
      wire: toolText('tool_reauthorize_cause', REVOKED_TEXT),
      records: [warn('tool', 'tool_reauthorize_cause', 'grant-revoked', 401, 'Error', 'Calendar sync failed', ['GrantRevokedError', 'Token has been expired or revoked.'])],
    }),
  }),
  s({
    id: 'tool_ok',
    kind: 'tool',
    category: 'success',
    title: 'a successful call: result untouched, nothing logged',
    expect: () => ({ wire: { result: { text: 'A1=42', isError: false } }, records: [] }),
  }),
  s({
    id: 'tool_own_is_error',
    kind: 'tool',
    category: 'success',
    title: 'a tool returning its own isError result: untouched, nothing logged',
    expect: () => ({ wire: { result: { text: 'No rows matched', isError: true } }, records: [] }),
  }),
  // ---- resources -------------------------------------------------------------------------------------------------------------
  s({
    id: 'resource_not_found',
    kind: 'resource',
    category: 'deliberate',
    title: 'ResourceNotFoundError in a template resource: -32002 with its text',
    uri: uriOf('resource_not_found/Q3'),
    expect: () => ({
      wire: rpc(-32002, "No sheet named 'Q3'"),
      records: [info('resource', uriOf('resource_not_found/Q3'), 'ResourceNotFoundError', "No sheet named 'Q3'", 404, 'resource-not-found')],
    }),
  }),
  s({
    id: 'resource_deliberate',
    kind: 'resource',
    category: 'deliberate',
    title: 'ResourceError: -32603 with its text',
    uri: uriOf('resource_deliberate'),
    expect: () => ({
      wire: rpc(-32603, 'The sheet is being recalculated, try again shortly'),
      records: [info('resource', uriOf('resource_deliberate'), 'ResourceError', 'The sheet is being recalculated, try again shortly')],
    }),
  }),
  s({
    id: 'resource_network',
    kind: 'resource',
    category: 'allowlisted',
    title: 'a real fetch to a closed port inside a resource read',
    uri: uriOf('resource_network'),
    expect: () => ({
      wire: rpc(-32603, `${ECONNREFUSED_TEXT}`),
      records: [warn('resource', uriOf('resource_network'), 'network', 502, 'TypeError', 'fetch failed', REFUSED)],
    }),
  }),
  s({
    id: 'resource_fs',
    kind: 'resource',
    category: 'allowlisted',
    title: 'fs ENOENT inside a resource read',
    uri: uriOf('resource_fs'),
    expect: () => ({
      wire: rpc(-32603, `${ENOENT_TEXT}`),
      records: [warn('resource', uriOf('resource_fs'), 'file-system', 500, 'Error', ENOENT_MESSAGE)],
    }),
  }),
  s({
    id: 'resource_timeout',
    kind: 'resource',
    category: 'allowlisted',
    title: 'a timed-out wait inside a resource read',
    uri: uriOf('resource_timeout'),
    expect: () => ({
      wire: rpc(-32603, 'The operation timed out'),
      records: [warn('resource', uriOf('resource_timeout'), 'timeout', 504, 'AbortError', 'The operation was aborted', TIMED_OUT)],
    }),
  }),
  s({
    id: 'resource_crash',
    kind: 'resource',
    category: 'crash',
    title: 'a crash names only the URI and the reference',
    uri: uriOf('resource_crash'),
    expect: () => ({
      wire: rpc(-32603, `Error reading resource ${uriOf('resource_crash')} (reference <ref>)`),
      records: [crashed('resource', uriOf('resource_crash'), 'TypeError', "Cannot read properties of undefined (reading 'y')")],
    }),
  }),
  s({
    id: 'resource_crash_own_code',
    kind: 'resource',
    category: 'crash',
    title: "a thrown object's own code and data never reach the wire",
    uri: uriOf('resource_crash_own_code'),
    expect: () => ({
      wire: rpc(-32603, `Error reading resource ${uriOf('resource_crash_own_code')} (reference <ref>)`),
      records: [crashed('resource', uriOf('resource_crash_own_code'), 'Error', 'upstream said no')],
    }),
  }),
  s({
    id: 'resource_protocol',
    kind: 'resource',
    category: 'protocol',
    title: 'a protocol error in a resource read passes through with its code',
    uri: uriOf('resource_protocol'),
    expect: (sdk) => ({
      wire: rpc(-32602, protocolMessage(sdk, -32602, 'Range Z0 is invalid')),
      records: [protocol('resource', uriOf('resource_protocol'), -32602, 400, protocolName(sdk), protocolMessage(sdk, -32602, 'Range Z0 is invalid'))],
    }),
  }),
  s({
    id: 'resource_hostile_string',
    kind: 'resource',
    category: 'hostile',
    title: 'a thrown string in a resource read',
    uri: uriOf('resource_hostile_string'),
    expect: () => ({
      wire: rpc(-32603, `Error reading resource ${uriOf('resource_hostile_string')} (reference <ref>)`),
      records: [crashed('resource', uriOf('resource_hostile_string'), 'string', 'boom')],
    }),
  }),
  s({
    id: 'resource_hostile_revoked_proxy',
    kind: 'resource',
    category: 'hostile',
    title: 'a revoked Proxy in a resource read',
    uri: uriOf('resource_hostile_revoked_proxy'),
    expect: () => ({
      wire: rpc(-32603, `Error reading resource ${uriOf('resource_hostile_revoked_proxy')} (reference <ref>)`),
      records: [crashed('resource', uriOf('resource_hostile_revoked_proxy'), 'object', '')],
    }),
  }),
  s({
    id: 'resource_degraded',
    kind: 'resource',
    category: 'degraded',
    title: 'degraded resource read',
    uri: uriOf('resource_degraded'),
    expect: () => ({ wire: rpc(-32603, `${DEGRADED}`), records: [degraded('resource', uriOf('resource_degraded'))] }),
  }),
  s({
    id: 'resource_reauthorize',
    kind: 'resource',
    category: 'reauthorize',
    title: 're-authorization in a resource read',
    uri: uriOf('resource_reauthorize'),
    expect: () => ({
      wire: rpc(-32603, `${REVOKED_TEXT}`),
      records: [warn('resource', uriOf('resource_reauthorize'), 'grant-revoked', 401, 'GrantRevokedError', REVOKED)],
    }),
  }),
  s({
    id: 'resource_nested',
    kind: 'resource',
    category: 'nested',
    title: 'a resource read rethrowing a wrapped tool’s failure text as ResourceError',
    uri: uriOf('resource_nested'),
    expect: () => ({
      wire: rpc(-32603, 'Error executing tool inner_locked: Row 7 is locked by another editor'),
      records: [
        info('tool', 'inner_locked', 'ToolError', 'Row 7 is locked by another editor'),
        info('resource', uriOf('resource_nested'), 'ResourceError', 'Error executing tool inner_locked: Row 7 is locked by another editor'),
      ],
    }),
  }),
  // ---- prompts ----------------------------------------------------------------------------------------------------------------
  s({
    id: 'prompt_deliberate',
    kind: 'prompt',
    category: 'deliberate',
    title: 'a deliberate error in a prompt: -32603 with its text',
    args: { topic: 'q3' },
    expect: () => ({
      wire: rpc(-32603, "No template for topic 'q3'"),
      records: [info('prompt', 'prompt_deliberate', 'ToolError', "No template for topic 'q3'")],
    }),
  }),
  s({
    id: 'prompt_not_found',
    kind: 'prompt',
    category: 'deliberate',
    title: 'ResourceNotFoundError in a prompt keeps -32002',
    expect: () => ({
      wire: rpc(-32002, 'The sheet behind this prompt was deleted'),
      records: [info('prompt', 'prompt_not_found', 'ResourceNotFoundError', 'The sheet behind this prompt was deleted', 404, 'resource-not-found')],
    }),
  }),
  s({
    id: 'prompt_network',
    kind: 'prompt',
    category: 'allowlisted',
    title: 'a real fetch to a closed port inside a prompt',
    expect: () => ({
      wire: rpc(-32603, `${ECONNREFUSED_TEXT}`),
      records: [warn('prompt', 'prompt_network', 'network', 502, 'TypeError', 'fetch failed', REFUSED)],
    }),
  }),
  s({
    id: 'prompt_abort',
    kind: 'prompt',
    category: 'allowlisted',
    title: 'an abort inside a prompt',
    expect: () => ({
      wire: rpc(-32603, 'The operation was aborted'),
      records: [warn('prompt', 'prompt_abort', 'abort', 499, 'AbortError', 'This operation was aborted')],
    }),
  }),
  s({
    id: 'prompt_crash',
    kind: 'prompt',
    category: 'crash',
    title: 'a prompt crash names the prompt and the reference',
    args: { topic: 'q3' },
    expect: () => ({
      wire: rpc(-32603, 'Error getting prompt prompt_crash (reference <ref>)'),
      records: [crashed('prompt', 'prompt_crash', 'TypeError', "Cannot read properties of undefined (reading 'y')")],
    }),
  }),
  s({
    id: 'prompt_protocol',
    kind: 'prompt',
    category: 'protocol',
    title: 'a protocol error in a prompt passes through with its code',
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
    expect: () => ({
      wire: rpc(-32603, 'Error getting prompt prompt_hostile_cyclic (reference <ref>)'),
      records: [crashed('prompt', 'prompt_hostile_cyclic', 'Error', 'Sync failed')],
    }),
  }),
  s({
    id: 'prompt_hostile_null',
    kind: 'prompt',
    category: 'hostile',
    title: 'a thrown null in a prompt',
    expect: () => ({
      wire: rpc(-32603, 'Error getting prompt prompt_hostile_null (reference <ref>)'),
      records: [crashed('prompt', 'prompt_hostile_null', 'null', 'null')],
    }),
  }),
  s({
    id: 'prompt_degraded',
    kind: 'prompt',
    category: 'degraded',
    title: 'degraded prompt',
    expect: () => ({ wire: rpc(-32603, `${DEGRADED}`), records: [degraded('prompt', 'prompt_degraded')] }),
  }),
  s({
    id: 'prompt_reauthorize',
    kind: 'prompt',
    category: 'reauthorize',
    title: 're-authorization in a prompt',
    expect: () => ({
      wire: rpc(-32603, `${REVOKED_TEXT}`),
      records: [warn('prompt', 'prompt_reauthorize', 'grant-revoked', 401, 'GrantRevokedError', REVOKED)],
    }),
  }),
  s({
    id: 'prompt_nested_crash',
    kind: 'prompt',
    category: 'nested',
    title: "a prompt rethrowing a wrapped tool's crash text: the reference reaches the client",
    expect: () => ({
      wire: rpc(-32603, 'Error executing tool inner_crash (reference <ref>)'),
      records: [
        crashed('tool', 'inner_crash', 'TypeError', "Cannot read properties of undefined (reading 'y')"),
        info('prompt', 'prompt_nested_crash', 'ToolError', 'Error executing tool inner_crash (reference <ref>)'),
      ],
    }),
  }),
];

// ---------------------------------------------------------------------------------------------------------------------
// Registration.

type ToolCallback = (...args: never[]) => unknown;

function readUndefinedY(): string {
  const missing: { x?: { y: string } } = {};
  return missing.x!.y;
}

async function fetchClosed(url: string): Promise<never> {
  await fetch(url);
  throw new Error(`expected ${url} to refuse the connection`);
}

async function readMissing(): Promise<never> {
  await readFile(MISSING_FILE, 'utf8');
  throw new Error(`expected ${MISSING_FILE} to be missing`);
}

async function waitTooLong(): Promise<never> {
  await sleep(10_000, undefined, { signal: AbortSignal.timeout(5) });
  throw new Error('expected the wait to time out');
}

function abortNow(): never {
  const controller = new AbortController();
  controller.abort();
  controller.signal.throwIfAborted();
  throw new Error('expected an abort');
}

function text(value: string): { content: { type: 'text'; text: string }[] } {
  return { content: [{ type: 'text', text: value }] };
}

function promptResult(value: string): { messages: { role: 'user'; content: { type: 'text'; text: string } }[] } {
  return { messages: [{ role: 'user', content: { type: 'text', text: value } }] };
}

/** Text of an isError tool result (as a wrapped callback returns it). */
function failureText(result: unknown): string {
  const content = (result as { content?: { text?: unknown }[] } | undefined)?.content;
  const first = content?.[0]?.text;
  return typeof first === 'string' ? first : '(no text)';
}

/** How handlers get the policy: each wrapped on its own, or the whole server through applyErrorPolicy. */
export type Install = 'wrappers' | 'server';

/**
 * Registers every scenario of the table on `server`. With `install: 'server'`, the handlers are registered raw and
 * `applyErrorPolicy` is applied between the tools and the resources, so that registrations before and after the call
 * are both covered. Handlers that must run under another policy (degraded) or be called by another handler (nested)
 * are wrapped on their own in both modes: applyErrorPolicy leaves a wrapped handler as it is.
 */
export function registerScenarios(server: LooseServer, context: ScenarioContext, install: Install): void {
  const { policy, degradedPolicy, closedUrl, sdk } = context;
  const apply = install === 'server' ? sdk.applyErrorPolicy : undefined;
  if (install === 'server' && apply === undefined) throw new Error('applyErrorPolicy is not available for this SDK');

  const wrapTool = (name: string, handler: ToolCallback): ToolCallback =>
    install === 'wrappers' ? withClientVisibleErrors(handler, { name, policy }) : handler;
  const wrapResource = (handler: ToolCallback): ToolCallback =>
    install === 'wrappers' ? withClientVisibleResourceErrors(handler, { policy }) : handler;
  const wrapPrompt = (name: string, handler: ToolCallback): ToolCallback =>
    install === 'wrappers' ? withClientVisiblePromptErrors(handler, { name, policy }) : handler;

  const addTool = (name: string, handler: ToolCallback, inputSchema?: Record<string, unknown>): void => {
    server.registerTool(name, { description: `compat scenario ${name}`, ...(inputSchema === undefined ? {} : { inputSchema }) }, wrapTool(name, handler));
  };
  const addResource = (name: string, handler: ToolCallback): void => {
    server.registerResource(name, uriOf(name), { mimeType: 'text/plain' }, wrapResource(handler));
  };
  const addPrompt = (name: string, handler: ToolCallback, argsSchema?: Record<string, unknown>): void => {
    server.registerPrompt(name, { description: `compat scenario ${name}`, ...(argsSchema === undefined ? {} : { argsSchema }) }, wrapPrompt(name, handler));
  };

  // Handlers other handlers call: wrapped on their own, always (the outer handler holds the wrapped function).
  const innerLocked = withClientVisibleErrors(
    async () => {
      throw new ToolError('Row 7 is locked by another editor');
    },
    { name: 'inner_locked', policy },
  );
  const innerCrash = withClientVisibleErrors(async () => text(readUndefinedY()), { name: 'inner_crash', policy });
  const innerResource = withClientVisibleResourceErrors(
    async (_uri: URL) => {
      throw new Error('Index corrupt');
    },
    { policy },
  );

  // ---- tools
  addTool(
    'tool_deliberate',
    async ({ sheet }: { sheet: string }) => {
      if (sheet === '') throw new ToolError('Sheet name must not be empty');
      return text(sheet);
    },
    { sheet: z.string() },
  );
  addTool('tool_deliberate_cause', async () => {
    throw new ToolError('Could not save the sheet', { cause: new Error(`PUT failed with Authorization: Bearer ${SECRET_TOKEN}`) });
  });
  addTool('tool_deliberate_secret', async () => {
    throw new ToolError(`Token ${SECRET_TOKEN} was rejected`);
  });
  addTool('tool_deliberate_huge', async () => {
    throw new ToolError(HUGE);
  });
  addTool('tool_to_tool_result', async () => {
    try {
      return text(await readFile(MISSING_FILE, 'utf8'));
    } catch (error) {
      return toToolResult(error, 'tool_to_tool_result', policy);
    }
  });
  addTool('tool_network_fetch', () => fetchClosed(closedUrl));
  addTool('tool_network_wrapped', async () => {
    try {
      return await fetchClosed(closedUrl);
    } catch (error) {
      throw new Error('Sheet sync failed', { cause: error });
    }
  });
  addTool('tool_fs_enoent', readMissing);
  addTool('tool_fs_eisdir', async () => text(await readFile('/', 'utf8')));
  addTool('tool_timeout', waitTooLong);
  addTool('tool_abort', async () => abortNow());
  addTool('tool_crash_type_error', async () => text(readUndefinedY()));
  addTool('tool_crash_sync', () => text(String(new Array(-1).length)));
  addTool('tool_crash_secret', async () => {
    throw new Error(`GET https://sheets.example/v4?access_token=${SECRET_TOKEN} returned garbage`);
  });
  addTool('tool_crash_zod', async () => text(upstreamSchema.parse(upstreamData).rows.join(',')));
  addTool('tool_crash_huge', async () => {
    throw new Error(HUGE);
  });
  addTool('tool_protocol', async () => {
    throw sdk.protocolError(-32602, 'Unknown cell reference A0');
  });
  addTool('tool_protocol_url_elicitation', async () => {
    throw sdk.urlElicitationRequired();
  });
  addTool('tool_protocol_structural', async () => {
    throw Object.assign(new Error('Sheet is read-only'), { name: 'ProtocolError', code: -32600 });
  });
  addTool('tool_hostile_string', async () => {
    throw 'boom';
  });
  addTool('tool_hostile_undefined', async () => {
    throw undefined;
  });
  addTool('tool_hostile_symbol', async () => {
    throw Symbol('boom');
  });
  addTool('tool_hostile_revoked_proxy', async () => {
    throw revokedProxy();
  });
  addTool('tool_hostile_getters', async () => {
    throw hostileObject();
  });
  addTool('tool_hostile_cyclic_cause', async () => {
    throw cyclicCrash();
  });
  addTool('tool_hostile_cyclic_allowlisted', async () => {
    throw cyclicAllowlisted();
  });
  addTool('inner_locked', innerLocked);
  addTool('inner_crash', innerCrash);
  addTool('tool_nested_deliberate', async () => {
    const inner = await innerLocked();
    throw new ToolError(failureText(inner));
  });
  addTool('tool_nested_crash', async () => {
    const inner = await innerCrash();
    throw new ToolError(failureText(inner));
  });
  addTool('tool_nested_resource', async () => {
    const read = await innerResource(new URL(uriOf('inner_resource')));
    return text(JSON.stringify(read));
  });
  server.registerTool(
    'tool_degraded',
    { description: 'compat scenario tool_degraded' },
    withClientVisibleErrors(
      async () => {
        throw new Error('the degraded handler must not run');
      },
      { name: 'tool_degraded', policy: degradedPolicy },
    ),
  );
  addTool('tool_reauthorize', async () => {
    throw new GrantRevokedError();
  });
  addTool('tool_reauthorize_cause', async () => {
    throw new Error('Calendar sync failed', { cause: new GrantRevokedError() });
  });
  addTool('tool_ok', async () => text('A1=42'));
  addTool('tool_own_is_error', async () => ({ ...text('No rows matched'), isError: true }));

  // In server mode, the policy goes on here: the tools above were registered before it, the rest come after.
  if (apply !== undefined) apply(server, policy);

  // ---- resources
  server.registerResource(
    'resource_not_found',
    sdk.newTemplate(`${uriOf('resource_not_found')}/{sheet}`),
    { mimeType: 'text/plain' },
    wrapResource(async (_uri: URL, variables: Record<string, string | string[]>) => {
      throw new ResourceNotFoundError(`No sheet named '${String(variables['sheet'])}'`);
    }),
  );
  addResource('resource_deliberate', async () => {
    throw new ResourceError('The sheet is being recalculated, try again shortly');
  });
  addResource('resource_network', () => fetchClosed(closedUrl));
  addResource('resource_fs', readMissing);
  addResource('resource_timeout', waitTooLong);
  addResource('resource_crash', async (uri: URL) => ({ contents: [{ uri: uri.href, text: readUndefinedY() }] }));
  addResource('resource_crash_own_code', async () => {
    throw Object.assign(new Error('upstream said no'), { code: -32099, data: { token: SECRET_TOKEN } });
  });
  addResource('resource_protocol', async () => {
    throw sdk.protocolError(-32602, 'Range Z0 is invalid');
  });
  addResource('resource_hostile_string', async () => {
    throw 'boom';
  });
  addResource('resource_hostile_revoked_proxy', async () => {
    throw revokedProxy();
  });
  server.registerResource(
    'resource_degraded',
    uriOf('resource_degraded'),
    { mimeType: 'text/plain' },
    withClientVisibleResourceErrors(
      async () => {
        throw new Error('the degraded handler must not run');
      },
      { policy: degradedPolicy },
    ),
  );
  addResource('resource_reauthorize', async () => {
    throw new GrantRevokedError();
  });
  addResource('resource_nested', async () => {
    const inner = await innerLocked();
    throw new ResourceError(failureText(inner));
  });
  server.registerResource('inner_resource', uriOf('inner_resource'), { mimeType: 'text/plain' }, innerResource);

  // ---- prompts
  addPrompt(
    'prompt_deliberate',
    async ({ topic }: { topic: string }) => {
      throw new ToolError(`No template for topic '${topic}'`);
    },
    { topic: z.string() },
  );
  addPrompt('prompt_not_found', async () => {
    throw new ResourceNotFoundError('The sheet behind this prompt was deleted');
  });
  addPrompt('prompt_network', () => fetchClosed(closedUrl));
  addPrompt('prompt_abort', async () => abortNow());
  addPrompt('prompt_crash', async ({ topic }: { topic: string }) => promptResult(`${topic}: ${readUndefinedY()}`), { topic: z.string() });
  addPrompt('prompt_protocol', async () => {
    throw sdk.protocolError(-32602, 'Unknown topic');
  });
  addPrompt('prompt_hostile_cyclic', async () => {
    throw cyclicCrash();
  });
  addPrompt('prompt_hostile_null', async () => {
    throw null;
  });
  server.registerPrompt(
    'prompt_degraded',
    { description: 'compat scenario prompt_degraded' },
    withClientVisiblePromptErrors(
      async () => {
        throw new Error('the degraded handler must not run');
      },
      { name: 'prompt_degraded', policy: degradedPolicy },
    ),
  );
  addPrompt('prompt_reauthorize', async () => {
    throw new GrantRevokedError();
  });
  addPrompt('prompt_nested_crash', async () => {
    const inner = await innerCrash();
    throw new ToolError(failureText(inner));
  });
}

/** The policies of the table, logging to `logger` (default: stderr). */
export function makePolicies(logger?: PolicyLogger): { policy: ErrorPolicy; degradedPolicy: ErrorPolicy } {
  const logging = logger === undefined ? {} : { logger };
  return {
    policy: createErrorPolicy({ rules: [...coreRules, grantRevokedRule], reauthorize: REAUTHORIZE, exposeCrashDetails: false, ...logging }),
    degradedPolicy: createErrorPolicy({ degraded: () => DEGRADED, exposeCrashDetails: false, ...logging }),
  };
}

/** The records of a capturing logger. */
export function captureRecords(): { records: LogRecord[]; logger: (record: LogRecord) => void } {
  const records: LogRecord[] = [];
  return { records, logger: (record) => records.push(record) };
}

/** What differs from run to run: every 12-hex reference id written `<ref>`, every loopback port `<port>`. */
export function normaliseRunValues(value: string): string {
  return value.replace(/\(reference [0-9a-f]{12}\)/g, '(reference <ref>)').replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>');
}

/** A record as expectations hold it: without its stack and reference, with run values normalised. */
export function comparableRecord(record: LogRecord): Record<string, unknown> {
  const { stack: _stack, reference: _reference, ...rest } = record;
  const matched = rest.matchedErrorMessage === undefined ? {} : { matchedErrorMessage: normaliseRunValues(rest.matchedErrorMessage) };
  return { ...rest, message: normaliseRunValues(rest.message), errorMessage: normaliseRunValues(rest.errorMessage), ...matched };
}

/** The reference ids in a text, in order. */
export function referencesIn(value: string): string[] {
  return [...value.matchAll(/\(reference ([0-9a-f]{12})\)/g)].map((m) => m[1]!);
}

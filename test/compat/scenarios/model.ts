/**
 * What a scenario of the compatibility table is (test/compat/scenarios.ts), and the words its expectations are
 * written in: the client's wire text and the log records, reference ids written `<ref>`.
 */
import type { ErrorPolicy } from '../../../src/index.js';
import { DEGRADED, failureText, fetchClosed, MISSING_FILE, REAUTHORIZE } from './fixtures.js';
import type { InnerHandlers } from './fixtures.js';

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
// A scenario.

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

/**
 * The failure object an answer carries (`_meta` of a tool result, `data` of a JSON-RPC error, under
 * `mcp-error-policy/failure`), without its correlation id: that one is random, and the table checks it against the
 * log record instead (test/compat/table.test.ts).
 */
export interface ExpectedFailure {
  readonly code: string;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly upstream?: 'unreached';
}

/**
 * What the client gets: a tool result, or a JSON-RPC error as the server sends it (see `clientView`). `failure` is the
 * failure object (absent: the answer carries none); `uri` is `error.data.uri` (resource not found).
 */
export type ExpectedWire =
  | { readonly result: { readonly text: string; readonly isError: boolean; readonly failure?: ExpectedFailure } }
  | { readonly error: { readonly code: number; readonly message: string; readonly uri?: string; readonly failure?: ExpectedFailure } };

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
  /** Every failure record but a protocol error's has one: written {@link CORRELATED} (the value is random). */
  readonly correlationId?: typeof CORRELATED;
}

/** Values only known at run time, from which some expectations are made. */
export interface RuntimeFacts {
  readonly zodMessage: string;
}

/** Everything a handler may use: the policies and the inputs made once per process. */
export interface ScenarioContext {
  readonly policy: ErrorPolicy;
  readonly degradedPolicy: ErrorPolicy;
  readonly closedUrl: string;
  readonly sdk: CompatSdk;
}

/** A handler's context on one server: the {@link ScenarioContext} and the handlers the nested scenarios call. */
export interface HandlerContext extends ScenarioContext {
  readonly inner: InnerHandlers;
}

/** A tool callback, a resource read callback or a prompt callback, as the SDK calls it. */
export type Handler = (...args: never[]) => unknown;

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
  /**
   * The handler registered under the scenario's id, made once per server. It is registered raw: the fixture installs
   * the policy (each handler wrapped on its own, or `applyErrorPolicy` on the whole server), unless the handler comes
   * wrapped already (the degraded scenarios run under their own policy), which both ways leave as it is.
   */
  readonly handler: (context: HandlerContext) => Handler;
  /** The tool's `inputSchema` or the prompt's `argsSchema`. */
  readonly schema?: Record<string, unknown>;
  /** Resources: the URI template the handler is registered under, instead of `compat://sheets/<id>`. */
  readonly template?: string;
  /** What the client gets and what is logged; a row (`tool`, `resource`, `prompt` below) makes it from its {@link Expect}. */
  readonly expect: (sdk: Sdk, facts: RuntimeFacts) => Expected;
}

/**
 * A handler that rejects with what `make` returns; `make` runs at call time, so each call throws a fresh value (from
 * the SDK under test, when `make` reads it from the context).
 */
export const throws =
  (make: (context: HandlerContext) => unknown) =>
  (context: HandlerContext): Handler =>
  async () => {
    throw make(context);
  };

/** A handler that fetches from the closed port on 127.0.0.1: a real ECONNREFUSED. */
export const fetchesClosedPort =
  ({ closedUrl }: HandlerContext): Handler =>
  () =>
    fetchClosed(closedUrl);

/** A handler that calls the wrapped inner tool `tool` and rethrows the text of its isError result as an `As`. */
export const rethrowsFailureOf =
  (tool: 'locked' | 'crash', As: new (message: string) => Error) =>
  ({ inner }: HandlerContext): Handler =>
  async () => {
    throw new As(failureText(await inner[tool]()));
  };

// ---------------------------------------------------------------------------------------------------------------------
// A row of the table: `tool(id, category, title, handler, expect)` (likewise `resource` and `prompt`).

/** The SDK major an expectation is written for. */
export type Sdk = CompatSdk['major'];

/**
 * The handler a row's expectations speak of: its kind, and the name it is called and logged by (the tool's or
 * prompt's name, which is the row's id; the URI a resource is read at).
 */
export interface At {
  readonly kind: HandlerKind;
  readonly name: string;
}

/** What the client gets and what is logged, in order. */
export interface Expected {
  readonly wire: ExpectedWire;
  readonly records: readonly ExpectedRecord[];
}

/** A row's expectations: written once, made for the row's handler (and the SDK major, and the run's facts). */
export type Expect = (at: At, sdk: Sdk, facts: RuntimeFacts) => Expected;

/** What a row may add: a tool's or prompt's arguments and schema; a resource's URI (default `compat://sheets/<id>`) and template. */
export type RowOptions = Pick<Scenario, 'args' | 'schema' | 'uri' | 'template'>;

type Row = (id: string, category: Category, title: string, handler: Scenario['handler'], expect: Expect, options?: RowOptions) => Scenario;

function rowOf(kind: HandlerKind): Row {
  return (id, category, title, handler, expect, options = {}) => {
    const uri = kind === 'resource' ? (options.uri ?? uriOf(id)) : options.uri;
    const at: At = { kind, name: uri ?? id };
    return { id, kind, category, title, ...options, ...(uri === undefined ? {} : { uri }), handler, expect: (sdk, facts) => expect(at, sdk, facts) };
  };
}

/** A tool scenario, registered and called by its id. */
export const tool = rowOf('tool');
/** A resource scenario, registered at `compat://sheets/<id>` (or under its template) and read at its URI. */
export const resource = rowOf('resource');
/** A prompt scenario, registered and got by its id. */
export const prompt = rowOf('prompt');

// ---------------------------------------------------------------------------------------------------------------------
// The words of the expectations: what the client gets (`shows`, `masked`, `passes`, or any `answers`) and the records.

/** A failure object: `code`, `retryable`, and `retryAfterMs` when the answer gives a delay. */
export const failure = (code: string, retryable: boolean, retryAfterMs?: number): ExpectedFailure =>
  retryAfterMs === undefined ? { code, retryable } : { code, retryable, retryAfterMs };
/** A network failure whose request never reached the other side (a refused connection). */
export const UNREACHED: ExpectedFailure = { code: 'network', retryable: true, upstream: 'unreached' };
/** A crash's failure object: code `internal`, not retryable (its correlation id is the reference). */
export const INTERNAL = failure('internal', false);

/** An isError tool result; without `object`, one that carries no failure object (protocol errors, a tool's own). */
export const isError = (text: string, object?: ExpectedFailure): ExpectedWire => ({ result: { text, isError: true, ...(object === undefined ? {} : { failure: object }) } });
/** A JSON-RPC error; without `object`, one that carries no failure object (protocol errors). */
export const rpc = (code: number, message: string, object?: ExpectedFailure, uri?: string): ExpectedWire => ({
  error: { code, message, ...(uri === undefined ? {} : { uri }), ...(object === undefined ? {} : { failure: object }) },
});
export const uriOf = (id: string): string => `compat://sheets/${id}`;

/** A log record as a row writes it: made for the row's handler (see {@link of} for another's). */
export type RecordOf = (at: At, sdk: Sdk) => ExpectedRecord;

/** The client gets `wire` (or what `wire` makes of the handler and the SDK); `records` are logged, in order. */
export const answers =
  (wire: ExpectedWire | ((at: At, sdk: Sdk) => ExpectedWire), ...records: RecordOf[]): Expect =>
  (at, sdk) => ({ wire: typeof wire === 'function' ? wire(at, sdk) : wire, records: records.map((record) => record(at, sdk)) });

/**
 * The client is shown `text` with the failure object `object`: a tool's isError result
 * `Error executing tool <name>: <text>`, a resource's or prompt's JSON-RPC error -32603 `<text>`.
 */
export const shows = (text: string, object: ExpectedFailure, ...records: RecordOf[]): Expect =>
  answers(({ kind, name }) => (kind === 'tool' ? isError(`Error executing tool ${name}: ${text}`, object) : rpc(-32603, text, object)), ...records);

/**
 * A crash: the client gets only the reference (`Error executing tool <name>`, `Error reading resource <uri>`,
 * `Error getting prompt <name>`, then ` (reference <ref>)`) and the {@link INTERNAL} failure object; one crash record.
 */
export const masked = (errorName: string, quoted: string): Expect =>
  answers(({ kind, name }) => {
    const text = `${kind === 'tool' ? 'Error executing tool' : kind === 'resource' ? 'Error reading resource' : 'Error getting prompt'} ${name} (reference <ref>)`;
    return kind === 'tool' ? isError(text, INTERNAL) : rpc(-32603, text, INTERNAL);
  }, crashed(errorName, quoted));

/**
 * The SDK's protocol error `code` with `text` passes through untouched: a tool answers an isError result of its
 * message (the SDK's way), a resource or prompt the JSON-RPC error with its code; one protocol record of `status`.
 */
export const passes = (code: number, status: number, text: string): Expect =>
  answers(({ kind }, sdk) => (kind === 'tool' ? isError(protocolMessage(sdk, code, text)) : rpc(code, protocolMessage(sdk, code, text))), sdkProtocol(code, status, text));

/** How expectations write a record's correlation id: present, its value checked against the answer's. */
export const CORRELATED = '<id>';

/**
 * The default logger's first line for an expected record: `[mcp-error-policy] LEVEL <message>`, then, for a failure
 * with a correlation id that is not a crash (a crash's line names its reference instead), ` (correlation <id>)`.
 */
export function expectedLine(record: ExpectedRecord): string {
  const correlation = record.correlationId === undefined || record.kind === 'crash' ? '' : ` (correlation ${CORRELATED})`;
  return `[mcp-error-policy] ${record.level.toUpperCase()} ${record.message}${correlation}`;
}

/** The error on the cause chain a rule accepted: its name and message. */
export type Matched = readonly [name: string, message: string];

function matchedFields(matched: Matched | undefined): { matchedErrorName?: string; matchedErrorMessage?: string; line: string } {
  if (matched === undefined) return { line: '' };
  const [matchedErrorName, matchedErrorMessage] = matched;
  return { matchedErrorName, matchedErrorMessage, line: `; matched cause ${matchedErrorName} ${JSON.stringify(matchedErrorMessage)}` };
}

const who = ({ kind, name }: At): string => `${kind} ${JSON.stringify(name)}`;

/** A record of another handler than the row's own: `kind` `name` (the inner handlers of the nested scenarios). */
export const of =
  (kind: HandlerKind, name: string, record: RecordOf): RecordOf =>
  (_at, sdk) =>
    record({ kind, name }, sdk);

export const info =
  (errorName: string, quoted: string, status = 500, rule = 'deliberate', matched?: Matched): RecordOf =>
  (at) => {
    const { line, ...fields } = matchedFields(matched);
    return { level: 'info', kind: 'anticipated', handler: at.kind, name: at.name, status, rule, errorName, errorMessage: quoted, ...fields, message: `${who(at)} failed: ${errorName} ${JSON.stringify(quoted)}${line}`, correlationId: CORRELATED };
  };

export const warn =
  (rule: string, status: number, errorName: string, quoted: string, matched?: Matched): RecordOf =>
  (at) => {
    const { line, ...fields } = matchedFields(matched);
    return { level: 'warn', kind: 'anticipated', handler: at.kind, name: at.name, status, rule, errorName, errorMessage: quoted, ...fields, message: `${who(at)} failed (rule ${rule}): ${errorName} ${JSON.stringify(quoted)}${line}`, correlationId: CORRELATED };
  };

export const crashed =
  (errorName: string, quoted: string): RecordOf =>
  (at) => ({ level: 'error', kind: 'crash', handler: at.kind, name: at.name, status: 500, errorName, errorMessage: quoted, message: `${who(at)} crashed (reference <ref>): ${errorName} ${JSON.stringify(quoted)}`, correlationId: CORRELATED });

export const protocol =
  (code: number, status: number, errorName: string, quoted: string): RecordOf =>
  (at) => ({ level: 'info', kind: 'protocol', handler: at.kind, name: at.name, status, errorName, errorMessage: quoted, message: `${who(at)} failed with protocol error ${code}: ${errorName} ${JSON.stringify(quoted)}` });

/** The record of the SDK's own protocol error `code` (`McpError` v1, `ProtocolError` v2), with the message its class makes of `text`. */
export const sdkProtocol =
  (code: number, status: number, text: string): RecordOf =>
  (at, sdk) =>
    protocol(code, status, protocolName(sdk), protocolMessage(sdk, code, text))(at, sdk);

/** The record of a call refused while degraded (the handler did not run). */
export const degraded: RecordOf = (at) => ({ level: 'info', kind: 'degraded', handler: at.kind, name: at.name, status: 401, errorName: 'degraded', errorMessage: DEGRADED, message: `${who(at)} refused (degraded): ${JSON.stringify(DEGRADED)}`, correlationId: CORRELATED });

/** The message of a protocol error: v1's McpError prefixes `MCP error <code>: `; v2's ProtocolError does not. */
export const protocolMessage = (sdk: CompatSdk['major'], code: number, text: string): string => (sdk === 'v1' ? `MCP error ${code}: ${text}` : text);
/** The `name` of protocol errors and their subclasses: `McpError` (v1), `ProtocolError` (v2). */
export const protocolName = (sdk: CompatSdk['major']): string => (sdk === 'v1' ? 'McpError' : 'ProtocolError');

export const ECONNREFUSED_TEXT = 'Network error: connection refused (ECONNREFUSED)';
/** The system error behind a refused fetch, as the record names it (its port normalised, see `normaliseRunValues`). */
export const REFUSED: Matched = ['Error', 'connect ECONNREFUSED 127.0.0.1:<port>'];
/** The timer behind AbortSignal.timeout's abort. */
export const TIMED_OUT: Matched = ['TimeoutError', 'The operation was aborted due to timeout'];
export const ENOENT_TEXT = 'File system error: no such file or directory (ENOENT, open)';
export const ENOENT_MESSAGE = `ENOENT: no such file or directory, open '${MISSING_FILE}'`;
export const REVOKED = 'Token has been expired or revoked.';
export const REVOKED_TEXT = `${REVOKED}\n\n${REAUTHORIZE}`;

/** The records of the inner handlers the nested scenarios call (see innerHandlers in ./fixtures.ts). */
export const INNER_LOCKED = of('tool', 'inner_locked', info('ToolError', 'Row 7 is locked by another editor'));
export const INNER_CRASH = of('tool', 'inner_crash', crashed('TypeError', "Cannot read properties of undefined (reading 'y')"));

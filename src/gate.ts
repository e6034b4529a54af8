/**
 * The exit gate: what a client text may say, judged by what it says, whoever wrote it (a rule, the server's own
 * `Error`, an `McpError` or `ProtocolError` a handler threw, a deliberate `ToolError`). Secrets are scrubbed before a text
 * gets here (scrub.ts: client texts and log records alike); this is what a client text needs beyond that:
 *
 * - a text that carries a crash is not shown at all (the call is answered as a crash, with a reference): a JavaScript
 *   runtime error's message, a stack frame, an HTML page, or the message of one of its own causes that the policy
 *   would not show by itself;
 * - what is internal goes and the sentence stays: a source location (`/srv/app/models/ticket.rb:42`, a `file://` URL)
 *   becomes `[source]`, an internal host (in a URL: the URL keeps its path; as `host:port`, an address or a name under
 *   an internal suffix) becomes `[internal host]`;
 * - an error's own message that quotes an upstream 5xx answer keeps its status and what came before it (the
 *   service's name), never the body; a text a rule built shows what the rule chose (the packaged HTTP and Google
 *   rules: a 5xx's status and, for some APIs, their structured error type and message; never a raw body).
 *
 * A directory named on its own (filesystem's `… not in /srv/allowed`) is no source location: only a file with a line
 * number is. Log records and spans keep the crash text and stack: operators need them.
 */
import { findInChain } from './kit/chain.js';
import { isObjectLike, messageOf } from './kit/read.js';
import { INTERNAL_SUFFIXES, clientUrl, isInternalHost } from './kit/url.js';

/** What stands in for a source location in a client text. */
export const SOURCE_MARK = '[source]';
/** What stands in for an internal host in a client text. */
export const INTERNAL_HOST_MARK = '[internal host]';

/**
 * The messages of V8's common runtime errors (TypeError, ReferenceError, RangeError, SyntaxError) and of JSON parsing,
 * as they appear inside a longer text (`Tool execution failed: Cannot read properties of undefined (reading 'id')`).
 */
const RUNTIME_ERROR = new RegExp(
  [
    "Cannot read propert(?:y|ies) (?:of|'[^']*' of)",
    'Cannot set propert(?:y|ies) (?:of|[^ ]+ of)',
    'Cannot destructure ',
    "Cannot create property '[^']*' on",
    'Cannot (?:assign to read only|add|define|redefine|delete) property',
    "Cannot access '[^']*' before initialization",
    "Cannot use 'in' operator",
    'Cannot convert (?:undefined or null|a Symbol value|a BigInt value|object to primitive)',
    'Cannot mix BigInt',
    'Converting circular structure to JSON',
    'Do not know how to serialize a BigInt',
    'is not (?:a function|a constructor|iterable|defined|async iterable)\\b',
    '(?:undefined|null) is not an object',
    "Class constructor [\\w$]+ cannot be invoked without 'new'",
    'Assignment to constant variable',
    'Maximum call stack size exceeded',
    'Invalid (?:array|string|typed array) length',
    'Reduce of empty array with no initial value',
    "Right-hand side of 'instanceof'",
    "Identifier '[^']*' has already been declared",
    'Unexpected (?:token|identifier|end of (?:JSON )?input|non-whitespace character|number|string|character)',
    'Invalid or unexpected token',
    `["'](?:\\.\\.\\.)? is not valid JSON`,
    'in JSON at position \\d',
    'Bad control character in string literal',
    'Invalid regular expression',
    'Invalid time value',
    '(?:toFixed|toPrecision)\\(\\) (?:digits )?argument must be',
    'Invalid count value',
    'BigInt division by zero',
    'JSON\\.parse: ',
    'out of memory',
    'Unhandled (?:promise )?rejection',
  ].join('|'),
);

/**
 * A stack frame of JavaScript (`at fn (/srv/a.js:1:2)`, `at /srv/a.js:1:2`, `at async file:///srv/a.mjs:3:4`), Python
 * (`Traceback (most recent call last)`, `File "/srv/a.py", line 3`), Ruby (`a.rb:42:in 'fn'`) or the JVM
 * (`at com.acme.Tickets.close(Tickets.java:42)`).
 */
const STACK_FRAME =
  /\bat (?:async )?(?:[^\s()]+ \((?:file:\/\/|node:|\/|[A-Za-z]:\\|<anonymous>)[^\s)]*:\d+:\d+\)|(?:file:\/\/|node:|\/|[A-Za-z]:\\)[^\s)]*:\d+:\d+)|Traceback \(most recent call last\)|File "[^"]+", line \d+|\.rb:\d+:in [`']|\bat [\w$.]+\([\w$]+\.(?:java|kt|scala):\d+\)/;

/** An HTML page, or the start of one (an upstream's or a framework's error page). */
const HTML_PAGE = /<(?:!doctype\s+html|html[\s>]|head>|body[\s>]|title>)/i;

/** File extensions of source code, for source locations. */
const SOURCE_EXTENSIONS = 'm?[jt]sx?|c[jt]s|rb|py|go|java|kt|scala|php|cs|rs|c|cc|cpp|h|hpp|swift|exs?|erb|vue|svelte|lua|pl';

/**
 * Every pattern below starts only where a run of its characters starts (a look-behind or a fixed text), so that a long
 * run costs linear time, not quadratic.
 *
 * A source location: a `file://` URL, a `node:internal/…` module, or a source file with a line number (absolute,
 * relative or bare: `/srv/app/models/ticket.rb:42`, `src/tools.ts:10:5`, `C:\app\index.js:3`).
 */
const SOURCE_LOCATION = new RegExp(
  `file:\\/\\/[^\\s'"<>()]+|\\bnode:internal\\/[\\w/.-]+(?::\\d+)*|(?<![\\w.@\\\\/:-])(?:[A-Za-z]:\\\\|\\.{0,2}\\/)?(?:[\\w.@-]+[\\\\/])*[\\w.@-]+\\.(?:${SOURCE_EXTENSIONS}):\\d+(?::\\d+)?`,
  'g',
);

/**
 * A URL of a network scheme (http(s), WebSocket, FTP, SSH, databases, queues, LDAP), up to a space, a quote or a
 * bracket, without the punctuation that ends its sentence. Other schemes are a server's own names (MCP resource URIs such as `doc://q9`), not hosts.
 */
const URL_IN_TEXT =
  /(?<![a-z0-9+.-])(?:https?|wss?|s?ftp|ssh|postgres(?:ql)?|mysql|mariadb|redis|rediss|mongodb(?:\+srv)?|amqps?|mqtts?|nats|kafka|ldaps?|smb|grpcs?|tcp|udp|jdbc:[a-z0-9]+|clickhouse|elasticsearch|memcached):\/\/[^\s'"<>()[\]{}]*[^\s'"<>()[\]{}.,;:!?]/gi;

/** Words that take a number after a colon in ordinary sentences, never hosts (`line:42`, `page:10`). */
const NOT_HOSTS = /^(?:line|col|column|pos|position|page|offset|row|index|char|byte|status|code|error|errno|step|attempt|limit|size|length|count|version|id|at|v)$/i;

/**
 * `host:port`: a name (single label or dotted, with a letter: `10:30` is a time), an IPv4 address or a bracketed IPv6 address, then a port of 2 to 5
 * digits, not inside a longer word or number.
 */
const HOST_PORT = /(?<![\w.:/@-])((?:[a-z0-9-]+\.)*(?=[a-z0-9-]*[a-z])[a-z0-9-]+|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\]):(\d{2,5})(?![\w:]|\.\d)/gi;

/** Private, loopback and link-local IPv4 addresses (with a port, if any), and loopback, unique-local and link-local IPv6 ones. */
const INTERNAL_ADDRESS =
  /(?<![\w.])(?:(?:127|10|0)\.\d{1,3}\.\d{1,3}\.\d{1,3}|192\.168\.\d{1,3}\.\d{1,3}|169\.254\.\d{1,3}\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01])\.\d{1,3}\.\d{1,3})(?::\d{1,5})?(?![\w.])|(?<![\w:])(?:::1|f[cd][0-9a-f]{2}:[0-9a-f:]+|fe[89ab][0-9a-f]:[0-9a-f:]+)(?![\w:])/gi;

/** A name under an internal suffix (`db-primary.int.acme-corp.lan`, `billing.svc.cluster.local`), or `localhost`. */
const INTERNAL_NAME = new RegExp(`(?<![\\w.-])(?:(?:[a-z0-9-]+\\.)+(?:${INTERNAL_SUFFIXES})|localhost)(?![\\w.-])`, 'gi');

/** The reason phrases of 5xx statuses. */
const REASON_5XX = 'Internal Server Error|Not Implemented|Bad Gateway|Service Unavailable|Gateway Time-?out|HTTP Version Not Supported|Variant Also Negotiates|Insufficient Storage|Loop Detected|Not Extended|Network Authentication Required';

/**
 * A 5xx status in a sentence (`HTTP 502`, `status 500`, `status code: 503`, `returned 500`, `500 Internal Server
 * Error`, `error 502:`), with its reason phrase when one follows.
 */
const STATUS_5XX = new RegExp(
  `(?:\\b(?:HTTP(?:\\/\\d(?:\\.\\d)?)?|status(?: code)?|response code|returned|responded with)\\s*[:=]?\\s*5\\d\\d\\b|\\b5\\d\\d(?=\\s*[:-]?\\s*(?:${REASON_5XX})\\b)|\\berror\\s+5\\d\\d\\b(?=\\s*[:-]))(?:\\s*[:-]?\\s*(?:${REASON_5XX})\\b)?`,
  'i',
);

/** Shortest message of a cause that is looked for in a text: shorter ones are words any text may hold. */
const MIN_CAUSE_MESSAGE = 8;

/** What a text that carries a crash carries, for the log record (`a runtime error's message`). */
export type CrashSign = 'a runtime error' | 'a stack frame' | 'an HTML page' | "its cause's message";

/** The error a text is the own message of, and whether the policy would show an error (one of its causes) by itself. */
export interface OwnMessageOf {
  readonly error: unknown;
  readonly shown: (error: unknown) => boolean;
}

/**
 * What of a crash `text` carries, or `undefined`: a runtime error's message, a stack frame, an HTML page, or, for an
 * error's own message, the message of an error on its cause chain (not the error itself) that would not be shown by itself.
 */
export function crashSignOf(text: string, of?: OwnMessageOf): CrashSign | undefined {
  if (RUNTIME_ERROR.test(text)) return 'a runtime error';
  if (STACK_FRAME.test(text)) return 'a stack frame';
  if (HTML_PAGE.test(text)) return 'an HTML page';
  if (of === undefined) return undefined;
  const carried = findInChain(of.error, (node) => {
    if (node === of.error || !isObjectLike(node)) return undefined;
    const message = messageOf(node).trim();
    return message.length >= MIN_CAUSE_MESSAGE && text.includes(message) && !of.shown(node) ? true : undefined;
  });
  return carried === true ? "its cause's message" : undefined;
}

/** `text` without an upstream 5xx answer's body: up to the status (and its reason phrase), then a full stop. */
function withoutUpstreamBody(text: string): string {
  const status = STATUS_5XX.exec(text);
  if (status === null) return text;
  const end = status.index + status[0].length;
  return /[\p{L}\p{N}]/u.test(text.slice(end)) ? `${text.slice(0, end).trimEnd()}.` : text;
}

/** A network URL of `text` as a client may see it: http(s) by {@link clientUrl}; another scheme's without an internal host. */
function clientUrlOf(url: string): string {
  if (/^https?:/i.test(url)) return clientUrl(url);
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return INTERNAL_HOST_MARK;
  }
  if (host !== '' && !isInternalHost(host)) return url;
  const rest = /^[^/]*\/\/[^/?#]*(.*)$/s.exec(url)?.[1] ?? '';
  return rest === '' ? INTERNAL_HOST_MARK : rest;
}

/** Whether the caller itself sent a piece of text (in the call's arguments): showing it back tells it nothing new. */
export type SentByCaller = (piece: string) => boolean;

const SENT_NOTHING: SentByCaller = () => false;

/** `text` without source locations and internal hosts (but those the caller sent), its sentence kept. */
function withoutInternals(text: string, sent: SentByCaller = SENT_NOTHING): string {
  const unless = (mark: string | ((piece: string) => string)) => (piece: string) => (sent(piece) ? piece : typeof mark === 'string' ? mark : mark(piece));
  return text
    .replace(SOURCE_LOCATION, unless(SOURCE_MARK))
    .replace(URL_IN_TEXT, unless(clientUrlOf))
    .replace(HOST_PORT, (whole: string, host: string) => (!NOT_HOSTS.test(host) && isInternalHost(host) && !sent(whole) ? INTERNAL_HOST_MARK : whole))
    .replace(INTERNAL_ADDRESS, unless(INTERNAL_HOST_MARK))
    .replace(INTERNAL_NAME, unless(INTERNAL_HOST_MARK));
}

/** Longest `data` of a protocol error passed on, as JSON. */
const MAX_DATA_JSON = 8192;

/**
 * The `data` of a handler's protocol error as a client may see it: a JSON copy whose every string passed
 * `scrub` (secrets), the internals' removal and the upstream 5xx body's cut, or `undefined` (dropped) when it is not JSON, is longer than 8 KB as
 * JSON, or a string of it carries a crash.
 *
 * @param data - the thrown error's `data`
 * @param scrub - makes a text free of secrets (the policy's scrubbing and `redact`)
 */
export function gateClientData(data: unknown, scrub: (text: string) => string): unknown {
  let crashed = false;
  try {
    const json = JSON.stringify(data);
    if (json === undefined || json.length > MAX_DATA_JSON) return undefined;
    const out: unknown = JSON.parse(json, (_key, value: unknown) => {
      if (typeof value !== 'string') return value;
      const text = scrub(value);
      if (RUNTIME_ERROR.test(text) || STACK_FRAME.test(text) || HTML_PAGE.test(text)) crashed = true;
      return withoutInternals(withoutUpstreamBody(text));
    });
    return crashed ? undefined : out;
  } catch {
    return undefined;
  }
}

/** What the gate decides for a client text: the text to show, or the sign of the crash it carries. */
export type GateVerdict = { readonly text: string } | { readonly crash: CrashSign };

/**
 * The exit gate for a client text (already scrubbed of secrets): `{ crash }` when it carries a crash, else the text
 * without source locations and internal hosts. A text that is an error's own message (`of`: a deliberate error's, the
 * server's own `Error`'s, a protocol error's) must also not carry its causes' messages, and loses an upstream 5xx
 * answer's body; a text a rule built (`of` undefined) shows what the rule chose to take from the answer.
 *
 * @param text - the client text, scrubbed
 * @param of - the error whose own message the text is, if it is one
 * @param sent - whether the caller sent a piece of the text: an internal host or path it sent itself stays
 *
 * @example
 * ```ts
 * gateClientText('Ticket API error 500 Internal Server Error: PG::ConnectionBad at db.int.acme.lan:5432', { error, shown });
 * // { text: 'Ticket API error 500 Internal Server Error.' }
 * ```
 */
export function gateClientText(text: string, of?: OwnMessageOf, sent?: SentByCaller): GateVerdict {
  // an upstream's 5xx body goes first: a stack or page in it is the upstream's crash, and none of it is shown
  const own = of === undefined ? text : withoutUpstreamBody(text);
  const crash = crashSignOf(own, of);
  return crash === undefined ? { text: withoutInternals(own, sent) } : { crash };
}

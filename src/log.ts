/**
 * Logging: one record per failure, adapted to whatever logger the server uses (a function, or a console-, pino- or
 * winston-shaped object). The default writes to stderr, never stdout: stdout is the stdio transport's channel.
 */
import { isObjectLike, readProp } from './kit/read.js';
import { onCloudflareWorkers } from './kit/runtime.js';

/** Level of a log record: deliberate failures at info, allowlisted foreign errors at warn, crashes at error. */
export type LogLevel = 'info' | 'warn' | 'error';

/** Which kind of handler failed. */
export type HandlerKind = 'tool' | 'resource' | 'prompt';

/** How a failure was classified, as far as the log and the access log are concerned. */
export type FailureKind = 'anticipated' | 'crash' | 'protocol' | 'degraded';

/** One log record: exactly one is written per failure. Every text in it is scrubbed of secrets and bounded. */
export interface LogRecord {
  /** Record level. */
  readonly level: LogLevel;
  /** One line saying what failed, without the stack. Peer-supplied values in it are quoted. */
  readonly message: string;
  /** How the failure was classified. */
  readonly kind: FailureKind;
  /** Which kind of handler failed (a completion: the kind its `ref` names; a list: what it lists). */
  readonly handler: HandlerKind;
  /** The tool or prompt name, or the resource URI (bounded); for a completion or a list, the method. */
  readonly name: string;
  /**
   * For a completion: the prompt or resource template its `ref` names and the argument being completed, as in the
   * record's line (`prompt "summarize" argument "sheet"`, `resource template "sheet://{name}" argument "name"`);
   * scrubbed, bounded, on one line. For a `resources/list` that failed in a resource template's list callback
   * (`McpServer`): the template, `resource template "files"`.
   */
  readonly about?: string;
  /** Name of the rule that matched (anticipated failures). */
  readonly rule?: string;
  /** The reference id the client was shown (crashes). */
  readonly reference?: string;
  /**
   * The id in the failure object the client received (`correlationId`): on every failure record but a protocol
   * error's; for a crash, its reference.
   */
  readonly correlationId?: string;
  /** Method of the HTTP request behind the failure, when the rule knows it (`GET`). */
  readonly httpMethod?: string;
  /** URL of that request, without credentials. */
  readonly httpUrl?: string;
  /** HTTP status of its response. */
  readonly httpStatus?: number;
  /** The id the service gave that request, when the rule knows it. */
  readonly httpRequestId?: string;
  /** Name of the error on the cause chain the rule accepted, when it is not the thrown one. */
  readonly matchedErrorName?: string;
  /** Message of that error (scrubbed, bounded). */
  readonly matchedErrorMessage?: string;
  /** Access-log status of the failure. */
  readonly status: number;
  /** The thrown value's `name`, or what was thrown (`string`, `undefined`, ...). */
  readonly errorName: string;
  /** The thrown value's message: scrubbed, bounded, possibly multi-line (use `message` for one line). */
  readonly errorMessage: string;
  /**
   * Report mode (`mode: 'report'`): set on the record of every failure but a protocol error's, whose answer was the
   * SDK's own. Its message starts with `report:`; a crash's record (which the policy would mask) is at `warn` and says
   * which packaged rule would show it, or that it is a crash; an anticipated failure's says what `'enforce'` would show.
   */
  readonly report?: true;
  /** Report mode: where the crash was thrown, its first stack frame (`readGraph (/srv/index.js:42:11)`). */
  readonly thrownAt?: string;
  /**
   * Report mode: the packaged rule that would show this crash's text (or more than an HTTP failure's status), as the
   * entry to add to `rules` (`...httpRules`, `...googleRules`, `zodErrorRule`, or `httpRulesFor` for a class of the
   * server's own); never a pack the policy holds; absent when no rule would (a crash: fix it, or throw the deliberate
   * error of the handler's kind, `ToolError` or `ResourceError`).
   */
  readonly wouldShowWith?: string;
  /**
   * A crash whose text a rule accepted (or a handler's protocol error) but the exit gate withheld, why:
   * `its text carries a runtime error` (a stack frame, an HTML page, its cause's message).
   */
  readonly withheld?: string;
  /** Stack frames and the cause chain (warn and error records only): scrubbed, controls escaped. */
  readonly stack?: string;
}

/** A logger that takes the structured record itself. */
export type LogFunction = (record: LogRecord) => void;

/**
 * A logger with `info`, `warn` and `error` methods: `console`, a pino logger, a winston logger, or anything shaped
 * like one of them.
 */
export interface LevelLogger {
  info(...args: never[]): unknown;
  warn(...args: never[]): unknown;
  error(...args: never[]): unknown;
}

/** Anything the policy can log to. */
export type PolicyLogger = LogFunction | LevelLogger;

/** The policy's internal logging function. It may throw; callers contain it. */
export type LogSink = (record: LogRecord) => void;

type LevelMethod = (...args: unknown[]) => unknown;

/** The record as one text: the message line, then the stack lines. */
function formatRecord(record: LogRecord): string {
  // A crash's line names its reference, which is its correlation id; any other failure's line gets it at the end, so
  // that the id a client reports finds the line.
  const { correlationId } = record;
  const line = correlationId === undefined || record.reference !== undefined ? record.message : `${record.message} (correlation ${correlationId})`;
  if (record.stack === undefined) return line;
  // a report record's line ends with where the crash was thrown: its stack starts after that frame
  const repeated = record.thrownAt === undefined ? undefined : `    at ${record.thrownAt}`;
  const stack = repeated !== undefined && record.stack.startsWith(repeated) ? record.stack.slice(repeated.length + 1) : record.stack;
  return stack === '' ? line : `${line}\n${stack}`;
}

/**
 * The fields of a record besides its level and message, for structured loggers. `name` becomes `handlerName`, since
 * pino and winston use `name` for the logger's own name.
 */
function fieldsOf(record: LogRecord): Record<string, unknown> {
  const { level: _level, message: _message, name, ...fields } = record;
  return { component: 'mcp-error-policy', handlerName: name, ...fields };
}

function method(logger: object, level: LogLevel): LevelMethod {
  return readProp(logger, level) as LevelMethod;
}

/**
 * Writes to stderr: `[mcp-error-policy] ERROR tool "x" crashed ...` followed by the stack lines. Where there is no
 * `process.stderr`, and on Cloudflare Workers (whose `nodejs_compat` stderr does not reach `wrangler dev`'s output),
 * the record goes to the console method of its level (`console.info`, `console.warn`, `console.error`).
 */
export const stderrSink: LogSink = (record) => {
  const text = `[mcp-error-policy] ${record.level.toUpperCase()} ${formatRecord(record)}`;
  const stderr = typeof process === 'object' && !onCloudflareWorkers() ? process.stderr : undefined;
  if (stderr !== undefined && typeof stderr.write === 'function') stderr.write(`${text}\n`);
  else console[record.level](text);
};

/**
 * Adapts a logger to a sink, or returns `undefined` when `logger` is none of the accepted shapes.
 * - a function gets the record;
 * - a pino-shaped logger gets `logger[level](fields, message)`;
 * - a winston-shaped logger gets `logger.log({ level, message, ...fields })`;
 * - any other object with `info`/`warn`/`error` gets `logger[level](text)`, with the stack after the message line;
 * - the global `console` itself writes every record to stderr, as the default sink does: its `info` writes to stdout,
 *   which is the stdio transport's channel.
 */
export function toLogSink(logger: unknown): LogSink | undefined {
  if (typeof logger === 'function') return logger as LogFunction;
  if (!isObjectLike(logger)) return undefined;
  if (logger === globalThis.console) return stderrSink;
  // winston: `log` and `add` methods
  const log = readProp(logger, 'log');
  if (typeof log === 'function' && typeof readProp(logger, 'add') === 'function') {
    return (record) => {
      log.call(logger, { level: record.level, message: record.message, ...fieldsOf(record) });
    };
  }
  if ((['info', 'warn', 'error'] as const).some((level) => typeof method(logger, level) !== 'function')) return undefined;
  // pino: a `child` method and `levels.values`
  if (typeof readProp(logger, 'child') === 'function' && isObjectLike(readProp(readProp(logger, 'levels'), 'values'))) {
    return (record) => {
      method(logger, record.level).call(logger, fieldsOf(record), record.message);
    };
  }
  return (record) => {
    method(logger, record.level).call(logger, formatRecord(record));
  };
}

/**
 * One shape for the HTTP failures of every client this entry knows, and the client text built from it:
 *
 *   <Service> <METHOD> <URL without credentials> failed with <HTTP> <Reason>[ (<service code>)]: <what the status means><service message>[ Retry after N seconds.]
 *
 * Each client's reader (axios.ts, github.ts, ...) fills an {@link HttpFailure} from fields the service wrote (its JSON
 * error body's message and code, its request id and Retry-After headers); the text never holds the error's own
 * `message` (axios and ky put the URL there, the AI SDKs a whole response body), a raw body or an HTML page.
 */
import { NETWORK_CODE_TEXT } from '../kit/codes.js';
import type { ErrorRule, FailedRequest } from '../rules/rule.js';
import { serverTextLine } from '../google/body.js';

/** Longest service message kept, in characters: the text's head (service, method, URL, status) stays under 450. */
export const MAX_SERVICE_MESSAGE = 500;

/** A failed HTTP request as one client's error describes it; every field only where the error holds it. */
export interface HttpFailure {
  /** Who answered: `GitHub API`, `OpenAI API`, `HTTP` (axios and ky, for any service). */
  readonly service: string;
  /** The HTTP status; `undefined` when the request got no response. */
  readonly status: number | undefined;
  /** The service's own error code (`not_found_error`, `invalid_api_key`, `channel_not_found`), identifier-shaped. */
  readonly code?: string | undefined;
  /** The service's own message, on one line and bounded. */
  readonly message?: string | undefined;
  /** The request method (`GET`). */
  readonly method?: string | undefined;
  /** The request URL, credentials redacted. */
  readonly url?: string | undefined;
  /** The service's id for the request (`x-request-id` and kin). */
  readonly requestId?: string | undefined;
  /** Seconds to wait before retrying, when the response says. */
  readonly retryAfterSeconds?: number | undefined;
  /** The service rejected the credentials with another status than 401 (AWS: 403 `UnrecognizedClientException`). */
  readonly rejected?: boolean | undefined;
  /** The status is the meaning of the service's error code, not an HTTP status (Slack answers errors with 200): not shown. */
  readonly inBody?: boolean | undefined;
}

/** The standard reason phrases of the statuses a service answers with. */
const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  423: 'Locked',
  424: 'Failed Dependency',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  529: 'Overloaded',
};

/** The reason phrase of `status` (`Not Found`), or `undefined` for a status without a standard one. */
export function reasonPhrase(status: number): string | undefined {
  return Object.prototype.hasOwnProperty.call(REASONS, status) ? REASONS[status] : undefined;
}

/** An identifier-shaped service code (`not_found_error`, `ThrottlingException`, `validation_error`), or `undefined`. */
export function serviceCode(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/.test(value) ? value : undefined;
}

/**
 * A service-written message as one bounded line, or `undefined` when it is not a string, is empty, or looks like
 * markup (an HTML error page sent where JSON was promised).
 */
export function serviceMessage(value: unknown, max = MAX_SERVICE_MESSAGE): string | undefined {
  if (typeof value !== 'string') return undefined;
  const line = serverTextLine(value, max);
  if (line === undefined || /^<|<\/?(?:html|body|head|title|div|p|h1)\b/i.test(line)) return undefined;
  return line;
}

/** `Retry after N seconds.` */
export function retryNote(seconds: number): string {
  return `Retry after ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;
}

/** Joins a message and a note with a sentence stop between them. */
function withNote(message: string, note: string | undefined): string {
  if (note === undefined) return message;
  return `${message}${/[.!?]$/.test(message) ? '' : '.'} ${note}`;
}

/**
 * What the status means, put before the service's message: 401 and 403 always say it; others show the service's
 * message alone, or nothing beyond the status line when the service wrote none. Other server errors get a generic
 * sentence, whatever the body says (a crashing service may put its own internals there).
 */
function statusSentence(status: number | undefined, message: string | undefined, rejected = false): string | undefined {
  if (status === 401 || rejected) return `Credentials rejected: ${message ?? 'the service did not accept them'}`;
  if (status === 403) return `Access denied: ${message ?? 'the credentials do not allow this request'}`;
  if (status !== undefined && status >= 500 && status !== 503 && status !== 529) return 'The service failed to answer';
  return message;
}

/**
 * The client text of a failure (see the module comment for its shape).
 *
 * @example
 * ```ts
 * failureText({ service: 'GitHub API', status: 404, message: 'Not Found', method: 'GET', url: 'https://api.github.com/repos/o/r' });
 * // 'GitHub API GET https://api.github.com/repos/o/r failed with 404 Not Found: Not Found'
 * ```
 */
export function failureText(failure: HttpFailure): string {
  const { service, status, code, method, url, retryAfterSeconds } = failure;
  const where = url === undefined ? ' request' : ` ${method === undefined ? '' : `${method} `}${url}`;
  const reason = status === undefined ? undefined : reasonPhrase(status);
  const head = status === undefined || failure.inBody === true ? '' : ` with ${status}${reason === undefined ? '' : ` ${reason}`}`;
  const shownCode = code === undefined || status === undefined || (status >= 500 && status !== 503 && status !== 529) ? '' : ` (${code})`;
  const retry = retryAfterSeconds !== undefined && (status === 429 || status === 503 || status === 529 || status === 403) ? retryNote(retryAfterSeconds) : undefined;
  const message = status !== undefined && status >= 500 && status !== 503 && status !== 529 ? undefined : failure.message;
  const sentence = statusSentence(status, message, failure.rejected);
  if (sentence !== undefined) return `${service}${where} failed${head}${shownCode}: ${withNote(sentence, retry)}`;
  return `${service}${where} failed${head}${shownCode}${retry === undefined ? '' : `. ${retry}`}`;
}

/** The failure as the log record's request fields. */
export function failedRequestFrom(failure: HttpFailure | undefined): FailedRequest | undefined {
  if (failure === undefined) return undefined;
  const { method, url, status, requestId } = failure;
  return { method, url, status, requestId };
}

/** A network failure's text, worded as the core `network` rule words it: `Network error: connection refused (ECONNREFUSED)`. */
export function networkText(code: string | undefined): string {
  const known = code ?? 'UNKNOWN';
  return `Network error: ${Object.prototype.hasOwnProperty.call(NETWORK_CODE_TEXT, known) ? NETWORK_CODE_TEXT[known] : 'network error'} (${known})`;
}

/**
 * The two rules of one client from its failure reader: `<id>-unauthorized` (a 401 or credentials otherwise rejected:
 * status 401, the policy's re-authorization text) and `<id>-http-error` (any other failure: its status). Both put
 * `request(error)` into the log record (by default the failure's method, URL, status and request id).
 */
export function failureRules(
  id: string,
  service: string,
  of: (error: unknown) => HttpFailure | undefined,
  request: (error: unknown) => FailedRequest | undefined = (error) => failedRequestFrom(of(error)),
): readonly [ErrorRule, ErrorRule] {
  return [
    Object.freeze({
      name: `${id}-unauthorized`,
      predicate: (error: unknown): boolean => {
        const failure = of(error);
        return failure?.status === 401 || failure?.rejected === true;
      },
      message: (error: unknown): string => failureText(of(error) ?? { service, status: 401 }),
      status: 401,
      level: 'warn',
      reauthorize: true,
      request,
    }),
    Object.freeze({
      name: `${id}-http-error`,
      predicate: (error: unknown): boolean => of(error) !== undefined,
      message: (error: unknown): string => failureText(of(error) ?? { service, status: undefined }),
      status: (error: unknown): number => of(error)?.status ?? 502,
      level: 'warn',
      request,
    }),
  ];
}

/** A rule for a client's failure without a response: fixed `message` (a timeout, 504) or one built from the error. */
export function noResponseRule(name: string, predicate: (error: unknown) => boolean, message: string | ((error: unknown) => string), status: number): ErrorRule {
  return Object.freeze({ name, predicate, message, status, level: 'warn' });
}

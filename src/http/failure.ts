/**
 * One shape for the HTTP failures of every client this entry knows, and what is built from it: the client text
 *
 *   <Service> <METHOD> <URL without credentials> failed with <HTTP> <Reason>[ (<service code>)]: <what the status means><service message>
 *
 * (the policy appends ` Retry after <n> s.` when the failure has a delay), and the failure object's facts (a stable
 * code, retryable, the delay; see {@link failureFacts}).
 *
 * Each client's reader (axios.ts, github.ts, ...) fills an {@link HttpFailure} from fields the service wrote (its JSON
 * error body's message and code, its request id, the response's headers); the text never holds the error's own
 * `message` (axios and ky put the URL there, the AI SDKs a whole response body), a raw body or an HTML page. What the
 * headers say about retrying and rate limits is read here, once for every client.
 */
import { headerOf, reasonPhrase } from '../kit/http.js';
import type { ErrorRule, FailedRequest, FailureFacts } from '../rules/rule.js';
import { serverTextLine } from '../text.js';
import { rateLimitResetMs, rateLimitSpent, retryAfterMsOf } from './headers.js';

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
  /**
   * The response's headers, from which the delay (`Retry-After`, `retry-after-ms`, a spent rate limit's reset) and a
   * 403's rate limit (`x-ratelimit-remaining: 0`) are read; no other header.
   */
  readonly headers?: unknown;
  /** Milliseconds to wait before retrying, from a field of the service's own (Slack's `retryAfter`); before the headers'. */
  readonly retryAfterMs?: number | undefined;
  /** The call may be retried, whatever the status: the service says so (AWS's `$retryable`), or the reader knows (Stripe). */
  readonly retryable?: boolean | undefined;
  /** The service throttled the call with another status than 429 (AWS `$retryable.throttling`; 403 rate limits are found here). */
  readonly throttled?: boolean | undefined;
  /** The service rejected the credentials with another status than 401 (AWS: 403 `UnrecognizedClientException`). */
  readonly rejected?: boolean | undefined;
  /** The status is the meaning of the service's error code, not an HTTP status (Slack answers errors with 200): not shown. */
  readonly inBody?: boolean | undefined;
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

/** True for a server error other than 503 and 529: the text shows neither the body nor the service's code. */
function isOpaqueServerError(status: number | undefined): boolean {
  return status !== undefined && status >= 500 && status !== 503 && status !== 529;
}

/** Words of a service's message or code that name a rate limit (`API rate limit exceeded`, `ThrottlingException`). */
const RATE_LIMIT_WORDS = /rate[\s_-]?limit|throttl/i;

/**
 * The service says slow down: a 429, another status the reader marked as throttling, or a 403 that is a rate limit
 * (GitHub's and others': a spent limit in the headers, a `Retry-After`, or a code or message naming a rate limit).
 */
function isThrottled(failure: HttpFailure): boolean {
  const { status, headers } = failure;
  if (status === 429 || failure.throttled === true) return true;
  return (
    status === 403 &&
    (rateLimitSpent(headers) || headerOf(headers, 'retry-after') !== undefined || RATE_LIMIT_WORDS.test(`${failure.code ?? ''} ${failure.message ?? ''}`))
  );
}

/**
 * The delay before a retry: the service's own field, else `retry-after-ms` / `Retry-After`, else, for a rate limit,
 * when its limit resets (`x-ratelimit-reset-ms`, `x-ratelimit-reset`, `ratelimit-reset`).
 */
function delayOf(failure: HttpFailure): number | undefined {
  const { headers } = failure;
  return failure.retryAfterMs ?? retryAfterMsOf(headers) ?? (isThrottled(failure) ? rateLimitResetMs(headers) : undefined);
}

/** Credentials rejected: a 401, or another status with a credential error code (AWS). */
function isRejected(failure: HttpFailure): boolean {
  return failure.status === 401 || failure.rejected === true;
}

/**
 * What the status means, put before the service's message: 401 and 403 always say it (unless the 403 is a rate limit);
 * others show the service's message alone, or nothing beyond the status line when the service wrote none. Other
 * server errors get a generic sentence, whatever the body says (a crashing service may put its own internals there).
 */
function statusSentence(failure: HttpFailure, message: string | undefined): string | undefined {
  const { status } = failure;
  if (isRejected(failure)) return `Credentials rejected: ${message ?? 'the service did not accept them'}`;
  if (status === 403 && !isThrottled(failure)) return `Access denied: ${message ?? 'the credentials do not allow this request'}`;
  if (isOpaqueServerError(status)) return 'The service failed to answer';
  return message;
}

/** The failure object's code from the status alone, when the service gave none. */
function statusCode(failure: HttpFailure): string {
  const { status } = failure;
  if (isRejected(failure)) return 'unauthorized';
  if (isThrottled(failure)) return 'rate_limited';
  if ([502, 503, 504, 529].includes(status ?? 0)) return 'unavailable';
  if (status === undefined) return 'http_error';
  if (status === 403) return 'permission_denied';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 408) return 'timeout';
  if (status === 409) return 'conflict';
  if (status >= 500) return 'server_error';
  return 'invalid_request';
}

/**
 * The failure object's facts:
 * - `code`: the service's own error code or type (`rate_limit_error`, `object_not_found`, `AccessDeniedException`,
 *   `card_declined`, Slack's `channel_not_found`), else one from the status: `unauthorized` (401 and other credential
 *   rejections), `permission_denied` (403), `not_found` (404, 410), `conflict` (409), `rate_limited` (429 and other
 *   throttling, 403 rate limits), `timeout` (408), `unavailable` (502, 503, 504, 529), `server_error` (other 5xx:
 *   their code is not shown, like their body), `invalid_request` (other 4xx);
 * - `retryable`: 408, 429, 5xx, throttling and what the reader marks retryable (AWS `$retryable`, Stripe's answer
 *   that was not JSON); never a credential rejection (signing in again fixes it, not waiting);
 * - `retryAfterMs`: the delay the service gave (its own field, `retry-after-ms`, `Retry-After`; for a rate limit, its
 *   reset), when retryable.
 */
export function failureFacts(failure: HttpFailure): FailureFacts {
  const { status } = failure;
  const code = (isOpaqueServerError(status) ? undefined : failure.code) ?? statusCode(failure);
  const retryable =
    !isRejected(failure) &&
    (isThrottled(failure) || failure.retryable === true || status === 408 || (status !== undefined && status >= 500));
  const retryAfterMs = retryable ? delayOf(failure) : undefined;
  return retryAfterMs === undefined ? { code, retryable } : { code, retryable, retryAfterMs };
}

/**
 * The client text of a failure (see the module comment for its shape). When the failure has a retry delay, the policy
 * ends the text with a sentence stop and its ` Retry after <n> s.`
 *
 * @example
 * ```ts
 * failureText({ service: 'GitHub API', status: 404, message: 'Not Found', method: 'GET', url: 'https://api.github.com/repos/o/r' });
 * // 'GitHub API GET https://api.github.com/repos/o/r failed with 404 Not Found: Not Found'
 * ```
 */
export function failureText(failure: HttpFailure): string {
  const { service, status, code, method, url } = failure;
  const where = url === undefined ? ' request' : ` ${method === undefined ? '' : `${method} `}${url}`;
  const reason = reasonPhrase(status);
  const head = status === undefined || failure.inBody === true ? '' : ` with ${status}${reason === undefined ? '' : ` ${reason}`}`;
  const shownCode = code === undefined || status === undefined || isOpaqueServerError(status) ? '' : ` (${code})`;
  const message = isOpaqueServerError(status) ? undefined : failure.message;
  const sentence = statusSentence(failure, message);
  return `${service}${where} failed${head}${shownCode}${sentence === undefined ? '' : `: ${sentence}`}`;
}

/** The failure as the log record's request fields. */
export function failedRequestFrom(failure: HttpFailure | undefined): FailedRequest | undefined {
  if (failure === undefined) return undefined;
  const { method, url, status, requestId } = failure;
  return { method, url, status, requestId };
}


/**
 * The two rules of one client from its failure reader: `<id>-unauthorized` (a 401 or credentials otherwise rejected:
 * status 401, the policy's re-authorization text) and `<id>-http-error` (any other failure: its status). Both put
 * `request(error)` into the log record (by default the failure's method, URL, status and request id) and give the
 * failure object's facts ({@link failureFacts}).
 */
export function failureRules(
  id: string,
  service: string,
  of: (error: unknown) => HttpFailure | undefined,
  request: (error: unknown) => FailedRequest | undefined = (error) => failedRequestFrom(of(error)),
): readonly [ErrorRule, ErrorRule] {
  const facts = (error: unknown): FailureFacts | undefined => {
    const failure = of(error);
    return failure === undefined ? undefined : failureFacts(failure);
  };
  return [
    Object.freeze({
      name: `${id}-unauthorized`,
      predicate: (error: unknown): boolean => {
        const failure = of(error);
        return failure !== undefined && isRejected(failure);
      },
      message: (error: unknown): string => failureText(of(error) ?? { service, status: 401 }),
      status: 401,
      level: 'warn',
      reauthorize: true,
      request,
      failure: facts,
    }),
    Object.freeze({
      name: `${id}-http-error`,
      predicate: (error: unknown): boolean => of(error) !== undefined,
      message: (error: unknown): string => failureText(of(error) ?? { service, status: undefined }),
      status: (error: unknown): number => of(error)?.status ?? 502,
      level: 'warn',
      request,
      failure: facts,
    }),
  ];
}

/** The failure object of a timeout, as the core `timeout` rule gives it. */
export const TIMEOUT_FACTS: FailureFacts = Object.freeze({ code: 'timeout', retryable: true });
/** The failure object of a network failure, as the core `network` rule gives it. */
export const NETWORK_FACTS: FailureFacts = Object.freeze({ code: 'network', retryable: true });

/**
 * A rule for a client's failure without a response: fixed `message` (a timeout, 504) or one built from the error, and
 * the failure object of a timeout (504) or a network failure (any other status), as the core rules give them.
 */
export function noResponseRule(name: string, predicate: (error: unknown) => boolean, message: string | ((error: unknown) => string), status: number): ErrorRule {
  return Object.freeze({ name, predicate, message, status, level: 'warn', failure: status === 504 ? TIMEOUT_FACTS : NETWORK_FACTS });
}

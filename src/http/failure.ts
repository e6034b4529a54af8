/**
 * One shape for the HTTP failures of every client this entry knows, and what is built from it: the client text
 *
 *   <Service> <METHOD> <URL without credentials> failed with <HTTP> <Reason>[ (<service code>)]: <what the status means><service message>
 *
 * (the policy appends ` Retry after <n> s.` when the failure has a delay), and the failure object's facts (a stable
 * code, retryable, the delay; see the kit's `httpFailureFacts`).
 *
 * Each client's reader (axios.ts, github.ts, ...) fills an {@link HttpFailure} from fields the service wrote (its JSON
 * error body's message and code, its request id, the response's headers); the text never holds the error's own
 * `message` (axios and ky put the URL there, the AI SDKs a whole response body), a raw body or an HTML page. What the
 * headers say about retrying and rate limits is read here, once for every client.
 */
import { httpFailureFacts, httpLevel, isOpaqueServerError, isRejected, isThrottled, reasonPhrase, type HttpFacts } from '../kit/http.js';
import { clientUrl } from '../kit/url.js';
import type { ErrorRule, FailedRequest, FailureFacts } from '../rules/rule.js';
import { serverTextLine } from '../text.js';

/** Longest service message kept, in characters: the text's head (service, method, URL, status) stays under 450. */
export const MAX_SERVICE_MESSAGE = 500;

/**
 * A failed HTTP request as one client's error describes it; every field only where the error holds it. The facts the
 * failure object is decided from (status, headers, the service's code and message, its delay, retryable, throttled,
 * rejected) are the kit's {@link HttpFacts}, which the core `http-status` rule reads too.
 */
export interface HttpFailure extends HttpFacts {
  /** Who answered: `GitHub API`, `OpenAI API`, `HTTP` (axios and ky, for any service). */
  readonly service: string;
  /** The request method (`GET`). */
  readonly method?: string | undefined;
  /** The request URL, credentials redacted (the client text drops an internal host: see `clientUrl`). */
  readonly url?: string | undefined;
  /** The service's id for the request (`x-request-id` and kin). */
  readonly requestId?: string | undefined;
  /** The status is the meaning of the service's error code, not an HTTP status (Slack answers errors with 200): not shown. */
  readonly inBody?: boolean | undefined;
}

/**
 * A 2xx answer the client could not parse as JSON (an HTML page from a proxy or gateway, sent with 200), or an answer
 * that was not JSON whose status the client kept not (Stripe): `<Service> ... failed: The service's answer was not
 * JSON (most likely a proxy's or gateway's error page)`, failure code `unavailable`, retryable, access-log status 502.
 */
export function notJsonFailure(service: string, known: Pick<HttpFailure, 'method' | 'url' | 'requestId'>): HttpFailure {
  return { service, status: undefined, code: 'unavailable', retryable: true, message: "The service's answer was not JSON (most likely a proxy's or gateway's error page)", ...known };
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
  const where = url === undefined ? ' request' : ` ${method === undefined ? '' : `${method} `}${clientUrl(url)}`;
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
 * failure object's facts (the kit's `httpFailureFacts`); the `-http-error` rule logs the caller's routine failures (400, 404, 409, 410, 422) at info, on one line, the others at warn (`httpLevel`).
 */
export function failureRules(
  id: string,
  service: string,
  of: (error: unknown) => HttpFailure | undefined,
  request: (error: unknown) => FailedRequest | undefined = (error) => failedRequestFrom(of(error)),
): readonly [ErrorRule, ErrorRule] {
  const facts = (error: unknown): FailureFacts | undefined => {
    const failure = of(error);
    return failure === undefined ? undefined : httpFailureFacts(failure);
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
      level: (error: unknown) => httpLevel(of(error)?.status),
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

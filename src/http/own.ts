/**
 * A server's own HTTP error class (the GitHub server's `GitHubError`, Notion's `HttpClientError`: a numeric status, a
 * body, perhaps headers) read as the entry's clients are: {@link httpRulesFor} makes the two rules `httpRules` has
 * for each client, from functions that read the class's fields. The texts, the failure object's facts, the request in
 * the log record and the scrubbing are the entry's (failure.ts); nothing here shows the error's own `message`.
 */
import { isHttpStatus } from '../kit/http.js';
import { valueFor } from '../kit/read.js';
import { redactUrl } from '../kit/url.js';
import type { ErrorRule } from '../rules/rule.js';
import { methodOf } from './axios.js';
import { bodyText } from './body.js';
import { failureRules, type HttpFailure } from './failure.js';
import { GENERIC_REQUEST_ID_HEADERS, requestIdOf } from './headers.js';

/** How to read a server's own HTTP error class: the options of {@link httpRulesFor}. */
export interface HttpErrorClass<E> {
  /**
   * The prefix of the two rules' names, `NAME-unauthorized` and `NAME-http-error`: letters, digits and `-`.
   * @example
   * ```ts
   * httpRulesFor({ name: 'github-server', match: (error) => error instanceof GitHubError, status: (error: GitHubError) => error.status });
   * ```
   */
  readonly name: string;
  /**
   * Who answered, as the client text starts: `GitHub API failed with 404 Not Found: Not Found`.
   * @default 'HTTP'
   * @example
   * ```ts
   * httpRulesFor({ name: 'github-server', service: 'GitHub API', match, status });
   * ```
   */
  readonly service?: string;
  /**
   * Whether a thrown value (or an error on its cause chain) is of the class. A function that throws means no.
   * @example
   * ```ts
   * httpRulesFor({ name: 'notion-server', match: (error) => error instanceof Error && error.name === 'HttpClientError', status });
   * ```
   */
  readonly match: (error: unknown) => boolean;
  /**
   * The HTTP status of a matched error. The rules take it only when it is an integer from 300 to 599.
   * @example
   * ```ts
   * httpRulesFor({ name: 'github-server', match, status: (error: GitHubError) => error.status });
   * ```
   */
  readonly status: (error: E) => unknown;
  /**
   * The response body: a parsed JSON object, or its text. Its `message` (or `error.message`, `error_description`,
   * `detail`, `title`, `errors[0].message`) is shown, and its `code` (or `error.code`, `error.type`) goes into the failure
   * object; any other body (an HTML page) is never shown.
   * @default no body: the text says what the status means
   * @example
   * ```ts
   * httpRulesFor({ name: 'github-server', match, status, body: (error: GitHubError) => error.response });
   * ```
   */
  readonly body?: (error: E) => unknown;
  /**
   * The response headers (a WHATWG `Headers`, a plain object or a `Map`, names in any case): only the request id
   * (`x-request-id` and kin), the retry delay (`Retry-After`, `retry-after-ms`) and, for a rate limit, when it resets
   * and whether it is spent (`x-ratelimit-reset`, `x-ratelimit-remaining` and kin) are read.
   * @default no headers
   * @example
   * ```ts
   * httpRulesFor({ name: 'notion-server', match, status, headers: (error: HttpClientError) => error.headers });
   * ```
   */
  readonly headers?: (error: E) => unknown;
  /**
   * The request method (`GET`), shown before the URL.
   * @default none
   * @example
   * ```ts
   * httpRulesFor({ name: 'acme', match, status, method: (error: AcmeError) => error.method, url: (error: AcmeError) => error.url });
   * ```
   */
  readonly method?: (error: E) => unknown;
  /**
   * The request URL, shown with its credentials removed.
   * @default none: the text says `request`
   * @example
   * ```ts
   * httpRulesFor({ name: 'acme', match, status, url: (error: AcmeError) => error.url });
   * ```
   */
  readonly url?: (error: E) => unknown;
}

const FIELDS = ['match', 'status', 'body', 'headers', 'method', 'url'] as const;

function invalid(option: string, expected: string): never {
  throw new TypeError(`Expected \`${option}\` to be ${expected}`);
}

/**
 * The two rules of `httpRules` for a server's own HTTP error class: `NAME-unauthorized` (a 401: status 401, the
 * policy's re-authorization text) and `NAME-http-error` (any other status from 300 up: its status). Each gives the
 * client text of `httpRules` (`GitHub API request failed with 404 Not Found: Not Found`: the service, the method and
 * URL when known, the status, the body's code and message), the failure object (the body's code, else one from the
 * status; retryable for 408, 429 and 5xx, with the `Retry-After` delay or a rate limit's reset) and the request in the log record. Spread them
 * before `httpRules` and `coreRules`; their names must differ from those. Bad options throw a `TypeError` naming the
 * option.
 *
 * @example
 * ```ts
 * import { coreRules, createErrorPolicy } from 'mcp-error-policy';
 * import { httpRules, httpRulesFor } from 'mcp-error-policy/http';
 *
 * class GitHubError extends Error {
 *   constructor(message: string, readonly status: number, readonly response: unknown) {
 *     super(message);
 *   }
 * }
 *
 * const policy = createErrorPolicy({
 *   rules: [
 *     ...httpRulesFor({ name: 'github-server', service: 'GitHub API', match: (e) => e instanceof GitHubError, status: (e: GitHubError) => e.status, body: (e: GitHubError) => e.response }),
 *     ...httpRules,
 *     ...coreRules,
 *   ],
 * });
 * ```
 */
export function httpRulesFor<E = unknown>(options: HttpErrorClass<E>): readonly [ErrorRule, ErrorRule] {
  const { name, service = 'HTTP', match } = options;
  if (typeof name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9-]{0,47}$/.test(name)) invalid('name', 'letters, digits and - (at most 48)');
  if (typeof service !== 'string' || service.trim() === '' || service.length > 100) invalid('service', 'a non-empty string of at most 100 characters');
  for (const field of FIELDS) {
    const value = options[field];
    if (typeof value !== 'function' && (value !== undefined || field === 'match' || field === 'status')) invalid(field, 'a function');
  }
  const read = (field: 'status' | 'body' | 'headers' | 'method' | 'url', error: unknown): unknown => valueFor(options[field] as ((error: unknown) => unknown) | undefined, error);
  const failureOf = (error: unknown): HttpFailure | undefined => {
    if (valueFor(match, error) !== true) return undefined;
    const status = read('status', error);
    if (!isHttpStatus(status) || status < 300) return undefined;
    const headers = read('headers', error);
    const { message, code } = bodyText(read('body', error));
    const url = read('url', error);
    return {
      service,
      status,
      code,
      message,
      method: methodOf({ method: read('method', error) }),
      url: typeof url === 'string' && url !== '' ? redactUrl(url) : undefined,
      requestId: requestIdOf(headers, GENERIC_REQUEST_ID_HEADERS),
      headers,
    };
  };
  return failureRules(name, service, failureOf);
}

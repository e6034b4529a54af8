/**
 * The shape of one allowlist entry. A policy holds an ordered list of rules; the first rule whose
 * predicate accepts a failure (or an error on its cause chain) decides what the client sees.
 */

/** What a rule knows of the HTTP request behind a failure, for the log record. */
export interface FailedRequest {
  /** The request method (`GET`). */
  readonly method?: string | undefined;
  /** The request URL, without credentials. */
  readonly url?: string | undefined;
  /** The HTTP status of the response. */
  readonly status?: number | undefined;
  /** The id the service gave the request (`x-request-id` and kin), for a support ticket. */
  readonly requestId?: string | undefined;
}

/**
 * What a rule tells an agent about a failure it accepts: the fields of the failure object the client receives (in a
 * tool result's `_meta`, in a JSON-RPC error's `data`). Every field is optional; see `ErrorRule.failure`.
 */
export interface FailureFacts {
  /**
   * A stable, machine-readable code, such as `permission_denied` or `rate_limited` (letters, digits, `_`, `.`, `:` and
   * `-`; at most 64 characters; anything else is replaced by the rule's name).
   * @default the rule's `name`
   * @example
   * ```ts
   * code: 'quota_exceeded'
   * ```
   */
  readonly code?: string | undefined;
  /**
   * Whether the same call may succeed when made again unchanged.
   * @default true when `retryAfterMs` is given, else false
   * @example
   * ```ts
   * retryable: true
   * ```
   */
  readonly retryable?: boolean | undefined;
  /**
   * How long to wait before retrying, in milliseconds (from `Retry-After`, say). The client text then ends with
   * `Retry after <n> s.` Values above a day are cut to a day; anything but a finite number from 0 up is ignored.
   * @default none
   * @example
   * ```ts
   * retryAfterMs: 30_000
   * ```
   */
  readonly retryAfterMs?: number | undefined;
}

/** Log level of an anticipated failure. Crashes are always logged at `error`. */
export type AnticipatedLevel = 'info' | 'warn';

/**
 * The call that failed, as a rule's `message` and `level` functions see it beside the error: what the caller passed.
 * `classifyError` knows no call: its `args` are empty.
 */
export interface FailedCall {
  /**
   * The handler's arguments without the SDK's per-request context: a tool's or prompt's arguments object, a resource's
   * URI and template variables, a low-level request handler's request. Values the caller sent, so a text built from
   * them tells the caller nothing new.
   */
  readonly args: readonly unknown[];
}

/**
 * One entry of the allowlist.
 *
 * @example
 * ```ts
 * const quotaRule: ErrorRule = {
 *   name: 'billing-quota',
 *   predicate: (error) => error instanceof QuotaError,
 *   message: 'Quota exceeded',
 *   status: 429,
 *   failure: (error) => ({ code: 'quota_exceeded', retryAfterMs: (error as QuotaError).retryAfter * 1000 }),
 * };
 * ```
 */
export interface ErrorRule {
  /**
   * A unique, stable name: it appears in log records, in classifications and in the access log.
   * @default (required)
   * @example
   * ```ts
   * name: 'billing-quota'
   * ```
   */
  readonly name: string;
  /**
   * Decides whether this rule covers a failure. Called for the thrown value and for each error on its cause chain
   * (`cause`, `error`, `errors[]`), outermost first. A predicate that throws counts as "no". It must not accept a plain
   * `Error`, `TypeError` or `RangeError` (see `allowCatchAll`).
   * @default (required; `test` is accepted as an alias)
   * @example
   * ```ts
   * predicate: (error) => error instanceof QuotaError
   * ```
   */
  readonly predicate: (error: unknown) => boolean;
  /**
   * The client text, from the error the predicate accepted. A string is fixed text. Without it, the error's own
   * `message` is used. Either way the text is scrubbed of secrets and bounded by the policy's `maxMessageLength`.
   * A function that throws or returns a non-string turns the failure into a crash (fail closed). It gets the call
   * ({@link FailedCall}) too, so that a text may name what the caller passed.
   * @default the accepted error's `message`
   * @example
   * ```ts
   * message: (error) => `Quota exceeded, retry in ${(error as QuotaError).retryAfter}s`
   * ```
   */
  readonly message?: string | ((error: unknown, call: FailedCall) => string);
  /**
   * Status reported to `onOutcome` (the access log): a number, or a function of the accepted error (such as its HTTP
   * status). A function that throws or returns anything but an integer from 100 to 599 reports 500. A rule with
   * `reauthorize: true` reports 401.
   * @default 500
   * @example
   * ```ts
   * status: (error) => (error as { status?: number }).status ?? 502
   * ```
   */
  readonly status?: number | ((error: unknown) => number);
  /**
   * Log level of the one record written for this failure. `info` writes one line without a stack (deliberate
   * errors, and routine failures the caller caused, such as a 404 for the caller's id); `warn` adds the stack, since
   * an allowlisted foreign error can still be a bug of the server's. A function decides per failure, from the accepted
   * error and the call ({@link FailedCall}); one that throws or returns anything else gives `'warn'`.
   * @default 'warn'
   * @example
   * ```ts
   * level: 'info'
   * ```
   * @example
   * ```ts
   * level: (error) => ((error as ApiError).status === 404 ? 'info' : 'warn')
   * ```
   */
  readonly level?: AnticipatedLevel | ((error: unknown, call: FailedCall) => AnticipatedLevel);
  /**
   * Marks failures that a fresh sign-in fixes: the policy's `reauthorize` text is appended to the client text and
   * the status becomes 401.
   * @default false
   * @example
   * ```ts
   * reauthorize: true
   * ```
   */
  readonly reauthorize?: boolean;
  /**
   * JSON-RPC error code used when this failure happens in a resource or prompt handler.
   * @default -32603 (-32002 for `ResourceNotFoundError`)
   * @example
   * ```ts
   * code: -32002
   * ```
   */
  readonly code?: number;
  /**
   * The HTTP request behind the accepted error, for the operator: the log record then carries `httpMethod`, `httpUrl`
   * and `httpStatus`, and its first line names them. Scrubbed and bounded like every field. The URL must already be
   * free of credentials (`redactUrl` of `mcp-error-policy/google` strips them). A function that throws adds nothing.
   * @default none
   * @example
   * ```ts
   * request: (error) => ({ method: 'GET', url: redactUrl((error as ApiError).url), status: (error as ApiError).status })
   * ```
   */
  readonly request?: (error: unknown) => FailedRequest | undefined;
  /**
   * What an agent can act on: the failure object's `code`, `retryable` and `retryAfterMs` (see `FailureFacts`),
   * fixed or from the accepted error. A function that throws or returns something else gives the defaults.
   * @default `{ code: <the rule's name>, retryable: false }`
   * @example
   * ```ts
   * failure: (error) => ({ code: 'rate_limited', retryAfterMs: (error as ApiError).retryAfterSeconds * 1000 })
   * ```
   */
  readonly failure?: FailureFacts | ((error: unknown) => FailureFacts | undefined);
}

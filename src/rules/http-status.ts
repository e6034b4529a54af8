/**
 * HTTP status failures of any client, with the core rules alone: the status and when to retry, never the body, the
 * service's message or the URL (`httpRules` of `mcp-error-policy/http` add the service's message, method and URL).
 */
import { NOT_JSON, failedRequestOf, httpAnswerOf, httpFailureFacts, httpLevel, reasonPhrase } from '../kit/http.js';
import type { ErrorRule } from './rule.js';

/** `HTTP request failed with 404 Not Found`; for a 2xx answer that was not JSON, what it most likely was. */
function httpStatusText(error: unknown): string {
  const status = httpAnswerOf(error)?.status;
  if (status === undefined) return `HTTP request failed: ${NOT_JSON}`;
  const reason = reasonPhrase(status);
  return `HTTP request failed with ${status}${reason === undefined ? '' : ` ${reason}`}`;
}

/**
 * An HTTP client's failed answer, recognised by shape (no client is imported; see the kit's `httpAnswerOf`): axios,
 * gaxios, ky, ofetch, got, Octokit, a thrown fetch `Response`, the OpenAI and Anthropic SDKs, Stripe, Notion, Slack's
 * HTTP errors, Microsoft Graph, the AWS SDK v3. Shown as `HTTP request failed with 429 Too Many Requests. Retry after
 * 30 s.`: the status and, when the failure is retryable (408, 429, 5xx, a 403 rate limit), the delay from
 * `Retry-After`, `retry-after-ms` or, for a rate limit, its reset headers. Status: the HTTP status (502 for an answer
 * that was not JSON). Logged at info on one line for the caller's routine failures (400, 404, 409, 410, 422), else at
 * warn with the stack; the record names the method and the URL (credentials redacted) where the error holds them.
 * Failure code from the status (`not_found`, `rate_limited`, `unavailable`...), as `httpRules` give it.
 */
export const httpStatusRule: ErrorRule = Object.freeze({
  name: 'http-status',
  predicate: (error: unknown): boolean => httpAnswerOf(error) !== undefined,
  message: httpStatusText,
  status: (error: unknown): number => httpAnswerOf(error)?.status ?? 502,
  level: (error: unknown) => httpLevel(httpAnswerOf(error)?.status),
  request: failedRequestOf,
  failure: (error: unknown) => {
    const answer = httpAnswerOf(error);
    return answer === undefined ? undefined : httpFailureFacts(answer);
  },
});

/**
 * HTTP status failures of any client, with the core rules alone: the status and when to retry, never the body, the
 * service's message or the URL (`httpRules` of `mcp-error-policy/http` add the service's message, method and URL).
 */
import { httpAnswerOf, httpFailureFacts, httpLevel } from '../kit/http.js';
import type { ErrorRule } from './rule.js';

/** `HTTP request failed with status 404`. */
function httpStatusText(error: unknown): string {
  return `HTTP request failed with status ${httpAnswerOf(error)?.status ?? 'unknown'}`;
}

/**
 * An HTTP client's failed answer, recognised by shape (no client is imported; see the kit's `httpAnswerOf`): axios,
 * gaxios, ky, ofetch, got, Octokit, a thrown fetch `Response`, the OpenAI and Anthropic SDKs, Stripe, Notion, Slack's
 * HTTP errors, Microsoft Graph, the AWS SDK v3. Shown as `HTTP request failed with status 429. Retry after 30 s.`:
 * the status and, when the failure is retryable (408, 429, 5xx, a 403 rate limit), the delay from `Retry-After`,
 * `retry-after-ms` or, for a rate limit, its reset headers. Status: the HTTP status. Logged at info on one line for
 * the caller's routine failures (400, 404, 409, 410, 422), else at warn with the stack; the record carries the HTTP
 * status (`httpStatus`). The method, the URL and the reason phrase are `httpRules`' (bytes every server would pay).
 * Failure code from the status (`not_found`, `rate_limited`, `unavailable`...), as `httpRules` give it.
 */
export const httpStatusRule: ErrorRule = Object.freeze({
  name: 'http-status',
  predicate: (error: unknown): boolean => httpAnswerOf(error) !== undefined,
  message: httpStatusText,
  status: (error: unknown): number => httpAnswerOf(error)?.status ?? 502,
  level: (error: unknown) => httpLevel(httpAnswerOf(error)?.status),
  request: (error: unknown) => ({ status: httpAnswerOf(error)?.status }),
  failure: (error: unknown) => {
    const answer = httpAnswerOf(error);
    return answer === undefined ? undefined : httpFailureFacts(answer);
  },
});

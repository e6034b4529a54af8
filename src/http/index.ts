/**
 * `mcp-error-policy/http`: allowlist rules for the errors of the HTTP clients MCP servers use most: axios 1.x, Octokit
 * (`@octokit/rest` 21 and 22), the OpenAI SDK (6, 7), the Anthropic SDK (0.x, 1.x), Stripe (`stripe` 22, 23), the AWS
 * SDK v3 (`@aws-sdk/client-*` 3.x), Notion (`@notionhq/client` 4, 5), Slack (`@slack/web-api` 7, 8), Microsoft Graph
 * (`@microsoft/microsoft-graph-client` 3), GraphQL APIs (`@octokit/graphql`, `@linear/sdk`, GraphQL error lists over
 * fetch), clients made by OpenAPI Generator's `typescript` generator (`@kubernetes/client-node` 1.x), ky (1, 2), and
 * plain `fetch` (a failed `Response` thrown, or held in an error's `response` or `cause`; ofetch's `FetchError`).
 * Structural: nothing here imports those packages, so the rules hold across versions and duplicate copies (where `instanceof` fails).
 *
 * ## What the client sees (the policy scrubs and bounds it again, and appends the re-authorization text on 401)
 * A URL whose host is internal (loopback, private, link-local, a single label, `.local`, `.internal`) is shown
 * without its scheme and host (`HTTP GET /items/42?api_key=[REDACTED] failed with 404 Not Found`); the log record keeps
 * the whole URL (credentials redacted). The `-http-error` rules log the caller's routine failures (400, 404, 409, 410,
 * 422) at info on one line, the others at warn with the stack.
 * - `GitHub API GET https://api.github.com/repos/o/r failed with 404 Not Found: Not Found`
 * - `OpenAI API request failed with 401 Unauthorized (invalid_api_key): Credentials rejected: Incorrect API key provided: [REDACTED].` + re-authorization
 * - `Anthropic API request failed with 429 Too Many Requests (rate_limit_error): Number of requests has exceeded your rate limit. Retry after 7 s.`
 *   (` Retry after 7 s.` is the policy's, from the failure object's delay)
 * - `HTTP POST https://api.example.com/v1/items failed with 500 Internal Server Error: The service failed to answer`
 * - `HTTP https://api.example.com/v1/items/42?api_key=[REDACTED] failed with 404 Not Found` (a thrown fetch `Response`:
 *   no method, no body)
 * - `Stripe API request failed with 404 Not Found (resource_missing): No such customer: 'cus_1' (param: id)`
 * - `Slack API request failed (channel_not_found)` (Slack's errors come with HTTP 200: the status is what the code means)
 * - `HTTP request failed with 404 Not Found (NotFound): pods "web" not found` (an OpenAPI Generator client's
 *   `ApiException`, here `@kubernetes/client-node`'s: no method or URL; a 5xx's body never shown)
 * - timeouts: `The HTTP request timed out.`, `The OpenAI API request timed out.`; refused connections and other
 *   network failures: the core `network` rule (`Network error: connection refused (ECONNREFUSED)`), which finds the
 *   system code on each client's cause chain, or `stripe-network` / `slack-network` where the client keeps it off
 *   that chain.
 *
 * @packageDocumentation
 */
import { packRules } from '../rules/pack.js';
import type { ErrorRule } from '../rules/rule.js';
import { awsHttpErrorRule, awsTimeoutRule, awsUnauthorizedRule } from './aws.js';
import { axiosHttpErrorRule, axiosTimeoutRule, axiosUnauthorizedRule } from './axios.js';
import { fetchHttpErrorRule, fetchUnauthorizedRule } from './fetch.js';
import { githubHttpErrorRule, githubUnauthorizedRule } from './github.js';
import { graphqlRules } from './graphql.js';
import { kyHttpErrorRule, kyUnauthorizedRule } from './ky.js';
import { msgraphRules } from './microsoft-graph.js';
import { notionHttpErrorRule, notionTimeoutRule, notionUnauthorizedRule } from './notion.js';
import { openapiHttpErrorRule, openapiUnauthorizedRule } from './openapi.js';
import { slackHttpErrorRule, slackNetworkRule, slackTimeoutRule, slackUnauthorizedRule } from './slack.js';
import { anthropicRules, openaiRules } from './stainless.js';
import { stripeHttpErrorRule, stripeNetworkRule, stripeTimeoutRule, stripeUnauthorizedRule } from './stripe.js';

/**
 * The HTTP client rules, in their order (first match wins), by name: `github-unauthorized`, `github-http-error`,
 * `openai-unauthorized`, `openai-http-error`, `openai-timeout`, `anthropic-unauthorized`, `anthropic-http-error`,
 * `anthropic-timeout`, `stripe-unauthorized`, `stripe-http-error`, `stripe-timeout`, `stripe-network`,
 * `aws-unauthorized`, `aws-http-error`, `aws-timeout`, `notion-unauthorized`, `notion-http-error`, `notion-timeout`,
 * `slack-unauthorized`, `slack-http-error`, `slack-timeout`, `slack-network`, `msgraph-unauthorized`,
 * `msgraph-http-error`, `msgraph-timeout`, `msgraph-network`, `github-graphql-unauthorized`, `github-graphql-http-error`,
 * `linear-unauthorized`, `linear-http-error`, `linear-network`, `graphql-unauthorized`, `graphql-http-error` (GraphQL
 * error lists over fetch: before ky and fetch, whose errors hold the same `Response`), `openapi-unauthorized`,
 * `openapi-http-error` (OpenAPI Generator's `ApiException`), `ky-unauthorized`, `ky-http-error`,
 * `axios-unauthorized`, `axios-http-error`, `axios-timeout`, `fetch-unauthorized`, `fetch-http-error`. The fetch
 * rules come last: they take any failed fetch `Response` (thrown, in an error's `response` or on its `cause` chain),
 * so the clients that also carry one (ky's `HTTPError`) reach their own rules first.
 * Each `*-unauthorized` rule takes a 401 or credentials otherwise rejected (AWS's credential error codes, Slack's
 * `invalid_auth`; status 401, the policy's re-authorization text); each `*-http-error` rule any other HTTP error status
 * (the access-log status is the HTTP status; for Slack's HTTP-200 errors, the status their code means). Every rule puts the request (method,
 * credential-free URL, status, the service's request id) into the log record, and gives the failure object's facts:
 * the service's code (else one from the status: `unauthorized`, `permission_denied`, `not_found`, `conflict`,
 * `invalid_request`, `rate_limited`, `unavailable`, `server_error`), retryable for 429 and 5xx (and throttling, a 403
 * rate limit, AWS `$retryable`), with the delay from `Retry-After`, `retry-after-ms`, the service's own field or, for a
 * rate limit, its reset (`x-ratelimit-reset`, `x-ratelimit-reset-ms`, `ratelimit-reset`). Place them before the core rules, which
 * then take refused connections and the other network failures these clients wrap. Pick single rules by name.
 *
 * @example
 * ```ts
 * import { coreRules, createErrorPolicy } from 'mcp-error-policy';
 * import { httpRules } from 'mcp-error-policy/http';
 *
 * const policy = createErrorPolicy({
 *   rules: [...httpRules, ...coreRules],
 *   reauthorize: 'Check the API token in the server configuration.',
 * });
 *
 * // Only the GitHub rules:
 * const github = httpRules.filter((rule) => rule.name.startsWith('github-'));
 * ```
 */
export const httpRules: readonly ErrorRule[] = packRules('...httpRules', [
  githubUnauthorizedRule,
  githubHttpErrorRule,
  ...openaiRules,
  ...anthropicRules,
  stripeUnauthorizedRule,
  stripeHttpErrorRule,
  stripeTimeoutRule,
  stripeNetworkRule,
  awsUnauthorizedRule,
  awsHttpErrorRule,
  awsTimeoutRule,
  notionUnauthorizedRule,
  notionHttpErrorRule,
  notionTimeoutRule,
  slackUnauthorizedRule,
  slackHttpErrorRule,
  slackTimeoutRule,
  slackNetworkRule,
  ...msgraphRules,
  ...graphqlRules,
  openapiUnauthorizedRule,
  openapiHttpErrorRule,
  kyUnauthorizedRule,
  kyHttpErrorRule,
  axiosUnauthorizedRule,
  axiosHttpErrorRule,
  axiosTimeoutRule,
  fetchUnauthorizedRule,
  fetchHttpErrorRule,
]);

export { httpRulesFor } from './own.js';
export type { HttpErrorClass } from './own.js';

// The element type of httpRules, the same as the core entry's: so that this entry's declarations name no hidden type.
export type { AnticipatedLevel, ErrorRule, FailedCall, FailedRequest, FailureFacts } from '../rules/rule.js';

/**
 * GraphQL APIs: a GraphQL error list (`errors: [{ message, extensions: { code } }]`) read the same way for each client
 * that carries one.
 *
 * - `@octokit/graphql` (8, 9): `GraphqlResponseError` (name), thrown for a successful HTTP response whose body has
 *   `errors` (GitHub's entries carry `type`: `NOT_FOUND`, `FORBIDDEN`, `RATE_LIMITED`...); `headers` are the response's.
 *   A failed HTTP response is Octokit's `RequestError`, which the `github-*` rules take.
 * - GraphQL over plain `fetch` (Apollo, Shopify and any other server): an error holding the `Response` in `response`
 *   and the parsed body in `data` (the shape ofetch's `FetchError` has, and the one docs/http.md asks server authors to
 *   throw), with `errors` in that body; its `request` (a `Request`) or `options` give the method. A REST API's body
 *   that also has `errors[].message` (with an error status, no `data`, no `locations`, `path` or `extensions`) is left
 *   to the ky and fetch rules.
 * - `@linear/sdk`: a `LinearError` (a string `type`, `errors`, `raw`, `query`), whose `raw` is the SDK's
 *   `GraphQLClientError` with the `response` (`status`, `headers`, `errors`). With no response (`raw` is fetch's
 *   failure), `linear-network` words it as the core `network` rule does.
 *
 * The status is the HTTP status when it is an error status; for errors in a successful response (GraphQL's usual way)
 * it is what the first error's code means (`UNAUTHENTICATED` 401, `FORBIDDEN` 403, `NOT_FOUND` 404, `RATE_LIMITED` /
 * `THROTTLED` 429, `INTERNAL_SERVER_ERROR` 500, any other 400), or the `extensions.statusCode` / `extensions.http.status`
 * the service put there (Linear), and the text shows the code without a status line. Shown: the first error's code and
 * up to three messages, never the query, its variables or a raw body.
 */
import { isNetworkCode, networkText, stringCode } from '../kit/codes.js';
import { isHttpClientError, isHttpStatus } from '../kit/http.js';
import { hasKey, isObjectLike, readProp, readString } from '../kit/read.js';
import { redactUrl } from '../kit/url.js';
import { methodOf } from './axios.js';
import { jsonObject } from './body.js';
import { failedRequestFrom, failureRules, noResponseRule, serviceCode, serviceMessage, type HttpFailure } from './failure.js';
import { GENERIC_REQUEST_ID_HEADERS, requestIdOf, retryAfterMsOf, secondsAsMs } from './headers.js';
import type { ErrorRule, FailedRequest } from '../rules/rule.js';

/** What a GraphQL error list says: the first error's code, the status it means, and the messages. */
interface GraphqlErrors {
  readonly code: string | undefined;
  readonly meaning: number;
  readonly message: string | undefined;
}

/** The status a GraphQL error code means (Apollo's, Shopify's, GitHub's `type`, Linear's, Hasura's kebab-case). */
function statusOfCode(code: string | undefined): number {
  const c = code?.toUpperCase().replace(/-/g, '_') ?? '';
  if (/^(?:UNAUTHENTICATED|AUTHENTICATION_ERROR|INVALID_TOKEN)$/.test(c)) return 401;
  if (/^(?:FORBIDDEN|ACCESS_DENIED|PERMISSION_DENIED|INSUFFICIENT_SCOPES)$/.test(c)) return 403;
  if (c === 'NOT_FOUND') return 404;
  if (c === 'CONFLICT') return 409;
  if (/^(?:RATE_?LIMITED|THROTTLED|TOO_MANY_REQUESTS)$/.test(c)) return 429;
  if (/^INTERNAL(?:_SERVER)?(?:_ERROR)?$/.test(c)) return 500;
  if (/^(?:SERVICE_)?UNAVAILABLE$/.test(c)) return 503;
  return 400;
}

/** A GraphQL error's message: Linear's `extensions.userPresentableMessage`, else its `message`. */
function messageOf(entry: unknown): string | undefined {
  return serviceMessage(readProp(readProp(entry, 'extensions'), 'userPresentableMessage'), 200) ?? serviceMessage(readProp(entry, 'message'), 200);
}

/** A GraphQL error list (`errors`: entries with a string `message`), or `undefined`. */
function graphqlErrors(errors: unknown): GraphqlErrors | undefined {
  try {
    if (!Array.isArray(errors) || typeof readProp(errors[0], 'message') !== 'string') return undefined;
    const extensions = readProp(errors[0], 'extensions');
    const code = serviceCode(readProp(extensions, 'code')) ?? serviceCode(readProp(errors[0], 'type'));
    const said = readProp(extensions, 'statusCode') ?? readProp(readProp(extensions, 'http'), 'status');
    const messages = new Set((errors.slice(0, 3) as unknown[]).map(messageOf).filter((message) => message !== undefined));
    return { code, meaning: isHttpStatus(said) && said >= 400 ? said : statusOfCode(code), message: messages.size === 0 ? undefined : [...messages].join('; ') };
  } catch {
    return undefined;
  }
}

/**
 * The failure of a GraphQL answer: an HTTP error status shows as such (with the code's meaning: credentials rejected,
 * throttled); errors in a successful response take the status their code means, shown as the code alone.
 */
function graphqlFailure(service: string, status: unknown, errors: GraphqlErrors, rest: Pick<HttpFailure, 'method' | 'url' | 'requestId' | 'retryAfterMs'>): HttpFailure {
  const http = isHttpStatus(status) && status >= 300 ? status : undefined;
  const { code, meaning, message } = errors;
  return { ...rest, service, status: http ?? meaning, inBody: http === undefined, code, message, rejected: meaning === 401, throttled: meaning === 429 };
}

/** Shopify's throttle: the seconds until the bucket holds the query's cost (`extensions.cost`), as milliseconds. */
function throttleDelayMs(body: unknown): number | undefined {
  const cost = readProp(readProp(body, 'extensions'), 'cost');
  const bucket = readProp(cost, 'throttleStatus');
  const [need, have, rate] = [readProp(cost, 'requestedQueryCost'), readProp(bucket, 'currentlyAvailable'), readProp(bucket, 'restoreRate')];
  return typeof need === 'number' && typeof have === 'number' && typeof rate === 'number' && rate > 0 ? secondsAsMs(Math.max(0, need - have) / rate) : undefined;
}

/** The record's request: no status for errors in a successful response (theirs is a meaning, not an HTTP status). */
function requestOf(of: (error: unknown) => HttpFailure | undefined): (error: unknown) => FailedRequest | undefined {
  return (error) => {
    const failure = of(error);
    return failedRequestFrom(failure?.inBody === true ? { ...failure, status: undefined } : failure);
  };
}

/** The failure an `@octokit/graphql` `GraphqlResponseError` describes, or `undefined`. */
export function githubGraphqlFailureOf(error: unknown): HttpFailure | undefined {
  if (readString(error, 'name') !== 'GraphqlResponseError' || !isObjectLike(readProp(error, 'request'))) return undefined;
  const errors = graphqlErrors(readProp(error, 'errors'));
  const headers = readProp(error, 'headers');
  return errors && graphqlFailure('GitHub GraphQL API', 200, errors, { requestId: requestIdOf(headers, ['x-github-request-id']), retryAfterMs: retryAfterMsOf(headers) });
}

/** The failure of a GraphQL answer over fetch (an error with the `Response` in `response`, the body in `data`), or `undefined`. */
export function graphqlFetchFailureOf(error: unknown): HttpFailure | undefined {
  const response = readProp(error, 'response');
  const headers = readProp(response, 'headers');
  const status = readProp(response, 'status');
  if (!isHttpStatus(status) || typeof readProp(headers, 'get') !== 'function' || isHttpClientError(error)) return undefined;
  const body = jsonObject(readProp(error, 'data'));
  const errors = graphqlErrors(readProp(body, 'errors'));
  const first = readProp(readProp(body, 'errors'), 0);
  // A GraphQL answer, not a REST body that also says `errors`: a successful status, `data`, or GraphQL's entry fields.
  const graphql = status < 300 || hasKey(body, 'data') || ['locations', 'path', 'extensions'].some((key) => hasKey(first, key));
  if (errors === undefined || !graphql) return undefined;
  const url = readString(response, 'url');
  return graphqlFailure('GraphQL API', status, errors, {
    method: methodOf(readProp(error, 'request')) ?? methodOf(readProp(error, 'options')),
    url: url === undefined || url === '' ? undefined : redactUrl(url),
    requestId: requestIdOf(headers, GENERIC_REQUEST_ID_HEADERS),
    retryAfterMs: retryAfterMsOf(headers) ?? throttleDelayMs(body),
  });
}

/** True for a `LinearError` of `@linear/sdk`: a string `type` (`AuthenticationError`, `Ratelimited`...), `errors`, `raw` and `query`. */
function isLinearError(error: unknown): boolean {
  return readString(error, 'type') !== undefined && hasKey(error, 'raw') && hasKey(error, 'errors') && hasKey(error, 'query');
}

/** The failure a `LinearError` with a response describes, or `undefined`. */
export function linearFailureOf(error: unknown): HttpFailure | undefined {
  if (!isLinearError(error)) return undefined;
  const response = readProp(readProp(error, 'raw'), 'response');
  const status = readProp(response, 'status');
  if (!isHttpStatus(status)) return undefined;
  const headers = readProp(response, 'headers');
  const errors = graphqlErrors(readProp(response, 'errors')) ?? (status >= 300 ? { code: undefined, meaning: status, message: undefined } : undefined);
  return (
    errors &&
    graphqlFailure('Linear API', status, errors, {
      requestId: requestIdOf(headers, ['x-request-id']),
      retryAfterMs: secondsAsMs(readProp(error, 'retryAfter')) ?? retryAfterMsOf(headers),
    })
  );
}

/** The system code of a `LinearError` without a response: on fetch's failure (`raw`) or its cause. */
function linearNetworkCode(error: unknown): string | undefined {
  if (!isLinearError(error)) return undefined;
  const raw = readProp(error, 'raw');
  const code = stringCode(raw) ?? stringCode(readProp(raw, 'cause'));
  return isNetworkCode(code) ? code : undefined;
}

/** `github-graphql-unauthorized`, `github-graphql-http-error`. */
const githubGraphql = failureRules('github-graphql', 'GitHub GraphQL API', githubGraphqlFailureOf, requestOf(githubGraphqlFailureOf));
/** `graphql-unauthorized`, `graphql-http-error`. */
const graphqlFetch = failureRules('graphql', 'GraphQL API', graphqlFetchFailureOf, requestOf(graphqlFetchFailureOf));
/** `linear-unauthorized`, `linear-http-error`. */
const linear = failureRules('linear', 'Linear API', linearFailureOf, requestOf(linearFailureOf));

/**
 * The GraphQL rules, in their order: `github-graphql-unauthorized`, `github-graphql-http-error`,
 * `linear-unauthorized`, `linear-http-error`, `linear-network`, `graphql-unauthorized`, `graphql-http-error`.
 */
export const graphqlRules: readonly ErrorRule[] = [
  ...githubGraphql,
  ...linear,
  noResponseRule('linear-network', (error: unknown): boolean => linearNetworkCode(error) !== undefined, (error: unknown): string => networkText(linearNetworkCode(error)), 502),
  ...graphqlFetch,
];

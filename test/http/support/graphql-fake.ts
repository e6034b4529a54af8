/**
 * A local stand-in for GraphQL APIs and Microsoft Graph, for the tests that drive `@octokit/graphql`, `@linear/sdk`,
 * plain fetch and `@microsoft/microsoft-graph-client` against it. It listens on 127.0.0.1 (port 0); the case is the
 * GraphQL request's variable `name` (GitHub), `id` (Linear) or `case` (any GraphQL API), or the last path segment
 * (Microsoft Graph). Answers as each service sends them:
 *
 * - `POST /github/graphql`: GitHub's GraphQL API. Errors of a query come with HTTP 200 and `errors[]` entries with a
 *   `type` (`FORBIDDEN`, `NOT_FOUND`, `RATE_LIMITED` with `x-ratelimit-remaining: 0`, `INTERNAL`) or, for a query that
 *   does not validate, `extensions.code`; bad credentials and secondary rate limits are HTTP errors with GitHub's REST
 *   body (`{ message, documentation_url }`). `x-github-request-id`.
 * - `POST /graphql`: an Apollo Server (errors in a 200 for resolver errors, 400 for validation failures, `extensions.code`)
 *   with Shopify's answers too (401 with `errors` as one string, `THROTTLED` with the cost bucket, `ACCESS_DENIED`).
 *   `x-request-id`.
 * - `POST /linear/graphql`: Linear (`extensions: { type, code, statusCode, userPresentableMessage }`; rate limits are
 *   HTTP 400 with `RATELIMITED`). `x-request-id`.
 * - `GET /msgraph/v1.0/users/<case>`: Microsoft Graph (`slow` never answers) (`{ error: { code, message, innerError: { 'request-id', date } } }`,
 *   `request-id`, `Retry-After` on 429 and 503).
 *
 * The `broken` cases echo the request's credentials (and the planted variable) in their answer, as a crashing service
 * might. Every request is recorded, so a test can check that a planted secret was really sent.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { listenOnLoopback, readRequestBody } from '../../support/loopback.js';
import { PROXY_PAGES, type SeenRequest } from './fake-apis.js';

/** The request ids the fake sends. */
export const GRAPHQL_REQUEST_IDS = {
  github: 'C0DE:2B3C:4D5E6F:7A8B9C:65F0A1B3',
  api: '7d1e5b2a-3c4f-4e6a-9b8c-0d1e2f3a4b5c',
  linear: '8eca3a6e066a3076-SEA',
  msgraph: '0b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
} as const;

/** One answer: status, headers, body (a string is sent as it is). */
type Answer = readonly [number, Readonly<Record<string, string>>, unknown];

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' } as const;

/** The `Authorization` header and the body, as a crashing service's error message would echo them. */
function echo(req: IncomingMessage, body: string): string {
  return `Traceback: KeyError at /srv/app/resolvers.py line 42 (credentials ${String(req.headers['authorization'] ?? '')}, request ${body})`;
}

/** GitHub's GraphQL API. */
function github(which: string, req: IncomingMessage, body: string): Answer | undefined {
  const head = { ...JSON_TYPE, 'x-github-request-id': GRAPHQL_REQUEST_IDS.github };
  const typed = (type: string, message: string): Answer => [200, head, { data: { repository: null }, errors: [{ type, path: ['repository'], locations: [{ line: 1, column: 27 }], message }] }];
  switch (which) {
    case 'unauthorized':
      return [401, head, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/graphql', status: '401' }];
    case 'forbidden':
      return typed('FORBIDDEN', 'Resource not accessible by integration');
    case 'missing':
      return typed('NOT_FOUND', "Could not resolve to a Repository with the name 'octo-org/missing'.");
    case 'invalid': {
      // GitHub names the value it could not coerce: here, the planted token the query sent as a variable.
      const token = (JSON.parse(body) as { variables?: { token?: string } }).variables?.token ?? '';
      return [200, head, { errors: [{ path: ['query'], extensions: { code: 'variableMismatch', variableName: 'token' }, locations: [{ line: 1, column: 7 }], message: `Variable $token of type Int! was provided invalid value: ${token}` }] }];
    }
    case 'limited':
      return [200, { ...head, 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-used': '5000' }, { errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for user ID 1.' }] }];
    case 'secondary':
      return [403, { ...head, 'retry-after': '7' }, { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', documentation_url: 'https://docs.github.com/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api#secondary-rate-limits' }];
    case 'internal':
      return typed('INTERNAL', `Something went wrong while executing your query. ${echo(req, body)}`);
    case 'unavailable':
      return [503, { ...head, 'retry-after': '30' }, { message: 'Service unavailable', documentation_url: 'https://docs.github.com/graphql' }];
    case 'broken':
      return [500, head, { message: echo(req, body) }];
    default:
      return undefined;
  }
}

/** An Apollo Server (and Shopify's answers). */
function apollo(which: string, req: IncomingMessage, body: string): Answer | undefined {
  const head = { ...JSON_TYPE, 'x-request-id': GRAPHQL_REQUEST_IDS.api };
  const coded = (status: number, code: string, message: string, headers: Record<string, string> = {}): Answer => [status, { ...head, ...headers }, { errors: [{ message, locations: [{ line: 1, column: 3 }], path: ['item'], extensions: { code } }], data: status === 200 ? { item: null } : undefined }];
  switch (which) {
    case 'unauthorized':
      return coded(200, 'UNAUTHENTICATED', 'You must be logged in to read items.');
    case 'shopify401':
      return [401, head, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' }];
    case 'forbidden':
      return coded(200, 'FORBIDDEN', 'You are not allowed to read item 42.');
    case 'denied':
      return [200, head, { errors: [{ message: 'Access denied for orders field. Required access: `read_orders` access scope.', locations: [{ line: 1, column: 3 }], extensions: { code: 'ACCESS_DENIED', documentation: 'https://shopify.dev/api/usage/access-scopes', requiredAccess: '`read_orders` access scope.' }, path: ['orders'] }], data: null }];
    case 'missing':
      return coded(200, 'NOT_FOUND', 'Item 42 was not found.');
    case 'invalid':
      return coded(400, 'GRAPHQL_VALIDATION_FAILED', 'Cannot query field "nme" on type "Item". Did you mean "name"?');
    case 'input':
      return coded(200, 'BAD_USER_INPUT', 'Quantity must be a positive integer.');
    case 'limited':
      return [200, head, { errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }], extensions: { cost: { requestedQueryCost: 202, actualQueryCost: null, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 2, restoreRate: 100 } } } }];
    case 'unavailable':
      return coded(503, 'SERVICE_UNAVAILABLE', 'The service is down for maintenance.', { 'retry-after': '30' });
    case 'broken':
      return coded(200, 'INTERNAL_SERVER_ERROR', echo(req, body));
    case 'crashed':
      return coded(500, 'INTERNAL_SERVER_ERROR', echo(req, body));
    default:
      return undefined;
  }
}

/** Linear's GraphQL API. */
function linear(which: string, req: IncomingMessage, body: string): Answer | undefined {
  const head = { ...JSON_TYPE, 'x-request-id': GRAPHQL_REQUEST_IDS.linear };
  const error = (status: number, message: string, extensions: Record<string, unknown>, headers: Record<string, string> = {}): Answer => [status, { ...head, ...headers }, { errors: [{ message, extensions: { userError: true, ...extensions } }], data: null }];
  switch (which) {
    case 'unauthorized':
      return error(401, 'Authentication required, not authenticated', { type: 'authentication error', code: 'AUTHENTICATION_ERROR', statusCode: 401, userPresentableMessage: 'You need to authenticate to access this operation.' });
    case 'forbidden':
      return error(400, 'Forbidden', { type: 'forbidden', code: 'FORBIDDEN', statusCode: 403, userPresentableMessage: 'You do not have access to this team.' });
    case 'missing':
      return error(200, 'Entity not found: Issue', { type: 'invalid input', code: 'INPUT_ERROR', statusCode: 400, userPresentableMessage: 'Could not find referenced Issue.' });
    case 'invalid':
      return error(400, 'Cannot query field "nosuchfield" on type "Issue".', { type: 'graphql error', code: 'GRAPHQL_VALIDATION_FAILED', userError: false });
    case 'limited':
      return error(400, 'Rate limit exceeded', { type: 'ratelimited', code: 'RATELIMITED', statusCode: 429 }, { 'retry-after': '7', 'x-ratelimit-requests-limit': '1200', 'x-ratelimit-requests-remaining': '0' });
    case 'unavailable':
      return [503, { 'content-type': 'text/html', 'retry-after': '30', 'x-request-id': GRAPHQL_REQUEST_IDS.linear }, '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>'];
    case 'html':
      return [502, { 'content-type': 'text/html' }, PROXY_PAGES.html[1]];
    case 'broken':
      return error(500, echo(req, body), { type: 'internal error', code: 'INTERNAL_ERROR', statusCode: 500, userError: false });
    default:
      return undefined;
  }
}

/** Microsoft Graph. */
function msgraph(which: string, req: IncomingMessage): Answer | undefined {
  const head = { ...JSON_TYPE, 'request-id': GRAPHQL_REQUEST_IDS.msgraph, 'client-request-id': GRAPHQL_REQUEST_IDS.msgraph };
  const error = (status: number, code: string, message: string, headers: Record<string, string> = {}): Answer => [
    status,
    { ...head, ...headers },
    { error: { code, message, innerError: { date: '2026-01-01T00:00:00', 'request-id': GRAPHQL_REQUEST_IDS.msgraph, 'client-request-id': GRAPHQL_REQUEST_IDS.msgraph } } },
  ];
  switch (which) {
    case 'unauthorized':
      return error(401, 'InvalidAuthenticationToken', 'Access token has expired or is not yet valid.');
    case 'forbidden':
      return error(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
    case 'missing':
      return error(404, 'Request_ResourceNotFound', "Resource 'missing' does not exist or one of its queried reference-property objects are not present.");
    case 'invalid':
      return error(400, 'Request_BadRequest', "Invalid object identifier 'invalid'.");
    case 'limited':
      return error(429, 'TooManyRequests', 'Too many requests, please retry later.', { 'retry-after': '7' });
    case 'unavailable':
      return error(503, 'serviceNotAvailable', 'Service is temporarily unavailable.', { 'retry-after': '30' });
    case 'broken':
      return error(500, 'generalException', echo(req, req.url ?? ''));
    case 'html':
      return [502, { 'content-type': 'text/html' }, PROXY_PAGES.html[1]];
    default:
      return undefined;
  }
}

/** The case a GraphQL request names in its variables. */
function caseOf(body: string): string {
  try {
    const variables = (JSON.parse(body) as { variables?: Record<string, unknown> }).variables ?? {};
    return String(variables['name'] ?? variables['id'] ?? variables['case'] ?? '');
  } catch {
    return '';
  }
}

/** The answer to a request, or `undefined` when no route or case matches. */
function answer(req: IncomingMessage, path: string, body: string): Answer | undefined {
  if (path === '/github/graphql') return github(caseOf(body), req, body);
  if (path === '/graphql') return apollo(caseOf(body), req, body);
  if (path === '/linear/graphql') return linear(caseOf(body), req, body);
  const graph = /^\/msgraph\/v1\.0\/users\/([a-z]+)$/.exec(path);
  return graph?.[1] === undefined ? undefined : msgraph(graph[1], req);
}

/** A running fake. */
export interface GraphqlFake {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** True when some request (URL, headers or body) contained `needle`. */
  received(needle: string): boolean;
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1. */
export async function startGraphqlFake(): Promise<GraphqlFake> {
  const requests: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readRequestBody(req);
      requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: { ...req.headers }, body });
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      // Graph's `slow` case never answers: the client's own timeout ends the request (the close ends the connection).
      if (path === '/msgraph/v1.0/users/slow') return;
      const which = answer(req, path, body);
      if (which === undefined) {
        // `ok`, or a query nobody planned: a successful answer with data.
        res.writeHead(200, JSON_TYPE).end(JSON.stringify({ data: { ok: true }, id: 'ok' }));
        return;
      }
      const [status, headers, payload] = which;
      res.writeHead(status, headers).end(typeof payload === 'string' ? payload : JSON.stringify(payload));
    })();
  });
  const { origin, close } = await listenOnLoopback(server);
  return {
    origin,
    received: (needle) => requests.some((r) => r.url.includes(needle) || r.body.includes(needle) || JSON.stringify(r.headers).includes(needle)),
    close,
  };
}

/**
 * GraphQL APIs end to end: `@octokit/graphql`, `@linear/sdk` and a server author's fetch call, each against the local
 * fakes (support/graphql-fake.ts) on 127.0.0.1, thrown out of the tools of a real McpServer under `applyErrorPolicy`
 * with `[...httpRules, ...coreRules]`, through the real SDK Client. Each row: the exact text, the failure object, the
 * one log record (rule, request fields) and the access-log status; then no planted secret (sent in headers, URLs and
 * variables, echoed back by the fake) reaches the wire or a record.
 */
import { graphql } from '@octokit/graphql';
import { LinearClient } from '@linear/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyError, coreRules, createErrorPolicy } from '../../src/index.js';
import { httpRules } from '../../src/http/index.js';
import { SECRETS } from './support/clients.js';
import { closedOrigin } from './support/fake-apis.js';
import { GRAPHQL_REQUEST_IDS, startGraphqlFake, type GraphqlFake } from './support/graphql-fake.js';
import { startPolicySession, type PolicySession, type Want } from './support/policy-session.js';

/** A Linear OAuth access token (sent as `Bearer`), planted like the other clients' credentials. */
const LINEAR_TOKEN = 'lin_oauth_PLANTEDlinearTOKEN0123456789abcdef0123456789abcdef';

/** Runs `rows` against the tools `calls` makes, and then the secret search. */
function rows(calls: (origin: string) => Promise<Record<string, () => Promise<unknown>>>, table: (origin: string) => Readonly<Record<string, Want>>, secrets: readonly string[]): void {
  let fake: GraphqlFake;
  let run: PolicySession;
  const names = Object.keys(table('http://127.0.0.1:1'));

  beforeAll(async () => {
    fake = await startGraphqlFake();
    run = await startPolicySession(await calls(fake.origin));
  });

  afterAll(async () => {
    await run.session.close();
    await fake.close();
  });

  it.each(names)('%s: the exact text, the failure object, the access-log status and one record with the request', async (which) => {
    const want = table(fake.origin)[which];
    if (want === undefined) throw new Error(`no row ${which}`);
    await run.check(which, want);
  });

  it('sent every planted secret, and none reached the wire or a record', () => {
    for (const secret of secrets) expect(fake.received(secret), secret).toBe(true);
    const everything = run.everything();
    for (const secret of secrets) expect(everything).not.toContain(secret);
    expect(everything).toContain('[REDACTED]');
  });
}

describe(`@octokit/graphql through a real McpServer and Client`, () => {
  rows(
    async (origin) => {
      const client = graphql.defaults({ baseUrl: `${origin}/github`, headers: { authorization: `token ${SECRETS.github}` } });
      const call = (which: string) => () =>
        client('query ($owner: String!, $name: String!, $token: Int) { repository(owner: $owner, name: $name) { id } }', { owner: 'octo-org', name: which, token: SECRETS.githubPat });
      const cases = ['unauthorized', 'forbidden', 'missing', 'invalid', 'limited', 'secondary', 'internal', 'unavailable', 'broken'];
      return Object.fromEntries(cases.map((which) => [which, call(which)]));
    },
    (origin) => {
      const url = `${origin}/github/graphql`;
      // the fake's loopback origin: the text shows the path, the record the URL
      const path = url.slice(origin.length);
      const httpRequest = (httpStatus: number) => ({ httpMethod: 'POST', httpUrl: url, httpStatus, httpRequestId: GRAPHQL_REQUEST_IDS.github });
      const inBody = { httpRequestId: GRAPHQL_REQUEST_IDS.github };
      const rule = 'github-graphql-http-error';
      return {
        unauthorized: { text: `GitHub API POST ${path} failed with 401 Unauthorized: Credentials rejected: Bad credentials`, rule: 'github-unauthorized', status: 401, request: httpRequest(401), failure: { code: 'unauthorized', retryable: false } },
        forbidden: { text: 'GitHub GraphQL API request failed (FORBIDDEN): Access denied: Resource not accessible by integration', rule, status: 403, request: inBody, failure: { code: 'FORBIDDEN', retryable: false } },
        missing: { text: "GitHub GraphQL API request failed (NOT_FOUND): Could not resolve to a Repository with the name 'octo-org/missing'.", rule, status: 404, request: inBody, failure: { code: 'NOT_FOUND', retryable: false } },
        invalid: { text: 'GitHub GraphQL API request failed (variableMismatch): Variable $token of type Int! was provided invalid value: [REDACTED]', rule, status: 400, request: inBody, failure: { code: 'variableMismatch', retryable: false } },
        limited: { text: 'GitHub GraphQL API request failed (RATE_LIMITED): API rate limit exceeded for user ID 1.', rule, status: 429, request: inBody, failure: { code: 'RATE_LIMITED', retryable: true } },
        secondary: {
          text: `GitHub API POST ${path} failed with 403 Forbidden: You have exceeded a secondary rate limit. Please wait a few minutes before you try again. Retry after 7 s.`,
          rule: 'github-http-error',
          status: 403,
          request: httpRequest(403),
          failure: { code: 'rate_limited', retryable: true, retryAfterMs: 7000 },
        },
        internal: { text: 'GitHub GraphQL API request failed: The service failed to answer', rule, status: 500, request: inBody, failure: { code: 'server_error', retryable: true } },
        unavailable: { text: `GitHub API POST ${path} failed with 503 Service Unavailable: The service failed to answer. Retry after 30 s.`, rule: 'github-http-error', status: 503, request: httpRequest(503), failure: { code: 'unavailable', retryable: true, retryAfterMs: 30_000 } },
        broken: { text: `GitHub API POST ${path} failed with 500 Internal Server Error: The service failed to answer`, rule: 'github-http-error', status: 500, request: httpRequest(500), failure: { code: 'server_error', retryable: true } },
      };
    },
    [SECRETS.github, SECRETS.githubPat],
  );
});

/** A server author's GraphQL call over fetch, throwing as docs/http.md says: the Response, the parsed body, the options. */
async function graphqlOverFetch(url: string, variables: Record<string, unknown>): Promise<unknown> {
  const init = {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRETS.slack}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'query ($case: String!, $apiKey: String) { item(id: $case) { id name } }', variables }),
  };
  const res = await fetch(url, init);
  const body = (await res.json()) as { data?: unknown; errors?: unknown };
  if (!res.ok || body.errors !== undefined) throw Object.assign(new Error(`GraphQL request to ${url} failed`), { response: res, data: body, options: init });
  return body.data;
}

describe('GraphQL over fetch (Apollo, Shopify) through a real McpServer and Client', () => {
  const cases = ['unauthorized', 'shopify401', 'forbidden', 'denied', 'missing', 'invalid', 'input', 'limited', 'unavailable', 'broken', 'crashed'];
  rows(
    async (origin) => Object.fromEntries(cases.map((which) => [which, () => graphqlOverFetch(`${origin}/graphql?key=${SECRETS.queryToken}`, { case: which, apiKey: SECRETS.stripe })])),
    (origin) => {
      const url = `${origin}/graphql?key=[REDACTED]`;
      // the fake's loopback origin: the text shows the path, the record the URL
      const path = url.slice(origin.length);
      const where = `GraphQL API POST ${path} failed`;
      const inBody = { httpMethod: 'POST', httpUrl: url, httpRequestId: GRAPHQL_REQUEST_IDS.api };
      const http = (httpStatus: number) => ({ ...inBody, httpStatus });
      const rule = 'graphql-http-error';
      return {
        unauthorized: { text: `${where} (UNAUTHENTICATED): Credentials rejected: You must be logged in to read items.`, rule: 'graphql-unauthorized', status: 401, request: inBody, failure: { code: 'UNAUTHENTICATED', retryable: false } },
        // Shopify's 401 (`errors` as one string, no `data`) is no GraphQL error list: the fetch rule's, by its status.
        shopify401: {
          text: `HTTP POST ${path} failed with 401 Unauthorized: Credentials rejected: the service did not accept them`,
          rule: 'fetch-unauthorized',
          status: 401,
          request: http(401),
          failure: { code: 'unauthorized', retryable: false },
        },
        forbidden: { text: `${where} (FORBIDDEN): Access denied: You are not allowed to read item 42.`, rule, status: 403, request: inBody, failure: { code: 'FORBIDDEN', retryable: false } },
        denied: { text: `${where} (ACCESS_DENIED): Access denied: Access denied for orders field. Required access: \`read_orders\` access scope.`, rule, status: 403, request: inBody, failure: { code: 'ACCESS_DENIED', retryable: false } },
        missing: { text: `${where} (NOT_FOUND): Item 42 was not found.`, rule, status: 404, request: inBody, failure: { code: 'NOT_FOUND', retryable: false } },
        invalid: { text: `${where} with 400 Bad Request (GRAPHQL_VALIDATION_FAILED): Cannot query field "nme" on type "Item". Did you mean "name"?`, rule, status: 400, request: http(400), failure: { code: 'GRAPHQL_VALIDATION_FAILED', retryable: false } },
        input: { text: `${where} (BAD_USER_INPUT): Quantity must be a positive integer.`, rule, status: 400, request: inBody, failure: { code: 'BAD_USER_INPUT', retryable: false } },
        limited: { text: `${where} (THROTTLED): Throttled. Retry after 2 s.`, rule, status: 429, request: inBody, failure: { code: 'THROTTLED', retryable: true, retryAfterMs: 2000 } },
        unavailable: { text: `${where} with 503 Service Unavailable: The service failed to answer. Retry after 30 s.`, rule, status: 503, request: http(503), failure: { code: 'unavailable', retryable: true, retryAfterMs: 30_000 } },
        broken: { text: `${where}: The service failed to answer`, rule, status: 500, request: inBody, failure: { code: 'server_error', retryable: true } },
        crashed: { text: `${where} with 500 Internal Server Error: The service failed to answer`, rule, status: 500, request: http(500), failure: { code: 'server_error', retryable: true } },
      };
    },
    [SECRETS.slack, SECRETS.queryToken, SECRETS.stripe],
  );
});

describe('@linear/sdk through a real McpServer and Client', () => {
  rows(
    async (origin) => {
      const client = new LinearClient({ accessToken: LINEAR_TOKEN, apiUrl: `${origin}/linear/graphql` });
      const refused = new LinearClient({ accessToken: LINEAR_TOKEN, apiUrl: `${await closedOrigin()}/linear/graphql` });
      const cases = ['unauthorized', 'forbidden', 'missing', 'invalid', 'limited', 'unavailable', 'html', 'broken'];
      return { ...Object.fromEntries(cases.map((which) => [which, () => client.issue(which)])), refused: () => refused.issue('missing') };
    },
    () => {
      const where = 'Linear API request failed';
      const http = (httpStatus: number) => ({ httpStatus, httpRequestId: GRAPHQL_REQUEST_IDS.linear });
      const rule = 'linear-http-error';
      return {
        unauthorized: {
          text: `${where} with 401 Unauthorized (AUTHENTICATION_ERROR): Credentials rejected: You need to authenticate to access this operation.`,
          rule: 'linear-unauthorized',
          status: 401,
          request: http(401),
          failure: { code: 'AUTHENTICATION_ERROR', retryable: false },
        },
        forbidden: { text: `${where} with 400 Bad Request (FORBIDDEN): You do not have access to this team.`, rule, status: 400, request: http(400), failure: { code: 'FORBIDDEN', retryable: false } },
        missing: { text: `${where} (INPUT_ERROR): Could not find referenced Issue.`, rule, status: 400, request: { httpRequestId: GRAPHQL_REQUEST_IDS.linear }, failure: { code: 'INPUT_ERROR', retryable: false } },
        invalid: { text: `${where} with 400 Bad Request (GRAPHQL_VALIDATION_FAILED): Cannot query field "nosuchfield" on type "Issue".`, rule, status: 400, request: http(400), failure: { code: 'GRAPHQL_VALIDATION_FAILED', retryable: false } },
        limited: { text: `${where} with 400 Bad Request (RATELIMITED): Rate limit exceeded. Retry after 7 s.`, rule, status: 400, request: http(400), failure: { code: 'RATELIMITED', retryable: true, retryAfterMs: 7000 } },
        unavailable: { text: `${where} with 503 Service Unavailable: The service failed to answer. Retry after 30 s.`, rule, status: 503, request: http(503), failure: { code: 'unavailable', retryable: true, retryAfterMs: 30_000 } },
        html: { text: `${where} with 502 Bad Gateway: The service failed to answer`, rule, status: 502, request: { httpStatus: 502 }, failure: { code: 'unavailable', retryable: true } },
        broken: { text: `${where} with 500 Internal Server Error: The service failed to answer`, rule, status: 500, request: http(500), failure: { code: 'server_error', retryable: true } },
        refused: { text: 'Network error: connection refused (ECONNREFUSED)', rule: 'linear-network', status: 502, failure: { code: 'network', retryable: true } },
      };
    },
    [LINEAR_TOKEN],
  );
});

describe('the GraphQL and Microsoft Graph rules against look-alikes and hostile values', () => {
  const policy = createErrorPolicy({ rules: [...httpRules, ...coreRules] });
  const ruleOf = (error: unknown): string | undefined => {
    const classified = classifyError(error, policy);
    return classified.kind === 'anticipated' ? classified.rule.name : classified.kind;
  };
  const response = (status: number): Response => new Response('{}', { status, headers: { 'content-type': 'application/json' } });

  it('need the whole shape', () => {
    // AggregateError's `errors` are no GraphQL error list; a body without `errors` is fetch's (by status) or nothing.
    expect(ruleOf(new AggregateError([new Error('Not Found')], 'x'))).toBe('crash');
    expect(ruleOf(Object.assign(new Error('x'), { response: response(200), data: { data: { ok: true } } }))).toBe('crash');
    expect(ruleOf(Object.assign(new Error('x'), { response: response(404), data: { message: 'gone' } }))).toBe('fetch-http-error');
    expect(ruleOf(Object.assign(new Error('x'), { response: response(200), data: { errors: [{ message: 'No.', extensions: { code: 'FORBIDDEN' } }] } }))).toBe('graphql-http-error');
    // A REST API's `errors[].message` with an error status is no GraphQL answer; with `data`, or GraphQL's fields, it is.
    const rest = { errors: [{ code: 89, message: 'Invalid or expired token.' }] };
    expect(ruleOf(Object.assign(new Error('x'), { response: response(401), data: rest }))).toBe('fetch-unauthorized');
    expect(ruleOf(Object.assign(new Error('x'), { response: response(401), data: { ...rest, data: null } }))).toBe('graphql-unauthorized');
    expect(ruleOf(Object.assign(new Error('x'), { response: response(400), data: { errors: [{ message: 'Syntax Error', locations: [] }] } }))).toBe('graphql-http-error');
    // An error list whose first entry has no message; a GraphqlResponseError without its request.
    expect(ruleOf(Object.assign(new Error('x'), { response: response(200), data: { errors: [{ extensions: { code: 'FORBIDDEN' } }] } }))).toBe('crash');
    expect(ruleOf(Object.assign(new Error('x'), { name: 'GraphqlResponseError', errors: [{ type: 'NOT_FOUND', message: 'x' }], headers: {} }))).toBe('crash');
    // A LinearError without `query`; a GraphError without `requestId`, or with a successful status.
    expect(ruleOf(Object.assign(new Error('x'), { type: 'Forbidden', errors: [], raw: { response: { status: 403, headers: new Headers() } } }))).toBe('crash');
    const graphError = { statusCode: 404, code: 'ResourceNotFound', requestId: null, date: new Date(), body: '{"code":"ResourceNotFound","message":"gone"}' };
    expect(ruleOf(Object.assign(new Error('gone'), graphError))).toBe('msgraph-http-error');
    expect(ruleOf(Object.assign(new Error('gone'), { ...graphError, requestId: undefined }))).toBe('msgraph-http-error');
    const { requestId: _dropped, ...withoutRequestId } = graphError;
    expect(ruleOf(Object.assign(new Error('gone'), withoutRequestId))).toBe('crash');
    expect(ruleOf(Object.assign(new Error('gone'), { ...graphError, statusCode: 200 }))).toBe('crash');
    // A GraphError whose body was an HTML page: the status alone, never the parser's message about the page.
    const html = classifyError(Object.assign(new Error('Unexpected token < in JSON at position 0: <html>secret</html>'), { ...graphError, statusCode: 404, code: 'SyntaxError', body: 'SyntaxError: Unexpected token <' }), policy);
    expect(html).toMatchObject({ kind: 'anticipated', message: 'Microsoft Graph API request failed with 404 Not Found' });
  });

  it('never throw: throwing getters and revoked Proxies in the error list and the response', () => {
    const { proxy: revoked, revoke } = Proxy.revocable([], {});
    revoke();
    const trap = (): never => {
      throw new Error('trap');
    };
    for (const hostile of [new Proxy([], { get: trap, has: trap, ownKeys: trap, getPrototypeOf: trap }), revoked]) {
      for (const error of [
        Object.assign(new Error('x'), { response: response(200), data: { errors: hostile } }),
        Object.assign(new Error('x'), { response: response(200), data: { errors: [hostile] } }),
        Object.assign(new Error('x'), { name: 'GraphqlResponseError', request: {}, errors: hostile, headers: hostile }),
        Object.assign(new Error('x'), { type: 'Forbidden', errors: [], query: '', raw: { response: hostile } }),
        Object.assign(new Error('x'), { statusCode: 500, code: 'x', requestId: hostile, date: hostile, body: hostile, headers: hostile }),
      ]) {
        expect(() => classifyError(error, policy)).not.toThrow();
      }
    }
  });
});

/**
 * Microsoft Graph end to end: `@microsoft/microsoft-graph-client` 3 (its middleware chain without the retry handler,
 * which would wait out each 429 and 503 itself; `baseUrl` pointing it at the local fake on 127.0.0.1, support/graphql-fake.ts), thrown out of the tools of a real McpServer under `applyErrorPolicy` with
 * `[...httpRules, ...coreRules]`, through the real SDK Client: the exact text, failure object, record and access-log
 * status per row, and no planted token (a JWT-shaped access token, a query credential) in any answer or record.
 */
import { Client, HTTPMessageHandler } from '@microsoft/microsoft-graph-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRETS } from './support/clients.js';
import { closedOrigin } from './support/fake-apis.js';
import { GRAPHQL_REQUEST_IDS, startGraphqlFake, type GraphqlFake } from './support/graphql-fake.js';
import { startPolicySession, type PolicySession, type Want } from './support/policy-session.js';

/** A Microsoft identity platform access token's shape (a JWT), planted as the bearer token. */
const GRAPH_TOKEN = 'eyJ0eXAiOiJKV1QiLCJub25jZSI6IlBMQU5URUQifQ.eyJhdWQiOiJodHRwczovL2dyYXBoLm1pY3Jvc29mdC5jb20iLCJwbGFudGVkIjp0cnVlfQ.PLANTEDgraphSIGNATURE0123456789';

/**
 * A Graph client whose requests go to `origin`, with no retry handler. The client's `AuthenticationHandler` adds the
 * token to https URLs only, so the calls set the header themselves.
 */
function graphClient(origin: string): Client {
  return Client.initWithMiddleware({ middleware: new HTTPMessageHandler(), baseUrl: `${origin}/msgraph` });
}

const where = 'Microsoft Graph API request failed';
const request = (httpStatus: number) => ({ httpStatus, httpRequestId: GRAPHQL_REQUEST_IDS.msgraph });
const rule = 'msgraph-http-error';

const ROWS: Readonly<Record<string, Want>> = {
  unauthorized: {
    text: `${where} with 401 Unauthorized (InvalidAuthenticationToken): Credentials rejected: Access token has expired or is not yet valid.`,
    rule: 'msgraph-unauthorized',
    status: 401,
    request: request(401),
    failure: { code: 'InvalidAuthenticationToken', retryable: false },
  },
  forbidden: { text: `${where} with 403 Forbidden (Authorization_RequestDenied): Access denied: Insufficient privileges to complete the operation.`, rule, status: 403, request: request(403), failure: { code: 'Authorization_RequestDenied', retryable: false } },
  missing: {
    text: `${where} with 404 Not Found (Request_ResourceNotFound): Resource 'missing' does not exist or one of its queried reference-property objects are not present.`,
    rule,
    status: 404,
    request: request(404),
    failure: { code: 'Request_ResourceNotFound', retryable: false },
  },
  invalid: { text: `${where} with 400 Bad Request (Request_BadRequest): Invalid object identifier 'invalid'.`, rule, status: 400, request: request(400), failure: { code: 'Request_BadRequest', retryable: false } },
  limited: { text: `${where} with 429 Too Many Requests (TooManyRequests): Too many requests, please retry later. Retry after 7 s.`, rule, status: 429, request: request(429), failure: { code: 'TooManyRequests', retryable: true, retryAfterMs: 7000 } },
  unavailable: { text: `${where} with 503 Service Unavailable: The service failed to answer. Retry after 30 s.`, rule, status: 503, request: request(503), failure: { code: 'unavailable', retryable: true, retryAfterMs: 30_000 } },
  broken: { text: `${where} with 500 Internal Server Error: The service failed to answer`, rule, status: 500, request: request(500), failure: { code: 'server_error', retryable: true } },
  html: { text: `${where} with 502 Bad Gateway: The service failed to answer`, rule, status: 502, request: { httpStatus: 502 }, failure: { code: 'unavailable', retryable: true } },
  refused: { text: 'Network error: the Microsoft Graph API did not answer', rule: 'msgraph-network', status: 502, failure: { code: 'network', retryable: true } },
  // `AbortSignal.timeout` in the request's fetch options: the client keeps the TimeoutError's name in `code`, not the error.
  slow: { text: 'The Microsoft Graph API request timed out.', rule: 'msgraph-timeout', status: 504, failure: { code: 'timeout', retryable: true } },
};

describe('@microsoft/microsoft-graph-client through a real McpServer and Client', () => {
  let fake: GraphqlFake;
  let run: PolicySession;

  beforeAll(async () => {
    fake = await startGraphqlFake();
    const client = graphClient(fake.origin);
    const refused = graphClient(await closedOrigin());
    const calls = Object.fromEntries(
      Object.keys(ROWS).map((which) => {
        const request = (which === 'refused' ? refused : client).api(`/users/${which}`).header('Authorization', `Bearer ${GRAPH_TOKEN}`).query({ api_key: SECRETS.queryToken });
        return [which, () => (which === 'slow' ? request.option('signal', AbortSignal.timeout(100)) : request).get() as Promise<unknown>];
      }),
    );
    run = await startPolicySession(calls);
  });

  afterAll(async () => {
    await run.session.close();
    await fake.close();
  });

  it.each(Object.keys(ROWS))('%s: the exact text, the failure object, the access-log status and one record with the request', async (which) => {
    await run.check(which, ROWS[which] as Want);
  });

  it('sent the planted token and query credential, and neither reached the wire or a record', () => {
    for (const secret of [GRAPH_TOKEN, SECRETS.queryToken]) {
      expect(fake.received(secret)).toBe(true);
      expect(run.everything()).not.toContain(secret);
    }
    expect(run.everything()).toContain('[REDACTED]');
  });
});

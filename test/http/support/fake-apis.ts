/**
 * A local stand-in for the services the HTTP rules know, for tests that drive the real client libraries against it.
 * It listens on 127.0.0.1 (port 0) and answers each service's way (bodies and headers from each service's public API
 * documentation):
 *
 * - `/github/repos/<owner>/<case>`: GitHub REST, `{ message, documentation_url }` (422 adds `errors[]`), `x-github-request-id`.
 * - `/openai/v1/models/<case>`: OpenAI, `{ error: { message, type, param, code } }`, `x-request-id`.
 * - `/anthropic/v1/models/<case>`: Anthropic, `{ type: 'error', error: { type, message }, request_id }`, `request-id`.
 * - `/v1/customers/<case>`: Stripe, `{ error: { type, code, message, param } }`, `request-id`; validation failures are 400
 *   (`invalid`), as Stripe sends them. `POST /v1/payment_intents`: a card decline, 402 `card_error` `card_declined` with
 *   its `decline_code` and the payment intent (whose `client_secret` is a planted secret), as Stripe answers a confirm.
 * - `/2015-03-31/functions/<case>`: AWS Lambda (REST-JSON): the error code in `x-amzn-ErrorType`, `{ Type, message }`,
 *   `x-amzn-RequestId`; credentials rejected with 403 `UnrecognizedClientException`, validation failures 400, rate
 *   limits 429 with `Retry-After`, 503 without one.
 * - `/notion/v1/pages/<case>`: Notion, `{ object: 'error', status, code, message, request_id }`; validation failures are
 *   400 (`validation_error`).
 * - `/slack/api/<method>` with the case as the form's `channel`: Slack, `{ ok: false, error }` with HTTP 200 for
 *   platform errors (`invalid_auth`, `missing_scope` with `needed`, `channel_not_found`, `already_archived`,
 *   `invalid_arguments` with `response_metadata.messages`), 429 with `Retry-After`, 503 and 500 as HTTP errors;
 *   `x-slack-req-id`.
 * - `/api/items/<case>`: a generic JSON API (axios, ky): RFC 9457 problem details, `x-request-id`.
 *
 * Cases: `unauthorized` 401, `forbidden` 403, `missing` 404, `conflict` 409, `invalid` 422, `limited` 429 with
 * `Retry-After: 7`, `unavailable` 503 with `Retry-After: 30`, `broken` 500 whose body echoes the request's
 * credentials, `slow` (answers after 5 s), `ok` 200; a proxy in front of the service: `html` 502 with an HTML page,
 * `maintenance` 503 with an HTML page and `Retry-After` as an HTTP date (both pages hold {@link PAGE_CANARY}); rate
 * limits told by their headers, each counted from the answer's own `Date` header (this second), so that the delay a
 * client reads is exact whatever the clock: `exhausted` 403 with `x-ratelimit-remaining: 0` and `x-ratelimit-reset`
 * (epoch seconds), `throttled` 429 with no `Retry-After` but the IETF draft's `ratelimit-remaining: 0` and
 * `ratelimit-reset` (seconds), `ratelimited` 403 whose message (or code) says rate limit, with `x-ratelimit-reset-ms`.
 * Every request is recorded, so a test can check that a planted secret was really sent before checking that it never
 * comes back out.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closedPort, listenOnLoopback, readRequestBody } from '../../support/loopback.js';

/** One request as the fake saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

/** A running fake. */
export interface FakeApis {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly requests: readonly SeenRequest[];
  /** True when some request (URL, headers or body) contained `needle`. */
  received(needle: string): boolean;
  close(): Promise<void>;
}

/** The request ids the fake sends, by service. */
export const REQUEST_IDS = {
  github: 'C0DE:1A2B:3C4D5E:6F7A8B:65F0A1B2',
  openai: 'req_0123456789abcdef0123456789abcdef',
  anthropic: 'req_011CSHoEeqs5C35K2UUqR7Fy',
  api: '5f0c9e2e-7b0e-4d0e-9a51-8f3d2c1b0a99',
  stripe: 'req_8PLxm1W2nZqY3r',
  lambda: 'c0ffee00-1d2e-4f3a-9b8c-7d6e5f4a3b2c',
  notion: '6f2b8c4e-1a3d-4e5f-8a7b-9c0d1e2f3a4b',
  slack: '9d3e1f0a2b4c6d8e0f1a3b5c7d9e1f2a',
} as const;

/** The services' messages, as the real services word them. */
export const MESSAGES = {
  github: {
    unauthorized: 'Bad credentials',
    forbidden: 'Resource not accessible by integration',
    missing: 'Not Found',
    conflict: 'Git Repository is empty.',
    invalid: 'Validation Failed',
    limited: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
    unavailable: 'Service unavailable',
    exhausted: 'API rate limit exceeded for user ID 1.',
    throttled: 'Too many requests.',
    ratelimited: 'API rate limit exceeded for installation ID 42.',
  },
  openai: {
    forbidden: 'You are not allowed to sample from this model',
    missing: "The model 'missing' does not exist or you do not have access to it.",
    conflict: 'The fine-tuning job is already running.',
    invalid: "Invalid value for 'temperature': expected a number between 0 and 2.",
    limited: 'Rate limit reached for gpt-4o in organization org-abc on requests per min (RPM): Limit 500, Used 500, Requested 1.',
    unavailable: 'The engine is currently overloaded, please try again later',
    exhausted: 'Rate limit reached for requests.',
    throttled: 'Too many requests.',
    ratelimited: 'Rate limit reached for tokens per min (TPM).',
  },
  anthropic: {
    unauthorized: 'invalid x-api-key',
    forbidden: 'Your API key does not have permission to use the specified resource.',
    missing: 'model: missing',
    conflict: 'The request conflicts with the current state of the resource.',
    invalid: 'messages: at least one message is required',
    limited: 'Number of request tokens has exceeded your per-minute rate limit.',
    unavailable: 'Overloaded',
    exhausted: 'Number of requests has exceeded your rate limit.',
    throttled: 'Too many requests.',
    ratelimited: 'Number of input tokens has exceeded your per-minute rate limit.',
  },
  stripe: {
    forbidden: "The provided key does not have the required permissions for this endpoint on account 'acct_1Nv0FGQ9RKHgCVdK'.",
    missing: "No such customer: 'missing'",
    conflict: "Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than 'order-42' if you meant to execute a different request.",
    invalid: 'Invalid integer: many',
    limited: 'Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.',
    unavailable: 'Stripe is temporarily unavailable. Please try again later.',
    exhausted: 'Request rate limit exceeded.',
    throttled: 'Too many requests.',
    ratelimited: 'Request rate limit exceeded for this account.',
  },
  lambda: {
    unauthorized: 'The security token included in the request is invalid.',
    forbidden: 'User: arn:aws:iam::123456789012:user/dev is not authorized to perform: lambda:GetFunction on resource: arn:aws:lambda:us-east-1:123456789012:function:forbidden because no identity-based policy allows the lambda:GetFunction action',
    missing: 'Function not found: arn:aws:lambda:us-east-1:123456789012:function:missing',
    conflict: 'The operation cannot be performed at this time. An update is in progress for resource: arn:aws:lambda:us-east-1:123456789012:function:conflict',
    invalid: "1 validation error detected: Value 'invalid!' at 'functionName' failed to satisfy constraint: Member must satisfy regular expression pattern",
    limited: 'Rate exceeded',
    unavailable: 'Service is temporarily unavailable.',
    exhausted: 'Rate exceeded',
    throttled: 'Rate exceeded',
    ratelimited: 'Rate exceeded',
  },
  notion: {
    unauthorized: 'API token is invalid.',
    forbidden: 'API token does not have access to this resource.',
    missing: 'Could not find page with ID: missing. Make sure the relevant pages and databases are shared with your integration.',
    conflict: 'Conflict occurred while saving. Please try again.',
    invalid: 'body failed validation: body.properties should be defined, instead was `undefined`.',
    limited: 'This request exceeds the number of requests allowed. Slow down and try again.',
    unavailable: 'Notion is unavailable. Please try again later.',
    exhausted: 'This request exceeds the number of requests allowed.',
    throttled: 'Too many requests.',
    ratelimited: 'Rate limited: slow down and try again.',
  },
  slack: {},
  api: {
    unauthorized: 'The access token is invalid or has expired.',
    forbidden: 'You do not have access to item 42.',
    missing: 'Item 42 was not found.',
    conflict: 'Item 42 was changed by someone else; reload it and try again.',
    invalid: "Field 'quantity' must be a positive integer.",
    limited: 'Too many requests for this API key.',
    unavailable: 'The service is down for maintenance.',
    exhausted: 'Requests for this API key are used up until the window resets.',
    throttled: 'Too many requests.',
    ratelimited: 'Rate limit exceeded: 100 requests per minute.',
  },
} as const;

type Service = keyof typeof REQUEST_IDS;
/** The cases the fake answers from the service (the proxy's `html` and `maintenance` pages are answered before). */
type Case = 'unauthorized' | 'forbidden' | 'missing' | 'conflict' | 'invalid' | 'limited' | 'unavailable' | 'broken' | 'exhausted' | 'throttled' | 'ratelimited';

const STATUS: Readonly<Record<Case, number>> = {
  unauthorized: 401,
  forbidden: 403,
  missing: 404,
  conflict: 409,
  invalid: 422,
  limited: 429,
  unavailable: 503,
  broken: 500,
  exhausted: 403,
  throttled: 429,
  ratelimited: 403,
};

/**
 * The delays the rate-limit and maintenance cases give, each counted from the answer's `Date` header: `exhausted`'s
 * `x-ratelimit-reset` (120 s on), `throttled`'s `ratelimit-reset` (45), `ratelimited`'s `x-ratelimit-reset-ms` (2500),
 * `maintenance`'s `Retry-After` date (90 s on).
 */
export const TIMED_DELAYS = { exhausted: 120_000, throttled: 45_000, ratelimited: 2500, maintenance: 90_000 } as const;

/** The headers with which a case tells its delay, and the `Date` (this second) they are counted from; none for other cases. */
function timingHeaders(which: string): Record<string, string> {
  const now = Math.floor(Date.now() / 1000);
  const date = (seconds: number): string => new Date(seconds * 1000).toUTCString();
  switch (which) {
    case 'exhausted':
      return { date: date(now), 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now + TIMED_DELAYS.exhausted / 1000) };
    case 'throttled':
      return { date: date(now), 'ratelimit-limit': '100', 'ratelimit-remaining': '0', 'ratelimit-reset': String(TIMED_DELAYS.throttled / 1000) };
    case 'ratelimited':
      return { date: date(now), 'x-ratelimit-reset-ms': String(TIMED_DELAYS.ratelimited) };
    case 'maintenance':
      return { date: date(now), 'retry-after': date(now + TIMED_DELAYS.maintenance / 1000) };
    default:
      return {};
  }
}

/** Stripe's card decline (402) for a confirmed payment intent: what the fake answers `POST /v1/payment_intents` with. */
export const CARD_DECLINE = {
  code: 'card_declined',
  declineCode: 'insufficient_funds',
  message: 'Your card has insufficient funds.',
  paymentIntent: 'pi_3PLANTED0000000000000001',
  /** The payment intent's client secret: a secret the fake sends, which must reach neither the client nor the log. */
  clientSecret: 'pi_3PLANTED0000000000000001_secret_PLANTEDclientSECRET0123456789',
} as const;

/** Stripe's 402 body for {@link CARD_DECLINE}. */
function cardDeclineBody(): unknown {
  return {
    error: {
      type: 'card_error',
      code: CARD_DECLINE.code,
      decline_code: CARD_DECLINE.declineCode,
      doc_url: 'https://stripe.com/docs/error-codes/card-declined',
      message: CARD_DECLINE.message,
      payment_intent: { id: CARD_DECLINE.paymentIntent, object: 'payment_intent', amount: 2000, currency: 'usd', client_secret: CARD_DECLINE.clientSecret, status: 'requires_payment_method' },
      request_log_url: `https://dashboard.stripe.com/test/logs/${REQUEST_IDS.stripe}?t=1767225600`,
    },
  };
}

/** A string in the proxy's pages (`html`, `maintenance`) that no answer to a client may hold: the pages are never shown. */
export const PAGE_CANARY = 'CANARYproxyPAGEc4f3b0d9';

/** The HTML pages a proxy in front of a service sends, by case: a 502, and a 503 for maintenance. */
export const PROXY_PAGES = {
  html: [502, `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>upstream connect error (${PAGE_CANARY})</p></body></html>`],
  maintenance: [503, `<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head><body><h1>Down for maintenance</h1><p>Back soon. ${PAGE_CANARY}</p></body></html>`],
} as const;

/** Answers `html` and `maintenance` as the proxy does (whatever service the path names): true when it did. */
function proxyPage(which: string, res: ServerResponse): boolean {
  if (which !== 'html' && which !== 'maintenance') return false;
  const [status, page] = PROXY_PAGES[which];
  res.writeHead(status, { 'content-type': 'text/html', ...timingHeaders(which) }).end(page);
  return true;
}

/** The `Authorization` / `x-api-key` value of the request, echoed by the `broken` and `unauthorized` cases. */
function credentialOf(req: IncomingMessage): string {
  return String(req.headers['authorization'] ?? req.headers['x-api-key'] ?? '');
}

function message(service: Service, which: Case, req: IncomingMessage): string {
  if (which === 'broken') return `Traceback: KeyError at /srv/app/handlers.py line 42 (request ${req.url ?? ''}, credentials ${credentialOf(req)})`;
  if (service === 'openai' && which === 'unauthorized') {
    // OpenAI names the key it got (masked; this fake echoes it whole, so the test proves the scrubber).
    return `Incorrect API key provided: ${credentialOf(req).replace(/^Bearer /, '')}. You can find your API key at https://platform.openai.com/account/api-keys.`;
  }
  if (service === 'stripe' && which === 'unauthorized') {
    // Stripe names the key it got (masked; echoed whole here, so the test proves the scrubber).
    return `Invalid API Key provided: ${credentialOf(req).replace(/^Bearer /, '')}`;
  }
  const messages = MESSAGES[service] as Readonly<Record<string, string>>;
  return messages[which] ?? 'error';
}

const OPENAI_TYPES: Readonly<Record<Case, [string, string | null]>> = {
  unauthorized: ['invalid_request_error', 'invalid_api_key'],
  forbidden: ['invalid_request_error', 'model_not_allowed'],
  missing: ['invalid_request_error', 'model_not_found'],
  conflict: ['invalid_request_error', 'conflict'],
  invalid: ['invalid_request_error', 'invalid_value'],
  limited: ['requests', 'rate_limit_exceeded'],
  unavailable: ['server_error', null],
  broken: ['server_error', null],
  exhausted: ['requests', 'rate_limit_exceeded'],
  throttled: ['requests', 'rate_limit_exceeded'],
  ratelimited: ['tokens', 'rate_limit_exceeded'],
};

/** The `error.type` the fake Anthropic API answers each case with. */
export const ANTHROPIC_TYPES: Readonly<Record<Case, string>> = {
  unauthorized: 'authentication_error',
  forbidden: 'permission_error',
  missing: 'not_found_error',
  conflict: 'invalid_request_error',
  invalid: 'invalid_request_error',
  limited: 'rate_limit_error',
  unavailable: 'overloaded_error',
  broken: 'api_error',
  exhausted: 'rate_limit_error',
  throttled: 'rate_limit_error',
  ratelimited: 'rate_limit_error',
};

const STRIPE_ERRORS: Readonly<Record<Case, [string, string?, string?]>> = {
  unauthorized: ['invalid_request_error'],
  forbidden: ['invalid_request_error'],
  missing: ['invalid_request_error', 'resource_missing', 'id'],
  conflict: ['idempotency_error'],
  invalid: ['invalid_request_error', 'parameter_invalid_integer', 'limit'],
  limited: ['invalid_request_error', 'rate_limit'],
  unavailable: ['api_error'],
  broken: ['api_error'],
  exhausted: ['invalid_request_error', 'rate_limit'],
  throttled: ['invalid_request_error', 'rate_limit'],
  ratelimited: ['invalid_request_error', 'rate_limit'],
};

/** Slack's answers by case: HTTP status and body (platform errors come with 200). */
export const SLACK_ANSWERS: Readonly<Record<Case, [number, Record<string, unknown>]>> = {
  unauthorized: [200, { ok: false, error: 'invalid_auth' }],
  forbidden: [200, { ok: false, error: 'missing_scope', needed: 'channels:write', provided: 'chat:write' }],
  missing: [200, { ok: false, error: 'channel_not_found' }],
  conflict: [200, { ok: false, error: 'already_archived' }],
  invalid: [200, { ok: false, error: 'invalid_arguments', response_metadata: { messages: ['[ERROR] missing required field: channel'] } }],
  limited: [429, { ok: false, error: 'ratelimited' }],
  unavailable: [503, { ok: false, error: 'service_unavailable' }],
  broken: [500, {}],
  exhausted: [403, { ok: false, error: 'ratelimited' }],
  throttled: [429, { ok: false, error: 'ratelimited' }],
  ratelimited: [403, { ok: false, error: 'ratelimited' }],
};

/** Slack's answer to a case: its status, headers and body (`broken` echoes the request as plain text). */
function slackAnswer(which: Case, req: IncomingMessage): [number, Record<string, string>, string] {
  const [status, json] = SLACK_ANSWERS[which];
  const out: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'x-slack-req-id': REQUEST_IDS.slack, ...timingHeaders(which) };
  if (which === 'limited') out['retry-after'] = '7';
  if (which === 'unavailable') out['retry-after'] = '30';
  if (which === 'broken') return [500, { ...out, 'content-type': 'text/plain' }, message('slack', which, req)];
  return [status, out, JSON.stringify(json)];
}

/** Notion's error codes by case. */
export const NOTION_CODES: Readonly<Record<Case, string>> = {
  unauthorized: 'unauthorized',
  forbidden: 'restricted_resource',
  missing: 'object_not_found',
  conflict: 'conflict_error',
  invalid: 'validation_error',
  limited: 'rate_limited',
  unavailable: 'service_unavailable',
  broken: 'internal_server_error',
  exhausted: 'rate_limited',
  throttled: 'rate_limited',
  ratelimited: 'rate_limited',
};

/** AWS Lambda's error codes (`x-amzn-ErrorType`) by case. */
export const LAMBDA_ERRORS: Readonly<Record<Case, string>> = {
  unauthorized: 'UnrecognizedClientException',
  forbidden: 'AccessDeniedException',
  missing: 'ResourceNotFoundException',
  conflict: 'ResourceConflictException',
  invalid: 'ValidationException',
  limited: 'TooManyRequestsException',
  unavailable: 'ServiceUnavailableException',
  broken: 'ServiceException',
  exhausted: 'ThrottlingException',
  throttled: 'TooManyRequestsException',
  ratelimited: 'ThrottlingException',
};

/** The HTTP status of a case at a service: Stripe and AWS answer validation failures with 400, AWS bad credentials with 403. */
export function statusOf(service: Service, which: Case): number {
  if ((service === 'stripe' || service === 'lambda' || service === 'notion') && which === 'invalid') return 400;
  if (service === 'lambda' && which === 'unauthorized') return 403;
  return STATUS[which];
}

function body(service: Service, which: Case, req: IncomingMessage): unknown {
  const text = message(service, which, req);
  switch (service) {
    case 'github':
      if (which === 'invalid') {
        return {
          message: text,
          errors: [{ resource: 'Issue', field: 'title', code: 'missing_field' }],
          documentation_url: 'https://docs.github.com/rest/issues/issues#create-an-issue',
          status: '422',
        };
      }
      return { message: text, documentation_url: 'https://docs.github.com/rest', status: String(STATUS[which]) };
    case 'openai': {
      const [type, code] = OPENAI_TYPES[which];
      return { error: { message: text, type, param: which === 'invalid' ? 'temperature' : null, code } };
    }
    case 'anthropic':
      return { type: 'error', error: { type: ANTHROPIC_TYPES[which], message: text }, request_id: REQUEST_IDS.anthropic };
    case 'stripe': {
      const [type, code, param] = STRIPE_ERRORS[which];
      return { error: { type, ...(code === undefined ? {} : { code }), message: text, ...(param === undefined ? {} : { param }), ...(code === undefined ? {} : { doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}` }) } };
    }
    case 'lambda':
      return which === 'unauthorized' || which === 'forbidden' ? { message: text } : { Type: which === 'broken' || which === 'unavailable' ? 'Service' : 'User', message: text };
    case 'notion':
      return { object: 'error', status: statusOf(service, which), code: NOTION_CODES[which], message: text, request_id: REQUEST_IDS.notion };
    case 'api':
      return { type: `https://api.example.test/problems/${which}`, title: reasonTitle(which), status: STATUS[which], detail: text };
  }
}

function reasonTitle(which: Case): string {
  return which === 'invalid' ? 'Unprocessable Content' : which.charAt(0).toUpperCase() + which.slice(1);
}

function headers(service: Service, which: Case): Record<string, string> {
  const out: Record<string, string> = {
    'content-type': service === 'api' ? 'application/problem+json' : 'application/json',
    ...timingHeaders(which),
  };
  if (service === 'github') out['x-github-request-id'] = REQUEST_IDS.github;
  else if (service === 'anthropic' || service === 'stripe') out['request-id'] = REQUEST_IDS[service];
  else if (service === 'notion') {
    // the id is in the body
  } else if (service === 'lambda') {
    out['x-amzn-requestid'] = REQUEST_IDS.lambda;
    out['x-amzn-errortype'] = `${LAMBDA_ERRORS[which]}:http://internal.amazon.com/coral/com.amazonaws.lambda/`;
  }
  else out['x-request-id'] = REQUEST_IDS[service];
  if (which === 'limited') out['retry-after'] = '7';
  if (which === 'unavailable' && service !== 'lambda') out['retry-after'] = '30';
  if (service === 'github' && which === 'limited') out['x-ratelimit-remaining'] = '4999';
  return out;
}

const SLACK_ROUTE = /^\/slack\/api\/[A-Za-z.]+$/;

const ROUTE = /^\/2015-03-31\/(functions)\/([a-z]+)|^\/v1\/(customers)\/([a-z]+)|^\/notion\/v1\/(pages)\/([a-z]+)|^\/(github)\/repos\/[^/]+\/([a-z]+)|^\/(openai|anthropic)\/v1\/models\/([a-z]+)|^\/(api)\/items\/([a-z]+)/;

/** Starts the fake on 127.0.0.1. */
export async function startFakeApis(): Promise<FakeApis> {
  const requests: SeenRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const text = await readRequestBody(req);
      requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: { ...req.headers }, body: text });
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      if (SLACK_ROUTE.test(path)) {
        const which = new URLSearchParams(text).get('channel') ?? '';
        if (proxyPage(which, res)) return;
        if (which === 'slow' || !(which in STATUS)) {
          if (which !== 'slow') res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
          return;
        }
        const [status, head, answer] = slackAnswer(which as Case, req);
        res.writeHead(status, head).end(answer);
        return;
      }
      if (path === '/v1/payment_intents' && req.method === 'POST') {
        res.writeHead(402, { 'content-type': 'application/json', 'request-id': REQUEST_IDS.stripe }).end(JSON.stringify(cardDeclineBody()));
        return;
      }
      const match = ROUTE.exec(path);
      const named = match?.[1] === undefined ? (match?.[3] === undefined ? (match?.[5] === undefined ? undefined : 'notion') : 'stripe') : 'lambda';
      const service = (named ?? match?.[7] ?? match?.[9] ?? match?.[11]) as Service | undefined;
      const which = match?.[2] ?? match?.[4] ?? match?.[6] ?? match?.[8] ?? match?.[10] ?? match?.[12];
      if (service === undefined || which === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('no route');
        return;
      }
      if (which === 'ok') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'ok', object: 'model', name: 'ok' }));
        return;
      }
      if (which === 'slow') {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        }, 5000);
        timers.add(timer);
        return;
      }
      if (proxyPage(which, res)) return;
      if (!(which in STATUS)) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('no case');
        return;
      }
      const kase = which as Case;
      res.writeHead(statusOf(service, kase), headers(service, kase)).end(JSON.stringify(body(service, kase, req)));
    })();
  });
  const { origin, close } = await listenOnLoopback(server);
  return {
    origin,
    requests,
    received: (needle) => requests.some((r) => r.url.includes(needle) || r.body.includes(needle) || JSON.stringify(r.headers).includes(needle)),
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      return close();
    },
  };
}

/** A URL on 127.0.0.1 where a connection is refused (see closedPort). */
export async function closedOrigin(): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}`;
}

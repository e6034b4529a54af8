/**
 * What each client's failures must look like on the wire and in the log record, by case, written out by hand from
 * the fake's answers (fake-apis.ts): the test compares the real outcome with these, character for character, and
 * the failure object (code, retryable, retry delay) field for field.
 */
import { ANTHROPIC_TYPES, CARD_DECLINE, LAMBDA_ERRORS, MESSAGES, NOTION_CODES, REQUEST_IDS, TIMED_DELAYS } from './fake-apis.js';
import type { Variant } from './clients.js';

/** The re-authorization text the tests' policy appends on 401. */
export const REAUTHORIZE = 'Check the API credentials in the server configuration.';

/** One expected outcome. */
export interface Expected {
  readonly text: string;
  readonly rule: string;
  readonly status: number;
  /** The log record's request fields; `undefined` for failures without a response (none then). */
  readonly request?: { httpMethod?: string; httpUrl?: string; httpStatus: number; httpRequestId?: string } | undefined;
  /** The failure object the client gets, but its random `correlationId` (which must equal the record's). */
  readonly failure: ExpectedFailure;
}

/** The failure object without its correlation id. */
export interface ExpectedFailure {
  readonly code: string;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly upstream?: 'unreached';
}

/**
 * The cases every variant is called with: the service's answers, a timeout and a refused connection, a proxy's HTML
 * pages (`html` 502, `maintenance` 503), and rate limits told by headers (`exhausted`, `throttled`, `ratelimited`).
 */
export const CASES = ['unauthorized', 'forbidden', 'missing', 'conflict', 'invalid', 'limited', 'unavailable', 'broken', 'slow', 'refused', 'html', 'maintenance', 'exhausted', 'throttled', 'ratelimited'] as const;
/** A case only some variants have: Stripe's card decline (402), from creating a payment intent. */
export type ExtraCase = 'declined';
export type CaseName = (typeof CASES)[number] | ExtraCase;

/** The cases of a variant: every variant's, then its own (Stripe: `declined`). */
export function casesOf(variant: Variant): readonly CaseName[] {
  return variant.rules === 'stripe' ? [...CASES, 'declined'] : CASES;
}

/** The failure object's code when the service gives none, by case (from the status: see src/http/failure.ts). */
const STATUS_CODES: Readonly<Record<CaseName, string>> = {
  unauthorized: 'unauthorized',
  forbidden: 'permission_denied',
  missing: 'not_found',
  conflict: 'conflict',
  invalid: 'invalid_request',
  limited: 'rate_limited',
  unavailable: 'unavailable',
  broken: 'server_error',
  slow: 'timeout',
  refused: 'network',
  declined: 'invalid_request',
  html: 'unavailable',
  maintenance: 'unavailable',
  exhausted: 'rate_limited',
  throttled: 'rate_limited',
  ratelimited: 'rate_limited',
};

/**
 * The retry delays the fake sends: `Retry-After: 7` with a 429, `Retry-After: 30` with a 503 (but AWS's), and the
 * delays the rate-limit and maintenance cases give by their headers.
 */
const DELAYS = { limited: 7000, unavailable: 30_000, ...TIMED_DELAYS } as const satisfies Partial<Record<CaseName, number>>;

/** AWS's: no Retry-After with the service's own 503. */
const { unavailable: _noDelay, ...AWS_DELAYS } = DELAYS;

/** The cases a client may retry: rate limits, 5xx, timeouts, network failures, a proxy's pages. */
const RETRYABLE: readonly CaseName[] = ['limited', 'unavailable', 'broken', 'slow', 'refused', 'html', 'maintenance', 'exhausted', 'throttled', 'ratelimited'];

/** A network failure whose error does not say that the request never left. */
const NETWORK: ExpectedFailure = { code: 'network', retryable: true };

/** The failure object of a case: the service's code where it gave one, else the status's; 429 and 5xx retryable. */
export function failureOf(which: CaseName, serviceCode: string | undefined, delays: Partial<Record<CaseName, number>> = DELAYS): ExpectedFailure {
  const delayMs = delays[which];
  const code = serviceCode ?? STATUS_CODES[which];
  const retryable = RETRYABLE.includes(which);
  if (which === 'refused') return { code, retryable, upstream: 'unreached' }; // the request never reached the service
  return retryable && delayMs !== undefined ? { code, retryable, retryAfterMs: delayMs } : { code, retryable };
}

/** The status line each case's answer carries (the fake's; some services answer a case with another, see `expected`). */
export const HTTP_STATUS: Readonly<Record<Exclude<CaseName, 'slow' | 'refused'>, string>> = {
  declined: '402 Payment Required',
  unauthorized: '401 Unauthorized',
  forbidden: '403 Forbidden',
  missing: '404 Not Found',
  conflict: '409 Conflict',
  invalid: '422 Unprocessable Content',
  limited: '429 Too Many Requests',
  unavailable: '503 Service Unavailable',
  broken: '500 Internal Server Error',
  html: '502 Bad Gateway',
  maintenance: '503 Service Unavailable',
  exhausted: '403 Forbidden',
  throttled: '429 Too Many Requests',
  ratelimited: '403 Forbidden',
};

const OPENAI_CODES: Readonly<Record<string, string>> = {
  unauthorized: 'invalid_api_key',
  forbidden: 'model_not_allowed',
  missing: 'model_not_found',
  conflict: 'conflict',
  invalid: 'invalid_value',
  limited: 'rate_limit_exceeded',
  unavailable: 'server_error',
  exhausted: 'rate_limit_exceeded',
  throttled: 'rate_limit_exceeded',
  ratelimited: 'rate_limit_exceeded',
};

const STRIPE_CODES: Readonly<Record<string, string>> = {
  unauthorized: 'invalid_request_error',
  forbidden: 'invalid_request_error',
  missing: 'resource_missing',
  conflict: 'idempotency_error',
  invalid: 'parameter_invalid_integer',
  limited: 'rate_limit',
  unavailable: 'api_error',
  declined: CARD_DECLINE.code,
  exhausted: 'rate_limit',
  throttled: 'rate_limit',
  ratelimited: 'rate_limit',
};

/** The service's message the text shows for a case (after scrubbing), or `undefined` when none is shown. */
function shownMessage(variant: Variant, which: CaseName): string | undefined {
  switch (variant.rules) {
    case 'github':
      return which === 'invalid' ? 'Validation Failed (Issue.title missing_field)' : (MESSAGES.github as Record<string, string>)[which];
    case 'openai':
      if (which === 'unauthorized') return 'Incorrect API key provided: [REDACTED]. You can find your API key at https://platform.openai.com/account/api-keys.';
      if (which === 'invalid') return `${MESSAGES.openai.invalid} (param: temperature)`;
      return (MESSAGES.openai as Record<string, string>)[which];
    case 'anthropic':
      return (MESSAGES.anthropic as Record<string, string>)[which];
    case 'stripe':
      if (which === 'unauthorized') return 'Invalid API Key provided: [REDACTED]';
      if (which === 'missing') return `${MESSAGES.stripe.missing} (param: id)`;
      if (which === 'invalid') return `${MESSAGES.stripe.invalid} (param: limit)`;
      if (which === 'declined') return CARD_DECLINE.message;
      return (MESSAGES.stripe as Record<string, string>)[which];
    case 'notion':
      return (MESSAGES.notion as Record<string, string>)[which];
    case 'aws':
      return (MESSAGES.lambda as Record<string, string>)[which];
    case 'axios':
    case 'fetch':
      return (MESSAGES.api as Record<string, string>)[which];
    default:
      // ky 1 leaves the body unread; ky 2 parses it into `data`.
      return variant.module === 'ky1' ? undefined : (MESSAGES.api as Record<string, string>)[which];
  }
}

/**
 * The sentence the text ends with: the policy's words for 401, 403 (not a rate limit's) and every 5xx, with the
 * service's `message` where shown.
 */
export function sentence(which: CaseName, message: string | undefined): string | undefined {
  if (which === 'unauthorized') return `Credentials rejected: ${message ?? 'the service did not accept them'}`;
  if (which === 'forbidden') return `Access denied: ${message ?? 'the credentials do not allow this request'}`;
  // a 5xx: the policy's words, never the body (an upstream 5xx body is never shown)
  if (which === 'broken' || which === 'html' || which === 'unavailable' || which === 'maintenance') return 'The service failed to answer';
  return message;
}

/** The text with the policy's retry note, when the failure object has a delay: after a sentence stop. */
export function withRetry(text: string, failure: ExpectedFailure): string {
  if (failure.retryAfterMs === undefined) return text;
  return `${text}${/[.!?]$/.test(text) ? '' : '.'} Retry after ${Math.ceil(failure.retryAfterMs / 1000)} s.`;
}

/** Slack: platform errors (HTTP 200) show their code and take the status it means, with no request in the record. */
function slackExpected(which: CaseName, module: string): Expected {
  const platform: Partial<Record<CaseName, [number, string]>> = {
    unauthorized: [401, 'Slack API request failed (invalid_auth): Credentials rejected: the service did not accept them'],
    forbidden: [403, 'Slack API request failed (missing_scope): Access denied: The token lacks the channels:write scope.'],
    missing: [404, 'Slack API request failed (channel_not_found)'],
    conflict: [409, 'Slack API request failed (already_archived)'],
    invalid: [400, 'Slack API request failed (invalid_arguments): [ERROR] missing required field: channel'],
  };
  const known = platform[which];
  if (known !== undefined) {
    const [status, text] = known;
    // The code is Slack's own (`invalid_auth`, `channel_not_found`...), from the text's parentheses.
    const failure = failureOf(which, /\(([a-z_]+)\)/.exec(text)?.[1]);
    return { text: which === 'unauthorized' ? `${text}\n\n${REAUTHORIZE}` : text, rule: which === 'unauthorized' ? 'slack-unauthorized' : 'slack-http-error', status, failure };
  }
  /** An HTTP error (not a platform error): the status line, Slack's code from the body, the request id unless a proxy answered. */
  const http = (code: string | undefined, failure: ExpectedFailure, requestId = true): Expected => {
    const line = HTTP_STATUS[which as keyof typeof HTTP_STATUS];
    const said = sentence(which, undefined);
    return {
      text: withRetry(`Slack API request failed with ${line}${code === undefined ? '' : ` (${code})`}${said === undefined ? '' : `: ${said}`}`, failure),
      rule: 'slack-http-error',
      status: Number(line.slice(0, 3)),
      request: { httpStatus: Number(line.slice(0, 3)), ...(requestId ? { httpRequestId: REQUEST_IDS.slack } : {}) },
      failure,
    };
  };
  switch (which) {
    case 'limited':
    case 'throttled':
      // The client's rate-limit errors keep no headers; `throttled` has no Retry-After (a plain Error, no delay).
      return http(undefined, failureOf(which, undefined, { limited: DELAYS.limited }), false);
    case 'exhausted':
    case 'ratelimited':
      // Slack's code names the rate limit; the headers give the delay.
      return http('ratelimited', failureOf(which, 'ratelimited'));
    case 'html':
    case 'maintenance':
      return http(undefined, failureOf(which, undefined), false);
    case 'unavailable':
    case 'broken':
      return http(undefined, failureOf(which, undefined));
    case 'slow':
      return { text: 'The Slack API request timed out.', rule: 'slack-timeout', status: 504, failure: failureOf(which, undefined) };
    default:
      // Slack 7's error keeps the refused connection off its cause chain (`original`): no `upstream`; 8's has it
      return { text: 'Network error: connection refused (ECONNREFUSED)', rule: 'slack-network', status: 502, failure: module === 'slack-web-api7' ? NETWORK : failureOf(which, undefined) };
  }
}

/** The expected outcome of `which` for `variant` against the fake at `origin`. */
export function expected(variant: Variant, which: CaseName, origin: string): Expected {
  const prefix = variant.rules;
  if (prefix === 'slack') return slackExpected(which, variant.module);
  // Stripe keeps no status of an answer that is not JSON (a proxy's page): the text says what it was.
  if (prefix === 'stripe' && (which === 'html' || which === 'maintenance')) {
    return { text: "Stripe API request failed: The service's answer was not JSON (most likely a proxy's or gateway's error page)", rule: 'stripe-http-error', status: 502, failure: failureOf(which, undefined, {}) };
  }
  // Stripe's error keeps the refused connection off its cause chain (`detail`): no `upstream`
  if (which === 'refused') return { text: 'Network error: connection refused (ECONNREFUSED)', rule: prefix === 'stripe' ? 'stripe-network' : 'network', status: 502, failure: prefix === 'stripe' ? NETWORK : failureOf(which, undefined) };
  if (which === 'slow') {
    const timedOut = (text: string, rule: string): Expected => ({ text, rule, status: 504, failure: failureOf(which, undefined) });
    if (prefix === 'openai') return timedOut('The OpenAI API request timed out.', 'openai-timeout');
    if (prefix === 'anthropic') return timedOut('The Anthropic API request timed out.', 'anthropic-timeout');
    if (prefix === 'stripe') return timedOut('The Stripe API request timed out.', 'stripe-timeout');
    if (prefix === 'notion') return timedOut('The Notion API request timed out.', 'notion-timeout');
    if (prefix === 'aws') return timedOut('The AWS request timed out.', 'aws-timeout');
    if (prefix === 'axios') return timedOut('The HTTP request timed out.', 'axios-timeout');
    return timedOut('The operation timed out', 'timeout');
  }
  // Stripe and AWS answer validation failures with 400; AWS rejects credentials with 403 and an error code.
  const line =
    (prefix === 'stripe' || prefix === 'aws' || prefix === 'notion') && which === 'invalid' ? '400 Bad Request' : prefix === 'aws' && which === 'unauthorized' ? '403 Forbidden' : HTTP_STATUS[which];
  const status = Number(line.slice(0, 3));
  // A proxy's page holds no request id; AWS's is no service exception, so the service is not named.
  const proxied = which === 'html' || which === 'maintenance';
  const requestId = (id: string): { httpRequestId?: string } => (proxied ? {} : { httpRequestId: id });
  // The fake's origin is a loopback address: the text shows the path (and redacted query) only; the record the URL.
  let where: string;
  let request: Expected['request'];
  switch (prefix) {
    case 'github': {
      const url = `${origin}/github/repos/octo-org/${which}?access_token=[REDACTED]`;
      where = `GitHub API GET ${url.slice(origin.length)}`;
      request = { httpMethod: 'GET', httpUrl: url, httpStatus: status, ...requestId(REQUEST_IDS.github) };
      break;
    }
    case 'axios': {
      const url = `${origin}/api/items/${which}?access_token=[REDACTED]&X-Amz-Credential=[REDACTED]&X-Amz-Signature=[REDACTED]&view=full`;
      where = `HTTP POST ${url.slice(origin.length)}`;
      request = { httpMethod: 'POST', httpUrl: url, httpStatus: status, ...requestId(REQUEST_IDS.api) };
      break;
    }
    case 'fetch': {
      // The Request the error keeps names the method.
      const url = `${origin}/api/items/${which}?api_key=[REDACTED]&view=full`;
      where = `HTTP POST ${url.slice(origin.length)}`;
      request = { httpMethod: 'POST', httpUrl: url, httpStatus: status, ...requestId(REQUEST_IDS.api) };
      break;
    }
    case 'ky': {
      const url = `${origin}/api/items/${which}?key=[REDACTED]&sig=[REDACTED]`;
      where = `HTTP GET ${url.slice(origin.length)}`;
      request = { httpMethod: 'GET', httpUrl: url, httpStatus: status, ...requestId(REQUEST_IDS.api) };
      break;
    }
    case 'notion':
      where = 'Notion API request';
      request = { httpStatus: status, ...requestId(REQUEST_IDS.notion) };
      break;
    case 'aws':
      where = proxied ? 'AWS request' : 'AWS Lambda request';
      request = { httpStatus: status, ...requestId(REQUEST_IDS.lambda) };
      break;
    case 'stripe':
      where = 'Stripe API request';
      request = { httpStatus: status, ...requestId(REQUEST_IDS.stripe) };
      break;
    default:
      where = `${prefix === 'openai' ? 'OpenAI' : 'Anthropic'} API request`;
      request = { httpStatus: status, ...requestId(prefix === 'openai' ? REQUEST_IDS.openai : REQUEST_IDS.anthropic) };
  }
  const codes: Readonly<Record<string, string>> = prefix === 'openai' ? OPENAI_CODES : prefix === 'anthropic' ? ANTHROPIC_TYPES : prefix === 'stripe' ? STRIPE_CODES : prefix === 'aws' ? LAMBDA_ERRORS : prefix === 'notion' ? NOTION_CODES : {};
  const code = which === 'broken' || which === 'unavailable' || proxied ? undefined : codes[which];
  const head = `${where} failed with ${line}${code === undefined ? '' : ` (${code})`}`;
  // ky 1 reads no body: its `ratelimited` 403 (told by the message alone) is a plain 403, not retryable.
  const unread = variant.module === 'ky1' && which === 'ratelimited';
  const said = unread ? sentence('forbidden', undefined) : sentence(which, shownMessage(variant, which));
  // AWS sends no Retry-After with a 503; the failure object's code is the one the text shows, else the status's.
  const failure = unread
    ? { code: 'permission_denied', retryable: false }
    : failureOf(which, code, prefix === 'aws' ? AWS_DELAYS : DELAYS);
  const text = withRetry(said === undefined ? head : `${head}: ${said}`, failure);
  return {
    text: which === 'unauthorized' ? `${text}\n\n${REAUTHORIZE}` : text,
    rule: which === 'unauthorized' ? `${prefix}-unauthorized` : `${prefix}-http-error`,
    // A credential rejection is 401 in the access log whatever the HTTP status (AWS: 403).
    status: which === 'unauthorized' ? 401 : status,
    request,
    failure,
  };
}

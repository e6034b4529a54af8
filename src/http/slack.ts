/**
 * Slack (`@slack/web-api` 7 and 8): errors with a `code` (v7 builds plain errors, v8 classes; the code is the same):
 * - `slack_webapi_platform_error`: the call reached Slack, which answered `{ ok: false, error: 'channel_not_found' }`
 *   with HTTP 200; `data` is that body. The status is the meaning of the error code (`invalid_auth` 401,
 *   `missing_scope` 403, `*_not_found` 404, `already_*` 409, `invalid_*` 400, `ratelimited` 429...), and the text shows
 *   the code, not an HTTP status line.
 * - `slack_webapi_rate_limited_error` (with `rejectRateLimitedCalls: true`): a 429, `retryAfter` in seconds. A 429
 *   without a usable `Retry-After` is a plain `Error` with no code, `Retry header did not contain a valid timeout (url:
 *   …)`, by that fixed text (its only mark): a 429 with no delay.
 * - `slack_webapi_http_error`: any other failed response: `statusCode`, `headers` (`x-slack-req-id`), `body`.
 * - `slack_webapi_request_error`: no response; the failure in `original` (v7: an AxiosError, not on the cause chain;
 *   v8: fetch's, also as `cause`): timeouts get their own rule, network failures are worded as the core rule does.
 * The errors hold no request method or URL (the method name is in no error field).
 */
import { isNetworkCode, stringCode } from '../kit/codes.js';
import { isHttpStatus } from '../kit/http.js';
import { readProp, readString } from '../kit/read.js';
import { jsonObject } from './body.js';
import { requestIdOf, secondsAsMs } from './headers.js';
import { networkText } from '../kit/codes.js';
import { failureRules, noResponseRule, failedRequestFrom, serviceCode, serviceMessage, type HttpFailure } from './failure.js';

const SERVICE = 'Slack API';

/** The status a Slack error code means. */
function statusOfCode(code: string): number {
  if (/^(?:not_authed|invalid_auth|account_inactive|token_revoked|token_expired|no_such_token|invalid_token)$/.test(code)) return 401;
  if (/^(?:missing_scope|not_allowed_token_type|no_permission|restricted_action|access_denied|ekm_access_denied|team_access_not_granted|not_in_channel|is_archived|user_is_restricted)$|_not_allowed$/.test(code)) return 403;
  if (/_not_found$|^(?:unknown_method|not_found)$/.test(code)) return 404;
  if (/^(?:already_|name_taken)/.test(code)) return 409;
  if (code === 'ratelimited' || code === 'rate_limited') return 429;
  if (/^(?:fatal_error|internal_error)$/.test(code)) return 500;
  if (code === 'service_unavailable') return 503;
  if (code === 'request_timeout') return 504;
  return 400;
}

/** What a platform error's body says beyond its code: the scope it needed, else Slack's first response message. */
function platformMessage(data: unknown): string | undefined {
  const needed = serviceCode(readProp(data, 'needed'));
  if (needed !== undefined) return `The token lacks the ${needed} scope.`;
  const messages = readProp(readProp(data, 'response_metadata'), 'messages');
  try {
    return Array.isArray(messages) ? serviceMessage(messages[0] as unknown, 300) : undefined;
  } catch {
    return undefined;
  }
}

/** The text of the client's 429 without a usable `Retry-After` (v7 and v8). */
const NO_RETRY_HEADER = /^Retry header did not contain a valid timeout \(url: https?:\/\//;

/** The failure a Slack web-api error describes, or `undefined`. */
export function slackFailureOf(error: unknown): HttpFailure | undefined {
  if (NO_RETRY_HEADER.test(readString(error, 'message') ?? '')) return { service: SERVICE, status: 429 };
  switch (readString(error, 'code')) {
    case 'slack_webapi_platform_error': {
      const data = readProp(error, 'data');
      const code = serviceCode(readProp(data, 'error'));
      if (code === undefined || readProp(data, 'ok') !== false) return undefined;
      return { service: SERVICE, status: statusOfCode(code), inBody: true, code, message: platformMessage(data) };
    }
    case 'slack_webapi_rate_limited_error': {
      const seconds = readProp(error, 'retryAfter');
      return { service: SERVICE, status: 429, retryAfterMs: typeof seconds === 'number' ? secondsAsMs(seconds) : undefined };
    }
    case 'slack_webapi_http_error': {
      const status = readProp(error, 'statusCode');
      if (!isHttpStatus(status) || status < 300) return undefined;
      const headers = readProp(error, 'headers');
      const body = jsonObject(readProp(error, 'body'));
      return {
        service: SERVICE,
        status,
        code: serviceCode(readProp(body, 'error')),
        requestId: requestIdOf(headers, ['x-slack-req-id']),
        headers,
      };
    }
    default:
      return undefined;
  }
}

/** The failure of a `slack_webapi_request_error`: its `original`, or that one's cause. */
function requestFailureOf(error: unknown): unknown {
  return readString(error, 'code') === 'slack_webapi_request_error' ? readProp(error, 'original') : undefined;
}

/** True when the request failed by timing out: fetch's `TimeoutError` (v8), axios's `timeout of <N>ms exceeded` (v7). */
function isTimedOut(original: unknown): boolean {
  if (readString(original, 'name') === 'TimeoutError') return true;
  const code = stringCode(original);
  return code === 'ETIMEDOUT' || (code === 'ECONNABORTED' && /^timeout(?: of \d+ms)? exceeded$/.test(readString(original, 'message') ?? ''));
}

/** The network code of a failed request: on `original` (v7) or its cause (v8). */
function networkCodeOf(error: unknown): string | undefined {
  const original = requestFailureOf(error);
  const code = stringCode(original) ?? stringCode(readProp(original, 'cause'));
  return isNetworkCode(code) ? code : undefined;
}

/** The request for the log record: none for a platform error, whose status is no HTTP status. */
function slackRequest(error: unknown): ReturnType<typeof failedRequestFrom> {
  const failure = slackFailureOf(error);
  return failure?.inBody === true ? undefined : failedRequestFrom(failure);
}

/** The client's timeout (`timeout` option): `The Slack API request timed out.`, status 504. */
export const slackTimeoutRule = noResponseRule('slack-timeout', (error: unknown): boolean => isTimedOut(requestFailureOf(error)), `The ${SERVICE} request timed out.`, 504);

/** Network failures, worded as the core `network` rule words them (v7 keeps them off the cause chain). */
export const slackNetworkRule = noResponseRule('slack-network', (error: unknown): boolean => networkCodeOf(error) !== undefined, (error: unknown): string => networkText(networkCodeOf(error)), 502);

/** `slack-unauthorized`, `slack-http-error`. */
export const [slackUnauthorizedRule, slackHttpErrorRule] = failureRules('slack', SERVICE, slackFailureOf, slackRequest);

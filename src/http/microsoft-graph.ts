/**
 * Microsoft Graph (`@microsoft/microsoft-graph-client` 3): `GraphError`, recognised by its shape (numeric `statusCode`,
 * `code`, `requestId`, `date` and `body` keys; its `name` is `Error`). Built from Graph's JSON error
 * (`{ error: { code, message, innerError: { 'request-id', date } } }`), it keeps that error as JSON in `body`, from which
 * the code and message are read (the error's own `message` is a parse failure's text when the body was not JSON: an
 * HTML page's head). `headers` are the response's (`Retry-After` on 429 and 503). The error holds no method or URL.
 *
 * Without a response, `statusCode` is -1 and `code` the failure's name: `TypeError` with `body` `TypeError: fetch
 * failed` for a network failure (the client keeps neither fetch's cause nor its system code: `msgraph-network` says
 * only that no answer came). A request that timed out (`fetchOptions: { signal: AbortSignal.timeout(ms) }`: fetch's
 * `TimeoutError`, whose name the client copies to `code`, dropping the error) is `msgraph-timeout`; an aborted one
 * (`AbortError` in `code`) is left to the policy: a crash.
 */
import { isHttpStatus } from '../kit/http.js';
import { hasKey, readProp, readString } from '../kit/read.js';
import { jsonObject } from './body.js';
import { failureRules, noResponseRule, serviceCode, serviceMessage, type HttpFailure } from './failure.js';
import { requestIdOf, requestIdShaped } from './headers.js';
import type { ErrorRule } from '../rules/rule.js';

const SERVICE = 'Microsoft Graph API';

/** The status of a `GraphError` (-1 without a response), or `undefined` for anything else. */
function graphStatus(error: unknown): number | undefined {
  const status = readProp(error, 'statusCode');
  return typeof status === 'number' && hasKey(error, 'requestId') && hasKey(error, 'body') && hasKey(error, 'date') && hasKey(error, 'code') ? status : undefined;
}

/** The failure a `GraphError` with an error status describes, or `undefined`. */
export function msgraphFailureOf(error: unknown): HttpFailure | undefined {
  const status = graphStatus(error);
  if (!isHttpStatus(status) || status < 300) return undefined;
  const body = jsonObject(readProp(error, 'body'));
  const headers = readProp(error, 'headers');
  return {
    service: SERVICE,
    status,
    code: serviceCode(readProp(body, 'code')),
    message: serviceMessage(readProp(body, 'message')),
    requestId: requestIdShaped(readProp(error, 'requestId')) ?? requestIdOf(headers, ['request-id', 'client-request-id']),
    headers,
  };
}

/** True for a `GraphError` of fetch's network failure (`TypeError: fetch failed`). */
function isNetworkFailure(error: unknown): boolean {
  return graphStatus(error) === -1 && readString(error, 'body') === 'TypeError: fetch failed';
}

/**
 * The Microsoft Graph rules, in their order: `msgraph-unauthorized`, `msgraph-http-error`, `msgraph-timeout` (`The
 * Microsoft Graph API request timed out.`, 504), `msgraph-network` (`Network error: the Microsoft Graph API did not
 * answer`, 502).
 */
export const msgraphRules: readonly ErrorRule[] = [
  ...failureRules('msgraph', SERVICE, msgraphFailureOf),
  noResponseRule('msgraph-timeout', (error: unknown): boolean => graphStatus(error) === -1 && readString(error, 'code') === 'TimeoutError', `The ${SERVICE} request timed out.`, 504),
  noResponseRule('msgraph-network', isNetworkFailure, `Network error: the ${SERVICE} did not answer`, 502),
];

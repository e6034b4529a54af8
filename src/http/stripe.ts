/**
 * Stripe (`stripe` 22 and 23): `StripeError` and its subclasses (`StripeInvalidRequestError`,
 * `StripeAuthenticationError`, `StripeCardError`, `StripePermissionError`, `StripeRateLimitError`, `StripeAPIError`,
 * `StripeConnectionError`...), recognised by shape (never `instanceof`: each copy has its own classes): a `type`
 * naming the class (`StripeInvalidRequestError`), an object `raw`, and for an HTTP failure a numeric `statusCode`.
 * Stripe's error body is `{ error: { type, code, message, param } }`; the SDK copies those fields onto the error, with
 * `requestId` (the `request-id` header) and `headers` (the response's, a plain object). The errors hold no request
 * method or URL.
 *
 * An answer that is not JSON (a proxy's or gateway's HTML error page) is a `StripeAPIError` `Invalid JSON received from
 * the Stripe API` with no `statusCode` and no `headers`: the client keeps neither the status nor the headers, only the
 * page's text (in `raw.exception.rawBody`, never read). It is recognised by that `raw.exception`, a `SyntaxError`.
 *
 * Without a response: `StripeConnectionError` keeps the underlying failure in `detail` (not `cause`, where the core
 * rules look), `ETIMEDOUT` for its own timeout and the system code (`ECONNREFUSED`) otherwise; two rules here read it.
 */
import { isHttpStatus } from '../kit/http.js';
import { isNetworkCode, networkText, stringCode } from '../kit/codes.js';
import { isObjectLike, readProp, readString } from '../kit/read.js';
import { failureRules, noResponseRule, notJsonFailure, serviceCode, serviceMessage, type HttpFailure } from './failure.js';
import { requestIdOf, requestIdShaped } from './headers.js';

const SERVICE = 'Stripe API';

/** True for a `StripeError` of any copy: `type` `Stripe…Error` and an object `raw`. */
export function isStripeError(error: unknown): boolean {
  const type = readString(error, 'type');
  return type !== undefined && /^Stripe[A-Za-z]{0,48}Error$/.test(type) && isObjectLike(readProp(error, 'raw'));
}

/** The failure a StripeError with an HTTP status, or with an answer that was not JSON, describes; else `undefined`. */
export function stripeFailureOf(error: unknown): HttpFailure | undefined {
  if (!isStripeError(error)) return undefined;
  const status = readProp(error, 'statusCode');
  const raw = readProp(error, 'raw');
  if (status === undefined && readString(error, 'type') === 'StripeAPIError' && readString(readProp(raw, 'exception'), 'name') === 'SyntaxError') {
    // No status to read a code from: `unavailable` (the text shows no code without a status), retryable.
    return notJsonFailure(SERVICE, { requestId: requestIdShaped(readProp(error, 'requestId')) });
  }
  if (!isHttpStatus(status) || status < 300) return undefined;
  const headers = readProp(error, 'headers');
  const param = serviceCode(readProp(raw, 'param'));
  const message = serviceMessage(readProp(raw, 'message'));
  return {
    service: SERVICE,
    status,
    code: serviceCode(readProp(raw, 'code')) ?? serviceCode(readProp(raw, 'type')),
    message: param === undefined || message === undefined ? message : `${message} (param: ${param})`,
    requestId: requestIdShaped(readProp(error, 'requestId')) ?? requestIdOf(headers, ['request-id']),
    headers,
  };
}

/** The system code of a `StripeConnectionError`'s `detail` (`ETIMEDOUT`, `ECONNREFUSED`), or `undefined`. */
function connectionCodeOf(error: unknown): string | undefined {
  if (!isStripeError(error) || readString(error, 'type') !== 'StripeConnectionError') return undefined;
  return stringCode(readProp(error, 'detail'));
}

/** Stripe's own timeout (`timeout` option): `The Stripe API request timed out.`, status 504. */
export const stripeTimeoutRule = noResponseRule('stripe-timeout', (error: unknown): boolean => connectionCodeOf(error) === 'ETIMEDOUT', `The ${SERVICE} request timed out.`, 504);

/** Other connection failures, worded as the core `network` rule words them: `Network error: connection refused (ECONNREFUSED)`. */
export const stripeNetworkRule = noResponseRule('stripe-network', (error: unknown): boolean => isNetworkCode(connectionCodeOf(error)), (error: unknown): string => networkText(connectionCodeOf(error)), 502);

/** `stripe-unauthorized`, `stripe-http-error`. */
export const [stripeUnauthorizedRule, stripeHttpErrorRule] = failureRules('stripe', SERVICE, stripeFailureOf);

/**
 * gaxios requests that timed out or were aborted, in every version: gaxios 6 (node-fetch `request-timeout`, message
 * `network timeout at: <URL>`), gaxios 7 (no code: only `config.signal.reason` tells a timeout from an abort), gaxios 8
 * (`code: 'TimeoutError'` / `'AbortError'`), and native fetch (DOMException causes). Fixed texts, never the URL.
 */
import type { ErrorRule } from '../rules/rule.js';
import { isAborted, isGoogleTransportError, isTimedOut } from './transport.js';

/**
 * True for a gaxios (or HTTP-client-like) error without a response that timed out.
 */
function isGoogleTimeoutError(error: unknown): boolean {
  return isGoogleTransportError(error) && isTimedOut(error);
}

/**
 * True for a gaxios (or HTTP-client-like) error without a response that was aborted through its `signal` (and did
 * not time out).
 */
function isGoogleAbortError(error: unknown): boolean {
  return isGoogleTransportError(error) && isAborted(error);
}

/**
 * Timed-out gaxios requests ({@link isGoogleTimeoutError}): `The Google API request timed out.`, status 504, logged
 * at warn; failure code `timeout`, retryable (as the core timeout rule's).
 */
export const googleTimeoutRule: ErrorRule = Object.freeze({
  name: 'google-timeout',
  predicate: isGoogleTimeoutError,
  message: 'The Google API request timed out.',
  status: 504,
  level: 'warn',
  failure: { code: 'timeout', retryable: true },
});

/**
 * Aborted gaxios requests ({@link isGoogleAbortError}): `The Google API request was aborted.`, status 499 (client
 * closed request), logged at warn; failure code `aborted`, not retryable (as the core abort rule's).
 */
export const googleAbortRule: ErrorRule = Object.freeze({
  name: 'google-abort',
  predicate: isGoogleAbortError,
  message: 'The Google API request was aborted.',
  status: 499,
  level: 'warn',
  failure: { code: 'aborted', retryable: false },
});

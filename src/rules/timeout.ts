/** Timeouts and aborts: DOMException TimeoutError / AbortError, Node's ABORT_ERR, undici and node-fetch shapes. */
import { linkedErrors } from '../kit/chain.js';
import { isAbortShape, isTimeoutError } from '../kit/codes.js';
import type { ErrorRule } from './rule.js';

/**
 * True for an abort (`AbortError`, `ABORT_ERR`, node-fetch `type: 'aborted'`) that is not a timeout in disguise: an
 * abort whose cause is a TimeoutError is left to {@link isTimeoutError}, which the cause walk reaches next.
 */
function isAbortError(error: unknown): boolean {
  if (!isAbortShape(error)) return false;
  return !linkedErrors(error, 4).some(isTimeoutError);
}

/**
 * Timeouts, shown as `The operation timed out`, status 504, logged at warn; code `timeout`, retryable.
 */
export const timeoutRule: ErrorRule = Object.freeze({
  name: 'timeout',
  predicate: isTimeoutError,
  message: 'The operation timed out',
  status: 504,
  failure: { code: 'timeout', retryable: true },
});

/**
 * Aborts, shown as `The operation was aborted`, status 499 (client closed request), logged at warn; code `aborted`.
 */
export const abortRule: ErrorRule = Object.freeze({
  name: 'abort',
  predicate: isAbortError,
  message: 'The operation was aborted',
  status: 499,
  failure: { code: 'aborted', retryable: false },
});

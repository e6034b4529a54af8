/** Timeouts and aborts: DOMException TimeoutError / AbortError, Node's ABORT_ERR, undici and node-fetch shapes. */
import { linkedErrors } from '../kit/chain.js';
import { isUndiciTimeoutCode, stringCode } from '../kit/codes.js';
import { readString } from '../kit/read.js';
import type { ErrorRule } from './rule.js';

/**
 * True for a timeout: `name` or `code` `TimeoutError` (DOMException from `AbortSignal.timeout`, gaxios 8), undici's
 * `UND_ERR_*_TIMEOUT`, node-fetch's `type: 'request-timeout'`.
 */
export function isTimeoutError(error: unknown): boolean {
  const code = stringCode(error);
  return (
    readString(error, 'name') === 'TimeoutError' ||
    code === 'TimeoutError' ||
    isUndiciTimeoutCode(code) ||
    readString(error, 'type') === 'request-timeout'
  );
}

/** True for anything shaped like an abort (`AbortError`, `ABORT_ERR`, node-fetch `type: 'aborted'`), timeouts included. */
export function isAbortShape(error: unknown): boolean {
  const code = stringCode(error);
  return (
    readString(error, 'name') === 'AbortError' ||
    code === 'ABORT_ERR' ||
    code === 'AbortError' ||
    readString(error, 'type') === 'aborted'
  );
}

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

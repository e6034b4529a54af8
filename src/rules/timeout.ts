/** Timeouts and aborts: DOMException TimeoutError / AbortError, Node's ABORT_ERR, undici and node-fetch shapes. */
import { linkedErrors, readName, readStringWith, readType } from '../read.js';
import { isUndiciTimeoutCode, stringCode } from './codes.js';
import type { ErrorRule } from './rule.js';

/**
 * True for a timeout: `name` or `code` `TimeoutError` (DOMException from `AbortSignal.timeout`, gaxios 8), undici's
 * `UND_ERR_*_TIMEOUT`, node-fetch's `type: 'request-timeout'`.
 * @example
 * ```ts
 * await fetch(url, { signal: AbortSignal.timeout(100) }).catch((error) => isTimeoutError(error)); // true on timeout
 * ```
 */
export function isTimeoutError(error: unknown): boolean {
  const code = stringCode(error);
  return (
    readStringWith(error, readName) === 'TimeoutError' ||
    code === 'TimeoutError' ||
    isUndiciTimeoutCode(code) ||
    readStringWith(error, readType) === 'request-timeout'
  );
}

/** True for anything shaped like an abort (`AbortError`, `ABORT_ERR`, node-fetch `type: 'aborted'`), timeouts included. */
export function isAbortShape(error: unknown): boolean {
  const code = stringCode(error);
  return (
    readStringWith(error, readName) === 'AbortError' ||
    code === 'ABORT_ERR' ||
    code === 'AbortError' ||
    readStringWith(error, readType) === 'aborted'
  );
}

/**
 * True for an abort (`AbortError`, `ABORT_ERR`, node-fetch `type: 'aborted'`) that is not a timeout in disguise: an
 * abort whose cause is a TimeoutError is left to {@link isTimeoutError}, which the cause walk reaches next.
 * @example
 * ```ts
 * controller.abort();
 * await pending.catch((error) => isAbortError(error)); // true
 * ```
 */
export function isAbortError(error: unknown): boolean {
  if (!isAbortShape(error)) return false;
  return !linkedErrors(error, 4).some(isTimeoutError);
}

/**
 * Timeouts, shown as `The operation timed out`, status 504, logged at warn.
 * @example
 * ```ts
 * createErrorPolicy({ rules: [deliberateErrorRule, timeoutRule, abortRule] });
 * ```
 */
export const timeoutRule: ErrorRule = Object.freeze({
  name: 'timeout',
  predicate: isTimeoutError,
  message: 'The operation timed out',
  status: 504,
});

/**
 * Aborts, shown as `The operation was aborted`, status 499 (client closed request), logged at warn.
 * @example
 * ```ts
 * createErrorPolicy({ rules: coreRules.filter((rule) => rule !== abortRule) }); // aborts become crashes
 * ```
 */
export const abortRule: ErrorRule = Object.freeze({
  name: 'abort',
  predicate: isAbortError,
  message: 'The operation was aborted',
  status: 499,
});

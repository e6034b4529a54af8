/**
 * What went wrong below HTTP, for gaxios errors that got no response. The shapes differ by version and fetch
 * implementation: gaxios 6 keeps node-fetch's `FetchError` in `error`; 7 also in `cause`;
 * 8 adds codes (`TimeoutError`, `AbortError`); with native fetch the system code sits two causes down
 * (`GaxiosError -> TypeError('fetch failed') -> Error{code}`); gaxios 7 marks a timeout only through
 * `config.signal.reason.name`. So the error's `cause` / `error` / `errors[]` links are walked, bounded and cycle-safe.
 */
import { findInChain, someInChain } from '../kit/chain.js';
import { isNetworkCode, stringCodeOrErrno } from '../kit/codes.js';
import { httpStatusOf } from '../kit/http.js';
import { readProp, readString } from '../kit/read.js';
import { isAbortShape, isTimeoutError } from '../rules/timeout.js';
import { isGoogleHttpError } from './gaxios.js';

/** Most errors looked at below one failure. */
const MAX_NODES = 16;

/** Most members of one `errors` array looked at. */
const MAX_MEMBERS = 4;

/** Codes of timeouts besides those of {@link isTimeoutError}. */
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'ERR_SOCKET_CONNECTION_TIMEOUT']);

/** True for a timeout ({@link isTimeoutError}) or an error whose code (or node-fetch `errno`) is a timeout's. */
function isTimeoutNode(node: unknown): boolean {
  const code = stringCodeOrErrno(node);
  return isTimeoutError(node) || (code !== undefined && TIMEOUT_CODES.has(code));
}

/**
 * True for a gaxios or HTTP-client-like error that got no HTTP response (connection, DNS, TLS, timeout, abort).
 *
 * @example
 * ```ts
 * isGoogleTransportError(error); // true for ECONNREFUSED, false for a 403
 * ```
 */
export function isGoogleTransportError(error: unknown): boolean {
  return isGoogleHttpError(error) && httpStatusOf(error) === undefined;
}

/**
 * True when the failed request timed out: a `TimeoutError` (name or code), node-fetch's `type: 'request-timeout'`,
 * an `ETIMEDOUT` / `UND_ERR_*_TIMEOUT` code on the chain, or (gaxios 7) `config.signal.reason.name === 'TimeoutError'`.
 *
 * @example
 * ```ts
 * isTimedOut(error); // true for gaxios 7's 'The operation was aborted.' after `timeout: 100`
 * ```
 */
export function isTimedOut(error: unknown): boolean {
  const reason = readProp(readProp(readProp(error, 'config'), 'signal'), 'reason');
  return readString(reason, 'name') === 'TimeoutError' || someInChain(error, isTimeoutNode, MAX_NODES, MAX_MEMBERS);
}

/**
 * True when the failed request was aborted (`AbortError`, `ABORT_ERR`, `type: 'aborted'`) and did not time out.
 *
 * @example
 * ```ts
 * isAborted(error); // true after `controller.abort()` on the request's signal
 * ```
 */
export function isAborted(error: unknown): boolean {
  return !isTimedOut(error) && someInChain(error, isAbortShape, MAX_NODES, MAX_MEMBERS);
}

/**
 * The first network failure code on the error's chain (`ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_SOCKET`...).
 *
 * @example
 * ```ts
 * networkCodeOf(error); // 'ECONNREFUSED'
 * ```
 */
export function networkCodeOf(error: unknown): string | undefined {
  return findInChain(
    error,
    (node) => {
      const code = stringCodeOrErrno(node);
      return isNetworkCode(code) ? code : undefined;
    },
    MAX_NODES,
    MAX_MEMBERS,
  );
}

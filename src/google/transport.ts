/**
 * What went wrong below HTTP, for gaxios errors that got no response. The shapes differ by version and fetch
 * implementation (error-shapes.md section 1): gaxios 6 keeps node-fetch's `FetchError` in `error`; 7 also in `cause`;
 * 8 adds codes (`TimeoutError`, `AbortError`); with native fetch the system code sits two causes down
 * (`GaxiosError -> TypeError('fetch failed') -> Error{code}`); gaxios 7 marks a timeout only through
 * `config.signal.reason.name`. So the error's `cause` / `error` / `errors[]` links are walked, bounded and cycle-safe.
 */
import { linkedErrors, readProp, readString } from '../read.js';
import { httpStatusOf, isGoogleHttpError } from './gaxios.js';

/** Most errors looked at below one failure. */
const MAX_NODES = 16;

/** Most members of one `errors` array looked at. */
const MAX_MEMBERS = 4;

/** System and library codes of network failures (timeouts excepted). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EPIPE',
  'ECONNABORTED',
  'EPROTO',
  'EADDRNOTAVAIL',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/** Codes of timeouts. */
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'ERR_SOCKET_CONNECTION_TIMEOUT', 'TimeoutError']);

/**
 * The error and the errors it wraps (`cause`, `error`, `errors[]`), breadth-first, at most 16, each once.
 *
 * @example
 * ```ts
 * errorChain(gaxios8NativeFetchError); // [GaxiosError, TypeError('fetch failed'), Error{ code: 'ECONNREFUSED' }]
 * ```
 */
export function errorChain(error: unknown): unknown[] {
  const nodes: unknown[] = [error];
  const seen = new Set<unknown>([error]);
  for (let i = 0; i < nodes.length && nodes.length < MAX_NODES; i += 1) {
    for (const linked of linkedErrors(nodes[i], MAX_MEMBERS)) {
      if (seen.has(linked)) continue;
      seen.add(linked);
      nodes.push(linked);
      if (nodes.length >= MAX_NODES) break;
    }
  }
  return nodes;
}

/** A node's string code: `code`, else node-fetch's string `errno`. */
function codeOf(node: unknown): string | undefined {
  return readString(node, 'code') ?? readString(node, 'errno');
}

function isNetworkCode(code: string | undefined): code is string {
  if (code === undefined) return false;
  return NETWORK_CODES.has(code) || (code.startsWith('UND_ERR_') && !code.endsWith('_TIMEOUT'));
}

function isTimeoutNode(node: unknown): boolean {
  const code = codeOf(node);
  return (
    readString(node, 'name') === 'TimeoutError' ||
    (code !== undefined && (TIMEOUT_CODES.has(code) || (code.startsWith('UND_ERR_') && code.endsWith('_TIMEOUT')))) ||
    readString(node, 'type') === 'request-timeout'
  );
}

function isAbortNode(node: unknown): boolean {
  const code = codeOf(node);
  return (
    readString(node, 'name') === 'AbortError' ||
    code === 'AbortError' ||
    code === 'ABORT_ERR' ||
    readString(node, 'type') === 'aborted'
  );
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
  return readString(reason, 'name') === 'TimeoutError' || errorChain(error).some(isTimeoutNode);
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
  return !isTimedOut(error) && errorChain(error).some(isAbortNode);
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
  for (const node of errorChain(error)) {
    const code = codeOf(node);
    if (isNetworkCode(code)) return code;
  }
  return undefined;
}

/** The `code` of Node, undici and node-fetch errors, and the network failure codes among them. */
import { readString } from './read.js';

/** What a code looks like: `ECONNREFUSED`, `UND_ERR_SOCKET`, `ABORT_ERR`, `TimeoutError`. Anything else is not echoed. */
const CODE_SHAPE = /^[A-Za-z][A-Za-z0-9_]{1,40}$/;

/** The error's string `code` or `errno` (`key`) when it is shaped like a code, or `undefined`. */
function codeShaped(error: unknown, key: 'code' | 'errno'): string | undefined {
  const code = readString(error, key);
  return code !== undefined && CODE_SHAPE.test(code) ? code : undefined;
}

/** The error's string `code` (Node system errors, undici) when it is shaped like one, or `undefined`. */
export function stringCode(error: unknown): string | undefined {
  return codeShaped(error, 'code');
}

/** The error's code: its string `code`, else node-fetch's string `errno`, each when shaped like a code. */
export function stringCodeOrErrno(error: unknown): string | undefined {
  return codeShaped(error, 'code') ?? codeShaped(error, 'errno');
}

/** Human words for the network error codes a server meets. */
export const NETWORK_CODE_TEXT: Readonly<Record<string, string>> = Object.freeze({
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by peer',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'temporary DNS failure',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EHOSTDOWN: 'host is down',
  ENETDOWN: 'network is down',
  EPIPE: 'connection closed while writing',
  ECONNABORTED: 'connection aborted',
  EPROTO: 'protocol error',
  EAI_FAIL: 'DNS lookup failed',
  EADDRNOTAVAIL: 'address not available',
  ERR_STREAM_PREMATURE_CLOSE: 'connection closed early',
  ERR_SSL_WRONG_VERSION_NUMBER: 'TLS handshake failed',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed TLS certificate in chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate could not be verified',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'TLS certificate issuer unknown',
  UND_ERR_SOCKET: 'connection closed by the other side',
  UND_ERR_CLOSED: 'connection closed',
  UND_ERR_DESTROYED: 'connection destroyed',
  UND_ERR_RESPONSE_STATUS_CODE: 'unexpected response status',
  UND_ERR_REQ_CONTENT_LENGTH_MISMATCH: 'request length mismatch',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'response length mismatch',
  UND_ERR_INFO: 'network error',
});

/** True for a network failure's code: the known system codes and undici's, timeouts excepted. */
export function isNetworkCode(code: string | undefined): code is string {
  if (code === undefined) return false;
  if (Object.prototype.hasOwnProperty.call(NETWORK_CODE_TEXT, code)) return true;
  return code.startsWith('UND_ERR_') && !code.endsWith('_TIMEOUT');
}

/** True for undici's timeout codes (connect, headers, body). */
function isUndiciTimeoutCode(code: string | undefined): boolean {
  return code !== undefined && code.startsWith('UND_ERR_') && code.endsWith('_TIMEOUT');
}

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

/** Reading the `code`, `name` and `type` of Node, undici and node-fetch errors. */
import { readString } from '../read.js';

/** The error's string `code` (Node system errors, undici), or `undefined` (numeric codes do not count). */
export function stringCode(error: unknown): string | undefined {
  return readString(error, 'code');
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
export function isUndiciTimeoutCode(code: string | undefined): boolean {
  return code !== undefined && code.startsWith('UND_ERR_') && code.endsWith('_TIMEOUT');
}

/**
 * The `code` of Node, undici and node-fetch errors: the network failure codes among them, timeouts and aborts; and the
 * code of the network failures that Deno and workerd throw without one.
 */
import { hasKey, readProp, readString } from './read.js';

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

/**
 * The network failure codes a server meets: Node's system and TLS codes and undici's. Their words for a client text
 * are NETWORK_WORDS, in this order.
 */
export const NETWORK_CODES = [
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EPIPE',
  'ECONNABORTED',
  'EPROTO',
  'EAI_FAIL',
  'EADDRNOTAVAIL',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
  'UND_ERR_RESPONSE_STATUS_CODE',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_INFO',
  'CONNECTION_LOST',
] as const;

/** A string for each member of the tuple `T`. */
type StringEach<T extends readonly unknown[]> = { readonly [K in keyof T]: string };

/** Human words for each of {@link NETWORK_CODES}, in its order (the type holds the two lists to one length). */
const NETWORK_WORDS: StringEach<typeof NETWORK_CODES> = [
  'connection refused', // ECONNREFUSED
  'connection reset by peer', // ECONNRESET
  'host not found', // ENOTFOUND
  'temporary DNS failure', // EAI_AGAIN
  'connection timed out', // ETIMEDOUT
  'host unreachable', // EHOSTUNREACH
  'network unreachable', // ENETUNREACH
  'host is down', // EHOSTDOWN
  'network is down', // ENETDOWN
  'connection closed while writing', // EPIPE
  'connection aborted', // ECONNABORTED
  'protocol error', // EPROTO
  'DNS lookup failed', // EAI_FAIL
  'address not available', // EADDRNOTAVAIL
  'connection closed early', // ERR_STREAM_PREMATURE_CLOSE
  'TLS handshake failed', // ERR_SSL_WRONG_VERSION_NUMBER
  'TLS certificate does not match the host', // ERR_TLS_CERT_ALTNAME_INVALID
  'TLS certificate expired', // CERT_HAS_EXPIRED
  'self-signed TLS certificate', // DEPTH_ZERO_SELF_SIGNED_CERT
  'self-signed TLS certificate in chain', // SELF_SIGNED_CERT_IN_CHAIN
  'TLS certificate could not be verified', // UNABLE_TO_VERIFY_LEAF_SIGNATURE
  'TLS certificate issuer unknown', // UNABLE_TO_GET_ISSUER_CERT_LOCALLY
  'connection closed by the other side', // UND_ERR_SOCKET
  'connection closed', // UND_ERR_CLOSED
  'connection destroyed', // UND_ERR_DESTROYED
  'unexpected response status', // UND_ERR_RESPONSE_STATUS_CODE
  'request length mismatch', // UND_ERR_REQ_CONTENT_LENGTH_MISMATCH
  'response length mismatch', // UND_ERR_RES_CONTENT_LENGTH_MISMATCH
  'network error', // UND_ERR_INFO
  'connection lost', // CONNECTION_LOST (workerd's `Network connection lost.`)
];

/**
 * A network failure's client text, which names the code and never the URL (the error's message carries it):
 * `Network error: <words> (<CODE>)`, the words `network error` for a code without its own.
 *
 * @example
 * ```ts
 * networkText('ECONNREFUSED'); // 'Network error: connection refused (ECONNREFUSED)'
 * ```
 */
export function networkText(code: string | undefined): string {
  const known = code ?? 'UNKNOWN';
  return `Network error: ${NETWORK_WORDS[(NETWORK_CODES as readonly string[]).indexOf(known)] ?? 'network error'} (${known})`;
}

/**
 * The network codes of a request that never reached the other side: no connection was made (refused, host not found,
 * no route), so nothing was sent and running the call again cannot repeat an effect.
 */
const UNREACHED_CODES: readonly string[] = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL'];

/** True for an error whose request never reached the service it was for (its network code is one of UNREACHED_CODES). */
export function neverReached(error: unknown): true | undefined {
  return UNREACHED_CODES.includes(networkCode(error) ?? '') || undefined;
}

/** True for undici's codes (`UND_ERR_SOCKET`), and whether they are its timeouts (`UND_ERR_HEADERS_TIMEOUT`). */
function isUndiciCode(code: string | undefined, timeout: boolean): boolean {
  return code !== undefined && code.startsWith('UND_ERR_') && code.endsWith('_TIMEOUT') === timeout;
}

/** True for a network failure's code: the known system codes and undici's, timeouts excepted. */
export function isNetworkCode(code: string | undefined): code is string {
  return code !== undefined && ((NETWORK_CODES as readonly string[]).includes(code) || isUndiciCode(code, false));
}

/**
 * Linux errno numbers as Rust's `std::io::Error` prints them at the end of a message (`(os error 111)`): Deno's
 * `fetch` gives its network failures no code, only such a message on the cause of its `TypeError: fetch failed`.
 */
const OS_ERROR_CODES: ReadonlyMap<string, string> = new Map([
  ['111', 'ECONNREFUSED'],
  ['104', 'ECONNRESET'],
  ['110', 'ETIMEDOUT'],
  ['113', 'EHOSTUNREACH'],
  ['101', 'ENETUNREACH'],
]);

/** The end of a Rust I/O error's message: `Connection refused (os error 111)`. */
const OS_ERROR = /\(os error (\d{1,5})\)$/;

/**
 * The network code of an error that has no `code`, from the two runtimes that throw such errors (shapes captured from
 * Deno 2.9 and workerd by scripts/runtimes.sh, which checks them again against the live runtimes):
 * - Deno's `fetch` cause: `error sending request for url (<url>): client error (Connect): tcp connect error:
 *   Connection refused (os error 111)` (the errno, Linux numbering), or `... dns error: failed to lookup address
 *   information: Name or service not known` (`ENOTFOUND`; `Temporary failure in name resolution` is `EAI_AGAIN`);
 * - workerd's `Error: Network connection lost.` with its own `remote: true` and `retryable: true`
 *   (`CONNECTION_LOST`). workerd's `internal error; reference = <id>` is not one: it is what a failed DNS lookup
 *   throws there, and also what any internal failure of a service binding or a Durable Object throws, with the same
 *   `remote: true`; it stays a crash.
 */
function codelessNetworkCode(error: unknown): string | undefined {
  if (hasKey(error, 'code')) return undefined;
  const message = readString(error, 'message');
  if (message === undefined) return undefined;
  const osError = OS_ERROR.exec(message);
  if (osError !== null) return OS_ERROR_CODES.get(osError[1] ?? '');
  if (message.includes(': dns error: ')) return message.endsWith('Temporary failure in name resolution') ? 'EAI_AGAIN' : 'ENOTFOUND';
  const lost = message === 'Network connection lost.' && readProp(error, 'remote') === true && readProp(error, 'retryable') === true;
  return lost ? 'CONNECTION_LOST' : undefined;
}

/**
 * The error's network failure code: its string `code` when that is one (Node, undici, Bun), else the code read from
 * a codeless Deno or workerd network failure; `undefined` for anything else.
 *
 * @example
 * ```ts
 * networkCode(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' })); // 'ECONNREFUSED'
 * networkCode(new Error('... tcp connect error: Connection refused (os error 111)')); // 'ECONNREFUSED'
 * ```
 */
export function networkCode(error: unknown): string | undefined {
  const code = stringCode(error);
  return isNetworkCode(code) ? code : codelessNetworkCode(error);
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
    isUndiciCode(code, true) ||
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

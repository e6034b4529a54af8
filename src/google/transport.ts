/**
 * gaxios requests that got no HTTP response, in every version and with either fetch: timed out, aborted, or a network
 * failure (refused, reset, DNS, TLS). The shapes differ by version and fetch implementation: gaxios 6 keeps
 * node-fetch's `FetchError` in `error` (a timeout is `type: 'request-timeout'`, message `network timeout at: <URL>`);
 * 7 also in `cause`, and marks a timeout only through `config.signal.reason.name`; 8 adds codes (`TimeoutError`,
 * `AbortError`); with native fetch the system code sits two causes down
 * (`GaxiosError -> TypeError('fetch failed') -> Error{code}`). So the error's `cause` / `error` / `errors[]` links are
 * walked, bounded and cycle-safe. Their messages carry the full request URL, `?key=` and all, so the client texts are
 * fixed and name at most the code.
 */
import { findInChain, someInChain } from '../kit/chain.js';
import { isAbortShape, isNetworkCode, isTimeoutError, stringCodeOrErrno } from '../kit/codes.js';
import { httpStatusOf } from '../kit/http.js';
import { readProp, readString } from '../kit/read.js';
import type { ErrorRule, FailureFacts } from '../rules/rule.js';
import { googleRule, isGoogleHttpError } from './gaxios.js';

/** Most errors looked at below one failure. */
const MAX_NODES = 16;

/** Most members of one `errors` array looked at. */
const MAX_MEMBERS = 4;

/** Codes of timeouts besides those of {@link isTimeoutError}. */
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'ERR_SOCKET_CONNECTION_TIMEOUT']);

/** The first network failure code on the error's chain (`ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_SOCKET`...). */
function networkCodeOf(error: unknown): string | undefined {
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

/**
 * What became of a gaxios (or HTTP-client-like) request that got no HTTP response: `timeout` (a `TimeoutError` by
 * name or code, node-fetch's `type: 'request-timeout'`, an `ETIMEDOUT` / `UND_ERR_*_TIMEOUT` code on the chain, or
 * gaxios 7's `config.signal.reason.name === 'TimeoutError'`), else `abort` (`AbortError`, `ABORT_ERR`,
 * `type: 'aborted'` on the chain), else `network` when the chain carries a network failure code (`ECONNREFUSED`,
 * `ECONNRESET`, `ENOTFOUND`, `EAI_AGAIN`, `UND_ERR_SOCKET`, TLS certificate codes...). `undefined` for anything else.
 */
function transportFailure(error: unknown): 'timeout' | 'abort' | 'network' | undefined {
  if (!isGoogleHttpError(error) || httpStatusOf(error) !== undefined) return undefined;
  const reason = readProp(readProp(readProp(error, 'config'), 'signal'), 'reason');
  // a timeout's error or code (or node-fetch `errno`) anywhere on the chain
  const timeout = (node: unknown): boolean => isTimeoutError(node) || TIMEOUT_CODES.has(stringCodeOrErrno(node) ?? '');
  if (readString(reason, 'name') === 'TimeoutError' || someInChain(error, timeout, MAX_NODES, MAX_MEMBERS)) return 'timeout';
  if (someInChain(error, isAbortShape, MAX_NODES, MAX_MEMBERS)) return 'abort';
  return networkCodeOf(error) === undefined ? undefined : 'network';
}

/** The rule for one {@link transportFailure} kind, status 504, 499 or 502, failure facts as the core rule's. */
function transportRule(
  kind: 'timeout' | 'abort' | 'network',
  message: NonNullable<ErrorRule['message']>,
  status: number,
  failure: FailureFacts,
): ErrorRule {
  return googleRule({ name: `google-${kind}`, predicate: (error) => transportFailure(error) === kind, message, status, failure });
}

/**
 * Timed-out gaxios requests: `The Google API request timed out.`, status 504, logged at warn; failure code `timeout`,
 * retryable (as the core timeout rule's).
 */
export const googleTimeoutRule = transportRule('timeout', 'The Google API request timed out.', 504, { code: 'timeout', retryable: true });

/**
 * Aborted gaxios requests (through their `signal`, without a timeout): `The Google API request was aborted.`, status
 * 499 (client closed request), logged at warn; failure code `aborted`, not retryable (as the core abort rule's).
 */
export const googleAbortRule = transportRule('abort', 'The Google API request was aborted.', 499, { code: 'aborted', retryable: false });

/**
 * gaxios network failures: `Network error while calling the Google API (<CODE>).`, status 502, logged at warn; failure
 * code `network`, retryable (as the core network rule's).
 */
export const googleNetworkRule = transportRule(
  'network',
  (error) => `Network error while calling the Google API (${networkCodeOf(error) ?? 'UNKNOWN'}).`,
  502,
  { code: 'network', retryable: true },
);

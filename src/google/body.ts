/**
 * Readers of the two error bodies Google sends: the AIP-193 API error (`{ error: { code, message, status, errors[],
 * details[] } }`) and the OAuth 2.0 token error (`{ error: 'invalid_grant', error_description }`). Their texts are
 * written by Google's servers and never echo credentials; they are still made one bounded line where they are shown.
 * Nothing is remembered between calls: each rule that asks reads the body again (a few hundred nanoseconds, after a
 * failure).
 */
import { httpStatusOf, responseBodyOf } from '../kit/http.js';
import { isObjectLike, readNumber, readProp, readString } from '../kit/read.js';
import { serverTextLine } from '../text.js';
import { isGaxiosError } from './gaxios.js';
import { googleHttpFace, isHttp2ResponseError } from './http2.js';

/** Most `errors[]` / `details[]` entries read. */
const MAX_ENTRIES = 16;

/** The fields of an AIP-193 error body that are safe to show. */
export interface GoogleApiErrorBody {
  /** `error.code`: the HTTP status, in every error body Google sends. */
  readonly code: number | undefined;
  /** `error.status`: the canonical code (`PERMISSION_DENIED`, `NOT_FOUND`, `RESOURCE_EXHAUSTED`...). */
  readonly status: string | undefined;
  /**
   * `error.message` (else the first `errors[].message`) as Google wrote it: what shows it (apiErrorText) makes it one
   * line and bounds it, so that a rule that only asks for the status or the reasons does not pay for that.
   */
  readonly message: string | undefined;
  /**
   * The reasons: `details[]` ErrorInfo reasons (`ACCESS_TOKEN_SCOPE_INSUFFICIENT`, `RATE_LIMIT_EXCEEDED`) first, then
   * `errors[].reason` (`forbidden`, `insufficientPermissions`, `rateLimitExceeded`...).
   */
  readonly reasons: readonly string[];
  /** `details[]` RetryInfo `retryDelay`, in whole milliseconds (rounded up). */
  readonly retryDelayMs: number | undefined;
}

/** The fields of an OAuth 2.0 token error body. */
export interface OAuthErrorBody {
  /** `error`: `invalid_grant`, `unauthorized_client`, `invalid_client`... */
  readonly error: string;
  /** `error_description`, on one line and bounded (`Token has been expired or revoked.`). */
  readonly description: string | undefined;
  /** `error_subtype` (`invalid_rapt`). */
  readonly subtype: string | undefined;
}

/** The first {@link MAX_ENTRIES} entries of `value` when it is an array, else none. */
function entries(value: unknown): readonly unknown[] {
  try {
    return Array.isArray(value) ? (value.slice(0, MAX_ENTRIES) as unknown[]) : [];
  } catch {
    return []; // a revoked Proxy or a hostile array
  }
}

/** A token-like identifier (`RATE_LIMIT_EXCEEDED`, `rateLimitExceeded`, `invalid_grant`), or `undefined`. */
function identifier(value: string | undefined): string | undefined {
  return value !== undefined && /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(value) ? value : undefined;
}

/** `"30s"`, `"1.5s"` or `{ seconds, nanos }` (a protobuf Duration) as whole milliseconds, rounded up. */
function durationMs(value: unknown): number | undefined {
  if (typeof value === 'string') {
    const match = /^(\d{1,9})(?:\.(\d{1,9}))?s$/.exec(value);
    if (match === null) return undefined;
    return Math.ceil((Number(match[1]) + Number(`0.${match[2] ?? 0}`)) * 1000);
  }
  const seconds = readNumber(value, 'seconds') ?? Number(readString(value, 'seconds') ?? Number.NaN);
  if (!Number.isFinite(seconds) || seconds < 0) return undefined;
  return Math.ceil(seconds * 1000 + Math.max(0, readNumber(value, 'nanos') ?? 0) / 1e6);
}

/** The `details[]` entries whose `@type` names `type` (`type.googleapis.com/google.rpc.ErrorInfo`). */
function detailsOfType(details: readonly unknown[], type: string): unknown[] {
  return details.filter((detail) => readString(detail, '@type')?.endsWith(`/google.rpc.${type}`) === true);
}

/**
 * Reads an AIP-193 error body: `data.error` must be an object. `undefined` for anything else (an OAuth body, an HTML
 * page, no body).
 */
export function readGoogleApiError(data: unknown): GoogleApiErrorBody | undefined {
  const error = readProp(data, 'error');
  if (!isObjectLike(error) || Array.isArray(error)) return undefined;
  const details = entries(readProp(error, 'details'));
  const legacy = entries(readProp(error, 'errors'));
  const legacyMessage = legacy.map((entry) => readString(entry, 'message')).find((message) => message !== undefined);
  return {
    code: readNumber(error, 'code'),
    status: identifier(readString(error, 'status')),
    message: readString(error, 'message') ?? legacyMessage,
    reasons: [...detailsOfType(details, 'ErrorInfo'), ...legacy]
      .map((entry) => identifier(readString(entry, 'reason')))
      .filter((reason) => reason !== undefined),
    retryDelayMs: detailsOfType(details, 'RetryInfo')
      .map((detail) => durationMs(readProp(detail, 'retryDelay')))
      .find((ms) => ms !== undefined),
  };
}

/** Reads an OAuth 2.0 token error body: `data.error` must be an identifier string (`invalid_grant`...). */
export function readOAuthError(data: unknown): OAuthErrorBody | undefined {
  const error = identifier(readString(data, 'error'));
  if (error === undefined) return undefined;
  return {
    error,
    description: serverTextLine(readString(data, 'error_description'), 500),
    subtype: identifier(readString(data, 'error_subtype')),
  };
}

/**
 * The error codes of OAuth 2.0 (RFC 6749 sections 4.1.2.1 and 5.2, RFC 6750, RFC 8693) and OpenID Connect: an error of
 * another HTTP client than Google's is read as a token endpoint's answer only when its body's `error` is one of them.
 */
const OAUTH_ERROR_CODES: ReadonlySet<string> = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'access_denied',
  'unsupported_response_type',
  'server_error',
  'temporarily_unavailable',
  'invalid_token',
  'insufficient_scope',
  'invalid_target',
  'interaction_required',
  'login_required',
  'consent_required',
  'account_selection_required',
]);

/** True for an error of Google's own clients: gaxios (any version, any copy) or googleapis-common's HTTP/2 client. */
export function ofGoogleClient(error: unknown): boolean {
  return isGaxiosError(error) || isHttp2ResponseError(error);
}

/**
 * The AIP-193 body of a gaxios or HTTP-client-like error's response (or of googleapis-common's HTTP/2 error's `cause`,
 * see http2.ts), if it has one. Through another client (axios, ky, ...) the body is Google's only when its
 * `error.code` is the response's HTTP status, as Google's always is: another API's `error` object (OpenAI's
 * `{ message, type, code: 'rate_limit_exceeded' }`) is not read as Google's, whatever the order of the rules.
 */
export function apiErrorOf(error: unknown): GoogleApiErrorBody | undefined {
  const face = googleHttpFace(error);
  const body = readGoogleApiError(responseBodyOf(face));
  return body === undefined || ofGoogleClient(error) || body.code === httpStatusOf(face) ? body : undefined;
}

/**
 * The OAuth token error body of a gaxios or HTTP-client-like error's response, if it has one. Through another client
 * its `error` must be an OAuth 2.0 error code (`invalid_grant`), not any API's own (Slack's `channel_not_found`).
 */
export function oauthErrorOf(error: unknown): OAuthErrorBody | undefined {
  const body = readOAuthError(responseBodyOf(googleHttpFace(error)));
  return body === undefined || ofGoogleClient(error) || OAUTH_ERROR_CODES.has(body.error) ? body : undefined;
}

/** The first reason of `api` (ErrorInfo reasons, then legacy `errors[].reason`) that is in `reasons`, or `undefined`. */
export function reasonIn(api: GoogleApiErrorBody | undefined, reasons: ReadonlySet<string>): string | undefined {
  return api?.reasons.find((reason) => reasons.has(reason));
}

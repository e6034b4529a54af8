/**
 * Readers of the two error bodies Google sends: the AIP-193 API error (`{ error: { code, message, status, errors[],
 * details[] } }`) and the OAuth 2.0 token error (`{ error: 'invalid_grant', error_description }`). Their texts are
 * written by Google's servers and never echo credentials; they are still bounded to one line here.
 */
import { isObjectLike, readNumber, readProp, readString, readStringWith, readWith } from '../read.js';
import { boundLength } from '../text.js';
import { responseDataOf } from './gaxios.js';

// Readers of the body's keys, each a site of its own (see readWith): every Google API failure's body is read. They are
// not read.ts's readers of the same names on purpose: body objects are another shape than errors, and sharing a
// reader between the two would make its property read polymorphic again.
const readError = (body: { readonly error?: unknown }): unknown => body.error;
const readDetails = (error: { readonly details?: unknown }): unknown => error.details;
const readReason = (entry: { readonly reason?: unknown }): unknown => entry.reason;
const readAtType = (detail: { readonly '@type'?: unknown }): unknown => detail['@type'];
const readStatus = (error: { readonly status?: unknown }): unknown => error.status;
const readCode = (error: { readonly code?: unknown }): unknown => error.code;
const readMessage = (error: { readonly message?: unknown }): unknown => error.message;
const readErrors = (error: { readonly errors?: unknown }): unknown => error.errors;

/** Longest server-written message kept, in characters. */
export const MAX_SERVER_TEXT = 1000;

/** Most `errors[]` / `details[]` entries read. */
const MAX_ENTRIES = 16;

/** The fields of an AIP-193 error body that are safe to show. */
export interface GoogleApiErrorBody {
  /** `error.code`: the HTTP status Google meant. */
  readonly code: number | undefined;
  /** `error.status`: the canonical code (`PERMISSION_DENIED`, `NOT_FOUND`, `RESOURCE_EXHAUSTED`...). */
  readonly status: string | undefined;
  /** `error.message` (else the first `errors[].message`), on one line and bounded. */
  readonly message: string | undefined;
  /** `details[]` ErrorInfo reasons (`ACCESS_TOKEN_SCOPE_INSUFFICIENT`, `RATE_LIMIT_EXCEEDED`), first. */
  readonly infoReasons: readonly string[];
  /** `errors[].reason` (`forbidden`, `insufficientPermissions`, `rateLimitExceeded`...). */
  readonly legacyReasons: readonly string[];
  /** `details[]` RetryInfo `retryDelay`, in whole seconds (rounded up). */
  readonly retryDelaySeconds: number | undefined;
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

/** True for text {@link oneLine} leaves as it is: printable ASCII, spaces single and between words. */
function isOneLineAlready(text: string): boolean {
  let previous = 0x20; // a space before the start: a leading space fails
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || (c === 0x20 && previous === 0x20)) return false;
    previous = c;
  }
  return previous !== 0x20; // a trailing space (or empty text) fails
}

/**
 * Server-written text on one line: whitespace runs (newlines included) become one space, control characters go,
 * and the result is bounded to `max` characters. `undefined` for empty text.
 */
export function oneLine(text: string | undefined, max = MAX_SERVER_TEXT): string | undefined {
  if (text === undefined) return undefined;
  // Only a bounded prefix is looked at: a 10 MB message costs no more than a short one.
  const head = text.length > max * 4 ? text.slice(0, max * 4).replace(/[\ud800-\udbff]$/, '') : text;
  if (isOneLineAlready(head)) return boundLength(head, max);
  // eslint-disable-next-line no-control-regex
  const line = head.replace(/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return line === '' ? undefined : boundLength(line, max);
}

/** No entries, no reasons: one frozen empty list shared by every body without them. */
const NONE: readonly never[] = Object.freeze([]);

function entries(value: unknown): readonly unknown[] {
  if (!Array.isArray(value)) return NONE;
  try {
    return value.slice(0, MAX_ENTRIES) as unknown[];
  } catch {
    return NONE;
  }
}

/** A token-like identifier (`RATE_LIMIT_EXCEEDED`, `rateLimitExceeded`), or `undefined`. */
function identifier(value: string | undefined): string | undefined {
  if (value === undefined || value.length === 0 || value.length > 64) return undefined;
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charCodeAt(i);
    const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (!letter && (i === 0 || !((c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2e || c === 0x2d))) return undefined;
  }
  return value;
}

/** `"30s"`, `"1.5s"` or `{ seconds, nanos }` as whole seconds. */
function durationSeconds(value: unknown): number | undefined {
  if (typeof value === 'string') {
    const match = /^(\d{1,9})(?:\.(\d{1,9}))?s$/.exec(value);
    if (match === null) return undefined;
    const seconds = Number(match[1]) + (match[2] === undefined ? 0 : Number(`0.${match[2]}`));
    return Math.ceil(seconds);
  }
  const seconds = readNumber(value, 'seconds') ?? Number(readString(value, 'seconds') ?? Number.NaN);
  if (!Number.isFinite(seconds) || seconds < 0) return undefined;
  const nanos = readNumber(value, 'nanos') ?? 0;
  return Math.ceil(seconds + nanos / 1e9);
}

function typeIs(detail: unknown, type: string): boolean {
  const at = readStringWith(detail, readAtType);
  return at !== undefined && (at === `type.googleapis.com/${type}` || at.endsWith(`/${type}`));
}

/** The first string `message` of the legacy `errors[]` entries. */
function firstMessage(entries: readonly unknown[]): string | undefined {
  for (const entry of entries) {
    const message = readStringWith(entry, readMessage);
    if (message !== undefined) return message;
  }
  return undefined;
}

/**
 * Reads an AIP-193 error body: `data.error` must be an object. `undefined` for anything else (an OAuth body, an HTML
 * page, no body).
 *
 * @example
 * ```ts
 * readGoogleApiError(responseDataOf(error))?.status; // 'PERMISSION_DENIED'
 * ```
 */
export function readGoogleApiError(data: unknown): GoogleApiErrorBody | undefined {
  const error = readWith(data, readError);
  if (!isObjectLike(error) || Array.isArray(error)) return undefined;
  let infoReasons: string[] | undefined;
  let retryDelaySeconds: number | undefined;
  for (const detail of entries(readWith(error, readDetails))) {
    if (typeIs(detail, 'google.rpc.ErrorInfo')) {
      const reason = identifier(readStringWith(detail, readReason));
      if (reason !== undefined) (infoReasons ??= []).push(reason);
    } else if (typeIs(detail, 'google.rpc.RetryInfo')) {
      retryDelaySeconds ??= durationSeconds(readProp(detail, 'retryDelay'));
    }
  }
  let legacyReasons: string[] | undefined;
  const legacy = entries(readWith(error, readErrors));
  for (const entry of legacy) {
    const reason = identifier(readStringWith(entry, readReason));
    if (reason !== undefined) (legacyReasons ??= []).push(reason);
  }
  const code = readWith(error, readCode);
  return {
    code: typeof code === 'number' && Number.isInteger(code) ? code : undefined,
    status: identifier(readStringWith(error, readStatus)),
    message: oneLine(readStringWith(error, readMessage)) ?? oneLine(firstMessage(legacy)),
    infoReasons: infoReasons ?? NONE,
    legacyReasons: legacyReasons ?? NONE,
    retryDelaySeconds,
  };
}

/**
 * Reads an OAuth 2.0 token error body: `data.error` must be a string (`invalid_grant`...). `undefined` otherwise.
 *
 * @example
 * ```ts
 * readOAuthError(responseDataOf(error)); // { error: 'invalid_grant', description: 'Token has been expired or revoked.', subtype: undefined }
 * ```
 */
export function readOAuthError(data: unknown): OAuthErrorBody | undefined {
  const error = identifier(readString(data, 'error'));
  if (error === undefined) return undefined;
  return {
    error,
    description: oneLine(readString(data, 'error_description'), 500),
    subtype: identifier(readString(data, 'error_subtype')),
  };
}

/** A body not read yet. */
const UNREAD: unique symbol = Symbol('unread');

/** The bodies read from one response data object. */
interface BodyMemo {
  readonly data: object;
  api: GoogleApiErrorBody | undefined | typeof UNREAD;
  oauth: OAuthErrorBody | undefined | typeof UNREAD;
}

/**
 * The bodies read from the last response data object seen. One classification asks up to eight Google rules about the
 * same error, and each wants the body: it is read once. One entry, compared by identity, replaced by the next error's
 * body (a WeakMap entry per failure cost more than reading the body).
 */
let lastBody: BodyMemo | undefined;

function bodyMemo(data: object): BodyMemo {
  if (lastBody?.data !== data) lastBody = { data, api: UNREAD, oauth: UNREAD };
  return lastBody;
}

/** The AIP-193 body of a gaxios or HTTP-client-like error's response, if it has one. */
export function apiErrorOf(error: unknown): GoogleApiErrorBody | undefined {
  const data = responseDataOf(error);
  if (!isObjectLike(data)) return undefined;
  const memo = bodyMemo(data);
  if (memo.api === UNREAD) memo.api = readGoogleApiError(data);
  return memo.api;
}

/** The OAuth token error body of a gaxios or HTTP-client-like error's response, if it has one. */
export function oauthErrorOf(error: unknown): OAuthErrorBody | undefined {
  const data = responseDataOf(error);
  if (!isObjectLike(data)) return undefined;
  const memo = bodyMemo(data);
  if (memo.oauth === UNREAD) memo.oauth = readOAuthError(data);
  return memo.oauth;
}

/** The first reason of `api` (ErrorInfo reasons, then legacy `errors[].reason`) that is in `reasons`, or `undefined`. */
export function reasonIn(api: GoogleApiErrorBody | undefined, reasons: ReadonlySet<string>): string | undefined {
  if (api === undefined) return undefined;
  for (const reason of api.infoReasons) if (reasons.has(reason)) return reason;
  for (const reason of api.legacyReasons) if (reasons.has(reason)) return reason;
  return undefined;
}

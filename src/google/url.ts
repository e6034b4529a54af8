/**
 * Request URLs without their credentials. googleapis sends API keys as `?key=`, and gaxios's own redactor only covers
 * `token` and `client_secret`: a URL is shown only after this has replaced every credential-looking query value.
 */
import { REDACTED, boundLength } from '../text.js';

/** Longest URL shown, in characters. */
export const MAX_URL_LENGTH = 300;

/** Query parameter names whose values are credentials (compared lower-case). */
const SECRET_PARAMS = [
  'key',
  'api_key',
  'api-key',
  'apikey',
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'client_secret',
  'assertion',
  'subject_token',
  'actor_token',
  'code',
  'code_verifier',
  'password',
  'passwd',
  'secret',
  'sig',
  'signature',
  'upload_id',
  'auth',
  'authorization',
  'jwt',
];

/**
 * Name shapes that are credentials wherever they occur (`pageToken` too: an opaque value, useless to the client), and
 * the exact names of {@link SECRET_PARAMS}: one test, without lower-casing the name.
 */
const SECRET_PARAM_NAME = new RegExp(
  `^(?:${SECRET_PARAMS.join('|')})$|token|secret|passw|signature|credential|api[_-]?key|session`,
  'i',
);

function isSecretParam(rawName: string): boolean {
  let name = rawName;
  if (rawName.includes('%') || rawName.includes('+')) {
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      // keep the raw name
    }
  }
  return SECRET_PARAM_NAME.test(name);
}

/** A canonical IPv4 octet (no leading zeros). */
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';

/**
 * The http(s) URLs Google clients build, in the subset where the WHATWG parser changes nothing but the case of scheme
 * and host, an empty path and the fragment: no user info, a dotted-quad IPv4 address or a domain whose last label
 * starts with a letter, an optional port, a path without dot segments (`.`, `..`, `%2e`) and without characters the
 * parser percent-encodes, a query of printable ASCII the parser keeps as it is. Anything else (and a default or
 * out-of-range port, or an `xn--` label, which the parser would decode) goes through `new URL`.
 */
const PLAIN_HTTP_URL = new RegExp(
  [
    '^https?://',
    `(?:${OCTET}(?:\\.${OCTET}){3}|(?:[a-z0-9-]+\\.)*[a-z][a-z0-9-]*)`,
    '(?::[1-9][0-9]{0,4})?',
    `(?:/(?!(?:\\.|%2e){1,2}(?:[/?#]|$))[!$&'()*+,;=:@a-z0-9._~%-]*)*`,
    '(?:\\?[!$-&(-;=?-[\\]-~]*)?',
    '(?:#\\S*)?$',
  ].join(''),
  'i',
);

/**
 * `?query` with the value of every credential parameter replaced (`name=[REDACTED]`), or `''` for an empty query.
 * The query is copied only when a parameter needs redacting.
 */
function redactQuery(query: string): string {
  if (query === '') return '';
  let out = '';
  let kept = 0;
  for (let start = 0; start <= query.length; ) {
    let end = query.indexOf('&', start);
    if (end === -1) end = query.length;
    const eq = query.indexOf('=', start);
    const nameEnd = eq === -1 || eq > end ? end : eq;
    if (isSecretParam(query.slice(start, nameEnd))) {
      out += `${query.slice(kept, nameEnd)}=${REDACTED}`;
      kept = end;
    }
    start = end + 1;
  }
  return kept === 0 ? `?${query}` : `?${out}${query.slice(kept)}`;
}

/** Index of the first `/`, `?` or `#` at or after `from`, or the length of `url`. */
function authorityEnd(url: string, from: number): number {
  for (let i = from; i < url.length; i += 1) {
    const c = url.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x23) return i;
  }
  return url.length;
}

/** True when the port of `origin` (its digits from `from` on) stays in the URL: in range and not the scheme's default. */
function isExplicitPort(origin: string, from: number): boolean {
  let port = 0;
  for (let i = from; i < origin.length; i += 1) port = port * 10 + origin.charCodeAt(i) - 0x30;
  return port <= 65535 && port !== (origin.charCodeAt(4) === 0x73 ? 443 : 80);
}

/**
 * {@link redactUrl} for a URL matching {@link PLAIN_HTTP_URL}, cut apart by hand as `new URL` would cut it, at a
 * fraction of the cost: scheme and host lower-cased, an empty path made `/`, the fragment dropped.
 */
function redactPlainUrl(url: string): string {
  const hostStart = url.indexOf('//') + 2;
  const pathStart = authorityEnd(url, hostStart);
  const origin = url.slice(0, pathStart).toLowerCase();
  const colon = origin.indexOf(':', hostStart);
  if ((colon !== -1 && !isExplicitPort(origin, colon + 1)) || origin.includes('xn--')) return redactParsedUrl(url);
  const hash = url.indexOf('#', pathStart);
  const end = hash === -1 ? url.length : hash;
  const question = url.indexOf('?', pathStart);
  const queryStart = question === -1 || question > end ? end : question;
  const path = queryStart === pathStart ? '/' : url.slice(pathStart, queryStart);
  const query = queryStart === end ? '' : redactQuery(url.slice(queryStart + 1, end));
  return boundLength(`${origin}${path}${query}`, MAX_URL_LENGTH);
}

/**
 * The URL with credentials removed: the values of credential query parameters (`key`, `access_token`, `token`,
 * `client_secret`, `refresh_token`, anything named like a token, secret or signature) become `[REDACTED]`, user info
 * (`user:password@`) and the fragment are dropped, and the result is bounded to {@link MAX_URL_LENGTH} characters.
 * Text that does not parse as a URL keeps only its part before `?`.
 *
 * @example
 * ```ts
 * redactUrl('https://sheets.googleapis.com/v4/spreadsheets/abc?key=AIzaSy...&fields=id');
 * // 'https://sheets.googleapis.com/v4/spreadsheets/abc?key=[REDACTED]&fields=id'
 * ```
 */
export function redactUrl(url: string): string {
  return PLAIN_HTTP_URL.test(url) ? redactPlainUrl(url) : redactParsedUrl(url);
}

/**
 * {@link redactUrl} through the WHATWG parser, for every URL: what the hand-cut path for plain http(s) URLs must
 * equal (a property test holds it to that).
 */
export function redactParsedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const cut = url.search(/[?#]/);
    const path = cut === -1 ? url : url.slice(0, cut);
    return boundLength(path.replace(/\s/g, '%20'), MAX_URL_LENGTH);
  }
  return redactUrlObject(parsed);
}

/**
 * {@link redactUrl} for a WHATWG `URL` (gaxios 7 and 8 keep the request URL as one): its parts are parsed already.
 * Throws only if the object's getters do (a hostile subclass).
 *
 * @example
 * ```ts
 * redactUrlObject(new URL('https://www.googleapis.com/drive/v3/files?key=AIza...&q=x')); // '...files?key=[REDACTED]&q=x'
 * ```
 */
export function redactUrlObject(url: URL): string {
  const { protocol } = url;
  const origin = protocol === 'http:' || protocol === 'https:' ? `${protocol}//${url.host}` : protocol;
  return boundLength(`${origin}${url.pathname}${redactQuery(url.search.slice(1))}`, MAX_URL_LENGTH);
}

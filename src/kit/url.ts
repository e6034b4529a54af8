/**
 * Request URLs without their credentials. HTTP clients keep the request URL on their errors, API keys and tokens in
 * the query included (googleapis sends API keys as `?key=`; gaxios's own redactor covers only `token` and
 * `client_secret`): a URL is shown only after this has replaced every credential-looking query value.
 */
import { REDACTED, boundLength } from '../text.js';

/** Longest URL shown, in characters. */
export const MAX_URL_LENGTH = 300;

/**
 * Query parameter names whose values are credentials: a few names matched whole (`key`, `code`, `sig`, `jwt`...), and
 * name shapes that are credentials wherever they occur (`access_token`, `client_secret`, `api_key`, `password`,
 * `signature`; `pageToken` too: an opaque value, useless to the client). Case-insensitive.
 */
const SECRET_PARAM_NAME =
  /^(?:key|assertion|code|code_verifier|sig|upload_id|auth|authorization|jwt)$|token|secret|passw|signature|credential|api[_-]?key|session/i;

/** True when a query parameter of this (raw, possibly percent-encoded) name holds a credential. */
function isSecretParam(rawName: string): boolean {
  let name = rawName;
  try {
    name = decodeURIComponent(rawName.replace(/\+/g, ' '));
  } catch {
    // not valid percent-encoding: test the raw name
  }
  return SECRET_PARAM_NAME.test(name);
}

/** `?query` (given without its `?`) with the value of every credential parameter replaced, or `''` for none. */
function redactQuery(query: string): string {
  if (query === '') return '';
  const params = query.split('&').map((param) => {
    const eq = param.indexOf('=');
    const name = eq === -1 ? param : param.slice(0, eq);
    return isSecretParam(name) ? `${name}=${REDACTED}` : param;
  });
  return `?${params.join('&')}`;
}

/** The path of `url` (`/v1/oauthtoken`), or `undefined` when it does not parse as a URL. */
export function urlPathOf(url: string): string | undefined {
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}

/**
 * The URL with credentials removed: the values of credential query parameters (`key`, `access_token`, `token`,
 * `client_secret`, `refresh_token`, anything named like a token, secret or signature) become `[REDACTED]`, user info
 * (`user:password@`) and the fragment are dropped, and the result is bounded to 300 characters.
 * Text that does not parse as a URL keeps only its part before `?` or `#`.
 *
 * @example
 * ```ts
 * redactUrl('https://sheets.googleapis.com/v4/spreadsheets/abc?key=AIzaSy...&fields=id');
 * // 'https://sheets.googleapis.com/v4/spreadsheets/abc?key=[REDACTED]&fields=id'
 * ```
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const cut = url.search(/[?#]/);
    const path = cut === -1 ? url : url.slice(0, cut);
    return boundLength(path.replace(/\s/g, '%20'), MAX_URL_LENGTH);
  }
  const { protocol } = parsed;
  const origin = protocol === 'http:' || protocol === 'https:' ? `${protocol}//${parsed.host}` : protocol;
  return boundLength(`${origin}${parsed.pathname}${redactQuery(parsed.search.slice(1))}`, MAX_URL_LENGTH);
}

/** Name suffixes of no public service: IANA's special-use names and those networks use inside (`.lan`, `.corp`). */
export const INTERNAL_SUFFIXES = 'localhost|local|internal|lan|corp|intranet|intra|localdomain|home\\.arpa|private';

const INTERNAL_SUFFIX = new RegExp(`\\.(?:${INTERNAL_SUFFIXES})$`);

/**
 * True for a host that names no public service: loopback (`127.0.0.0/8`, `::1`, `localhost` and its subdomains),
 * `0.0.0.0/8` and `::`, private addresses (`10/8`, `172.16/12`, `192.168/16`, `fc00::/7`), link-local (`169.254/16`,
 * `fe80::/10`), an IPv4-mapped IPv6 address, a single label (`billing`, `api`) or a name under an internal suffix
 * (`.local`, `.internal`, `.lan`, `.corp`, `.intranet`, `.localdomain`, `.home.arpa`, `.private`).
 * `host` is a URL's `hostname` (IPv6 in brackets, as the WHATWG URL parser writes it, IPv4 normalised to four numbers).
 * @example
 * ```ts
 * isInternalHost('10.0.0.7'); // true
 * isInternalHost('api.github.com'); // false
 * ```
 */
export function isInternalHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (/^\d+\.\d+\.\d+\.\d+$/.test(name)) return /^(?:127|10|0)\.|^192\.168\.|^169\.254\.|^172\.(?:1[6-9]|2\d|3[01])\./.test(name);
  if (name.startsWith('[')) return /^\[(?:::1?\]|::ffff:|f[cd][\da-f]{2}:|fe[89ab][\da-f]:)/.test(name);
  return !name.includes('.') || INTERNAL_SUFFIX.test(name);
}

/**
 * A URL as a client may see it: `url` (already through {@link redactUrl}) as it is when its host is public, else
 * without its scheme and host (`/items/42?api_key=[REDACTED]`), so that no internal host or port reaches a client. An
 * absolute http(s) URL that does not parse loses its host too; text that is no absolute http(s) URL stays as it is.
 * @example
 * ```ts
 * clientUrl('http://127.0.0.1:8080/items/42?api_key=[REDACTED]'); // '/items/42?api_key=[REDACTED]'
 * clientUrl('https://api.github.com/repos/o/r'); // 'https://api.github.com/repos/o/r'
 * ```
 */
export function clientUrl(url: string): string {
  const origin = /^https?:\/\/[^/?#]*/i.exec(url)?.[0];
  if (origin === undefined) return url;
  let host = '';
  try {
    host = new URL(url).hostname;
  } catch {
    // not a URL: its host cannot be judged, so it goes
  }
  return host !== '' && !isInternalHost(host) ? url : url.slice(origin.length) || '/';
}

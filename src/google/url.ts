/**
 * Request URLs without their credentials. googleapis sends API keys as `?key=`, and gaxios's own redactor only covers
 * `token` and `client_secret`: a URL is shown only after this has replaced every credential-looking query value.
 */
import { REDACTED, boundLength } from '../text.js';

/** Longest URL shown, in characters. */
export const MAX_URL_LENGTH = 300;

/** Query parameter names whose values are credentials (compared lower-case). */
const SECRET_PARAMS = new Set([
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
]);

/** Name shapes that are credentials wherever they occur (`pageToken` too: an opaque value, useless to the client). */
const SECRET_PARAM_SHAPE = /token|secret|passw|signature|credential|api[_-]?key|session/i;

function isSecretParam(rawName: string): boolean {
  let name = rawName;
  if (rawName.includes('%') || rawName.includes('+')) {
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      // keep the raw name
    }
  }
  return SECRET_PARAMS.has(name.toLowerCase()) || SECRET_PARAM_SHAPE.test(name);
}

/**
 * An http(s) URL of printable ASCII without backslashes, dot segments or percent signs in its authority: the URLs
 * Google clients build. Groups: scheme, authority, path, query (without `?`); the fragment is dropped. Anything else
 * goes through `new URL`.
 */
const PLAIN_HTTP_URL = /^(https?:)\/\/([A-Za-z0-9.:@_~!$&'()*+,;=-]*)((?:\/(?!\.\.?(?:[/?#]|$))[!$&'()*+,;=:@A-Za-z0-9._~%-]*)*)(?:\?([^#\s\\]*))?(?:#[^\s\\]*)?$/i;

function redactQuery(query: string): string {
  if (query === '') return '';
  const pairs = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    return isSecretParam(name) ? `${name}=${REDACTED}` : pair;
  });
  return `?${pairs.join('&')}`;
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
  const plain = PLAIN_HTTP_URL.exec(url);
  if (plain !== null) {
    // An http(s) URL of plain ASCII: cut it apart by hand, as `new URL` would, at a fraction of the cost.
    const authority = plain[2] ?? '';
    const path = plain[3] ?? '';
    const host = authority.slice(authority.lastIndexOf('@') + 1).toLowerCase();
    return boundLength(`${(plain[1] ?? '').toLowerCase()}//${host}${path === '' ? '/' : path}${redactQuery(plain[4] ?? '')}`, MAX_URL_LENGTH);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const cut = url.search(/[?#]/);
    const path = cut === -1 ? url : url.slice(0, cut);
    return boundLength(path.replace(/\s/g, '%20'), MAX_URL_LENGTH);
  }
  const origin = parsed.protocol === 'http:' || parsed.protocol === 'https:' ? `${parsed.protocol}//${parsed.host}` : parsed.protocol;
  return boundLength(`${origin}${parsed.pathname}${redactQuery(parsed.search.slice(1))}`, MAX_URL_LENGTH);
}

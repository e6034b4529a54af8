/**
 * axios 1.x: `AxiosError` (any copy: recognised by its own `isAxiosError: true` and its name, never `instanceof`).
 * An error with a response is an HTTP failure of whatever service axios called: the text names the method and URL
 * (`baseURL` joined as axios joins it, credentials redacted) and the message of a JSON error body. A 2xx answer that
 * axios failed to parse as JSON (`responseType: 'json'` with `transitional.silentJSONParsing: false`: an HTML page sent
 * with 200) says the answer was not JSON, as Stripe's does, and never shows the page (axios puts its head in `message`). Without a response,
 * network failures carry their system code on the AxiosError itself (the core `network` rule takes them); timeouts are
 * `ECONNABORTED` with axios's own words, which the core rule would call an aborted connection, so a rule here says so.
 * The request config (with the `Authorization` header) is never read beyond `method`, `url` and `baseURL`.
 */
import { isHttpStatus } from '../kit/http.js';
import { isObjectLike, readProp, readString } from '../kit/read.js';
import { redactUrl } from '../kit/url.js';
import type { ErrorRule } from '../rules/rule.js';
import { bodyText } from './body.js';
import { TIMEOUT_FACTS, failureRules, notJsonFailure, type HttpFailure } from './failure.js';
import { GENERIC_REQUEST_ID_HEADERS, requestIdOf } from './headers.js';

/**
 * True for an `AxiosError` of any axios 1.x copy: `isAxiosError === true`, an object `config`, and `name` `AxiosError`
 * (or `SyntaxError` with code `ERR_BAD_RESPONSE`: `AxiosError.from` keeps the name of the JSON parser's error).
 */
export function isAxiosError(error: unknown): boolean {
  const name = readString(error, 'name');
  return (
    readProp(error, 'isAxiosError') === true &&
    (name === 'AxiosError' || (name === 'SyntaxError' && readString(error, 'code') === 'ERR_BAD_RESPONSE')) &&
    isObjectLike(readProp(error, 'config'))
  );
}

/** The method of an axios request config, upper case, when it is a method name. */
export function methodOf(config: unknown): string | undefined {
  const method = readString(config, 'method')?.toUpperCase();
  return method !== undefined && /^[A-Z]{1,16}$/.test(method) ? method : undefined;
}

/** The request URL: `config.url`, after `config.baseURL` when it is relative (as axios combines them), redacted. */
function urlOf(config: unknown): string | undefined {
  const url = readString(config, 'url');
  const base = readString(config, 'baseURL');
  if (url === undefined) return base === undefined ? undefined : redactUrl(base);
  if (base === undefined || /^[a-z][a-z\d+.-]*:\/\//i.test(url)) return redactUrl(url);
  return redactUrl(url === '' ? base : `${base.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`);
}

/** The failure an AxiosError with a response describes, or `undefined`. */
export function axiosFailureOf(error: unknown): HttpFailure | undefined {
  if (!isAxiosError(error)) return undefined;
  const config = readProp(error, 'config');
  const response = readProp(error, 'response');
  const status = readProp(response, 'status');
  if (!isHttpStatus(status) || status < 200) return undefined;
  if (status < 300) {
    // a 2xx answer axios could not parse (`responseType: 'json'` without silent parsing): what it most likely was
    const notJson = readString(readProp(error, 'cause'), 'name') === 'SyntaxError';
    return notJson ? notJsonFailure('HTTP', { method: methodOf(config), url: urlOf(config) }) : undefined;
  }
  const headers = readProp(response, 'headers');
  const { message, code } = bodyText(readProp(response, 'data'));
  return {
    service: 'HTTP',
    status,
    code,
    message,
    method: methodOf(config),
    url: urlOf(config),
    requestId: requestIdOf(headers, GENERIC_REQUEST_ID_HEADERS),
    headers,
  };
}

/** An AxiosError that timed out: `ETIMEDOUT`, or `ECONNABORTED` with axios's `timeout of <N>ms exceeded`. */
function isAxiosTimeout(error: unknown): boolean {
  if (!isAxiosError(error) || isObjectLike(readProp(error, 'response'))) return false;
  const code = readString(error, 'code');
  return code === 'ETIMEDOUT' || (code === 'ECONNABORTED' && /^timeout(?: of \d+ms)? exceeded$/.test(readString(error, 'message') ?? ''));
}

/** axios timeouts (`timeout` option): `The HTTP request timed out.`, status 504. */
export const axiosTimeoutRule: ErrorRule = Object.freeze({
  name: 'axios-timeout',
  predicate: isAxiosTimeout,
  message: 'The HTTP request timed out.',
  status: 504,
  level: 'warn',
  failure: TIMEOUT_FACTS,
  request: (error: unknown) => {
    const config = readProp(error, 'config');
    const url = urlOf(config);
    return url === undefined ? undefined : { method: methodOf(config), url };
  },
});

/** `axios-unauthorized`, `axios-http-error`. */
export const [axiosUnauthorizedRule, axiosHttpErrorRule] = failureRules('axios', 'HTTP', axiosFailureOf);

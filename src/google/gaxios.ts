/**
 * gaxios errors (gaxios 6, 7 and 8, whichever copy threw them) and the HTTP-client-like errors google-auth-library
 * re-wraps. Nothing here imports gaxios: `instanceof GaxiosError` fails across versions and copies, so errors are
 * recognised by the registered symbol gaxios stamps on them; their fields are read with the kit's HTTP readers.
 */
import { isHttpClientError } from '../kit/http.js';
import { readProp } from '../kit/read.js';
import type { ErrorRule } from '../rules/rule.js';

/** The registered symbol every gaxios copy (6, 7, 8) sets on its errors (a class field); its value is the version. */
const GAXIOS_ERROR_SYMBOL: symbol = Symbol.for('gaxios-gaxios-error');

/**
 * True for an error thrown by any copy of gaxios 6, 7 or 8 (and so by google-auth-library and googleapis): it carries
 * the registered symbol `Symbol.for('gaxios-gaxios-error')` with a string value (the gaxios version). Its `name` is
 * always `"Error"` and `instanceof` fails across versions, so neither is used. Never throws.
 *
 * @example
 * ```ts
 * try {
 *   await drive.files.get({ fileId });
 * } catch (error) {
 *   if (isGaxiosError(error)) console.error('the Google API request failed'); // any gaxios copy, any version
 * }
 * ```
 */
export function isGaxiosError(error: unknown): boolean {
  return typeof readProp(error, GAXIOS_ERROR_SYMBOL) === 'string';
}

/** True for a gaxios error or an HTTP-client-like error (google-auth-library's STS re-wraps). */
export function isGoogleHttpError(error: unknown): boolean {
  return isGaxiosError(error) || isHttpClientError(error);
}

/**
 * A Google rule, frozen: logged at warn (with the stack) unless it gives its own `level` (the API errors a caller
 * caused are logged at info, see api-error.ts).
 */
export function googleRule(rule: ErrorRule): ErrorRule {
  return Object.freeze({ level: 'warn' as const, ...rule });
}

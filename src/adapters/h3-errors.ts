/**
 * h3's deliberate errors, for the Nitro adapter (./nitro.ts): what a Nuxt or Nitro server throws to answer its caller
 * with a status and a text, `createError({ statusCode: 404, message: 'No sheet named q3' })` (h3 1.x, the one Nitro 2
 * and Nuxt 4 serve with) or `new HTTPError({ status: 404, message })` (h3 2.x). Read structurally: h3 is not imported.
 *
 * A 4xx one is deliberate: its text is shown (through the exit gate, as a `ToolError`'s), logged once at info, its
 * status reported to the access log, a 404 answered to a resource read as resource-not-found (-32002). A 5xx one is
 * judged as any error (a crash, unless a rule of the policy shows it). The rules go in front of the policy's own, on
 * the handlers the adapter wraps only, unless the policy masks deliberate errors.
 */
import { httpFailureFacts, isHttpStatus } from '../kit/http.js';
import { hasKey, isObjectLike, messageOf, readProp, readString } from '../kit/read.js';
import { withRulesInFront, type ErrorPolicy } from '../policy.js';
import type { ErrorRule, FailureFacts } from '../rules/rule.js';
import { RESOURCE_NOT_FOUND_CODE } from '../status.js';

/** An h3 1.x `H3Error`: its class carries h3's static brand `__h3_error__`, which h3's own `isError` reads. */
function isH3Error(error: unknown): boolean {
  return readProp(readProp(error, 'constructor'), '__h3_error__') === true;
}

/**
 * An h3 2.x `HTTPError`: named `HTTPError`, with a numeric `status` and the fields its class declares (present even
 * when undefined), which the `HTTPError`s of HTTP clients (ky, got) do not have.
 */
function isHttpError(error: unknown): boolean {
  return readProp(error, 'name') === 'HTTPError' && ['status', 'statusText', 'body', 'unhandled'].every((key) => hasKey(error, key));
}

/**
 * The description an h3 error was made from (`{ statusCode, message }`), which h3 keeps as the error's `cause`: a plain
 * object, not an error. Accepted too, so that the exit gate does not take the error's text, which is the
 * description's, for a cause's.
 */
function isDescription(value: unknown): boolean {
  if (!isObjectLike(value) || typeof value === 'function') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return (prototype === Object.prototype || prototype === null) && (typeof readProp(value, 'message') === 'string' || typeof readProp(value, 'statusMessage') === 'string');
}

/** The 4xx status of an h3 error (or of its description), or `undefined` for anything else. */
function clientStatusOf(error: unknown): number | undefined {
  if (!isH3Error(error) && !isHttpError(error) && !isDescription(error)) return undefined;
  const status = readProp(error, 'statusCode') ?? readProp(error, 'status');
  return isHttpStatus(status) && status >= 400 && status <= 499 ? status : undefined;
}

/** The client text: the error's message, else its status message, else its status. */
function h3Message(error: unknown): string {
  const message = messageOf(error);
  if (message !== '') return message;
  return readString(error, 'statusMessage') ?? readString(error, 'statusText') ?? `HTTP ${String(clientStatusOf(error))}`;
}

/** The failure object's facts from the status (`not_found`, `invalid_request`, `rate_limited`...), as HTTP failures get them. */
function h3Facts(error: unknown): FailureFacts {
  return httpFailureFacts({ status: clientStatusOf(error), headers: readProp(error, 'headers') });
}

/** A 404: its text, status 404, resource-not-found (-32002) for a resource read, logged at info on one line. */
const h3NotFoundRule: ErrorRule = Object.freeze({
  name: 'h3-not-found',
  predicate: (error: unknown) => clientStatusOf(error) === 404,
  message: h3Message,
  status: 404,
  level: 'info',
  code: RESOURCE_NOT_FOUND_CODE,
  failure: h3Facts,
});

/** Any other 4xx: its text, its status, logged at info on one line. */
const h3ClientErrorRule: ErrorRule = Object.freeze({
  name: 'h3-client-error',
  predicate: (error: unknown) => clientStatusOf(error) !== undefined,
  message: h3Message,
  status: (error: unknown) => clientStatusOf(error) ?? 400,
  level: 'info',
  failure: h3Facts,
});

/**
 * `policy` with the h3 rules in front of the rules it applies (every other field read from `policy`); `policy` itself
 * when it masks deliberate errors.
 */
export function withH3Rules(policy: ErrorPolicy): ErrorPolicy {
  return policy.maskDeliberateErrors ? policy : withRulesInFront(policy, [h3NotFoundRule, h3ClientErrorRule]);
}

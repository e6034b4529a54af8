/**
 * Report mode's answer: the thrown value itself, handed back to the SDK, which answers it as it does without the
 * policy (a tool's isError result with the message, a JSON-RPC error with the value's own `code`, `message` and
 * `data`). So nothing a client sees changes, but for one thing: where a secret pattern (or the policy's `redact`)
 * matches the message, the SDK gets a stand-in whose `message` is scrubbed. The stand-in inherits from the thrown value
 * (`instanceof`, `name`, `code` and `data` stay), and the thrown value itself is never changed.
 *
 * A value the SDK cannot answer safely gets no such answer (`undefined` here; the wrapper then answers as under
 * `'enforce'`): `null` and `undefined` (the SDK's JSON-RPC path reads `error.code` of them and sends no answer at all), and
 * an object whose `message`, `code` or `data` cannot be read, whose message is not text, whose `data` cannot be sent
 * as JSON, or that neither is an `Error` nor converts to a string.
 */
import type { ErrorPolicy } from '../policy.js';
import { isObjectLike } from '../kit/read.js';
import { scrubSecrets } from '../scrub.js';
import { REDACTED } from '../text.js';

/** The message as the SDK would send it, scrubbed of secrets and redacted (never bounded: that would change it). */
function scrubbed(message: string, policy: ErrorPolicy): string {
  const out = scrubSecrets(message);
  if (policy.redact === undefined) return out;
  try {
    const redacted = policy.redact(out);
    return typeof redacted === 'string' ? redacted : REDACTED;
  } catch {
    return REDACTED;
  }
}

/**
 * What to hand back to the SDK in report mode for `error` (see the module comment), or `undefined` when the SDK could
 * not answer it safely.
 */
export function transparentAnswer(error: unknown, policy: ErrorPolicy): { readonly thrown: unknown } | undefined {
  if (error === null || error === undefined) return undefined;
  if (typeof error === 'string') return { thrown: scrubbed(error, policy) };
  if (!isObjectLike(error)) return { thrown: error };
  try {
    const { message, data } = error as { message?: unknown; code?: unknown; data?: unknown };
    void (error as { code?: unknown }).code;
    if (message !== undefined && typeof message !== 'string') return undefined;
    if (!(error instanceof Error)) String(error);
    if (data !== undefined) JSON.stringify(data);
    if (message === undefined) return { thrown: error };
    const text = scrubbed(message, policy);
    return { thrown: text === message ? error : standIn(error, { message: text }) };
  } catch {
    return undefined;
  }
}

/**
 * A stand-in for a thrown error that the SDK answers in its place: it inherits from `error` (`instanceof`, `name` and
 * `code` stay) with `fields` as its own properties. The thrown value itself is never changed.
 */
export function standIn(error: object, fields: Readonly<Record<string, unknown>>): object {
  const out = Object.create(error) as object;
  for (const [key, value] of Object.entries(fields)) Object.defineProperty(out, key, { value, configurable: true, writable: true });
  return out;
}

/**
 * What to hand a framework that logs the error it answers (tmcp `console.warn`s it): a stand-in whose only own
 * properties are its stack and message, scrubbed as a log record's are, so that printing it shows neither a secret of
 * the message nor the thrown value's own fields (an HTTP client's error carries the request's URL and headers). It
 * inherits the rest (`instanceof`, `code`, `data`), so the framework answers it as it answers the thrown value. A value
 * that is not an object is handed on as it is.
 */
export function loggableStandIn(error: unknown, policy: ErrorPolicy): unknown {
  if (!isObjectLike(error)) return error;
  try {
    const { stack, message } = error as { stack?: unknown; message?: unknown };
    return standIn(error, {
      stack: typeof stack === 'string' ? scrubbed(stack, policy) : undefined,
      ...(typeof message === 'string' ? { message: scrubbed(message, policy) } : {}),
    });
  } catch {
    return error;
  }
}

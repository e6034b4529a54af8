/**
 * The message and code of a JSON error body of unknown origin (axios and ky talk to any service), from the fields
 * services commonly write: `{ message }`, `{ error: { message, code, type } }`, `{ error: 'code', error_description }`,
 * RFC 9457 problem details `{ title, detail }`, `{ errors: [{ message }] }`. A body that is not a JSON object (an HTML
 * page, plain text) gives nothing: it is never shown.
 */
import { isObjectLike, readProp } from '../kit/read.js';
import { serviceCode, serviceMessage } from './failure.js';

/** What a JSON error body says. */
export interface BodyText {
  readonly message: string | undefined;
  readonly code: string | undefined;
}

/** Longest body, in characters, parsed when it arrives as a string. */
const MAX_JSON_BODY = 256 * 1024;

/** `data` as a JSON object: the object itself, or a string of at most 256 KiB that parses to one; else `undefined`. */
export function jsonObject(data: unknown): object | undefined {
  if (typeof data === 'string') {
    if (data.length > MAX_JSON_BODY || !data.trimStart().startsWith('{')) return undefined;
    try {
      const parsed: unknown = JSON.parse(data);
      return isObjectLike(parsed) && !Array.isArray(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  if (!isObjectLike(data) || typeof data === 'function') return undefined;
  try {
    return Array.isArray(data) ? undefined : data;
  } catch {
    return undefined;
  }
}

/** The first member of `value` when it is a non-empty array. */
function first(value: unknown): unknown {
  try {
    return Array.isArray(value) && value.length > 0 ? (value[0] as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/** The message and code of a JSON error body (see the module comment). */
export function bodyText(data: unknown): BodyText {
  const body = jsonObject(data);
  if (body === undefined) return { message: undefined, code: undefined };
  const error = readProp(body, 'error');
  const nested = isObjectLike(error) ? error : undefined;
  const message =
    serviceMessage(readProp(nested, 'message')) ??
    serviceMessage(readProp(body, 'message')) ??
    serviceMessage(readProp(body, 'error_description')) ??
    serviceMessage(readProp(body, 'detail')) ??
    serviceMessage(readProp(body, 'title')) ??
    serviceMessage(readProp(first(readProp(body, 'errors')), 'message'));
  const code =
    serviceCode(readProp(nested, 'code')) ??
    serviceCode(readProp(nested, 'type')) ??
    serviceCode(error) ??
    serviceCode(readProp(body, 'code'));
  return { message, code };
}

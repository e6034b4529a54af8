/**
 * Reading thrown values without trusting them. A thrown value can be anything: a primitive, a revoked Proxy, an object
 * whose getters throw. Every read here returns `undefined` (or a fixed fallback) instead of throwing.
 */

/** True for objects and functions (anything that can carry properties). */
export function isObjectLike(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

/** True for objects and functions that are not arrays (an options object, a registry). */
export function isRecord(value: unknown): value is object {
  return isObjectLike(value) && !Array.isArray(value);
}

/** Reads `value[key]`, or `undefined` when `value` is not an object or the read throws. */
export function readProp(value: unknown, key: PropertyKey): unknown {
  if (!isObjectLike(value)) return undefined;
  try {
    return (value as Record<PropertyKey, unknown>)[key];
  } catch {
    return undefined;
  }
}

/**
 * An option or rule field that is a value or a function of `input` (the error, or a text): the value, or what the
 * function returns for `input` (`undefined` when it throws).
 */
export function valueFor<T, I = unknown>(field: T | ((input: I) => T), input: I): T | undefined {
  if (typeof field !== 'function') return field;
  try {
    return (field as (input: I) => T)(input);
  } catch {
    return undefined;
  }
}

/** Reads a string property, or `undefined`. */
export function readString(value: unknown, key: PropertyKey): string | undefined {
  const prop = readProp(value, key);
  return typeof prop === 'string' ? prop : undefined;
}

/** Reads a finite number property, or `undefined`. */
export function readNumber(value: unknown, key: PropertyKey): number | undefined {
  const prop = readProp(value, key);
  return typeof prop === 'number' && Number.isFinite(prop) ? prop : undefined;
}

/** True when `key` is in `value` (own or inherited), without running getters. */
export function hasKey(value: unknown, key: PropertyKey): boolean {
  if (!isObjectLike(value)) return false;
  try {
    return key in value;
  } catch {
    return false;
  }
}

/** The error's `name`, or a description of what was thrown when it has none (`string`, `undefined`, `Symbol`...). */
export function describeThrown(value: unknown): string {
  if (value === null) return 'null';
  if (!isObjectLike(value)) return typeof value;
  const name = readString(value, 'name');
  if (name !== undefined && name !== '') return name;
  const ctor = readString(readProp(value, 'constructor'), 'name');
  return ctor !== undefined && ctor !== '' ? ctor : 'object';
}

/** The error's text: its `message` when it is a string, the value itself for strings, and a safe rendering otherwise. */
export function messageOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (typeof value === 'symbol') {
    try {
      return value.toString();
    } catch {
      return 'Symbol()';
    }
  }
  if (value === undefined || value === null) return String(value);
  return readString(value, 'message') ?? '';
}

/** The error's stack when it is a string. */
export function stackOf(value: unknown): string | undefined {
  return readString(value, 'stack');
}

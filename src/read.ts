/**
 * Reading thrown values without trusting them. A thrown value can be anything: a primitive, a revoked Proxy, an object
 * whose getters throw. Every read here returns `undefined` instead of throwing.
 */

/** True for objects and functions (anything that can carry properties). */
export function isObjectLike(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
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
 * `read(value)` for an object `value`, or `undefined` when it is not one or the read throws. Give each key a reader
 * function of its own (`const readCause = (e: { cause?: unknown }) => e.cause`): the property read then stays
 * monomorphic where {@link readProp}, shared by every key, is megamorphic. For the reads made on every classification.
 */
export function readWith<T extends object>(value: unknown, read: (value: T) => unknown): unknown {
  if (!isObjectLike(value)) return undefined;
  try {
    return read(value as T);
  } catch {
    return undefined;
  }
}

/** `read(value)` when it is a string ({@link readWith}), or `undefined`. */
export function readStringWith<T extends object>(value: unknown, read: (value: T) => unknown): string | undefined {
  const prop = readWith(value, read);
  return typeof prop === 'string' ? prop : undefined;
}

// Readers of the keys every rule reads on every error of a cause chain, each a site of its own (see readWith).
export const readName = (value: { readonly name?: unknown }): unknown => value.name;
export const readMessage = (value: { readonly message?: unknown }): unknown => value.message;
export const readCode = (value: { readonly code?: unknown }): unknown => value.code;
export const readErrno = (value: { readonly errno?: unknown }): unknown => value.errno;
export const readType = (value: { readonly type?: unknown }): unknown => value.type;

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
  const name = readStringWith(value, readName);
  if (name !== undefined && name !== '') return name;
  try {
    const ctor = (value as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof ctor === 'string' && ctor !== '') return ctor;
  } catch {
    // fall through
  }
  return 'object';
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
  return readStringWith(value, readMessage) ?? '';
}

/** The error's stack when it is a string. */
export function stackOf(value: unknown): string | undefined {
  return readString(value, 'stack');
}

const readCause = (error: { readonly cause?: unknown }): unknown => error.cause;
const readWrapped = (error: { readonly error?: unknown }): unknown => error.error;
const readErrors = (error: { readonly errors?: unknown }): unknown => error.errors;

/**
 * The errors directly wrapped by `value`: its `cause` (ES2022), its `error` (gaxios), and the members of its `errors`
 * array (AggregateError), as far as they can be read. Plain objects count: gaxios 7 puts a plain object in `cause`.
 * Each key has a reader of its own ({@link readWith}): the cause walk reads them on every error of a chain.
 */
export function linkedErrors(value: unknown, maxMembers: number): unknown[] {
  if (!isObjectLike(value)) return [];
  const out: unknown[] = [];
  const cause = readWith(value, readCause);
  if (isObjectLike(cause)) out.push(cause);
  const wrapped = readWith(value, readWrapped);
  if (isObjectLike(wrapped)) out.push(wrapped);
  const errors = readWith(value, readErrors);
  try {
    if (Array.isArray(errors)) {
      const n = Math.min(errors.length, maxMembers);
      for (let i = 0; i < n; i += 1) {
        const member: unknown = errors[i];
        if (isObjectLike(member)) out.push(member);
      }
    }
  } catch {
    // a hostile array (or a revoked Proxy, on which even Array.isArray throws): stop here
  }
  return out;
}

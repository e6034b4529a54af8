/**
 * Deliberate, client-visible errors. Throw one of these to say "I anticipated this; show the caller this text".
 *
 * They are recognised by a registered-symbol brand, not only by `instanceof`, so that two copies of this package (or
 * two realms) still agree on what is deliberate.
 */
import { readProp } from './kit/read.js';
import { CODE_PATTERN } from './failure.js';
import type { FailureFacts } from './rules/rule.js';

/** The brand's key: a registered symbol, so every copy of the package sees the same key. */
const BRAND = Symbol.for('mcp-error-policy.deliberate');

/** What a brand says. */
type DeliberateKind = 'ToolError' | 'ResourceError' | 'ResourceNotFoundError';

/** Options of the deliberate error constructors. */
export interface DeliberateErrorOptions {
  /**
   * The error that led to this one. It is logged (as a `caused by:` line) but never shown to the client.
   * @default none
   * @example
   * ```ts
   * throw new ToolError('Could not open the sheet', { cause: error });
   * ```
   */
  readonly cause?: unknown;
  /**
   * A stable, machine-readable code for the failure object (letters, digits, `_`, `.`, `:`, `-`; at most 64).
   * @default `tool_error`, `resource_error` or `resource_not_found`
   * @example
   * ```ts
   * throw new ToolError('Sheet name must not be empty', { code: 'invalid_input' });
   * ```
   */
  readonly code?: string;
  /**
   * Whether the same call may succeed when made again unchanged.
   * @default true when `retryAfterMs` is given, else false
   * @example
   * ```ts
   * throw new ToolError('The sheet is being recalculated', { retryable: true });
   * ```
   */
  readonly retryable?: boolean;
  /**
   * How long to wait before retrying, in milliseconds: in the failure object, and as `Retry after <n> s.` at the end
   * of the client text. Not with `retryable: false` (a `TypeError`).
   * @default none
   * @example
   * ```ts
   * throw new ToolError('The sheet is being recalculated', { retryAfterMs: 30_000 });
   * ```
   */
  readonly retryAfterMs?: number;
}

/** The failure facts a deliberate error was made with (the constructor checked them). */
const FACTS = Symbol.for('mcp-error-policy.deliberate-facts');

/** What a deliberate error tells an agent: the options `code`, `retryable` and `retryAfterMs` it was made with. */
export function deliberateFacts(error: unknown): FailureFacts | undefined {
  return readProp(error, FACTS) as FailureFacts | undefined;
}

function badOption(option: string, expected: string): never {
  throw new TypeError(`Expected \`${option}\` to be ${expected}`);
}

/** Checks the failure options and keeps them on the error (not enumerable, so loggers that dump errors skip them). */
function keepFacts(error: Error, options: DeliberateErrorOptions | undefined): void {
  if (options === undefined || options === null) return;
  const { code, retryable, retryAfterMs } = options;
  if (code !== undefined && (typeof code !== 'string' || !CODE_PATTERN.test(code))) {
    badOption('code', 'a string of 1 to 64 letters, digits, `_`, `.`, `:` or `-`');
  }
  if (retryable !== undefined && typeof retryable !== 'boolean') badOption('retryable', 'a boolean');
  if (retryAfterMs !== undefined && (typeof retryAfterMs !== 'number' || !Number.isFinite(retryAfterMs) || retryAfterMs < 0)) {
    badOption('retryAfterMs', 'a finite number of milliseconds from 0 up');
  }
  if (retryable === false && retryAfterMs !== undefined) badOption('retryAfterMs', 'left out when `retryable` is false (a delay says when to retry)');
  if (code === undefined && retryable === undefined && retryAfterMs === undefined) return;
  Object.defineProperty(error, FACTS, { value: Object.freeze({ code, retryable, retryAfterMs }), enumerable: false, configurable: true });
}

/** Names a deliberate error and brands it as `kind`; keeps its failure options, if given. */
function stamp(error: Error, kind: DeliberateKind, options?: DeliberateErrorOptions): void {
  error.name = kind;
  Object.defineProperty(error, BRAND, { value: kind, enumerable: false, writable: false, configurable: true });
  keepFacts(error, options);
}

function brandOf(value: unknown): unknown {
  return readProp(value, BRAND);
}

/**
 * A failure the tool anticipated. The client sees `Error executing tool <name>: <message>`; the server logs one line at
 * info, without a stack.
 *
 * @example
 * ```ts
 * if (sheetName === '') throw new ToolError('Sheet name must not be empty');
 * ```
 */
export class ToolError extends Error {
  constructor(message: string, options?: DeliberateErrorOptions) {
    super(message, options);
    stamp(this, 'ToolError', options);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return this === ToolError ? isToolError(value) : Function.prototype[Symbol.hasInstance].call(this, value);
  }
}

/**
 * A failure a resource or prompt handler anticipated. The client gets a JSON-RPC error (-32603) with this text; the
 * server logs one line at info.
 *
 * @example
 * ```ts
 * throw new ResourceError('The sheet is being recalculated, try again shortly');
 * ```
 */
export class ResourceError extends Error {
  constructor(message: string, options?: DeliberateErrorOptions) {
    super(message, options);
    stamp(this, 'ResourceError', options);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this === ResourceError) return isResourceError(value);
    if (this === ResourceNotFoundError) return isResourceNotFoundError(value);
    return Function.prototype[Symbol.hasInstance].call(this, value);
  }
}

/**
 * The requested resource does not exist. The client gets JSON-RPC error -32002 (resource not found) with this text.
 *
 * @example
 * ```ts
 * throw new ResourceNotFoundError(`No sheet named ${name}`);
 * ```
 */
export class ResourceNotFoundError extends ResourceError {
  constructor(message: string, options?: DeliberateErrorOptions) {
    super(message, options);
    stamp(this, 'ResourceNotFoundError');
  }
}

/**
 * True for a {@link ToolError} from any copy of this package (by its registered-symbol brand).
 * @example
 * ```ts
 * if (isToolError(error)) metrics.increment('tool.deliberate');
 * ```
 */
function isToolError(value: unknown): value is ToolError {
  return brandOf(value) === 'ToolError';
}

/**
 * True for a {@link ResourceError} (including {@link ResourceNotFoundError}) from any copy of this package.
 * @example
 * ```ts
 * isResourceError(new ResourceNotFoundError('No sheet named x')); // true
 * ```
 */
export function isResourceError(value: unknown): value is ResourceError {
  const brand = brandOf(value);
  return brand === 'ResourceError' || brand === 'ResourceNotFoundError';
}

/**
 * True for a {@link ResourceNotFoundError} from any copy of this package.
 * @example
 * ```ts
 * isResourceNotFoundError(new ResourceError('busy')); // false
 * ```
 */
export function isResourceNotFoundError(value: unknown): value is ResourceNotFoundError {
  return brandOf(value) === 'ResourceNotFoundError';
}

/**
 * True for any deliberate error of this package: {@link ToolError}, {@link ResourceError}, {@link ResourceNotFoundError}.
 * @example
 * ```ts
 * const rule: ErrorRule = { name: 'mine', predicate: (e) => isDeliberateError(e) && e.message.startsWith('Sheet') };
 * ```
 */
export function isDeliberateError(value: unknown): value is ToolError | ResourceError {
  const brand = brandOf(value);
  return brand === 'ToolError' || brand === 'ResourceError' || brand === 'ResourceNotFoundError';
}

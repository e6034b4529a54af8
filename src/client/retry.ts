/**
 * retryToolCall: runs a tool call again only when that is safe, after the failure object: the failure is retryable,
 * and running the tool twice repeats no effect (read-only or idempotent by its annotations, the request never reached
 * the service, or the caller says so), within a budget of attempts and time.
 */
import { readFailure, type Failure, type SignIn } from './read.js';

/** The annotations of a tool, as tools/list gives them: the hints that say whether running it again is safe. */
export interface ToolHints {
  /** The tool changes nothing. */
  readonly readOnlyHint?: boolean | undefined;
  /** Running the tool again with the same arguments has no further effect. */
  readonly idempotentHint?: boolean | undefined;
}

/** How {@link retryToolCall} retries. */
export interface RetryOptions {
  /**
   * The tool as tools/list describes it: its `annotations` (`readOnlyHint`, `idempotentHint`) say whether a retryable
   * failure may be retried. Without it, only a failure whose request never reached the service (or `idempotent`) is.
   * @default undefined
   * @example
   * ```ts
   * const { tools } = await client.listTools();
   * await retryToolCall(() => client.callTool({ name: 'search' }), { tool: tools.find((t) => t.name === 'search') });
   * ```
   */
  readonly tool?: { readonly annotations?: ToolHints | undefined } | undefined;
  /**
   * The caller's word that this tool may run again, whatever its annotations say.
   * @default false
   * @example
   * ```ts
   * await retryToolCall(() => client.callTool({ name: 'upsert_row', arguments: row }), { idempotent: true });
   * ```
   */
  readonly idempotent?: boolean;
  /**
   * Attempts in all, the first included.
   * @default 3
   * @example
   * ```ts
   * await retryToolCall(call, { maxAttempts: 5 });
   * ```
   */
  readonly maxAttempts?: number;
  /**
   * The longest single wait in milliseconds: a longer `retryAfterMs` is cut to it, and so is the backoff.
   * @default 30000
   * @example
   * ```ts
   * await retryToolCall(call, { maxDelayMs: 5_000 });
   * ```
   */
  readonly maxDelayMs?: number;
  /**
   * The total time in milliseconds, from the first attempt: no retry starts whose wait would end after it.
   * @default 60000
   * @example
   * ```ts
   * await retryToolCall(call, { maxElapsedMs: 10_000 });
   * ```
   */
  readonly maxElapsedMs?: number;
  /**
   * The first backoff in milliseconds when the failure gives no delay; it doubles with each retry, and the wait is a
   * random fraction of it (full jitter).
   * @default 500
   * @example
   * ```ts
   * await retryToolCall(call, { baseDelayMs: 200 });
   * ```
   */
  readonly baseDelayMs?: number;
  /**
   * Ends the waiting: `retryToolCall` rejects with its reason. Each call gets it (or, without it, a signal that never
   * aborts), to pass on to the SDK's request options.
   * @default undefined
   * @example
   * ```ts
   * await retryToolCall((signal) => client.callTool({ name: 'search' }, undefined, { signal }), { signal: AbortSignal.timeout(20_000) });
   * ```
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Waits `ms` milliseconds (rejecting when `signal` aborts). For tests and schedulers.
   * @default a timer
   * @example
   * ```ts
   * const waits: number[] = [];
   * await retryToolCall(call, { sleep: async (ms) => void waits.push(ms) });
   * ```
   */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * The clock in milliseconds that the total time is measured on.
   * @default Date.now
   * @example
   * ```ts
   * await retryToolCall(call, { now: () => performance.now() });
   * ```
   */
  readonly now?: () => number;
  /**
   * A number in [0, 1) for the jitter.
   * @default Math.random
   * @example
   * ```ts
   * await retryToolCall(call, { random: () => 0.5 });
   * ```
   */
  readonly random?: () => number;
}

/** What {@link retryToolCall} ends with: the last attempt's answer, and what it took. */
export interface RetryOutcome<R> {
  /** The last attempt's result (a success, or an isError result), when it resolved. */
  readonly result?: R;
  /** What the last attempt threw (a JSON-RPC error, -32042, a transport failure), when it threw. */
  readonly error?: unknown;
  /** The last answer's failure object, when it has one. */
  readonly failure?: Failure;
  /** The sign-in the server asks for: its URL and elicitation id. Never retried: the caller decides what to show. */
  readonly signIn?: SignIn;
  /** How many times the call ran. */
  readonly attempts: number;
  /** The waits before each retry, in milliseconds, in order. */
  readonly delays: readonly number[];
}

const DEFAULTS = { maxAttempts: 3, maxDelayMs: 30_000, maxElapsedMs: 60_000, baseDelayMs: 500 } as const;

function checked(options: RetryOptions, name: keyof typeof DEFAULTS): number {
  const value = options[name] ?? DEFAULTS[name];
  const least = name === 'maxAttempts' ? 1 : 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < least) {
    throw new TypeError(`Expected \`${name}\` to be an integer of at least ${least}, got ${String(value)}`);
  }
  return value;
}

function timer(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      clearTimeout(id);
      reject(signal.reason);
    };
    const id = setTimeout(() => {
      signal.removeEventListener('abort', done);
      resolve();
    }, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Whether running the tool again repeats no effect: the request never got there, or the tool or the caller says so. */
function safeToRepeat(failure: Failure, options: RetryOptions): boolean {
  const hints = options.tool?.annotations;
  return failure.upstream === 'unreached' || options.idempotent === true || hints?.readOnlyHint === true || hints?.idempotentHint === true;
}

/**
 * Calls `call` and runs it again while that is safe: the answer's failure object (read by `readFailure`) is retryable,
 * is no sign-in, and the tool is read-only or idempotent by its annotations (`tool`), the request never reached the
 * service (`upstream: 'unreached'`), or the caller opted in (`idempotent`). It waits the failure's `retryAfterMs`
 * (at most `maxDelayMs`), else a jittered exponential backoff; it stops after `maxAttempts` or when a wait would end past
 * `maxElapsedMs`. A crash, a caller error, a failure without a failure object and anything an SDK throws for its own
 * reasons is never retried. Resolves with the last answer; rejects only when `signal` aborts (with its reason), or with
 * a `TypeError` naming a bad option.
 *
 * @example
 * ```ts
 * const { tools } = await client.listTools();
 * const { result, failure, signIn } = await retryToolCall(
 *   (signal) => client.callTool({ name: 'search', arguments: { q: 'mcp' } }, undefined, { signal }),
 *   { tool: tools.find((tool) => tool.name === 'search') },
 * );
 * ```
 */
export async function retryToolCall<R>(call: (signal: AbortSignal) => Promise<R>, options: RetryOptions = {}): Promise<RetryOutcome<R>> {
  const maxAttempts = checked(options, 'maxAttempts');
  const maxDelayMs = checked(options, 'maxDelayMs');
  const maxElapsedMs = checked(options, 'maxElapsedMs');
  const baseDelayMs = checked(options, 'baseDelayMs');
  const { signal = new AbortController().signal, sleep = timer, now = Date.now, random = Math.random } = options;
  const start = now();
  const delays: number[] = [];
  for (let attempts = 1; ; attempts++) {
    signal.throwIfAborted();
    let answer: { result: R } | { error: unknown };
    try {
      answer = { result: await call(signal) };
    } catch (error) {
      answer = { error };
    }
    signal.throwIfAborted();
    const failure = readFailure('result' in answer ? answer.result : answer.error);
    const outcome: RetryOutcome<R> = { ...answer, ...(failure === undefined ? {} : { failure }), ...(failure?.signIn === undefined ? {} : { signIn: failure.signIn }), attempts, delays };
    if (failure?.retryable !== true || failure.signIn !== undefined || !safeToRepeat(failure, options) || attempts >= maxAttempts) return outcome;
    const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempts - 1));
    const delay = Math.min(failure.retryAfterMs ?? Math.floor(random() * backoff), maxDelayMs);
    if (now() - start + delay > maxElapsedMs) return outcome;
    delays.push(delay);
    await sleep(delay, signal);
  }
}

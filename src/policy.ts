/**
 * createErrorPolicy: the options, their validation (bad options throw a TypeError naming the option, at creation),
 * and the frozen policy the wrappers and classifyError read, with the types its option functions receive.
 *
 * Policy data, at the bottom of the package's imports: what runs a call (classify.ts, report.ts, telemetry.ts, wrap/,
 * adapters/) reads it, and it imports none of them, only data below it (rules, log sinks, the telemetry interface,
 * the classification types). `npm run check:circular` keeps src/ free of import circles.
 */
import type { Classification } from './classification.js';
import type { HandlerKind, LogSink, PolicyLogger } from './log.js';
import { stderrSink, toLogSink } from './log.js';
import { fail } from './kit/fail.js';
import { isObjectLike, isRecord, readProp } from './kit/read.js';
import { deliberateRules } from './rules/deliberate.js';
import { coreRules } from './rules/index.js';
import { packOf } from './rules/pack.js';
import type { ErrorRule } from './rules/rule.js';
import { isHttpStatus } from './kit/http.js';
import { isPolicyTelemetry, type PolicyTelemetry } from './policy-telemetry.js';

/** The options of {@link createErrorPolicy}. All are optional. */
export interface ErrorPolicyOptions {
  /**
   * The allowlist for foreign errors: ordered rules, first match wins. A failure no rule accepts is a crash. The
   * package's own `ToolError`, `ResourceError` and `ResourceNotFoundError` and MCP protocol errors are handled by the
   * policy itself, whatever this list holds (see `maskDeliberateErrors`): rules only add what clients may see. The
   * packs (`googleRules`, `httpRules`) go before the core rules, which would take their failures first: a pack's rule
   * after a core rule throws a `TypeError` naming the order.
   * @default coreRules
   * @example
   * ```ts
   * createErrorPolicy({ rules: [...googleRules, ...coreRules] });
   * ```
   */
  readonly rules?: readonly ErrorRule[];
  /**
   * Names of rules allowed to accept a plain `Error`, `TypeError` or `RangeError`. Such a rule shows every crash's text
   * to clients, so `createErrorPolicy` refuses it unless it is named here.
   * @default []
   * @example
   * ```ts
   * createErrorPolicy({ rules: [myLegacyRule, ...coreRules], allowCatchAll: ['legacy-everything'] });
   * ```
   */
  readonly allowCatchAll?: readonly string[];
  /**
   * Where the one record per failure goes: a function that takes the record, or a console-, pino- or winston-shaped
   * logger. On a stdio server, a logger must not write to stdout (the transport's channel): the global `console` is
   * therefore written to as stderr for every level (its own `info` writes to stdout), and pino needs a destination
   * such as `pino.destination(2)`.
   * @default a writer to stderr (never stdout)
   * @example
   * ```ts
   * createErrorPolicy({ logger: pino({}, pino.destination(2)) });
   * ```
   */
  readonly logger?: PolicyLogger;
  /**
   * What to tell the client when a failure's rule has `reauthorize: true`, such as a revoked refresh token: a text, or
   * `{ text, url }` with the `http:` or `https:` address where the user signs in again, or a function returning either
   * (or `undefined` for nothing). The function gets the accepted error and the call ({@link ReauthorizeCall}: its
   * session id, auth info, tool name and the elicitation id), so that a server with many users can give each one a
   * sign-in URL of their own, with state that ties the sign-in to the elicitation. The text is appended to the client
   * text after a blank line, followed by the URL. Under `applyErrorPolicy`, for a tool call, a client that declared
   * URL-mode elicitation gets instead, on the 2025-11-25 revision, the SDK's `UrlElicitationRequiredError` (-32042)
   * for that URL; on 2026-07-28 (SDK v2), an input-required result with one URL elicitation (what
   * `inputRequired.elicitUrl` builds). Its id is the failure's correlation id.
   * @default no text
   * @example
   * ```ts
   * createErrorPolicy({ reauthorize: { text: 'Sign in to Acme again.', url: 'https://acme.example/login' } });
   * ```
   * @example
   * ```ts
   * createErrorPolicy({
   *   // a URL of the user's own; the state finds the user and the elicitation when the sign-in completes
   *   reauthorize: (_error, { authInfo, elicitationId }) => ({
   *     text: 'Sign in to Acme again.',
   *     url: `https://acme.example/login?user=${authInfo?.clientId ?? ''}&state=${elicitationId}`,
   *   }),
   * });
   * ```
   */
  readonly reauthorize?: string | Reauthorization | Reauthorize;
  /**
   * Called before each handler call. While it returns a message (the server runs without usable credentials), no
   * handler runs: the client gets that message, and the access log status 401.
   * @default never degraded
   * @example
   * ```ts
   * createErrorPolicy({ degraded: () => (credentials ? undefined : 'Not signed in: run `acme auth login`.') });
   * ```
   */
  readonly degraded?: () => string | undefined;
  /**
   * Longest client text, in characters, before it is cut with an ellipsis. Log texts are bounded by the same number.
   * @default 4000
   * @example
   * ```ts
   * createErrorPolicy({ maxMessageLength: 500 });
   * ```
   */
  readonly maxMessageLength?: number;
  /**
   * Extra redaction, run after the built-in secret scrubbing on every client and log text. A redactor that throws
   * replaces the whole text with `[REDACTED]`.
   * @default none (the built-in scrubbing always runs)
   * @example
   * ```ts
   * createErrorPolicy({ redact: (text) => text.replaceAll(/cust_[0-9a-f]{16}/g, 'cust_…') });
   * ```
   */
  readonly redact?: (text: string) => string;
  /**
   * Dev mode: show a crash's (scrubbed) message to the client, beside the reference.
   *
   * Unset, it is read at the time of each crash from the running process, never from a value a bundler wrote into
   * the code (`process.env.NODE_ENV` replaced at build time does not turn it on), and without blocking: on Deno only
   * when env access to `NODE_ENV` is already granted (no permission prompt), and on Cloudflare Workers (workerd)
   * never, since `wrangler dev` sets `NODE_ENV` to `'development'` for every bundle: set it there explicitly.
   * @default true only when the process's `NODE_ENV` is exactly `'development'` at the time of the failure; on
   * Cloudflare Workers, and on Deno without env access to `NODE_ENV`, false
   * @example
   * ```ts
   * createErrorPolicy({ exposeCrashDetails: process.env.MY_SERVER_DEBUG === '1' });
   * ```
   */
  readonly exposeCrashDetails?: boolean;
  /**
   * The access log: called once per handler call with its kind, name, duration and status. It may throw; that is
   * contained.
   * @default none
   * @example
   * ```ts
   * createErrorPolicy({ onOutcome: ({ kind, name, status, durationMs }) => log.info({ kind, name, status, durationMs }) });
   * ```
   */
  readonly onOutcome?: (outcome: Outcome) => void;
  /**
   * Whether failure answers carry the failure object (`code`, `retryable`, `retryAfterMs`, `correlationId`): under
   * `_meta['mcp-error-policy/failure']` of a tool's error result, and under the same key in a resource's or prompt's
   * JSON-RPC `error.data`.
   * @default true
   * @example
   * ```ts
   * createErrorPolicy({ failureObject: false });
   * ```
   */
  readonly failureObject?: boolean;
  /**
   * Also write the failure object of tool results under the draft MCP ToolFailure extension's key,
   * `_meta['io.modelcontextprotocol/toolFailure']`, in its shape (`class`, `code`, `retryable`, `retryNotBefore`,
   * `correlationId`, `agentGuidance`). A draft: its shape may change.
   * @default false
   * @example
   * ```ts
   * createErrorPolicy({ draftToolFailure: true });
   * ```
   */
  readonly draftToolFailure?: boolean;
  /**
   * Masks the package's own deliberate errors (`ToolError`, `ResourceError`, `ResourceNotFoundError`) as crashes, as if
   * they were foreign errors no rule accepts. Only for servers that must show clients nothing but a reference; a rule
   * in `rules` can still accept them.
   * @default false
   * @example
   * ```ts
   * createErrorPolicy({ maskDeliberateErrors: true });
   * ```
   */
  readonly maskDeliberateErrors?: boolean;
  /**
   * `'report'`: for adopting the policy on an existing server, to see what it would mask before it does. Nothing a
   * client sees changes: every failure goes back to the SDK as it was thrown, and the client gets the SDK's own answer
   * (no failure object), except that a secret pattern (or `redact`) matching its text is scrubbed. A value the SDK
   * could not answer (`null`, `undefined`, an object whose fields throw) gets the `'enforce'` answer. Each failure is
   * logged once, its line starting with `report:` and the record marked `report: true`: a crash at `warn`, with where
   * it was thrown (`thrownAt`) and the packaged rule that would show it (`wouldShowWith`, `...httpRules`), or saying
   * it is a crash (fix it, or throw a `ToolError`; in resources and prompts a `ResourceError`); an anticipated failure
   * at its rule's level, with what `'enforce'` would show. The access log is as under `'enforce'`. docs/adopting.md
   * walks it through.
   * @default 'enforce'
   * @example
   * ```ts
   * createErrorPolicy({ mode: process.env.MCP_ERROR_POLICY === 'report' ? 'report' : 'enforce' });
   * ```
   */
  readonly mode?: 'enforce' | 'report';
  /**
   * Traces every tool, resource and prompt call the policy runs: `openTelemetry()` of
   * `mcp-error-policy/opentelemetry` (one SERVER span per call, after the OpenTelemetry MCP semantic conventions), or
   * any object implementing {@link PolicyTelemetry}.
   * @default none
   * @example
   * ```ts
   * createErrorPolicy({ telemetry: openTelemetry() });
   * ```
   */
  readonly telemetry?: PolicyTelemetry;
}

/** The validated credentials the transport passed with a call (the SDKs' `AuthInfo`), as far as a policy reads them. */
export interface CallAuthInfo {
  /** The access token. */
  readonly token?: string;
  /** The OAuth client the token was issued to. */
  readonly clientId?: string;
  /** The token's scopes. */
  readonly scopes?: readonly string[];
  /** When the token expires, in seconds since the epoch. */
  readonly expiresAt?: number;
  /** Whatever else the server's token verification put there (a user id, say). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** The call whose failure asks for a sign-in: what a `reauthorize` function gets beside the error. */
export interface ReauthorizeCall {
  /** The sign-in elicitation's id: the failure's correlation id (in the failure object and the log record too). */
  readonly elicitationId: string;
  /** What kind of handler failed (unknown to `classifyError`). */
  readonly kind?: 'tool' | 'resource' | 'prompt';
  /** The tool or prompt name, or the resource URI, when known. */
  readonly name?: string;
  /** The MCP session id, on transports with sessions (Streamable HTTP on 2025-11-25; none on 2026-07-28). */
  readonly sessionId?: string;
  /** The validated credentials the transport passed with the request (`authInfo`), when it did. */
  readonly authInfo?: CallAuthInfo;
}

/**
 * A `reauthorize` function: the re-authorization for an accepted error and its call. One that throws, or returns
 * anything else than a non-empty text or `{ text, url }`, gives no re-authorization; a URL that is not `http:` or
 * `https:` is left out.
 * @example
 * ```ts
 * const reauthorize: Reauthorize = (_error, call) => ({
 *   text: 'Sign in to Acme again.',
 *   url: `https://acme.example/login?state=${encodeURIComponent(call.elicitationId)}`,
 * });
 * ```
 */
export type Reauthorize = (error: unknown, call: ReauthorizeCall) => string | Reauthorization | undefined;

/** Where a user signs in again, and what to tell them: a `reauthorize` value. */
export interface Reauthorization {
  /** The text shown to the user (or the elicitation's message). */
  readonly text: string;
  /** The `http:` or `https:` address of the sign-in page. */
  readonly url?: string | undefined;
}

/** What `onOutcome` receives, once per handler call. */
export interface Outcome {
  /** Which kind of handler ran. */
  readonly kind: HandlerKind;
  /** The tool or prompt name, or the resource URI. */
  readonly name: string;
  /** Wall time of the call in milliseconds (0 for calls refused while degraded). */
  readonly durationMs: number;
  /** 200 on success; 401 for the degraded start and re-authorization failures; the rule's status; 500 for crashes. */
  readonly status: number;
  /** The failure's classification; absent on success and for the degraded start. */
  readonly classification?: Classification;
}

const POLICY_BRAND = Symbol.for('mcp-error-policy.policy');

/** A frozen, validated policy. Make one with {@link createErrorPolicy}. */
export interface ErrorPolicy {
  /** The allowlist, in order. */
  readonly rules: readonly ErrorRule[];
  /** Re-authorization text, `{ text, url }` or function, if any. */
  readonly reauthorize: string | Reauthorization | Reauthorize | undefined;
  /** The degraded-start check, if any. */
  readonly degraded: (() => string | undefined) | undefined;
  /** Longest client text. */
  readonly maxMessageLength: number;
  /** Extra redaction, if any. */
  readonly redact: ((text: string) => string) | undefined;
  /** Dev mode as configured; `undefined` means "when NODE_ENV is exactly 'development'". */
  readonly exposeCrashDetails: boolean | undefined;
  /** The access log, if any. */
  readonly onOutcome: ((outcome: Outcome) => void) | undefined;
  /** Whether deliberate errors are masked as crashes. */
  readonly maskDeliberateErrors: boolean;
  /** Whether answers carry the failure object. */
  readonly failureObject: boolean;
  /** Whether tool results also carry it under the draft ToolFailure key. */
  readonly draftToolFailure: boolean;
  /** The telemetry, if any. */
  readonly telemetry: PolicyTelemetry | undefined;
  /** `'report'`: failures get the SDK's own answer (a secret scrubbed) and are logged as what the policy would do; else `'enforce'`. */
  readonly mode: 'enforce' | 'report';
}

/**
 * Default of `maxMessageLength`.
 * @example
 * ```ts
 * createErrorPolicy({ maxMessageLength: DEFAULT_MAX_MESSAGE_LENGTH / 2 });
 * ```
 */
export const DEFAULT_MAX_MESSAGE_LENGTH = 4000;

type Check = readonly [key: string, expected: string, valid: (value: unknown) => boolean];

const isFunction = (value: unknown): boolean => typeof value === 'function';
const isBoolean = (value: unknown): boolean => typeof value === 'boolean';

/** The options checked alike, in their order (after `rules`, `allowCatchAll`, `logger` and `reauthorize`). */
const OPTION_CHECKS: readonly Check[] = [
  ['degraded', 'a function', isFunction],
  ['maxMessageLength', 'an integer from 32 to 1000000', (v) => Number.isInteger(v) && (v as number) >= 32 && (v as number) <= 1_000_000],
  ['redact', 'a function', isFunction],
  ['exposeCrashDetails', 'a boolean', isBoolean],
  ['onOutcome', 'a function', isFunction],
  ['maskDeliberateErrors', 'a boolean', isBoolean],
  ['failureObject', 'a boolean', isBoolean],
  ['draftToolFailure', 'a boolean', isBoolean],
  ['telemetry', 'the result of openTelemetry() (an object with a start function)', isPolicyTelemetry],
  ['mode', "'enforce' or 'report'", (v) => v === 'enforce' || v === 'report'],
];

const OPTION_KEYS: readonly string[] = ['rules', 'allowCatchAll', 'logger', 'reauthorize', ...OPTION_CHECKS.map(([key]) => key)];

/**
 * The rules a policy applies, in order: the deliberate-error rules first (unless masked), then its `rules`; and where
 * its records go. Kept off the policy's public fields; registered, so that two copies of this package agree.
 */
const RULES_APPLIED = Symbol.for('mcp-error-policy.rules-applied');
const SINK = Symbol.for('mcp-error-policy.sink');

/** The rules `policy` applies, in order (see `rules` and `maskDeliberateErrors`). */
export function rulesApplied(policy: ErrorPolicy): readonly ErrorRule[] {
  return (policy as { readonly [RULES_APPLIED]?: readonly ErrorRule[] })[RULES_APPLIED] ?? policy.rules;
}

/**
 * `policy` with `rules` in front of the rules it applies, for the deliberate errors of a framework an adapter serves
 * (h3's, ./adapters/h3-errors.ts): a frozen policy that reads every other field (logger, access log, telemetry...) from
 * `policy`.
 */
export function withRulesInFront(policy: ErrorPolicy, rules: readonly ErrorRule[]): ErrorPolicy {
  return Object.freeze(Object.create(policy, { [RULES_APPLIED]: { value: Object.freeze([...rules, ...rulesApplied(policy)]) } }) as ErrorPolicy);
}

/** Where `policy`'s records go. */
export function sinkOf(policy: ErrorPolicy): LogSink {
  return (policy as { readonly [SINK]?: LogSink })[SINK] ?? stderrSink;
}


/** Whether `rule` accepts `error`: a predicate that throws counts as "no". */
export function accepts(rule: ErrorRule, error: unknown): boolean {
  try {
    return rule.predicate(error) === true;
  } catch {
    return false;
  }
}

/** The optional fields of a rule, in their order, each with what it must be. */
const RULE_CHECKS: readonly Check[] = [
  ['message', 'a string or a function', (v) => typeof v === 'string' || isFunction(v)],
  ['status', 'an integer HTTP status from 100 to 599, or a function returning one', (v) => isFunction(v) || isHttpStatus(v)],
  ['level', "'info', 'warn' or a function returning one", (v) => v === 'info' || v === 'warn' || isFunction(v)],
  ['reauthorize', 'a boolean', isBoolean],
  ['code', 'an integer JSON-RPC error code', Number.isSafeInteger],
  ['request', 'a function', isFunction],
  ['failure', 'an object ({ code, retryable, retryAfterMs }) or a function returning one', (v) => isFunction(v) || isRecord(v)],
];

/** Checks each field of `source` that `checks` names and is given, in order, and copies it to `out`. */
function checkFields(source: Record<string, unknown>, checks: readonly Check[], at: string, out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [key, expected, valid] of checks) {
    const value = source[key];
    if (value === undefined) continue;
    if (!valid(value)) fail(`${at}${key}`, expected, value);
    out[key] = value;
  }
  return out;
}

function validateRule(rule: unknown, at: string): ErrorRule {
  if (!isObjectLike(rule)) fail(at, 'a rule object', rule);
  const r = rule as Record<string, unknown>;
  if (typeof r.name !== 'string' || r.name === '') fail(`${at}.name`, 'a non-empty string', r.name);
  const predicate = r.predicate ?? r.test;
  if (typeof predicate !== 'function') fail(`${at}.predicate`, 'a function', predicate);
  return Object.freeze(checkFields(r, RULE_CHECKS, `${at}.`, { name: r.name, predicate })) as unknown as ErrorRule;
}

/**
 * Refuses a packaged pack's rule (`googleRules`, `httpRules`, recognised by their mark) placed after one of the core
 * rules (recognised as the members of `coreRules`): the core rules take the failures they share with a pack first
 * (`http-status` every HTTP error, `network` gaxios's network failures, `file-system` a missing Google `keyFile`), so
 * `[...coreRules, ...googleRules]` would leave most of the pack dead, without a word. The message names the order to
 * use, with every pack the list holds.
 */
function checkPackOrder(rules: readonly unknown[]): void {
  const core = rules.findIndex((rule) => coreRules.includes(rule as ErrorRule));
  const late = core === -1 ? -1 : rules.findIndex((rule, i) => i > core && packOf(rule) !== undefined);
  if (late === -1) return;
  const packs = [...new Set(rules.map(packOf).filter((pack) => pack !== undefined))];
  const name = (i: number): string => (rules[i] as ErrorRule).name;
  throw new TypeError(
    `Expected the rules of \`${packOf(rules[late]) ?? ''}\` before the core rules, got \`rules[${late}]\` ("${name(late)}") after ` +
      `\`rules[${core}]\` ("${name(core)}"): the core rules take the failures they share with a pack first (\`http-status\` every ` +
      `HTTP error). Use \`rules: [${packs.join(', ')}, ...coreRules]\``,
  );
}

function validateRules(rules: unknown, allowCatchAll: unknown): readonly ErrorRule[] {
  if (!Array.isArray(rules)) fail('rules', 'an array of rules', rules);
  if (!Array.isArray(allowCatchAll) || allowCatchAll.some((n) => typeof n !== 'string')) {
    fail('allowCatchAll', 'an array of rule names', allowCatchAll);
  }
  const seen = new Set<string>();
  const out = (rules as unknown[]).map((rule, i) => {
    if (Array.isArray(rule)) {
      throw new TypeError(`Expected \`rules[${i}]\` to be a rule, got an array: spread rule arrays into \`rules\` (\`rules: [...httpRules, ...coreRules]\`)`);
    }
    const valid = validateRule(rule, `rules[${i}]`);
    if (seen.has(valid.name)) throw new TypeError(`Expected \`rules\` to have unique names, got "${valid.name}" twice`);
    seen.add(valid.name);
    const probe = [Error, TypeError, RangeError].find((type) => accepts(valid, new type('mcp-error-policy probe')));
    if (probe !== undefined && !(allowCatchAll as string[]).includes(valid.name)) {
      throw new TypeError(
        `Expected \`rules[${i}]\` ("${valid.name}") to reject a plain ${probe.name}: a catch-all rule shows every crash's text to clients. ` +
          `Name it in \`allowCatchAll\` to opt in.`,
      );
    }
    return valid;
  });
  checkPackOrder(rules as unknown[]);
  return Object.freeze(out);
}

/**
 * Makes a frozen error policy. Every option is checked here: a bad one throws a `TypeError` naming it, never later at
 * call time.
 *
 * @example
 * ```ts
 * import { coreRules, createErrorPolicy } from 'mcp-error-policy';
 * import { googleRules } from 'mcp-error-policy/google';
 *
 * const policy = createErrorPolicy({
 *   rules: [...googleRules, ...coreRules],
 *   reauthorize: 'Sign in again: run `acme auth login`.',
 * });
 * ```
 */
export function createErrorPolicy(options: ErrorPolicyOptions = {}): ErrorPolicy {
  if (!isRecord(options)) fail('options', 'an object', options);
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) throw new TypeError(`Unknown option \`${key}\`: expected one of ${OPTION_KEYS.join(', ')}`);
  }
  const o = options as Record<string, unknown>;
  // The core rules need no checking (they are this package's, frozen): skipping it keeps `defaultPolicy`, made when
  // the package is imported, off the start-up path.
  const rules = o.rules === undefined && o.allowCatchAll === undefined ? coreRules : validateRules(o.rules ?? coreRules, o.allowCatchAll ?? []);
  let log: LogSink = stderrSink;
  if (o.logger !== undefined) {
    const sink = toLogSink(o.logger);
    if (sink === undefined) fail('logger', 'a function or an object with info, warn and error methods', o.logger);
    log = sink;
  }
  if (o.reauthorize !== undefined && typeof o.reauthorize !== 'string' && typeof o.reauthorize !== 'function') {
    if (!isRecord(o.reauthorize)) fail('reauthorize', 'a string, { text, url } or a function', o.reauthorize);
    const { text, url } = o.reauthorize as Record<string, unknown>;
    if (typeof text !== 'string' || text === '') fail('reauthorize.text', 'a non-empty string', text);
    if (url !== undefined && !isSignInUrl(url)) fail('reauthorize.url', 'an http: or https: URL', url);
  }
  checkFields(o, OPTION_CHECKS, '');
  const maskDeliberateErrors = o.maskDeliberateErrors === true;
  const policy: ErrorPolicy = {
    rules,
    reauthorize: o.reauthorize as ErrorPolicy['reauthorize'],
    degraded: o.degraded as ErrorPolicy['degraded'],
    maxMessageLength: (o.maxMessageLength as number | undefined) ?? DEFAULT_MAX_MESSAGE_LENGTH,
    redact: o.redact as ErrorPolicy['redact'],
    exposeCrashDetails: o.exposeCrashDetails as boolean | undefined,
    onOutcome: o.onOutcome as ErrorPolicy['onOutcome'],
    maskDeliberateErrors,
    failureObject: o.failureObject !== false,
    draftToolFailure: o.draftToolFailure === true,
    telemetry: o.telemetry as PolicyTelemetry | undefined,
    mode: o.mode === 'report' ? 'report' : 'enforce',
  };
  Object.defineProperties(policy, {
    [POLICY_BRAND]: { value: true },
    [RULES_APPLIED]: { value: maskDeliberateErrors ? rules : Object.freeze([...deliberateRules, ...rules]) },
    [SINK]: { value: log },
  });
  return Object.freeze(policy);
}

/** True for an absolute `http:` or `https:` URL (a sign-in page). */
export function isSignInUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 2000) return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** True for a policy made by {@link createErrorPolicy} (of any copy of this package). */
function isErrorPolicy(value: unknown): value is ErrorPolicy {
  return readProp(value, POLICY_BRAND) === true;
}

/**
 * The policy used when none is given: `createErrorPolicy()` (core rules, stderr logging).
 * @example
 * ```ts
 * classifyError(error, defaultPolicy); // the same as classifyError(error)
 * ```
 */
export const defaultPolicy: ErrorPolicy = createErrorPolicy();

/** Checks the `policy` option of a wrapper; throws a TypeError naming it when it is not a policy. */
export function resolvePolicy(policy: unknown): ErrorPolicy {
  if (policy === undefined) return defaultPolicy;
  if (!isErrorPolicy(policy)) fail('policy', 'a policy made by createErrorPolicy()', policy);
  return policy;
}

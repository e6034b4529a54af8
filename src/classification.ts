/**
 * What classifyError decides about a thrown value, as data: a deliberate protocol error (its code kept), an anticipated failure
 * (a rule of the allowlist accepts it or an error on its cause chain, and its text is safe to show), or a crash. Below
 * the policy, whose `onOutcome` receives one; classify.ts makes them.
 */
import type { FailureInfo } from './failure.js';
import type { AnticipatedLevel, ErrorRule } from './rules/rule.js';

/**
 * An MCP protocol error (`McpError` / `ProtocolError`) a handler threw as a deliberate protocol answer: any JSON-RPC
 * error code but InternalError (-32603), whose text carries no crash. It keeps its code; its text passes the exit gate.
 */
export interface ProtocolClassification {
  readonly kind: 'protocol';
  /** Its JSON-RPC code. */
  readonly code: number;
  /** Its message through the exit gate: scrubbed of secrets, bounded, without internal hosts or source locations. */
  readonly message: string;
  /** Access-log status derived from the code (400, 404, 403 or 500). */
  readonly status: number;
  /** Protocol errors are logged at info. */
  readonly level: 'info';
  /** The thrown value. */
  readonly error: unknown;
}

/** A failure the allowlist accepts: `message` is safe to show the client. */
export interface AnticipatedClassification {
  readonly kind: 'anticipated';
  /** The rule that matched. */
  readonly rule: ErrorRule;
  /** Client text: scrubbed, bounded, with the re-authorization text appended when the rule asks for it. */
  readonly message: string;
  /** Access-log status: 401 when `reauthorize`, else the rule's status (default 500). */
  readonly status: number;
  /** Log level: the rule's (default 'warn'). */
  readonly level: AnticipatedLevel;
  /** Whether the rule marks this failure as fixed by signing in again. */
  readonly reauthorize: boolean;
  /** JSON-RPC code for resources and prompts: the rule's, default -32603. */
  readonly code: number;
  /** The thrown value. */
  readonly error: unknown;
  /** The error on the cause chain that the rule accepted (the thrown value itself, or one of its causes). */
  readonly matched: unknown;
  /** The failure object the client receives: the rule's code, retryable, retry delay, and a fresh correlation id. */
  readonly failure: FailureInfo;
  /** Where the user signs in again, when the rule asks for re-authorization and the policy's `reauthorize` has a URL. */
  readonly signIn?: { readonly text: string; readonly url: string };
}

/** Anything else: its text never reaches the client (unless dev mode is on). */
export interface CrashClassification {
  readonly kind: 'crash';
  readonly status: 500;
  readonly level: 'error';
  /** Short id shown to the client and written in the log record. */
  readonly reference: string;
  /** The thrown value. */
  readonly error: unknown;
  /** Dev mode only (`exposeCrashDetails`): the crash's scrubbed, bounded text. */
  readonly detail?: string;
  /**
   * Why a text a rule accepted (or a handler's protocol error) was not shown, when the exit gate withheld it:
   * `its text carries a runtime error` (a stack frame, an HTML page, its cause's message).
   */
  readonly withheld?: string;
  /** The failure object the client receives: code `internal`, not retryable, the reference as correlation id. */
  readonly failure: FailureInfo;
}

/** What {@link classifyError} returns. */
export type Classification = ProtocolClassification | AnticipatedClassification | CrashClassification;

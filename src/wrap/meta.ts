/**
 * What failure answers say on the wire, for every handler kind: what failed (`Error executing tool <name>`...), the
 * first text of a tool result, and the failure object: a plain copy of it under `_meta` of a tool's error result and
 * in `data` of a resource's or prompt's JSON-RPC error (but beside `uri` on SDK v2), both under one namespaced key; on tool results, optionally
 * also under the draft MCP ToolFailure extension's key (modelcontextprotocol PRs 3312/3313), in its shape.
 */
import type { CrashClassification } from '../classification.js';
import type { FailureInfo } from '../failure.js';
import { retryText } from '../failure.js';
import type { ErrorPolicy } from '../policy.js';
import { readProp, readString } from '../kit/read.js';
import type { HandlerKind } from '../log.js';
import { MAX_NAME_LENGTH } from '../report.js';
import { safeText } from '../scrub.js';

/** The key of the failure object, in `_meta` and in `error.data`. */
export const FAILURE_KEY = 'mcp-error-policy/failure';
/** The draft ToolFailure extension's key. */
export const DRAFT_TOOL_FAILURE_KEY = 'io.modelcontextprotocol/toolFailure';

/**
 * What failed: `Error executing tool <name>`, `Error reading resource <uri>` or `Error getting prompt <name>`, the name
 * scrubbed and bounded by the policy's rules (only bounded without a policy: a wrapper's last resort).
 */
export function failedCallText(handler: HandlerKind, name: string | undefined, policy: ErrorPolicy | undefined): string {
  const what = handler === 'tool' ? 'Error executing tool' : handler === 'resource' ? 'Error reading resource' : 'Error getting prompt';
  if (name === undefined) return what;
  return `${what} ${policy === undefined ? name.slice(0, MAX_NAME_LENGTH) : safeText(name, MAX_NAME_LENGTH, policy.redact)}`;
}

/**
 * A crash's client text: what failed (`failed`: `Error executing tool x`, `Error handling completion/complete`), the
 * crash's text in dev mode, and the reference.
 */
export function crashText(failed: string, crash: CrashClassification): string {
  const detail = crash.detail === undefined ? '' : `: ${crash.detail}`;
  return `${failed}${detail} (reference ${crash.reference})`;
}

/** The text of a tool result's first content, as the client reads it (the SDKs copy results: read it from theirs). */
export function firstTextOf(result: unknown): string | undefined {
  const content = readProp(result, 'content');
  return Array.isArray(content) ? readString(content[0], 'text') : undefined;
}

/** How the draft says a client should react: retry, act out of band (sign in), or take another approach. */
type DraftClass = 'reliability' | 'governance' | 'capability';

/** The draft's ToolFailure: `retryNotBefore` in epoch milliseconds, a short `agentGuidance` where there is one. */
function draft(failure: FailureInfo, governance: boolean): Record<string, unknown> {
  const kind: DraftClass = failure.retryable ? 'reliability' : governance ? 'governance' : 'capability';
  const out: Record<string, unknown> = { class: kind, code: failure.code, correlationId: failure.correlationId };
  if (kind === 'reliability') {
    out.retryable = true;
    if (failure.retryAfterMs !== undefined) {
      out.retryNotBefore = Date.now() + failure.retryAfterMs;
      out.agentGuidance = retryText(failure.retryAfterMs);
    }
  } else if (governance) {
    out.agentGuidance = 'Ask the user to sign in again.';
  }
  return out;
}

/**
 * The `_meta` of a tool's error result, or undefined when the policy turns the object off. `governance`: the failure
 * asks the user to sign in again.
 */
export function toolMeta(policy: ErrorPolicy, failure: FailureInfo, governance: boolean): Record<string, unknown> | undefined {
  if (!policy.failureObject) return undefined;
  const meta: Record<string, unknown> = { [FAILURE_KEY]: { ...failure } };
  if (policy.draftToolFailure) meta[DRAFT_TOOL_FAILURE_KEY] = draft(failure, governance);
  return meta;
}

/**
 * The `data` of a resource's or prompt's JSON-RPC error: `{ uri }` when given (resource not found), and the failure
 * object, except beside `uri` on SDK v2 (`v2`): v2 sends -32602 for a missing resource on every revision, and its
 * client raises `ResourceNotFoundError` for a -32602 only when `data` is exactly `{ uri }` (for -32002, what SDK v1
 * sends, it tolerates other keys).
 */
export function errorData(policy: ErrorPolicy, failure: FailureInfo, uri: string | undefined, v2 = false): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  if (uri !== undefined) data.uri = uri;
  if (policy.failureObject && !(v2 && uri !== undefined)) data[FAILURE_KEY] = { ...failure };
  return Object.keys(data).length === 0 ? undefined : data;
}

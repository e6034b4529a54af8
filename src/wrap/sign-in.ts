/**
 * Re-authorization the client can follow: a tool call that failed for want of a fresh sign-in, answered with one
 * URL-mode elicitation for the policy's sign-in page instead of the isError result, in the form the connection's
 * protocol revision has for it:
 * - 2025-11-25 (and earlier): MCP's "URL elicitation required" error (-32042, `UrlElicitationRequiredError` in both
 *   SDKs), for clients that declared URL-mode elicitation at initialization;
 * - 2026-07-28 (SDK v2), which retired -32042: an input-required result carrying the elicitation (what SDK v2's
 *   `inputRequired({ inputRequests: { ...: inputRequired.elicitUrl(...) } })` builds), for requests whose envelope
 *   declares URL-mode elicitation. The client opens the URL, then retries the call.
 * `applyErrorPolicy` decides it at the request level (the SDKs turn anything a tool callback throws into an isError
 * result, but send what a request handler throws or returns as it is).
 */
import type { HandlerKind } from '../log.js';
import type { CallAuthInfo } from '../policy.js';
import { clientTakesUrlElicitation, protocolVersionOf } from '../adapters/low-level-internals.js';
import { URL_ELICITATION_REQUIRED_CODE } from '../status.js';
import type { CallFacts } from '../classify.js';
import { callState, markAnswer } from './calls.js';
import { firstTextOf } from './meta.js';
import { isObjectLike, isRecord, readProp, readString } from '../kit/read.js';

/** The -32042 error, as the SDKs' protocol layer sends it: `code`, `message` and `data` as they are. */
export class SignInRequired extends Error {
  readonly code = URL_ELICITATION_REQUIRED_CODE;
  readonly data: Record<string, unknown>;

  constructor(message: string, data: Record<string, unknown>) {
    super(message);
    this.name = 'UrlElicitationRequiredError';
    this.data = data;
  }
}

/** The first protocol revision that answers a sign-in with an input-required result (revisions sort as dates). */
const FIRST_INPUT_REQUIRED_REVISION = '2026-07-28';
/** The keys of the 2026-07-28 request envelope in `params._meta` (the protocol version's is telemetry's too). */
export const ENVELOPE_VERSION = 'io.modelcontextprotocol/protocolVersion';
const ENVELOPE_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

/** How a sign-in reaches the client of a request: as the -32042 error, as an input-required result, or not at all. */
export type SignInMode = 'error' | 'input-required' | undefined;

/**
 * How a sign-in reaches the client of a tools/call on `server` (`extra`: the SDK's per-request context): on 2026-07-28
 * (the request's envelope, SDK v2's `ctx.mcpReq.envelope`, else the negotiated version), an input-required result
 * when the envelope declares `elicitation.url`; on earlier revisions, the -32042 error when the client declared it at
 * initialization.
 */
export function signInMode(server: object, extra: unknown): SignInMode {
  const envelope = readProp(readProp(extra, 'mcpReq'), 'envelope');
  const version = readString(envelope, ENVELOPE_VERSION) ?? protocolVersionOf(server);
  if (version !== undefined && version >= FIRST_INPUT_REQUIRED_REVISION) {
    return isObjectLike(readProp(readProp(readProp(envelope, ENVELOPE_CAPABILITIES), 'elicitation'), 'url')) ? 'input-required' : undefined;
  }
  return clientTakesUrlElicitation(server) ? 'error' : undefined;
}

/**
 * The answer to a tool call (`extra`: the SDK's per-request context) that a wrapper answered with an isError result
 * (`value`, as the SDK returns it), when its failure asks for a sign-in and the policy knows the sign-in URL: the
 * -32042 error (thrown) or the input-required result (returned), after `mode`; `value` itself otherwise. The
 * elicitation's message is the re-authorization text, its id the failure's correlation id (in the log record too): the
 * -32042 elicitation's `elicitationId`, the input request's key on 2026-07-28 (which has no `elicitationId`); the
 * error's message is the result's text.
 */
export function signInAnswer(mode: 'error' | 'input-required', extra: unknown, value: unknown): unknown {
  if (readProp(value, 'isError') !== true) return value;
  const classification = callState(extra)?.answered;
  if (classification?.kind !== 'anticipated' || classification.signIn === undefined) return value;
  const { text, url } = classification.signIn;
  const { correlationId } = classification.failure;
  if (mode === 'input-required') {
    // 2026-07-28 dropped `elicitationId` (and the completion notification): the request's key carries the id
    const params = { mode: 'url', message: text, url };
    const answer = { resultType: 'input_required', inputRequests: { [correlationId]: { method: 'elicitation/create', params } } };
    markAnswer(answer, classification);
    return answer;
  }
  const elicitation = { mode: 'url', elicitationId: correlationId, url, message: text };
  // Only `elicitations`: both SDKs' clients rebuild the error's data from it and drop anything else.
  const answer = new SignInRequired(firstTextOf(value) ?? text, { elicitations: [elicitation] });
  markAnswer(answer, classification); // a wrapper's answer: its text is the client text (telemetry reads it)
  throw answer;
}

/**
 * What a `reauthorize` function learns of a call from the SDK's per-request context (`request`; SDK v1 `extra`:
 * `sessionId`, `authInfo`; SDK v2 `ctx`: `sessionId`, `http.authInfo`), its kind and name.
 */
export function callFacts(request: object | undefined, kind: HandlerKind, name: string | undefined): CallFacts {
  return () => {
    const sessionId = readString(request, 'sessionId');
    const authInfo = readProp(request, 'authInfo') ?? readProp(readProp(request, 'http'), 'authInfo');
    return {
      kind,
      ...(name === undefined ? {} : { name }),
      ...(sessionId === undefined || sessionId === '' ? {} : { sessionId }),
      ...(isRecord(authInfo) ? { authInfo: authInfo as CallAuthInfo } : {}),
    };
  };
}

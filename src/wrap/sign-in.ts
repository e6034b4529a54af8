/**
 * Re-authorization the client can follow: a tool call that failed for want of a fresh sign-in, answered with MCP's
 * "URL elicitation required" error (-32042, `UrlElicitationRequiredError` in both SDKs) carrying one URL-mode
 * elicitation for the policy's sign-in page, instead of the isError result. Only for clients that declared URL-mode
 * elicitation; `applyErrorPolicy` decides that, at the request level (the SDKs turn anything a tool callback throws
 * into an isError result, but send what a request handler throws as it is).
 */
import { URL_ELICITATION_REQUIRED_CODE } from '../status.js';
import { callState, markAnswer } from './calls.js';
import { firstTextOf } from './meta.js';
import { readProp } from '../kit/read.js';

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

/**
 * The -32042 answer for a tool call (`request`: the SDK's per-request context) that a wrapper answered with an
 * isError result (`value`, as the SDK returns it), when its failure asks for a sign-in and the policy knows the
 * sign-in URL; `undefined` otherwise. The elicitation's message is the re-authorization text, its id the failure's
 * correlation id (in the log record too); the error's message is the result's text.
 */
export function signInAnswer(request: unknown, value: unknown): SignInRequired | undefined {
  if (readProp(value, 'isError') !== true) return undefined;
  const classification = callState(request)?.answered;
  if (classification?.kind !== 'anticipated' || classification.signIn === undefined) return undefined;
  const { text, url } = classification.signIn;
  const { correlationId } = classification.failure;
  const shown = firstTextOf(value);
  // Only `elicitations`: both SDKs' clients rebuild the error's data from it and drop anything else.
  const data = { elicitations: [{ mode: 'url', elicitationId: correlationId, url, message: text }] };
  const answer = new SignInRequired(shown ?? text, data);
  markAnswer(answer, classification); // a wrapper's answer: its text is the client text (telemetry reads it)
  return answer;
}

/**
 * A handler's protocol error (`McpError`, `ProtocolError`) as the SDK gets to answer it: its code, and its text and
 * `data` through the exit gate (src/gate.ts).
 */
import type { ProtocolClassification } from '../classification.js';
import { gateClientData } from '../gate.js';
import { messageOf, readProp } from '../kit/read.js';
import type { ErrorPolicy } from '../policy.js';
import { safeText } from '../scrub.js';
import { URL_ELICITATION_REQUIRED_CODE } from '../status.js';
import { standIn } from './transparent.js';

/** Whether two values are the same as JSON; `false` when either is no JSON (a BigInt, a cycle). */
function sameJson(a: unknown, b: unknown): boolean {
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

/**
 * What the SDK gets to answer a handler's protocol error with: its code, its text through the exit gate, and its
 * `data` through the gate too (`gateClientData`: dropped when it is no JSON or carries a crash), except for URL
 * elicitation (-32042), whose `data` holds the URLs the client is to open. The thrown error itself when nothing
 * changes, else a stand-in that inherits from it (SDK v1 answers -32042 only for an `instanceof McpError`), or, when
 * even that cannot be made, a plain error with the same code, text and data.
 */
export function protocolAnswer(classification: ProtocolClassification, policy: ErrorPolicy): unknown {
  const { error, code, message } = classification;
  const data = readProp(error, 'data');
  const shownData = data === undefined || code === URL_ELICITATION_REQUIRED_CODE ? data : gateClientData(data, (text) => safeText(text, Number.MAX_SAFE_INTEGER, policy.redact));
  if (messageOf(error) === message && (shownData === data || sameJson(shownData, data))) return error;
  try {
    return standIn(error as object, { message, data: shownData });
  } catch {
    return Object.assign(new Error(message), { name: 'ProtocolError', code, data: shownData });
  }
}

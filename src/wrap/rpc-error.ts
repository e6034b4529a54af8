/**
 * The JSON-RPC errors resource and prompt wrappers throw. Their message carries no `MCP error <code>:` prefix (the
 * client adds one) and their `code` is chosen by the policy, never copied from the thrown value; no `data`.
 */
import type { Classification } from '../classify.js';
import { INTERNAL_ERROR_CODE } from '../classify.js';
import type { ErrorPolicy } from '../policy.js';
import { MAX_NAME_LENGTH } from '../report.js';
import { safeText } from '../text.js';
import { markHandled, type WireShape } from './guard.js';
import type { HandlerKind } from '../log.js';

/** A JSON-RPC error answer made by the policy. The SDK puts `code` and `message` on the wire as they are. */
export class PolicyRpcError extends Error {
  /** The JSON-RPC code. */
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code;
    markHandled(this);
  }
}

/** "Error reading resource <uri>" / "Error getting prompt <name>". */
function subject(handler: HandlerKind, name: string | undefined, policy: ErrorPolicy | undefined): string {
  const what = handler === 'resource' ? 'Error reading resource' : 'Error getting prompt';
  if (name === undefined) return what;
  return `${what} ${policy === undefined ? name.slice(0, MAX_NAME_LENGTH) : safeText(name, MAX_NAME_LENGTH, policy.redact)}`;
}

/** The wire shape of resources and prompts: a JSON-RPC error thrown to the SDK. */
export function rpcShape(handler: 'resource' | 'prompt', nameFromArgs?: (args: readonly unknown[]) => string | undefined): WireShape<never> {
  return {
    handler,
    answer(classification: Classification, name, policy): never {
      if (classification.kind === 'anticipated') throw new PolicyRpcError(classification.code, classification.message);
      if (classification.kind === 'crash') {
        const detail = classification.detail === undefined ? '' : `: ${classification.detail}`;
        throw new PolicyRpcError(INTERNAL_ERROR_CODE, `${subject(handler, name, policy)}${detail} (reference ${classification.reference})`);
      }
      throw classification.error;
    },
    answerDegraded(message): never {
      throw new PolicyRpcError(INTERNAL_ERROR_CODE, message);
    },
    answerUnreadable(name): never {
      throw new PolicyRpcError(INTERNAL_ERROR_CODE, subject(handler, name, undefined));
    },
    ...(nameFromArgs === undefined ? {} : { nameFromArgs }),
  };
}

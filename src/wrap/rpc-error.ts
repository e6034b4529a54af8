/**
 * The JSON-RPC errors resource and prompt wrappers throw. Their message carries no `MCP error <code>:` prefix (the
 * client adds one) and their `code` is chosen by the policy, never copied from the thrown value. The only `data` is
 * the policy's own: `{ uri }` (scrubbed, bounded) on a resource-not-found answer, as the MCP specification shows it and
 * as SDK v2 clients need to recognise it, and the failure object (src/wrap/meta.ts), which SDK v2 cannot carry beside
 * `uri` (its client then sees no resource-not-found).
 */
import type { Classification } from '../classification.js';
import { isObjectLike, readProp } from '../kit/read.js';
import { MAX_NAME_LENGTH } from '../report.js';
import { safeText } from '../scrub.js';
import { INTERNAL_ERROR_CODE, RESOURCE_NOT_FOUND_CODE } from '../status.js';
import { markAnswer } from './calls.js';
import { crashText, errorData, failedCallText } from './meta.js';
import type { WireShape } from './guard.js';
import { protocolAnswer } from './protocol-answer.js';

/** A JSON-RPC error answer made by the policy. The SDK puts `code` and `message` on the wire as they are. */
export class PolicyRpcError extends Error {
  /** The JSON-RPC code. */
  readonly code: number;
  /** The JSON-RPC error data: `{ uri }` on resource-not-found answers, and the failure object (not beside `uri` on SDK v2). */
  readonly data?: Record<string, unknown>;

  constructor(code: number, message: string, data?: Record<string, unknown>) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code;
    if (data !== undefined) this.data = data;
    markAnswer(this);
  }
}

/** The wire shape of resources and prompts: a JSON-RPC error thrown to the SDK. */
export function rpcShape(handler: 'resource' | 'prompt', nameFromArgs?: (args: readonly unknown[]) => string | undefined): WireShape<never> {
  return {
    handler,
    answer(classification: Classification, name, policy, request): never {
      if (classification.kind === 'anticipated') {
        const notFound = handler === 'resource' && classification.code === RESOURCE_NOT_FOUND_CODE && name !== undefined;
        const uri = notFound ? safeText(name, MAX_NAME_LENGTH, policy.redact) : undefined;
        // SDK v2's per-request context has `mcpReq`
        const data = errorData(policy, classification.failure, uri, isObjectLike(readProp(request, 'mcpReq')));
        throw new PolicyRpcError(classification.code, classification.message, data);
      }
      if (classification.kind === 'crash') {
        throw new PolicyRpcError(INTERNAL_ERROR_CODE, crashText(failedCallText(handler, name, policy), classification), errorData(policy, classification.failure, undefined));
      }
      throw protocolAnswer(classification, policy);
    },
    answerDegraded(message, _name, policy, failure): never {
      throw new PolicyRpcError(INTERNAL_ERROR_CODE, message, errorData(policy, failure, undefined));
    },
    answerUnreadable(name): never {
      throw new PolicyRpcError(INTERNAL_ERROR_CODE, failedCallText(handler, name, undefined));
    },
    ...(nameFromArgs === undefined ? {} : { nameFromArgs }),
  };
}

/**
 * Requests that run a server's code without being one tool, resource or prompt call: `completion/complete` and the
 * list requests (`tools/list`, `resources/list`, `resources/templates/list`, `prompts/list`). A failure becomes a
 * JSON-RPC error: an anticipated one keeps its text and code; a crash says only which request failed,
 * `Error handling <method> (reference <id>)` (in report mode, its own text, scrubbed); a protocol error passes
 * through. Each failure is logged once, named by the method, under the kind the request is about (a completion: the
 * prompt or resource its `ref` names). These requests get no access-log outcome and no telemetry span of their own.
 */
import type { Classification } from '../classification.js';
import { classifyError } from '../classify.js';
import type { HandlerKind } from '../log.js';
import type { ErrorPolicy } from '../policy.js';
import { readProp, readString } from '../kit/read.js';
import { reportFailure } from '../report.js';
import { INTERNAL_ERROR_CODE } from '../status.js';
import { handledIn, isPromiseLike, settle } from './calls.js';
import { crashText, errorData } from './meta.js';
import { PolicyRpcError } from './rpc-error.js';

type Fn = (this: unknown, ...args: unknown[]) => unknown;

/** The requests covered here, by method, and the kind each is about. */
const REQUESTS: Readonly<Record<string, HandlerKind>> = {
  'completion/complete': 'prompt',
  'tools/list': 'tool',
  'resources/list': 'resource',
  'resources/templates/list': 'resource',
  'prompts/list': 'prompt',
};

/** Whether a request handler of `method` is covered here. */
export function isListOrCompletion(method: string): boolean {
  return Object.hasOwn(REQUESTS, method);
}

/** The kind a request is about: a completion's `params.ref.type` (`ref/resource`), else the method's. */
function kindOf(method: string, request: unknown): HandlerKind {
  if (method !== 'completion/complete') return REQUESTS[method] ?? 'tool';
  return readString(readProp(readProp(request, 'params'), 'ref'), 'type') === 'ref/resource' ? 'resource' : 'prompt';
}

/** The JSON-RPC error for a classified failure (a protocol error is thrown as it is). */
function answer(classification: Classification, method: string, policy: ErrorPolicy): never {
  if (classification.kind === 'protocol') throw classification.error;
  if (classification.kind === 'anticipated') {
    throw new PolicyRpcError(classification.code, classification.message, errorData(policy, classification.failure, undefined));
  }
  throw new PolicyRpcError(INTERNAL_ERROR_CODE, crashText(`Error handling ${method}`, policy, classification), errorData(policy, classification.failure, undefined));
}

function fail(policy: ErrorPolicy, method: string, request: unknown, error: unknown): never {
  if (handledIn(error, undefined) !== undefined) throw error; // an answer of this package's, made inside
  let classification: Classification;
  try {
    classification = classifyError(error, policy);
    reportFailure(policy, { handler: kindOf(method, request), name: method, startedAt: 0 }, classification, false);
  } catch {
    throw new PolicyRpcError(INTERNAL_ERROR_CODE, `Error handling ${method}`);
  }
  return answer(classification, method, policy);
}

/**
 * Wraps the request handler of a list or completion request (`(request, extra)`) so that its failures reach the client
 * as the policy decides, each logged once. On success it returns what the handler returns.
 */
export function guardRequest(handler: Fn, method: string, policy: ErrorPolicy): Fn {
  return function (this: unknown, request: unknown, extra: unknown): unknown {
    let result: unknown;
    try {
      result = handler.call(this, request, extra);
    } catch (error) {
      return settle(() => fail(policy, method, request, error));
    }
    if (!isPromiseLike(result)) return result;
    return Promise.resolve(result).then(undefined, (error: unknown) => fail(policy, method, request, error));
  };
}

/**
 * Requests that run a server's code without being one tool, resource or prompt call: `completion/complete` and the
 * list requests (`tools/list`, `resources/list`, `resources/templates/list`, `prompts/list`). A failure becomes a
 * JSON-RPC error: an anticipated one keeps its text and code; a crash says only which request failed,
 * `Error handling <method> (reference <id>)`; a protocol error passes through (in report mode, every failure: the SDK
 * answers it). Each failure is logged once, named by the method, under the kind the request is about (a completion:
 * the prompt or resource its `ref` names, and the record's `about` names it and the argument; a `resources/list` that
 * failed in a template's list callback: `about` names the template). A failure after the request's signal was aborted
 * is a cancellation (src/cancellation.ts). These requests get no access-log outcome and no telemetry span of their own.
 */
import { cancellation, wasCancelled } from '../cancellation.js';
import type { Classification } from '../classification.js';
import { classifyError } from '../classify.js';
import type { HandlerKind } from '../log.js';
import type { ErrorPolicy } from '../policy.js';
import { isObjectLike, readProp, readString } from '../kit/read.js';
import { reportFailure } from '../report.js';
import { INTERNAL_ERROR_CODE } from '../status.js';
import { guardedCall, handledIn, requestOf } from './calls.js';
import { crashText, errorData } from './meta.js';
import { PolicyRpcError } from './rpc-error.js';
import { protocolAnswer } from './protocol-answer.js';
import { transparentAnswer } from './transparent.js';

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

/**
 * What a completion was about: the prompt or resource template its `ref` names and the argument being completed,
 * `prompt "summarize" argument "sheet"` (peer-supplied: the reporter scrubs and bounds it); `undefined` for lists.
 */
function aboutOf(method: string, request: unknown): string | undefined {
  if (method !== 'completion/complete') return undefined;
  const params = readProp(request, 'params');
  const ref = readProp(params, 'ref');
  const resource = readString(ref, 'type') === 'ref/resource';
  const name = readString(ref, resource ? 'uri' : 'name');
  const argument = readString(readProp(params, 'argument'), 'name');
  const parts = [name === undefined ? undefined : `${resource ? 'resource template' : 'prompt'} ${JSON.stringify(name)}`, argument === undefined ? undefined : `argument ${JSON.stringify(argument)}`];
  const about = parts.filter((part) => part !== undefined).join(' ');
  return about === '' ? undefined : about;
}

/**
 * What a list failure was about, by the error a template's list callback threw (src/adapters/mcp-server.ts tags it),
 * or, for a thrown primitive (the reason string of a cancelled call), by the call's per-request context.
 */
const listFailures = new WeakMap<object, string>();

/** The key of a list failure in {@link listFailures}: the error, else the call's per-request context. */
function listFailureKey(error: unknown, args: readonly unknown[]): object | undefined {
  return isObjectLike(error) ? error : requestOf(args);
}

/**
 * Runs a resource template's list callback so that what it throws names the template in the record of the
 * `resources/list` failure (`resource template "files"`). The thrown value passes on unchanged.
 */
export function namedListCallback(list: Fn, template: string): Fn {
  return function (this: unknown, ...args: unknown[]): unknown {
    return guardedCall(list, this, args, (error) => {
      const key = listFailureKey(error, args);
      if (key !== undefined && !listFailures.has(key)) listFailures.set(key, `resource template ${JSON.stringify(template)}`);
      throw error;
    });
  };
}

/** The JSON-RPC error for a classified failure (a protocol error is thrown as it is). */
function answer(classification: Classification, method: string, policy: ErrorPolicy): never {
  if (classification.kind === 'protocol') throw protocolAnswer(classification, policy);
  if (classification.kind === 'anticipated') {
    throw new PolicyRpcError(classification.code, classification.message, errorData(policy, classification.failure, undefined));
  }
  throw new PolicyRpcError(INTERNAL_ERROR_CODE, crashText(`Error handling ${method}`, classification), errorData(policy, classification.failure, undefined));
}

function fail(policy: ErrorPolicy, method: string, args: readonly unknown[], error: unknown): never {
  if (handledIn(error, undefined) !== undefined) throw error; // an answer of this package's, made inside
  const request = args[0];
  let classification: Classification;
  try {
    // a failure after the request's signal was aborted is the cancellation's doing, whatever was thrown
    classification = wasCancelled(requestOf(args)) ? cancellation(error, policy) : classifyError(error, policy);
    const key = listFailureKey(error, args);
    const about = aboutOf(method, request) ?? (key === undefined ? undefined : listFailures.get(key));
    reportFailure(policy, { handler: kindOf(method, request), name: method, startedAt: 0, about }, classification, false);
  } catch {
    throw new PolicyRpcError(INTERNAL_ERROR_CODE, `Error handling ${method}`);
  }
  const passed = policy.mode === 'report' ? transparentAnswer(error, policy) : undefined;
  if (passed !== undefined) throw passed.thrown;
  return answer(classification, method, policy);
}

/**
 * Wraps the request handler of a list or completion request (`(request, extra)`) so that its failures reach the client
 * as the policy decides, each logged once. On success it returns what the handler returns.
 */
export function guardRequest(handler: Fn, method: string, policy: ErrorPolicy): Fn {
  return function (this: unknown, ...args: unknown[]): unknown {
    return guardedCall(handler, this, args, (error) => fail(policy, method, args, error));
  };
}

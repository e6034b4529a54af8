/**
 * The low-level `Server` adapter (`Server` of `@modelcontextprotocol/sdk/server/index.js` 1.x, of
 * `@modelcontextprotocol/server` 2.x). A low-level server answers requests with handlers set by `setRequestHandler`,
 * kept in one map by method; the policy wraps the handlers of the requests that run a server's own code, in that map,
 * now and whenever one is set later. Its internals are read in ./low-level-internals.ts.
 */
import { callbackKindOf } from '../callback-methods.js';
import type { HandlerKind } from '../log.js';
import type { ErrorPolicy } from '../policy.js';
import { isObjectLike, readProp } from '../kit/read.js';
import { traceRequest, tracesNow } from '../telemetry.js';
import type { Binding } from '../wrap/guard.js';
import { ownHandler } from '../wrap/own.js';
import { guardRequest, isListOrCompletion } from '../wrap/request.js';
import { signInAnswer, signInMode } from '../wrap/sign-in.js';
import type { ServerAdapter } from './adapter.js';
import { refuseMcpServerCallbacks } from './held-server.js';
import { coverHandlerMap, looksLikeLowLevelServer, requestHandlersOf } from './low-level-internals.js';
import { warnUnguarded } from './unguarded.js';

type Fn = (this: unknown, ...args: unknown[]) => unknown;

/** Whether a policy's `reauthorize` may give a sign-in URL: tool calls may then be answered with -32042. */
export function elicitsSignIn(policy: ErrorPolicy): boolean {
  return typeof policy.reauthorize === 'function' || readProp(policy.reauthorize, 'url') !== undefined;
}

/**
 * A tool call's answer (`result`, what the handler returned) as a sign-in the client can follow (the -32042 error, or
 * on 2026-07-28 an input-required result) when the wrapper answered a failure that asks for a sign-in and the client
 * of `low` takes URL elicitation; else `result` as it is.
 */
export function withSignIn(result: unknown, extra: unknown, low: unknown): unknown {
  const mode = isObjectLike(low) ? signInMode(low, extra) : undefined;
  if (mode === undefined) return result;
  return Promise.resolve(result).then((value) => signInAnswer(mode, extra, value));
}

/** A low-level request handler under the policy: one wrapper around the whole handler, named by the request. */
function wrapHandler(server: object, policy: ErrorPolicy, kind: HandlerKind, handler: Fn): Fn {
  // Not governing: a wrapper of the user's own inside the handler keeps its own policy (or `defaultPolicy`), as a
  // wrapper does on a server without the policy. Governing would keep per-call state on every successful call.
  // With a telemetry, the request-level function below opens the call's span, so the guard opens none.
  const binding: Binding = { policy, name: undefined, claims: policy.onOutcome !== undefined, governs: false, ...(policy.telemetry === undefined ? {} : { tracedByRequest: true as const }) };
  const guarded = ownHandler(handler, kind, binding);
  const signsIn = kind === 'tool' && elicitsSignIn(policy);
  if (!signsIn && policy.telemetry === undefined) return guarded;
  return function (this: unknown, request: unknown, extra: unknown): unknown {
    // the telemetry is asked once a call whether it records (src/telemetry.ts)
    const traces = tracesNow(policy);
    if (!signsIn && !traces) return guarded.call(this, request, extra);
    const answer = (): unknown => {
      const result = guarded.call(this, request, extra);
      return signsIn ? withSignIn(result, extra, server) : result;
    };
    // the call's one span, around the wrapper and the sign-in answer
    return traces ? traceRequest(policy, kind, request, extra, server, answer) : answer();
  } as Fn;
}

/**
 * What the policy does with a request handler that server code sets on `low` (a low-level `Server`, or the one an
 * `McpServer` holds), by its method: the handlers of tools/call, resources/read and prompts/get are wrapped whole, those
 * of completions and lists guarded; for any other method it returns `undefined`, having warned that it cannot guard
 * the handler (./unguarded.ts).
 */
export function directHandlerWrapper(low: object, policy: ErrorPolicy): (method: string, handler: Fn) => Fn | undefined {
  return (method, handler) => {
    if (isListOrCompletion(method)) return guardRequest(handler, method, policy);
    const kind = callbackKindOf(method);
    if (kind !== undefined) return wrapHandler(low, policy, kind, handler);
    warnUnguarded(low, method);
    return undefined;
  };
}

/** The adapter for a low-level `Server` of either SDK. */
export const lowLevelAdapter: ServerAdapter = {
  name: 'low-level Server',
  accepts: looksLikeLowLevelServer,
  apply(server, policy) {
    const map = requestHandlersOf(server);
    if (map === undefined) {
      throw new Error(
        'applyErrorPolicy: this low-level Server\'s internals are not a layout mcp-error-policy knows (found no `_requestHandlers` map). ' +
          'Supported: SDK 1.0.1 and later 1.x, 2.x; meanwhile wrap its handlers with withClientVisibleErrors.',
      );
    }
    refuseMcpServerCallbacks(server);
    coverHandlerMap(map, directHandlerWrapper(server, policy));
  },
};

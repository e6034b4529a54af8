/**
 * Request handlers the policy cannot guard, and the warning that names them. Server code can set a handler for any
 * method with `setRequestHandler` (on a low-level `Server`, or on the `Server` an `McpServer` holds): the policy guards
 * those that run a tool, resource or prompt, a completion or a list, whose answers it knows. For any other method
 * (`resources/subscribe`, `resources/unsubscribe`, a custom method) it cannot tell what a failure's answer should be,
 * so the handler keeps the SDK's answer: the thrown error's message reaches the client. `applyErrorPolicy` says so once
 * per method and server, when it finds the handler (at the call, or when the handler is set later), as a process
 * warning: a log record of the policy is one failure's, and this is none.
 */
import { readProp } from '../kit/read.js';

type Fn = (this: unknown, ...args: unknown[]) => unknown;

/** The type of every warning `applyErrorPolicy` emits (`process.on('warning')` sees it as the warning's `name`). */
export const WARNING_TYPE = 'McpErrorPolicyWarning';

/** The code of the warning about a handler the policy cannot guard. */
export const UNGUARDED_CODE = 'MCP_ERROR_POLICY_UNGUARDED_HANDLER';

/**
 * The requests the SDKs answer with handlers of their own, set when a server is made or connected (`initialize`,
 * `ping`, `logging/setLevel`, SDK v2's `server/discover`, SDK v1's task requests): no warning, whoever sets them.
 */
const SDK_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'logging/setLevel',
  'server/discover',
  'tasks/get',
  'tasks/result',
  'tasks/list',
  'tasks/cancel',
]);

/** The methods each server was warned about. */
const warned = new WeakMap<object, Set<string>>();

/**
 * Emits `text` as a warning of this package: `process.emitWarning` (Node writes it to stderr once, unless warnings are
 * silenced), or `console.warn` where there is no `process`.
 */
export function emitPolicyWarning(text: string, code?: string): void {
  const emit = readProp(globalThis.process, 'emitWarning');
  if (typeof emit === 'function') (emit as Fn).call(globalThis.process, text, code === undefined ? WARNING_TYPE : { type: WARNING_TYPE, code });
  else console.warn(text);
}

/**
 * Warns, once per `server` and `method`, that the handler of `method` is not under the policy, unless the SDK answers
 * `method` itself.
 */
export function warnUnguarded(server: object, method: string): void {
  if (SDK_METHODS.has(method)) return;
  const methods = warned.get(server) ?? new Set<string>();
  if (methods.has(method)) return;
  methods.add(method);
  warned.set(server, methods);
  emitPolicyWarning(
    `applyErrorPolicy: the handler of ${JSON.stringify(method)} is not under the policy: it guards tools/call, resources/read, prompts/get, ` +
      'completion/complete and the list requests, and leaves the answers of other requests to the SDK, so what this handler throws reaches the client as its message. ' +
      "Catch its failures inside it and throw an McpError (ProtocolError in SDK v2) whose text is meant for the client.",
    UNGUARDED_CODE,
  );
}

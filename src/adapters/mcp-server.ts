/**
 * The McpServer adapter (SDK v1 `McpServer` of `@modelcontextprotocol/sdk/server/mcp.js`, SDK v2 `McpServer` of
 * `@modelcontextprotocol/server`): it wraps the callbacks the server holds now and every callback it is given later,
 * binds callbacks wrapped by hand to the server's policy and registered name (unless they were given their own), and
 * (with an access log) sees the calls the SDK rejects before any callback runs. Every read of the server's internals
 * goes through ./mcp-server-internals.ts (and ./low-level-internals.ts for the `Server` it holds).
 */
import { callbackKindOf } from '../callback-methods.js';
import type { Classification } from '../classification.js';
import { classifyError } from '../classify.js';
import type { HandlerKind } from '../log.js';
import type { ErrorPolicy } from '../policy.js';
import { isObjectLike, isRecord, readProp, readString } from '../kit/read.js';
import { now, reportOutcome } from '../report.js';
import { CRASH, statusOfRejection, statusOfResult } from '../status.js';
import { traceRequest, tracesNow } from '../telemetry.js';
import { callState, guardedCall, observe } from '../wrap/calls.js';
import { bindGuard, isWrapped, type Binding } from '../wrap/guard.js';
import { ownHandler } from '../wrap/own.js';
import { guardTaskHandler, isTaskHandler, linkTaskCall } from '../wrap/task.js';
import { guardRequest, isListOrCompletion, namedListCallback } from '../wrap/request.js';
import { outputSchemaCrash, toolFailureResult } from '../wrap/tool.js';
import { isProtocolError, protocolCode } from '../protocol.js';
import type { ServerAdapter } from './adapter.js';
import { directHandlerWrapper, elicitsSignIn, withSignIn } from './low-level.js';
import { coverHandlerMap, lowLevelOf, requestHandlersOf } from './low-level-internals.js';
import {
  REGISTRATION_METHODS,
  callbackSlotOf,
  experimentalTasksOf,
  isDisabled,
  listRegistrations,
  looksLikeMcpServer,
  registriesOf,
  rememberGiven,
  renameIn,
  setToolErrorMaker,
  setToolOutputValidator,
  toolErrorMakerOf,
  toolOutputValidatorOf,
  sdkFound,
  setByMcpServer,
  taskHandlerSlotOf,
  templateListSlotOf,
  templateMatches,
  type Entry,
  watchMcpServerSets,
  type Registries,
} from './mcp-server-internals.js';

type Fn = (this: unknown, ...args: unknown[]) => unknown;

/** Marks what this module patched: a registration's `update`. */
const PATCHED = Symbol('mcp-error-policy.patched');

interface Context {
  readonly policy: ErrorPolicy;
  /** Whether the access log is on: wrappers then claim their calls, and calls the SDK rejects are counted here. */
  readonly traced: boolean;
  /** Whether the policy's `reauthorize` may give a sign-in URL: tool calls may then be answered with -32042. */
  readonly elicits: boolean;
  readonly registries: Registries;
  readonly server: object;
}

/** The error for a server whose internals the adapter does not recognise: nothing is left silently unwrapped. */
function unknownLayout(server: object, what: string): Error {
  return new Error(
    `applyErrorPolicy: this McpServer's internals are not a layout mcp-error-policy knows (found ${sdkFound(server)}: ${what}). ` +
      'Supported: @modelcontextprotocol/sdk 1.13 and later 1.x, @modelcontextprotocol/server 2.x; meanwhile wrap handlers with withClientVisibleErrors.',
  );
}

/**
 * The binding of a callback the McpServer's own request handlers call. With a telemetry, those handlers are wrapped
 * (`wrapRequest`) and open the call's span, so the callback opens none; a task tool's handler methods also run in
 * requests of their own (`tasks/get`, `tasks/result`) and keep theirs (`task`).
 */
function bindingFor(ctx: Context, name: string | undefined, governs = false, task = false): Binding {
  const binding: Binding = { policy: ctx.policy, name: name === '' ? undefined : name, claims: ctx.traced, governs };
  return ctx.policy.telemetry === undefined || task ? binding : { ...binding, tracedByRequest: true };
}

/** Puts a registration's callback under the policy, in the slot the SDK calls. */
function cover(ctx: Context, entry: Entry, kind: HandlerKind, name: string | undefined): void {
  const slot = callbackSlotOf(entry, kind);
  if (slot === undefined) {
    // a task tool: its handler object's methods, guarded in a copy
    const task = taskHandlerSlotOf(entry);
    if (task !== undefined && isTaskHandler(task.handler)) task.set(guardTaskHandler(task.handler, bindingFor(ctx, name, false, true)));
    return;
  }
  const binding = bindingFor(ctx, name);
  if (typeof slot === 'string') throw unknownLayout(ctx.server, slot);
  if (slot.given !== undefined) {
    // the SDK calls the given callback through a function of its own: bind the callback in place if it is ours
    const bound = bindGuard(slot.given, binding);
    if (bound === slot.given || (bound === undefined && isWrapped(slot.given))) return;
  }
  slot.set(ownHandler(slot.fn, kind, slot.hidesCallback ? bindingFor(ctx, name, true) : binding));
}

/**
 * Patches `update` of a registration so that a new `callback` is put under the policy and a new `name` names its
 * failures. The SDK's own `update` still runs (and sends its list_changed notification, as it always does).
 */
function patchUpdate(ctx: Context, entry: Entry, kind: HandlerKind, registeredName: string | undefined): void {
  const update = entry['update'];
  if (typeof update !== 'function' || readProp(update, PATCHED) !== undefined) return;
  let name = registeredName;
  const patched = function (this: unknown, updates: unknown): unknown {
    let next = updates;
    const rename = renameIn(updates, kind);
    const nextName = rename ?? name;
    if (isRecord(updates)) {
      const callback = readProp(updates, 'callback');
      if (typeof callback === 'function') {
        next = { ...updates, callback: ownHandler(callback as Fn, kind, bindingFor(ctx, nextName)) };
      } else if (rename !== undefined && rename !== name) {
        // a callback the SDK keeps in a closure follows the new name only if the SDK is given it again
        const slot = callbackSlotOf(entry, kind);
        const given = typeof slot === 'object' ? slot.given : undefined;
        const renamed = given === undefined ? undefined : bindGuard(given, bindingFor(ctx, nextName));
        if (renamed !== undefined && renamed !== given) next = { ...updates, callback: renamed };
      }
    }
    const result = (update as Fn).call(this, next);
    name = nextName;
    const given = readProp(next, 'callback');
    if (typeof given === 'function') rememberGiven(entry, given as Fn);
    cover(ctx, entry, kind, name);
    return result;
  };
  Object.defineProperty(patched, PATCHED, { value: update });
  entry['update'] = patched;
}

function adopt(ctx: Context, entry: unknown, kind: HandlerKind, name: string | undefined): void {
  if (!isObjectLike(entry)) return;
  patchUpdate(ctx, entry as Entry, kind, name);
  cover(ctx, entry as Entry, kind, name);
}

/**
 * Patches a registration method of `target` (the server, or its experimental tasks API) so that its callback (the last
 * argument) is put under the policy.
 */
function patchMethod(ctx: Context, method: string, kind: HandlerKind, target: object = ctx.server): void {
  const original = readProp(target, method);
  if (typeof original !== 'function') return; // SDK v2 has no tool/resource/prompt
  const patched = function (this: unknown, ...args: unknown[]): unknown {
    const name = kind !== 'resource' && typeof args[0] === 'string' ? args[0] : undefined;
    const last = args.length - 1;
    let given: Fn | undefined;
    if (last >= 1 && typeof args[last] === 'function') {
      given = ownHandler(args[last] as Fn, kind, bindingFor(ctx, name));
      args[last] = given;
    }
    const registered = (original as Fn).apply(this, args);
    if (isObjectLike(registered)) {
      if (given !== undefined) rememberGiven(registered as Entry, given);
      adopt(ctx, registered, kind, name);
    }
    return registered;
  };
  Object.defineProperty(patched, 'name', { value: (original as Fn).name, configurable: true });
  Object.defineProperty(target, method, { value: patched, configurable: true, writable: true, enumerable: false });
}

/** How the SDK's registries see a requested name or URI. */
type Lookup = 'found' | 'not-found' | 'invalid';

function lookup(registries: Registries, kind: HandlerKind, name: string | undefined): Lookup {
  let registry = kind === 'tool' ? registries.tools : registries.prompts;
  let key = name;
  if (kind === 'resource') {
    if (name === undefined) return 'invalid';
    try {
      key = new URL(name).toString();
    } catch {
      return 'invalid';
    }
    registry = registries.resources;
    if (!Object.hasOwn(registry, key)) {
      const template = Object.values(registries.templates).find((entry) => templateMatches(entry, key as string));
      return template === undefined || isDisabled(template) ? 'not-found' : 'found';
    }
  }
  if (key === undefined || !Object.hasOwn(registry, key)) return 'not-found';
  return isDisabled(registry[key]) ? 'not-found' : 'found';
}

/** Whether `name` is a registered task tool (its handler is an object). */
function isTaskTool(registries: Registries, name: string | undefined): boolean {
  return name !== undefined && Object.hasOwn(registries.tools, name) && callbackSlotOf(registries.tools[name] ?? {}, 'tool') === undefined;
}

/** The access-log status of a call the SDK answered without reaching a callback wrapper. */
function rejectionOutcome(
  ctx: Context,
  kind: HandlerKind,
  name: string | undefined,
  threw: boolean,
  value: unknown,
): { status: number; classification?: Classification } {
  const { registries } = ctx;
  const found = lookup(registries, kind, name);
  if (found !== 'found') return { status: statusOfRejection(found) };
  if (threw) {
    const classification = classifyError(value, ctx.policy);
    return classification.kind === 'protocol' ? { status: classification.status, classification } : { status: CRASH };
  }
  // Calls of task tools that no guarded method answered end here; so do the SDK's own argument checks (isError, 400).
  const taskTool = kind === 'tool' && isTaskTool(registries, name);
  if (taskTool || readProp(value, 'isError') !== true) return { status: statusOfResult(value) };
  return { status: statusOfRejection('invalid') };
}

/**
 * Wraps a low-level request handler (tools/call, resources/read, prompts/get) so that a call the SDK answers without
 * reaching a callback wrapper (unknown or disabled name, invalid arguments, bad URI, task tools) still gets one
 * access-log outcome. It changes nothing in the answer.
 */
function wrapRequest(ctx: Context, kind: HandlerKind, handler: Fn): Fn {
  const key = kind === 'resource' ? 'uri' : 'name';
  const signsIn = ctx.elicits && kind === 'tool';
  const out = function (this: unknown, ...args: unknown[]): unknown {
    const [request, extra] = args;
    // the telemetry is asked once a call whether it records (src/telemetry.ts)
    const traces = tracesNow(ctx.policy);
    // neither the access log, nor a sign-in answer, nor a span: the handler as it is
    if (!ctx.traced && !signsIn && !traces) return handler.apply(this, args);
    const answer = (): unknown => {
      const result = handler.apply(this, args);
      return signsIn ? withSignIn(result, extra, lowLevelOf(ctx.server)) : result;
    };
    // the call's one span, around the SDK's handler and the sign-in answer
    const traced = (): unknown => (traces ? traceRequest(ctx.policy, kind, request, extra, ctx.server, answer) : answer());
    if (!ctx.traced) return traced();
    if (kind === 'tool' && isTaskTool(ctx.registries, readString(readProp(request, 'params'), 'name'))) linkTaskCall(extra);
    const startedAt = now();
    const settle = (threw: boolean, value: unknown): void => {
      try {
        if (callState(extra)?.claimed === true) return;
        const raw = readString(readProp(request, 'params'), key);
        const { status, classification } = rejectionOutcome(ctx, kind, raw, threw, value);
        // reportOutcome scrubs the name once (a redactor need not be idempotent)
        reportOutcome(ctx.policy, { handler: kind, name: raw, startedAt }, status, classification);
      } catch {
        // the access log must not change the answer
      }
    };
    return Promise.resolve(observe(traced, settle));
  };
  return out;
}

/** SDK 1.13.0 and 1.13.1's refusal of an isError result of a tool that declares an `outputSchema`. */
function isOutputSchemaRefusal(error: unknown): boolean {
  return isProtocolError(error) && protocolCode(error) === -32602 && /has an output schema but no structured content was provided/.test(readString(error, 'message') ?? '');
}

/**
 * The McpServer's tools/call handler, so that the policy's answer to a failed tool reaches the client on SDK 1.13.0
 * and 1.13.1 too: they check a tool's `outputSchema` against isError results as well and refuse the policy's answer
 * with -32602 (`… has an output schema but no structured content was provided`; fixed in 1.13.2). Such a refusal of a
 * call the policy answered gets that answer back. Calls of tools without an `outputSchema`, and report mode (where the
 * client gets the SDK's own answer), run the handler as it is.
 */
function keepingToolAnswers(ctx: Context, handler: Fn): Fn {
  return function (this: unknown, ...args: unknown[]): unknown {
    const [request, extra] = args;
    const name = readString(readProp(request, 'params'), 'name');
    const tools: Record<string, unknown> = ctx.registries.tools;
    if (ctx.policy.mode === 'report' || name === undefined || !Object.hasOwn(tools, name) || readProp(tools[name], 'outputSchema') === undefined) return handler.apply(this, args);
    return guardedCall(handler, this, args, (error) => {
      const answered = callState(extra)?.answered;
      if (answered === undefined || !isOutputSchemaRefusal(error)) throw error;
      return toolFailureResult(answered, name, ctx.policy);
    });
  };
}

/** Marks a template list callback this module named (its value is the callback it runs). */
const NAMED = Symbol('mcp-error-policy.named-list');

/**
 * The `resources/list` handler, which first makes each template's list callback (those registered or replaced since
 * the last list too) name its template in the record of a failure.
 */
function nameListFailures(registries: Registries, handler: Fn): Fn {
  return function (this: unknown, ...args: unknown[]): unknown {
    for (const [name, entry] of Object.entries(registries.templates)) {
      const slot = templateListSlotOf(entry);
      if (slot === undefined || readProp(slot.list, NAMED) !== undefined) continue;
      slot.set(Object.defineProperty(namedListCallback(slot.list, name), NAMED, { value: slot.list }));
    }
    return handler.apply(this, args);
  };
}

/** Who set a request handler of the `Server` an McpServer holds: the McpServer, server code, or either (unknown). */
type SetBy = 'McpServer' | 'server code' | 'either';

/** Whether a registry holds any registration (without listing them: this runs on calls). */
function holdsAny(registry: Readonly<Record<string, unknown>>): boolean {
  for (const key in registry) if (Object.hasOwn(registry, key)) return true;
  return false;
}

/** Whether the McpServer holds a registration of `kind` now (a resource: a static resource or a template). */
function hasRegistrations(registries: Registries, kind: HandlerKind): boolean {
  if (kind === 'tool') return holdsAny(registries.tools);
  if (kind === 'prompt') return holdsAny(registries.prompts);
  return holdsAny(registries.resources) || holdsAny(registries.templates);
}

/**
 * Who set the handler of `method` the `Server` holds when the policy is applied: server code, if the McpServer has not
 * set its handlers of that method; else the McpServer, unless the handler serves calls (tools/call, resources/read,
 * prompts/get) and the McpServer holds no registration of that kind yet. Then it is either's: the McpServer sets its
 * handlers when it is made with the capability declared (SDK 1.32.2 and later, 2.x), and server code may have replaced
 * them since (nothing tells the two apart); see {@link byRegistrations}.
 */
function setByAtApply(ctx: Context, method: string): SetBy {
  if (setByMcpServer(ctx.server, method) !== true) return 'server code';
  const kind = callbackKindOf(method);
  return kind === undefined || hasRegistrations(ctx.registries, kind) ? 'McpServer' : 'either';
}

/**
 * A call handler whose setter is unknown (`either`), answering each call as the McpServer's own (`mcp`) while the
 * McpServer holds registrations of its kind, and as server code's (`direct`, a low-level Server's guard) while it holds
 * none: an McpServer serves what it holds, and a handler that replaced its own would leave those registrations unserved.
 */
function byRegistrations(ctx: Context, kind: HandlerKind, mcp: Fn, direct: Fn): Fn {
  return function (this: unknown, ...args: unknown[]): unknown {
    return (hasRegistrations(ctx.registries, kind) ? mcp : direct).apply(this, args);
  };
}

/**
 * Wraps the handlers of the `Server` the McpServer holds (`low`), now and whenever they are set (`setsOwn` tells
 * whether a handler set later is the McpServer's; ./mcp-server-internals.ts). Those of the list requests and
 * completion/complete are guarded whoever set them (they run the server's code: template list callbacks, completers,
 * or server code's own lists). Those of tools/call, resources/read and prompts/get: the McpServer's own when `calls`
 * (for the access log, sign-in answers and telemetry: its callbacks are guarded where it keeps them); those server code
 * set on `mcpServer.server`, before the policy or after it, as on a low-level `Server` (./low-level.ts), and so are
 * other requests' handlers, which it cannot guard (./unguarded.ts).
 */
function coverRequests(ctx: Context, low: object, map: Map<unknown, unknown>, calls: boolean, setsOwn: (method: string) => boolean): void {
  const direct = directHandlerWrapper(low, ctx.policy);
  coverHandlerMap(map, (method, handler, existing) => {
    // asked of every handler set, lists included: each announcement of the McpServer's serves one handler
    const setBy: SetBy = existing ? setByAtApply(ctx, method) : setsOwn(method) ? 'McpServer' : 'server code';
    if (method === 'resources/list') return guardRequest(nameListFailures(ctx.registries, handler), method, ctx.policy);
    if (isListOrCompletion(method)) return guardRequest(handler, method, ctx.policy);
    const kind = callbackKindOf(method);
    if (kind === undefined || setBy === 'server code') return direct(method, handler);
    const wrapped = calls ? wrapRequest(ctx, kind, handler) : undefined;
    const mcp = kind === 'tool' ? keepingToolAnswers(ctx, wrapped ?? handler) : wrapped;
    if (setBy === 'McpServer') return mcp;
    return byRegistrations(ctx, kind, mcp ?? handler, direct(method, handler) ?? handler);
  });
}

/**
 * Patches the server's output-schema check of tool results: a result that fails it (a bug of the server's) is logged
 * once as a crash, and the tool answers with the crash text and reference instead of the SDK's validation message.
 * Tools without an output schema go straight to the SDK's check.
 */
function coverOutputValidation(ctx: Context): void {
  const validate = toolOutputValidatorOf(ctx.server);
  if (validate === undefined) return;
  // The SDK answers what the check throws with `createToolError(message)`, which keeps only the message: the answers
  // the policy made, by their text (it holds the crash's reference, so it is unique), until the SDK asks for them.
  const answers = new Map<string, unknown>();
  const make = toolErrorMakerOf(ctx.server);
  if (make !== undefined) {
    setToolErrorMaker(ctx.server, function (this: unknown, message: unknown, ...rest: unknown[]): unknown {
      const answer = typeof message === 'string' ? answers.get(message) : undefined;
      if (answer === undefined) return make.call(this, message, ...rest);
      answers.delete(message as string);
      return answer;
    });
  }
  setToolOutputValidator(ctx.server, function (this: unknown, tool: unknown, result: unknown, name: unknown, ...rest: unknown[]): unknown {
    const checked = validate.call(this, tool, result, name, ...rest);
    if (readProp(tool, 'outputSchema') === undefined) return checked;
    const toolName = typeof name === 'string' ? name : undefined;
    return Promise.resolve(checked).then(undefined, (error: unknown) => {
      const crash = outputSchemaCrash(error, toolName, ctx.policy);
      const meta = readProp(crash, 'data');
      const text = readString(crash, 'message');
      if (make !== undefined && crash !== error && text !== undefined && isObjectLike(meta)) {
        if (answers.size >= 64) answers.clear(); // answers the SDK never asked for (it always does, at once)
        answers.set(text, { content: [{ type: 'text', text }], isError: true, _meta: meta });
      }
      throw crash;
    });
  });
}

/** The adapter for an `McpServer` of either SDK. */
export const mcpServerAdapter: ServerAdapter = {
  name: 'McpServer',
  accepts: looksLikeMcpServer,
  apply(server, policy) {
    const registries = registriesOf(server);
    if (typeof registries === 'string') throw unknownLayout(server, registries);
    const traced = policy.onOutcome !== undefined;
    const elicits = elicitsSignIn(policy);
    const low = lowLevelOf(server);
    const handlers = requestHandlersOf(low);
    if (handlers === undefined || !isObjectLike(low)) throw unknownLayout(server, 'no `server._requestHandlers` map');
    const ctx: Context = { policy, traced, elicits, registries, server };
    // check every registration and handler before changing any, so that an unknown layout leaves the server as it was
    const registrations = listRegistrations(registries);
    for (const { entry, kind } of registrations) {
      const slot = callbackSlotOf(entry, kind);
      if (typeof slot === 'string') throw unknownLayout(server, slot);
    }
    for (const method of handlers.keys()) {
      const setBy = typeof method === 'string' ? setByMcpServer(server, method) : false;
      if (typeof setBy === 'string') throw unknownLayout(server, setBy);
    }
    const setsOwn = watchMcpServerSets(low);
    if (setsOwn === undefined) throw unknownLayout(server, 'no `server.assertCanSetRequestHandler`');
    for (const { entry, kind, name } of registrations) adopt(ctx, entry, kind, name);
    for (const [method, kind] of REGISTRATION_METHODS) patchMethod(ctx, method, kind);
    const tasks = experimentalTasksOf(server);
    if (tasks !== undefined) patchMethod(ctx, 'registerToolTask', 'tool', tasks);
    coverOutputValidation(ctx);
    coverRequests(ctx, low, handlers, traced || elicits || policy.telemetry !== undefined, setsOwn);
  },
  covers(server) {
    const low = lowLevelOf(server);
    return isObjectLike(low) ? [low] : [];
  },
};

/**
 * The NestJS exception filter for `@rekog/mcp-nest` (2.x): the policy where Nest decides what a failed handler answers.
 * Read structurally: Nest, rxjs and mcp-nest are not imported.
 *
 * mcp-nest runs each `@Tool`, `@Resource`/`@ResourceTemplate` and `@Prompt` method through Nest's RPC pipeline
 * (guards, pipes, interceptors, exception filters), as a microservice transport strategy. What the pipeline's
 * exception filter returns is what mcp-nest reads as the handler's outcome: it awaits it (a promise is fine where Nest
 * types an observable) and takes a resolved value as the result, a rejection as the failure. So the filter answers:
 * - a tool: a promise of the policy's isError result (its text, the failure object in `_meta`), which mcp-nest returns
 *   as it is (no `Internal server error`, no log line of its own);
 * - a resource or prompt: a promise rejected with the policy's JSON-RPC error, whose code, message and `data` the SDK
 *   puts on the wire.
 * Each failure is classified, logged once and answered by the package's own wrappers (`withClientVisibleErrors` and
 * kin, imported from the core entry by the package's name, so that this entry adds no second copy of the core), named
 * by the request mcp-nest hands the handler (`McpContext.mcpRequest`: a tool's or prompt's `params.name`, a resource's
 * `params.uri`), with the SDK's per-request context (its abort signal: a failure after a cancel is a cancellation).
 * Nest's own RPC filter, which logs every unknown exception, is not run: the policy's record is the only one.
 *
 * Nest's deliberate error, `RpcException` (`@nestjs/microservices`), with a string or `{ message }` payload, is shown
 * as a `ToolError` (a resource's as a `ResourceError`) would be: its text through the exit gate, one info record that
 * names it. Any other payload has no text to show: the exception is judged as any thrown value.
 *
 * A failure that is not an MCP handler's is left to Nest, as if the filter were not there: an HTTP route's (a hybrid
 * app whose filter is global to both) gets back an `Error`, which Nest (`@nestjs/core` 11.2.10+, 12.5+) answers with
 * its built-in filter; any other context (another microservice's message, a WebSocket gateway) gets `undefined`,
 * which Nest's RPC and GraphQL handlers answer with their built-in filters. Nest's WebSocket handler takes any filter
 * that matched as the answer: an app with gateways registers the filter on the MCP microservice alone.
 */
import {
  defaultPolicy,
  ResourceError,
  scrubSecrets,
  ToolError,
  withClientVisibleErrors,
  withClientVisiblePromptErrors,
  withClientVisibleResourceErrors,
  type ErrorPolicy,
  type HandlerKind,
} from 'mcp-error-policy';
import { callbackKindOf } from '../callback-methods.js';
import { isObjectLike, readProp, readString } from '../kit/read.js';

/**
 * What the filter reads of the `ArgumentsHost` Nest hands an exception filter (`@nestjs/common`): the kind of context
 * (`'rpc'` for an MCP handler, `'http'` for a route) and its arguments (an RPC handler's are its payload and context).
 */
export interface NestArgumentsHostLike {
  /** The kind of context the exception was thrown in: `'http'`, `'rpc'`, `'ws'`, or a framework's own. */
  getType(): string;
  /** One argument of the handler that failed: for an RPC handler, 0 is its payload, 1 its context. */
  getArgByIndex(index: number): unknown;
}

/** The MCP request that failed, as mcp-nest hands it to the handler. */
interface McpCall {
  readonly kind: HandlerKind;
  /** The SDK's request (`method`, `params`). */
  readonly request: object;
  /** The SDK's per-request context (`mcpReq` with the call's signal), or a stand-in when mcp-nest gave none. */
  readonly sdkContext: object;
}

type Fn = (this: unknown, ...args: unknown[]) => unknown;

/**
 * The MCP call of an RPC host: mcp-nest's `McpContext` (the handler's context) holds the SDK's request as
 * `mcpRequest` and the SDK's per-request context as its argument 4. Anything else is not an MCP call.
 */
function mcpCallOf(host: NestArgumentsHostLike): McpCall | undefined {
  try {
    if (host.getType() !== 'rpc') return undefined;
    const context = host.getArgByIndex(1);
    const request = readProp(context, 'mcpRequest');
    const kind = callbackKindOf(readString(request, 'method') ?? '');
    if (kind === undefined || !isObjectLike(request)) return undefined;
    const getArgByIndex = readProp(context, 'getArgByIndex');
    const sdkContext: unknown = typeof getArgByIndex === 'function' ? (getArgByIndex as Fn).call(context, 4) : undefined;
    return { kind, request, sdkContext: isObjectLike(sdkContext) ? sdkContext : { signal: undefined } };
  } catch {
    return undefined;
  }
}

/** Whether the class that made `value`, or one it extends, is named `name`. */
function madeByClassNamed(value: object, name: string): boolean {
  for (let prototype: unknown = Object.getPrototypeOf(value), depth = 0; isObjectLike(prototype) && depth < 8; prototype = Object.getPrototypeOf(prototype), depth++) {
    if (readProp(readProp(prototype, 'constructor'), 'name') === name) return true;
  }
  return false;
}

/**
 * The payload of Nest's `RpcException` (or a class extending it), what its `getError()` returns; `undefined` for any
 * other value, or when the payload cannot be read.
 */
function rpcExceptionPayload(exception: unknown): { readonly payload: unknown } | undefined {
  if (!isObjectLike(exception) || !madeByClassNamed(exception, 'RpcException')) return undefined;
  try {
    const getError = readProp(exception, 'getError');
    return { payload: typeof getError === 'function' ? (getError as Fn).call(exception) : undefined };
  } catch {
    return undefined;
  }
}

/** The text of an `RpcException`: its payload when a string, or the payload's string `message`. Anything else has none. */
function rpcExceptionText(exception: unknown): string | undefined {
  const found = rpcExceptionPayload(exception);
  if (found === undefined) return undefined;
  return typeof found.payload === 'string' ? found.payload : readString(found.payload, 'message');
}

/** An `RpcException` as the package's deliberate error of `kind`, named by its class; any other value as it is. */
function judged(exception: unknown, kind: HandlerKind): unknown {
  const text = rpcExceptionText(exception);
  if (text === undefined) return exception;
  // no `cause`: the exception's own text is the one shown, and the gate withholds a text its cause carries
  const deliberate = kind === 'resource' ? new ResourceError(text) : new ToolError(text);
  // the record names the class the handler threw (RpcException, or one extending it); the brand makes it deliberate
  const className = readProp(readProp(Object.getPrototypeOf(exception), 'constructor'), 'name');
  deliberate.name = typeof className === 'string' && className !== '' ? className : 'RpcException';
  return deliberate;
}

/** The package's wrapper of each kind of handler. */
const WRAPPERS = { tool: withClientVisibleErrors, resource: withClientVisibleResourceErrors, prompt: withClientVisiblePromptErrors } as const;

/** The name a failed call goes by: a tool's or prompt's `params.name`, a resource's `params.uri`. */
function nameOf(call: McpCall): string | undefined {
  const name = readString(readProp(call.request, 'params'), call.kind === 'resource' ? 'uri' : 'name');
  return name === '' ? undefined : name;
}

/**
 * A NestJS exception filter (register it as any filter: `app.useGlobalFilters(new McpErrorPolicyFilter(policy))`, or
 * `{ provide: APP_FILTER, useValue: new McpErrorPolicyFilter(policy) }` in a module) that answers the failures of
 * `@rekog/mcp-nest`'s tools, resources and prompts as the policy decides, each logged once: a tool's as an isError
 * result (`Error executing tool <name>: <text>`, or masked with a reference), a resource's or prompt's as the policy's
 * JSON-RPC error. Nest's `RpcException` is a deliberate error (its text shown, logged at info). Failures that are not
 * an MCP handler's (an HTTP route's in a hybrid app) are left to Nest.
 *
 * @example
 * ```ts
 * const app = await NestFactory.createMicroservice(AppModule, { strategy: mcp, logger: false });
 * app.useGlobalFilters(new McpErrorPolicyFilter(policy));
 * await app.listen();
 * ```
 */
export class McpErrorPolicyFilter {
  readonly #policy: ErrorPolicy;

  /**
   * @param policy - the policy to answer with (default: the core entry's `defaultPolicy`); Nest's `useClass`
   *   constructs the filter without arguments
   */
  constructor(policy?: ErrorPolicy) {
    this.#policy = policy ?? defaultPolicy;
  }

  /**
   * Nest calls this with what a handler threw. For an MCP tool, a promise of the isError result; for a resource or
   * prompt, a promise rejected with the JSON-RPC error; for an HTTP route, an `Error`, which Nest answers with its
   * built-in filter; for anything else, `undefined`, likewise answered by Nest.
   *
   * @param exception - what the handler threw
   * @param host - Nest's `ArgumentsHost` of the failed call
   */
  catch(exception: unknown, host: NestArgumentsHostLike): unknown {
    const call = mcpCallOf(host);
    if (call === undefined) return leftToNest(exception, host);
    const policy = this.#policy;
    const thrown = judged(exception, call.kind);
    const name = nameOf(call);
    const fails = (..._args: unknown[]): never => {
      throw thrown;
    };
    // called as a low-level request handler is (request, SDK context): the wrapper logs the failure before it returns
    // its answer, a settled promise
    const answer = WRAPPERS[call.kind](fails, { policy, ...(name === undefined ? {} : { name }) })(call.request, call.sdkContext) as Promise<unknown>;
    if (policy.mode === 'report') {
      // report mode: the record is written; the client gets what Nest's RPC filter answers, a token in it scrubbed
      answer.catch(() => undefined);
      return Promise.reject(nestAnswerOf(exception, policy));
    }
    if (call.kind !== 'tool') return answer;
    // a protocol error passed on by the guard (its text through the gate): the isError result mcp-nest makes of one
    return answer.then(undefined, (error: unknown) => ({ content: [{ type: 'text', text: readString(error, 'message') ?? 'Internal error' }], isError: true }));
  }
}

/** A text scrubbed as report mode scrubs what the client gets: the built-in scrubbing, then the policy's `redact`. */
function scrubbed(text: string, policy: ErrorPolicy): string {
  const out = scrubSecrets(text);
  try {
    const redacted = policy.redact?.(out) ?? out;
    return typeof redacted === 'string' ? redacted : '[REDACTED]';
  } catch {
    return '[REDACTED]';
  }
}

/**
 * What Nest's RPC filter (`BaseRpcExceptionFilter`) answers for `exception`, which mcp-nest turns into the client's
 * answer: an `RpcException`'s payload (an object as it is, a string as `{ status: 'error', message }`), anything
 * else `{ status: 'error', message: 'Internal server error' }`; its message scrubbed. Report mode answers with it
 * instead of letting Nest's filter run, as that filter logs the exception raw (a token in its text, an HTTP client's
 * request with its headers).
 */
function nestAnswerOf(exception: unknown, policy: ErrorPolicy): object {
  const internal = { status: 'error', message: 'Internal server error' };
  const found = rpcExceptionPayload(exception);
  if (found === undefined) return internal;
  const { payload } = found;
  if (typeof payload === 'string') return { status: 'error', message: scrubbed(payload, policy) };
  if (!isObjectLike(payload)) return { status: 'error', message: payload };
  try {
    const message = readProp(payload, 'message');
    return typeof message === 'string' ? { ...payload, message: scrubbed(message, policy) } : payload;
  } catch {
    return internal; // a payload whose fields cannot be copied
  }
}

/** What Nest needs back to answer a failure itself: an `Error` for an HTTP route, nothing for any other context. */
function leftToNest(exception: unknown, host: NestArgumentsHostLike): Error | undefined {
  let type: string | undefined;
  try {
    type = host.getType();
  } catch {
    type = undefined;
  }
  if (type !== 'http') return undefined;
  return exception instanceof Error ? exception : new Error('not an MCP request');
}

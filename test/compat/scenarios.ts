/**
 * The compatibility table: one list of failure scenarios (tools, resources, prompts), each with the handler it
 * registers, the exact text a client sees and the exact log records the server writes. test/compat/table.test.ts runs
 * every scenario through real clients over every transport; test/compat/server.ts serves the same table over stdio;
 * test/compat/v2.test.ts runs it on `@modelcontextprotocol/server` 2.x.
 *
 * The scenarios live in test/compat/scenarios/ (tools.ts, resources.ts, prompts.ts), each handler beside its
 * expectations; fixtures.ts holds the inputs and model.ts the types and the words of the expectations. How the policy is
 * installed is the fixture's choice: each handler wrapped on its own (`withClientVisibleErrors` & co.), or the whole
 * server at once (`applyErrorPolicy`). Reference ids are written `<ref>` in the expectations.
 */
import {
  applyErrorPolicy,
  coreRules,
  createErrorPolicy,
  withClientVisibleErrors,
  withClientVisiblePromptErrors,
  withClientVisibleResourceErrors,
  type ErrorPolicy,
  type LogRecord,
  type PolicyLogger,
} from '../../src/index.js';
import { REFERENCE } from '../support/calls.js';
import { DEGRADED, grantRevokedRule, innerHandlers, REAUTHORIZE, urlElicitations } from './scenarios/fixtures.js';
import { CORRELATED, uriOf, type CompatSdk, type ExpectedRecord, type ExpectedWire, type Handler, type HandlerContext, type LooseServer, type RuntimeFacts, type Scenario, type ScenarioContext } from './scenarios/model.js';
import { promptScenarios } from './scenarios/prompts.js';
import { resourceScenarios } from './scenarios/resources.js';
import { toolScenarios } from './scenarios/tools.js';

/** The records of a capturing logger. */
export { captureLogs as captureRecords } from '../support/calls.js';
export {
  closedPortUrl,
  DEGRADED,
  GrantRevokedError,
  grantRevokedRule,
  HUGE_BOUNDED,
  MISSING_FILE,
  REAUTHORIZE,
  SECRET_TOKEN,
  upstreamZodMessage,
  urlElicitations,
} from './scenarios/fixtures.js';
export { expectedLine } from './scenarios/model.js';
export type {
  Category,
  CompatSdk,
  ExpectedFailure,
  ExpectedRecord,
  ExpectedWire,
  HandlerKind,
  LooseServer,
  RuntimeFacts,
  Scenario,
  ScenarioContext,
} from './scenarios/model.js';

/** Every scenario: the tools, then the resources, then the prompts. */
export const scenarios: readonly Scenario[] = [...toolScenarios, ...resourceScenarios, ...promptScenarios];

/** The classes of an SDK major that the table needs, as its test file imports them from that SDK's own packages. */
export interface CompatClasses {
  readonly McpServer: new (info: { name: string; version: string }) => unknown;
  readonly ResourceTemplate: new (uriTemplate: string, callbacks: { list: undefined }) => unknown;
  /** `McpError` (v1) or `ProtocolError` (v2). */
  readonly ProtocolError: new (code: number, message: string) => Error;
  readonly UrlElicitationRequiredError: new (elicitations: ReturnType<typeof urlElicitations>) => Error;
}

/** The {@link CompatSdk} of SDK `major`, made of its classes; its servers are named `serverName`. */
export function compatSdk(major: CompatSdk['major'], serverName: string, classes: CompatClasses): CompatSdk {
  const { McpServer, ResourceTemplate, ProtocolError, UrlElicitationRequiredError } = classes;
  return {
    major,
    newServer: () => new McpServer({ name: serverName, version: '1.0.0' }) as LooseServer,
    newTemplate: (uriTemplate) => new ResourceTemplate(uriTemplate, { list: undefined }),
    protocolError: (code, message) => new ProtocolError(code, message),
    urlElicitationRequired: () => new UrlElicitationRequiredError(urlElicitations()),
    applyErrorPolicy: (server, policy) => applyErrorPolicy(server as unknown as Parameters<typeof applyErrorPolicy>[0], policy),
  };
}

/**
 * What the client of `sdk` shows for `wire` (expectations hold the JSON-RPC error as the server sends it):
 * - SDK v1's client puts `MCP error <code>: ` before the message (so a v1 McpError, whose own message already has
 *   that prefix, shows it twice: the SDK's behaviour, kept as it is);
 * - SDK v2 never emits -32002: it sends a handler's -32002 (resource not found) as -32602 (invalid params), per the
 *   2026-07-28 spec revision; its client shows the message as it is. A resource-not-found answer then carries
 *   exactly `data: { uri }` (the only -32602 its client raises as `ResourceNotFoundError`): no failure object.
 */
export function clientView(sdk: CompatSdk['major'], wire: ExpectedWire): ExpectedWire {
  if (!('error' in wire)) return wire;
  const { code, message } = wire.error;
  if (sdk === 'v1') return { error: { ...wire.error, message: `MCP error ${code}: ${message}` } };
  if (code !== -32002) return wire;
  if (wire.error.uri === undefined) return { error: { ...wire.error, code: -32602 } };
  const { failure: _dropped, ...notFound } = wire.error;
  return { error: { ...notFound, code: -32602 } };
}

/** A scenario's expectations as the client of `sdk` sees them. */
export function expectedFor(scenario: Scenario, sdk: CompatSdk['major'], facts: RuntimeFacts): { wire: ExpectedWire; records: readonly ExpectedRecord[] } {
  const { wire, records } = scenario.expect(sdk, facts);
  return { wire: clientView(sdk, wire), records };
}

// ---------------------------------------------------------------------------------------------------------------------
// Registration.

/** How handlers get the policy: each wrapped on its own, or the whole server through applyErrorPolicy. */
export type Install = 'wrappers' | 'server';

/**
 * Registers every scenario of the table on `server`, each under its id with the handler it makes. With
 * `install: 'server'`, the handlers are registered raw and `applyErrorPolicy` is applied between the tools and the
 * resources, so that registrations before and after the call are both covered. Handlers that run under another policy
 * (degraded) or are called by another handler (nested) come wrapped on their own in both modes: the wrappers and
 * applyErrorPolicy leave a wrapped handler as it is.
 */
export function registerScenarios(server: LooseServer, context: ScenarioContext, install: Install): void {
  const { policy, sdk } = context;
  const apply = install === 'server' ? sdk.applyErrorPolicy : undefined;
  if (install === 'server' && apply === undefined) throw new Error('applyErrorPolicy is not available for this SDK');

  const inner = innerHandlers(policy);
  const handlerContext: HandlerContext = { ...context, inner };
  const wrappers = install === 'wrappers';

  const addTool = (name: string, handler: Handler, inputSchema?: Record<string, unknown>): void => {
    const callback = wrappers ? withClientVisibleErrors(handler, { name, policy }) : handler;
    server.registerTool(name, { description: `compat scenario ${name}`, ...(inputSchema === undefined ? {} : { inputSchema }) }, callback);
  };
  const addResource = (name: string, uriOrTemplate: unknown, handler: Handler): void => {
    server.registerResource(name, uriOrTemplate, { mimeType: 'text/plain' }, wrappers ? withClientVisibleResourceErrors(handler, { policy }) : handler);
  };
  const addPrompt = (name: string, handler: Handler, argsSchema?: Record<string, unknown>): void => {
    const callback = wrappers ? withClientVisiblePromptErrors(handler, { name, policy }) : handler;
    server.registerPrompt(name, { description: `compat scenario ${name}`, ...(argsSchema === undefined ? {} : { argsSchema }) }, callback);
  };

  const register = (scenario: Scenario): void => {
    const handler = scenario.handler(handlerContext);
    if (scenario.kind === 'tool') addTool(scenario.id, handler, scenario.schema);
    else if (scenario.kind === 'prompt') addPrompt(scenario.id, handler, scenario.schema);
    else addResource(scenario.id, scenario.template === undefined ? uriOf(scenario.id) : sdk.newTemplate(scenario.template), handler);
  };

  toolScenarios.forEach(register);
  // The handlers the nested scenarios call are on the server too, as they would be in a real one.
  addTool('inner_locked', inner.locked);
  addTool('inner_crash', inner.crash);

  // In server mode, the policy goes on here: the tools above were registered before it, the rest come after.
  if (apply !== undefined) apply(server, policy);

  resourceScenarios.forEach(register);
  addResource('inner_resource', uriOf('inner_resource'), inner.resource);
  promptScenarios.forEach(register);
}

/** The policies of the table, logging to `logger` (default: stderr). */
export function makePolicies(logger?: PolicyLogger): { policy: ErrorPolicy; degradedPolicy: ErrorPolicy } {
  const logging = logger === undefined ? {} : { logger };
  return {
    policy: createErrorPolicy({ rules: [...coreRules, grantRevokedRule], reauthorize: REAUTHORIZE, exposeCrashDetails: false, ...logging }),
    degradedPolicy: createErrorPolicy({ degraded: () => DEGRADED, exposeCrashDetails: false, ...logging }),
  };
}

/**
 * What differs from run to run: every 12-hex reference id written `<ref>`, every correlation id in JSON or at the end
 * of a log line (`(correlation <12 hex>)`) written `<id>`, every loopback port `<port>`.
 */
export function normaliseRunValues(value: string): string {
  return value
    .replace(/\(reference [0-9a-f]{12}\)/g, '(reference <ref>)')
    .replace(/\(correlation [0-9a-f]{12}\)/g, `(correlation ${CORRELATED})`)
    .replace(/"correlationId":"[0-9a-f]{12}"/g, `"correlationId":"${CORRELATED}"`)
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>');
}

/**
 * A record as expectations hold it: without its stack and reference, its correlation id written `<id>` (when it has
 * one of the right form), with run values normalised.
 */
export function comparableRecord(record: LogRecord): Record<string, unknown> {
  const { stack: _stack, reference: _reference, correlationId, ...rest } = record;
  const matched = rest.matchedErrorMessage === undefined ? {} : { matchedErrorMessage: normaliseRunValues(rest.matchedErrorMessage) };
  const correlated = correlationId === undefined ? {} : { correlationId: REFERENCE.test(correlationId) ? CORRELATED : correlationId };
  return { ...rest, message: normaliseRunValues(rest.message), errorMessage: normaliseRunValues(rest.errorMessage), ...matched, ...correlated };
}

/** The reference ids in a text, in order. */
export function referencesIn(value: string): string[] {
  return [...value.matchAll(/\(reference ([0-9a-f]{12})\)/g)].map((m) => m[1]!);
}

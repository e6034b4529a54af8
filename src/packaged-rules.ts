/**
 * Report mode's advice: for a failure the policy would mask, or show by its HTTP status alone, the packaged rule that
 * would show it instead, as the entry to add to `rules`. Each entry probes structurally, importing none of the packs
 * (the core entry stays free of them); a pack the policy already holds is never advised. Adding a pack's advice is one
 * line here.
 */
import { someInChain, findInChain } from './kit/chain.js';
import { isHttpStatus, httpAnswerOf, httpStatusOf, isOpenApiException } from './kit/http.js';
import { describeThrown, hasKey, messageOf, readProp, readString } from './kit/read.js';
import type { ErrorRule } from './rules/rule.js';
import { crashSignOf } from './gate.js';
import { ownErrorRuleWouldAccept } from './rules/own-error.js';
import { zodErrorRule } from './rules/zod.js';

/** A packaged rule that would accept a failure. */
export interface PackagedRuleHint {
  /** The entry to add to `rules`: `ownErrorRule()`, `...httpRules`, `zodErrorRule`. */
  readonly add: string;
  /** Whether the rule would accept the failure (or an error on its cause chain). It must not throw. */
  accepts(error: unknown): boolean;
  /** The failure is routine for a caller (an API's answer), not a bug of the server's: its record needs no stack. */
  readonly routine?: true;
  /** The name of a rule of the pack: a policy whose rules hold it has the pack, which is then not advised. */
  readonly held?: string;
  /** What the entry would show of a failure the core `http-status` rule shows by its status alone. */
  readonly shows?: string;
  /** Why the entry fits this failure, when `add` alone does not say (it names the class to match). */
  note?(error: unknown): string;
}

/** The registered symbol every gaxios copy sets on its errors (src/google/gaxios.ts). */
const GAXIOS_ERROR_SYMBOL: symbol = Symbol.for('gaxios-gaxios-error');

/** A failed fetch `Response`: `ok` false and `headers` with a `get` function. */
function isFailedResponse(value: unknown): boolean {
  return readProp(value, 'ok') === false && typeof readProp(readProp(value, 'headers'), 'get') === 'function';
}

/**
 * The keys that brand an error of a client the http pack reads: axios, the AWS SDK v3, Microsoft Graph, `@linear/sdk`,
 * the OpenAI and Anthropic SDKs.
 */
const HTTP_PACK_KEYS = [['config', 'response'], ['$metadata'], ['statusCode', 'requestId', 'body', 'date'], ['raw', 'errors', 'query'], ['requestID', 'status', 'headers']];

/**
 * The texts that brand one: the `name` of Octokit's, ky's, Notion's and `@octokit/graphql`'s errors, Stripe's `type`,
 * Slack's `code` (and the message of its 429 without a usable `Retry-After`).
 */
const HTTP_PACK_TEXTS: readonly (readonly [string, RegExp])[] = [
  ['name', /^(?:HttpError|HTTPError|APIResponseError|UnknownHTTPResponseError|GraphqlResponseError)$/],
  ['type', /^Stripe\w*Error$/],
  ['code', /^slack_webapi_/],
  ['message', /^Retry header did not contain/],
];

/**
 * Whether one error is of a client the http pack reads (src/http/; test/adopt/advice.test.ts holds the two in step on
 * the clients' real errors): a failed fetch `Response` thrown or in `response` (fetch, ky, ofetch, GraphQL over fetch;
 * one in `cause` is a link of the chain), an OpenAPI Generator `ApiException`, or an error with the keys of
 * {@link HTTP_PACK_KEYS} or a text of {@link HTTP_PACK_TEXTS}.
 */
function isHttpPackClientError(node: unknown): boolean {
  return (
    isFailedResponse(node) ||
    isFailedResponse(readProp(node, 'response')) ||
    isOpenApiException(node) ||
    HTTP_PACK_KEYS.some((keys) => keys.every((key) => hasKey(node, key))) ||
    HTTP_PACK_TEXTS.some(([key, pattern]) => pattern.test(readString(node, key) ?? ''))
  );
}

/** The error on the chain that holds an HTTP status from 300 up (`status`, `statusCode`, a response's), or `undefined`. */
function httpStatusHolder(error: unknown): unknown {
  return findInChain(error, (node) => {
    const statuses = [httpStatusOf(node), readProp(node, 'statusCode')];
    return httpAnswerOf(node) !== undefined || statuses.some((status) => isHttpStatus(status) && status >= 300) ? node : undefined;
  });
}

const PACK_SHOWS = "would name the request and, where safe, the service's message";

/** First match wins: the Google pack before the HTTP one, which would also accept a Google API's errors. */
export const PACKAGED_RULE_HINTS: readonly PackagedRuleHint[] = [
  // never for an own Error the exit gate would mask all the same ("catch, add context, rethrow" of a crash)
  { add: 'ownErrorRule()', held: 'own-error', accepts: (error) => ownErrorRuleWouldAccept(error) && crashSignOf(messageOf(error), { error, shown: () => false }) === undefined },
  {
    add: '...googleRules',
    held: 'google-api-error',
    accepts: (error) => someInChain(error, (node) => typeof readProp(node, GAXIOS_ERROR_SYMBOL) === 'string'),
    routine: true,
    shows: PACK_SHOWS,
  },
  { add: '...httpRules', held: 'fetch-http-error', accepts: (error) => someInChain(error, isHttpPackClientError), routine: true, shows: PACK_SHOWS },
  { add: 'zodErrorRule', held: 'zod', accepts: (error) => someInChain(error, zodErrorRule.predicate) },
  {
    // an HTTP status no pack reads (the server's own error class, or a client no pack knows): a rule made for its class
    add: '...httpRulesFor({ name, match, status })',
    accepts: (error) => httpStatusHolder(error) !== undefined,
    routine: true,
    shows: "with `body` would show the service's message (its body's, or the class's own: `body: (e) => ({ message: e.message })`)",
    note: (error) => `${describeThrown(httpStatusHolder(error))}: no packaged rule reads its HTTP status`,
  },
];

/**
 * The first packaged rule that would show `error` whose pack is not among `rules` (the policy's), or `undefined` (a
 * crash under every pack).
 */
export function packagedRuleFor(error: unknown, rules: readonly ErrorRule[] = []): PackagedRuleHint | undefined {
  return PACKAGED_RULE_HINTS.find((hint) => {
    try {
      return (hint.held === undefined || !rules.some((rule) => rule.name === hint.held)) && hint.accepts(error);
    } catch {
      return false;
    }
  });
}

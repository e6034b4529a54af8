/**
 * The OpenAI SDK (`openai` 6 and 7) and the Anthropic SDK (`@anthropic-ai/sdk` 0.x and 1.x) throw `APIError` and its
 * subclasses (`AuthenticationError`, `NotFoundError`, `RateLimitError`, `APIConnectionError`,
 * `APIConnectionTimeoutError`...). Their `name` is `Error` in most versions, and each SDK copy has its own classes, so
 * they are recognised by the class names on the prototype chain (`APIError` under `OpenAIError` / `AnthropicError`)
 * and by shape (a numeric `status`, `headers`). The errors hold no request URL or method.
 *
 * Bodies: OpenAI's `error` field is the body's `error` object (`{ message, type, param, code }`); Anthropic's is the
 * whole body (`{ type: 'error', error: { type, message }, request_id }`). Request ids: `requestID` (from `x-request-id`
 * or `request-id`). Retry delays: `retry-after-ms`, `retry-after`, else, for a 429, OpenAI's reset durations
 * (`x-ratelimit-reset-requests: 6m0s`, `x-ratelimit-reset-tokens`). The error's own `message` is never shown: Anthropic
 * puts the raw body there.
 *
 * Without a response: `APIConnectionError` wraps fetch's failure, whose system code the core `network` rule finds on
 * the cause chain; `APIConnectionTimeoutError` gets its own rule (in openai 7 its cause is an AbortError, which the
 * core rules would call an abort).
 */
import { isHttpStatus } from '../kit/http.js';
import { readProp } from '../kit/read.js';
import type { ErrorRule } from '../rules/rule.js';
import { failureRules, noResponseRule, serviceCode, serviceMessage, type HttpFailure } from './failure.js';
import { durationResetMs, requestIdOf, requestIdShaped, retryAfterMsOf } from './headers.js';
import { classNames } from './names.js';

/** One SDK built from the same generator. */
interface Sdk {
  /** Rule name prefix. */
  readonly id: 'openai' | 'anthropic';
  /** The service as the client text names it. */
  readonly service: string;
  /** The SDK's base error class name. */
  readonly base: string;
  /** The service's message and code from the error's `error` field. */
  readonly body: (error: unknown) => { message: string | undefined; code: string | undefined };
}

const OPENAI: Sdk = {
  id: 'openai',
  service: 'OpenAI API',
  base: 'OpenAIError',
  body: (error) => {
    const body = readProp(error, 'error');
    const param = serviceCode(readProp(body, 'param'));
    const message = serviceMessage(readProp(body, 'message'));
    return {
      message: param === undefined || message === undefined ? message : `${message} (param: ${param})`,
      code: serviceCode(readProp(body, 'code')) ?? serviceCode(readProp(body, 'type')),
    };
  },
};

const ANTHROPIC: Sdk = {
  id: 'anthropic',
  service: 'Anthropic API',
  base: 'AnthropicError',
  body: (error) => {
    const inner = readProp(readProp(error, 'error'), 'error');
    return { message: serviceMessage(readProp(inner, 'message')), code: serviceCode(readProp(inner, 'type')) };
  },
};

/** True when the error's classes include `name` under the SDK's base class. */
function isSdkClass(error: unknown, sdk: Sdk, name: string): boolean {
  const names = classNames(error);
  const at = names.indexOf(name);
  return at !== -1 && names.indexOf(sdk.base) > at;
}

/** The failure an SDK APIError with an HTTP status describes, or `undefined`. */
function failureOf(error: unknown, sdk: Sdk): HttpFailure | undefined {
  const status = readProp(error, 'status');
  if (!isHttpStatus(status) || status < 300 || !isSdkClass(error, sdk, 'APIError')) return undefined;
  const headers = readProp(error, 'headers');
  const { message, code } = sdk.body(error);
  return {
    service: sdk.service,
    status,
    code,
    message,
    requestId: requestIdShaped(readProp(error, 'requestID')) ?? requestIdOf(headers, ['x-request-id', 'request-id']),
    headers,
    // OpenAI's 429 without `retry-after-ms` or `Retry-After`: its reset durations (`x-ratelimit-reset-requests: 6m0s`)
    retryAfterMs: status === 429 && retryAfterMsOf(headers) === undefined ? durationResetMs(headers) : undefined,
  };
}

/** The OpenAI SDK's HTTP failure, or `undefined`. */
export function openaiFailureOf(error: unknown): HttpFailure | undefined {
  return failureOf(error, OPENAI);
}

/** The Anthropic SDK's HTTP failure, or `undefined`. */
export function anthropicFailureOf(error: unknown): HttpFailure | undefined {
  return failureOf(error, ANTHROPIC);
}

/** The three rules of one SDK: 401, any other status, timeouts. */
function rulesOf(sdk: Sdk): readonly [ErrorRule, ErrorRule, ErrorRule] {
  const of = (error: unknown): HttpFailure | undefined => failureOf(error, sdk);
  return [
    ...failureRules(sdk.id, sdk.service, of),
    noResponseRule(`${sdk.id}-timeout`, (error: unknown): boolean => isSdkClass(error, sdk, 'APIConnectionTimeoutError'), `The ${sdk.service} request timed out.`, 504),
  ];
}

/** `openai-unauthorized`, `openai-http-error`, `openai-timeout`. */
export const openaiRules = rulesOf(OPENAI);

/** `anthropic-unauthorized`, `anthropic-http-error`, `anthropic-timeout`. */
export const anthropicRules = rulesOf(ANTHROPIC);

/**
 * Octokit (`@octokit/rest`, `@octokit/core`, `@octokit/request`): `RequestError` from `@octokit/request-error` 6 and 7,
 * recognised by its name `HttpError`, its numeric `status` and its `request` object (never `instanceof`: each Octokit
 * copies its own). GitHub's error bodies are `{ message, documentation_url }`, validation failures (422) add
 * `errors: [{ resource, field, code, message? }]`; responses carry `x-github-request-id`, and rate limits either
 * `retry-after` (secondary limits) or `x-ratelimit-remaining: 0` with `x-ratelimit-reset` (epoch seconds).
 * A RequestError without a response (status 500 on a network failure or a timeout) is left to the core rules, which
 * find the system code or the TimeoutError on its `cause`.
 */
import { isHttpStatus } from '../kit/http.js';
import { isObjectLike, readProp, readString } from '../kit/read.js';
import { redactUrl } from '../kit/url.js';
import { jsonObject } from './body.js';
import { requestIdOf } from './headers.js';
import { failureRules, serviceCode, serviceMessage, type HttpFailure } from './failure.js';

const SERVICE = 'GitHub API';

/** True for an Octokit `RequestError` (name `HttpError`, numeric `status`, object `request` with a string `method`). */
export function isOctokitRequestError(error: unknown): boolean {
  return (
    readString(error, 'name') === 'HttpError' &&
    isHttpStatus(readProp(error, 'status')) &&
    typeof readString(readProp(error, 'request'), 'method') === 'string'
  );
}

/** Most validation errors named in the text. */
const MAX_VALIDATION_ERRORS = 3;

/** GitHub's `errors[]` of a 422: each entry's `message`, else `<resource>.<field> <code>`, joined. */
function validationDetails(body: object): string | undefined {
  const errors = readProp(body, 'errors');
  const parts: string[] = [];
  try {
    if (!Array.isArray(errors)) return undefined;
    for (const entry of errors.slice(0, MAX_VALIDATION_ERRORS) as unknown[]) {
      const message = serviceMessage(readProp(entry, 'message'), 200);
      if (message !== undefined) {
        parts.push(message);
        continue;
      }
      const resource = serviceCode(readProp(entry, 'resource'));
      const field = serviceCode(readProp(entry, 'field'));
      const code = serviceCode(readProp(entry, 'code')) ?? serviceCode(entry);
      const named = [resource === undefined ? field : field === undefined ? resource : `${resource}.${field}`, code].filter((part) => part !== undefined);
      if (named.length > 0) parts.push(named.join(' '));
    }
  } catch {
    return undefined;
  }
  return parts.length === 0 ? undefined : parts.join('; ');
}

/** The failure an Octokit RequestError with a response describes, or `undefined`. */
export function githubFailureOf(error: unknown): HttpFailure | undefined {
  if (!isOctokitRequestError(error)) return undefined;
  const response = readProp(error, 'response');
  if (!isObjectLike(response)) return undefined;
  const status = readProp(error, 'status');
  if (!isHttpStatus(status) || status < 300) return undefined;
  const request = readProp(error, 'request');
  const headers = readProp(response, 'headers');
  const body = jsonObject(readProp(response, 'data'));
  const message = body === undefined ? undefined : serviceMessage(readProp(body, 'message'));
  const details = body === undefined ? undefined : validationDetails(body);
  const method = readString(request, 'method')?.toUpperCase();
  const url = readString(request, 'url') ?? readString(response, 'url');
  return {
    service: SERVICE,
    status,
    message: details === undefined ? message : `${message ?? 'Validation Failed'} (${details})`,
    method: method !== undefined && /^[A-Z]{1,16}$/.test(method) ? method : undefined,
    url: url === undefined ? undefined : redactUrl(url),
    requestId: requestIdOf(headers, ['x-github-request-id']),
    // GitHub answers rate limits with 403 or 429, with `retry-after` (secondary limits) or a spent primary limit
    // (`x-ratelimit-remaining: 0`, `x-ratelimit-reset`): read from the headers for every client (failure.ts).
    headers,
  };
}

/** `github-unauthorized`, `github-http-error`. */
export const [githubUnauthorizedRule, githubHttpErrorRule] = failureRules('github', SERVICE, githubFailureOf);

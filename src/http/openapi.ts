/**
 * Clients made by OpenAPI Generator's `typescript` generator (`@kubernetes/client-node` 1.x, and any API's client made
 * with it) throw an `ApiException` for every status outside 2xx: `code` (the HTTP status), `body` (the answer: parsed
 * when the API description names its type, else its text) and `headers` (a plain object, lower-case names). Its
 * `message` repeats all three (`HTTP-Code: 404\nMessage: Unknown API Status Code!\nBody: …\nHeaders: …`) and is never
 * shown. Recognised by shape (the kit's `isOpenApiException`): each generated client has its own class.
 *
 * The client text is the service's message from a JSON body's usual fields (a Kubernetes `Status`'s `message`, with
 * its `reason` as the code), for a status below 500 only: a server error's body is never shown, nor any body that is
 * not a JSON object (an HTML page). The exception holds no method or URL.
 */
import { isOpenApiException } from '../kit/http.js';
import { readProp } from '../kit/read.js';
import { bodyText, jsonObject } from './body.js';
import { failureRules, serviceCode, type HttpFailure } from './failure.js';
import { GENERIC_REQUEST_ID_HEADERS, requestIdOf } from './headers.js';

/** The request id headers: the usual ones, then the Kubernetes API server's `Audit-Id`. */
const REQUEST_ID_HEADERS: readonly string[] = [...GENERIC_REQUEST_ID_HEADERS, 'audit-id'];

/** The failure an OpenAPI Generator `ApiException` describes, or `undefined`. */
export function openapiFailureOf(error: unknown): HttpFailure | undefined {
  if (!isOpenApiException(error)) return undefined;
  const status = readProp(error, 'code') as number;
  if (status < 300) return undefined;
  const headers = readProp(error, 'headers');
  const data = status < 500 ? readProp(error, 'body') : undefined;
  const { message, code } = bodyText(data);
  const body = jsonObject(data);
  // a Kubernetes `Status` says what failed in `reason` (`NotFound`, `AlreadyExists`, `Invalid`); its `code` is the status
  const reason = readProp(body, 'kind') === 'Status' ? serviceCode(readProp(body, 'reason')) : undefined;
  return { service: 'HTTP', status, code: code ?? reason, message, requestId: requestIdOf(headers, REQUEST_ID_HEADERS), headers };
}

/** `openapi-unauthorized`, `openapi-http-error`. */
export const [openapiUnauthorizedRule, openapiHttpErrorRule] = failureRules('openapi', 'HTTP', openapiFailureOf);

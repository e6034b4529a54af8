/**
 * AWS SDK for JavaScript v3 (`@aws-sdk/client-*` 3.x): service exceptions (`ResourceNotFoundException`,
 * `TooManyRequestsException`, `AccessDeniedException`...), recognised by shape, never `instanceof` (each client has
 * its own classes): a string `name`, `$fault` `client` or `server`, and `$metadata.httpStatusCode`. The SDK parses the
 * service's error body for them: `message` is the service's own message, `name` its error code, `$metadata.requestId`
 * the `x-amzn-requestid` / `x-amz-request-id` header; `retryAfterSeconds` (Lambda) or the `retry-after` header on the
 * non-enumerable `$response` give a delay; `$retryable` (`{ throttling: true }` for throttling) marks the exceptions
 * the service models as retryable, whatever their status (a 400 `ThrottlingException`). The service is named from the
 * client's base class (`LambdaServiceException` -> `AWS Lambda`). The errors hold no request method or URL; the signed
 * request (its `Authorization` header and any pre-signed query) is never read.
 *
 * AWS rejects credentials with 400 or 403 and an error code (`UnrecognizedClientException`, `InvalidSignatureException`,
 * `ExpiredTokenException`...): those are re-authorization cases like a 401. The SDK's own timeout
 * (`requestHandler: { requestTimeout, throwOnRequestTimeout: true }`) is a `TimeoutError` with `$metadata`; refused
 * connections keep their system code and are the core `network` rule's.
 *
 * An answer the client cannot parse (a proxy's or gateway's HTML error page where JSON or XML was due) is no service
 * exception: the parser's own error (a `SyntaxError`), without `$fault`, to which the SDK adds `$metadata` (the
 * status, a request id when a header held one) and a non-enumerable `$response` (status, headers, and the page in
 * `body`, never read). It is read by its status like any other failure, without a service code or message.
 */
import { isHttpStatus } from '../kit/http.js';
import { isObjectLike, readProp, readString } from '../kit/read.js';
import { failureRules, noResponseRule, serviceCode, serviceMessage, type HttpFailure } from './failure.js';
import { requestIdShaped, secondsAsMs } from './headers.js';
import { classNames } from './names.js';

/** The error codes with which AWS services reject credentials. */
const CREDENTIAL_CODES = new Set([
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'SignatureDoesNotMatch',
  'ExpiredTokenException',
  'ExpiredToken',
  'InvalidClientTokenId',
  'InvalidAccessKeyId',
  'MissingAuthenticationTokenException',
  'IncompleteSignatureException',
]);

/** `AWS Lambda` from a `LambdaServiceException` base class, else `AWS`. */
function serviceOf(error: unknown): string {
  for (const name of classNames(error)) {
    const match = /^([A-Z][A-Za-z0-9]{0,40})ServiceException$/.exec(name);
    if (match?.[1] !== undefined) return `AWS ${match[1]}`;
  }
  return 'AWS';
}

/** The failure an AWS SDK v3 service exception, or an answer the SDK could not parse, describes; else `undefined`. */
export function awsFailureOf(error: unknown): HttpFailure | undefined {
  const fault = readString(error, '$fault');
  const metadata = readProp(error, '$metadata');
  const status = readProp(metadata, 'httpStatusCode');
  const response = readProp(error, '$response');
  if (!isHttpStatus(status) || status < 300) return undefined;
  const headers = readProp(response, 'headers');
  const requestId = requestIdShaped(readProp(metadata, 'requestId'));
  if (fault === undefined && readProp(response, 'statusCode') === status) return { service: 'AWS', status, requestId, headers };
  const code = serviceCode(readProp(error, 'name'));
  if ((fault !== 'client' && fault !== 'server') || code === undefined) return undefined;
  const retryable = readProp(error, '$retryable');
  return {
    rejected: status === 401 || CREDENTIAL_CODES.has(code),
    service: serviceOf(error),
    status,
    code,
    message: serviceMessage(readProp(error, 'Message')) ?? serviceMessage(readProp(error, 'message')),
    requestId,
    retryAfterMs: secondsAsMs(readProp(error, 'retryAfterSeconds')),
    headers,
    // `$retryable` (an object, `{ throttling: true }` for throttling) marks the exceptions the service models as retryable.
    retryable: isObjectLike(retryable),
    throttled: readProp(retryable, 'throttling') === true,
  };
}

/** The SDK's request timeout (`TimeoutError` with `$metadata`): `The AWS request timed out.`, status 504. */
export const awsTimeoutRule = noResponseRule('aws-timeout', (error: unknown): boolean => readString(error, 'name') === 'TimeoutError' && isObjectLike(readProp(error, '$metadata')), 'The AWS request timed out.', 504);

/** `aws-unauthorized`, `aws-http-error`. */
export const [awsUnauthorizedRule, awsHttpErrorRule] = failureRules('aws', 'AWS', awsFailureOf);

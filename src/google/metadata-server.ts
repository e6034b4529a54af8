/**
 * The Compute Engine metadata server refusing an access token: google-auth-library's `Compute` client (Application
 * Default Credentials on Compute Engine, Cloud Run, GKE) asks `/computeMetadata/v1/instance/service-accounts/.../token`
 * and, on a 403 or 404, rewrites the gaxios error's message to explain it ("This may be because the Compute Engine
 * instance does not have any permission scopes specified"). The client sees that the metadata server failed and
 * Google's explanation, never the response body GAL appends.
 */
import { httpStatusOf, reasonPhrase, requestUrlOf } from '../kit/http.js';
import { messageOf } from '../kit/read.js';
import { urlPathOf } from '../kit/url.js';
import { googleFailedRequestOf } from './api-error.js';
import { googleRule, isGaxiosError } from './gaxios.js';

/** google-auth-library's explanations, by status, as it words them. */
const EXPLANATIONS: Readonly<Record<number, string>> = {
  403: 'This may be because the Compute Engine instance does not have the correct permission scopes specified.',
  404: 'This may be because the Compute Engine instance does not have any permission scopes specified.',
};

/** The metadata server's path prefix. */
const METADATA_PATH = '/computeMetadata/';

/**
 * Metadata server failures: a gaxios error with an HTTP status from a request to the metadata server
 * (`/computeMetadata/...`), such as the one google-auth-library's `Compute` client throws when no access token is to be
 * had. Text `The Compute Engine metadata server gave no access token (404 Not Found). This may be because the Compute
 * Engine instance does not have any permission scopes specified.` (the explanation when google-auth-library gave
 * one), status 500 (the server's environment, not the caller), logged at warn; failure code `metadata_server`,
 * retryable after a 5xx, not after a 4xx (the instance's settings must change).
 */
export const googleMetadataServerRule = googleRule({
  name: 'google-metadata-server',
  predicate: (error) => {
    if (!isGaxiosError(error) || httpStatusOf(error) === undefined) return false;
    const url = requestUrlOf(error);
    // only a URL that holds the prefix at all is parsed (every Google API error passes here)
    return url?.includes(METADATA_PATH) === true && urlPathOf(url)?.startsWith(METADATA_PATH) === true;
  },
  message: (error) => {
    const status = httpStatusOf(error) ?? 0;
    const phrase = reasonPhrase(status);
    const head = `The Compute Engine metadata server gave no access token (${status}${phrase === undefined ? '' : ` ${phrase}`}).`;
    const explanation = EXPLANATIONS[status];
    return explanation !== undefined && messageOf(error).includes(explanation.slice(0, -1)) ? `${head} ${explanation}` : head;
  },
  status: 500,
  request: googleFailedRequestOf,
  failure: (error) => ({ code: 'metadata_server', retryable: (httpStatusOf(error) ?? 0) >= 500 }),
});

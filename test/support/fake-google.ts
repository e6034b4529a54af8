/**
 * A local stand-in for Google's servers, for tests that drive the real gaxios and google-auth-library against it.
 *
 * It listens on 127.0.0.1 (port 0: the OS picks one) and answers the way Google does: AIP-193 JSON error bodies for
 * API calls, an OAuth token endpoint, an STS endpoint, an HTML 502 page from a "front end", connection resets and slow
 * responses. Every request is recorded (method, URL, headers, body), so that a test can check that a planted secret was
 * really sent before checking that it never comes back out. No traffic leaves 127.0.0.1.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createSecureServer, type Http2Session } from 'node:http2';
import { closedPort, listenOn, listenOnLoopback, readRequestBody, type Listening } from './loopback.js';

/** One request as the fake server saw it. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

/** A running fake server. */
export interface FakeGoogle {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  /** Absolute URL of a path on this server. */
  url(path: string): string;
  /** Every request received so far, oldest first. */
  readonly requests: readonly RecordedRequest[];
  /** True when some recorded request (URL, headers or body) contains `needle`. */
  received(needle: string): boolean;
  close(): Promise<void>;
}

/** An AIP-193 error body: `{ error: { code, message, status, errors?, details? } }`. */
interface ApiErrorSpec {
  readonly http: number;
  readonly body: Record<string, unknown>;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Google's messages, as the real APIs word them. */
export const GOOGLE_MESSAGES = {
  permissionDenied: 'The caller does not have permission',
  notFound: 'File not found: 1AbCdEf.',
  invalidArgument: "Invalid value at 'range' (TYPE_STRING), \"Sheet1!A1:ZZ\"",
  internal: 'Internal error encountered.',
  unavailable: 'The service is currently unavailable.',
  quota:
    "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:123456789'.",
  userRateLimit: 'User Rate Limit Exceeded',
  scopes: 'Request had insufficient authentication scopes.',
  unauthenticated:
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
  invalidGrant: 'Token has been expired or revoked.',
  invalidRapt: 'reauth related error (invalid_rapt)',
  unauthorizedClient: 'Unauthorized',
  invalidClient: 'The OAuth client was not found.',
  stsInvalidGrant: 'The subject token is invalid.',
  iamDenied: "Permission 'iam.serviceAccounts.getAccessToken' denied on resource (or it may not exist).",
  invalidJwt: 'Invalid JWT Signature.',
  stsAudience:
    'The audience in ID Token [https://sts.example.invalid] does not match the expected audience //iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/pool/providers/provider.',
  tooManyRequests: 'Too many requests. Try again later.',
  alreadyExists: 'Requested entity already exists',
  conditionNotMet: 'At least one of the pre-conditions you specified did not hold.',
} as const;

/** The HTML page a Google front end sends with a 502. */
export const HTML_502 = `<!DOCTYPE html>
<html lang=en>
  <meta charset=utf-8>
  <title>Error 502 (Server Error)!!1</title>
  <style>*{margin:0;padding:0}html,code{font:15px/22px arial,sans-serif}</style>
  <a href=//www.google.com/><span id=logo aria-label=Google></span></a>
  <p><b>502.</b> <ins>That’s an error.</ins>
  <p>The server encountered a temporary error and could not complete your request.<p>Please try again in 30 seconds.  <ins>That’s all we know.</ins>
</html>`;

function apiError(
  http: number,
  status: string | undefined,
  message: string,
  extra: { reason?: string; domain?: string; details?: unknown[]; headers?: Record<string, string> } = {},
): ApiErrorSpec {
  const error: Record<string, unknown> = { code: http, message };
  if (extra.reason !== undefined) {
    error['errors'] = [{ message, domain: extra.domain ?? 'global', reason: extra.reason }];
  }
  if (status !== undefined) error['status'] = status;
  if (extra.details !== undefined) error['details'] = extra.details;
  return { http, body: { error }, ...(extra.headers === undefined ? {} : { headers: extra.headers }) };
}

/** A `google.rpc.ErrorInfo` detail from googleapis.com: the reason, and its metadata when the answer gives some. */
function errorInfo(reason: string, metadata?: Record<string, string>): Record<string, unknown> {
  return { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com', ...(metadata === undefined ? {} : { metadata }) };
}

/** The quota an exhausted Sheets read names. */
const SHEETS_READ_QUOTA = { service: 'sheets.googleapis.com', quota_metric: 'sheets.googleapis.com/read_requests' };

/** The API error answers, by path. */
const API_ERRORS: Readonly<Record<string, ApiErrorSpec>> = {
  '/v1/forbidden': apiError(403, 'PERMISSION_DENIED', GOOGLE_MESSAGES.permissionDenied, { reason: 'forbidden' }),
  // a message spread over lines, with tabs and a terminal escape: shown on one line
  '/v1/forbidden-multiline': apiError(403, 'PERMISSION_DENIED', '  The caller\n\tdoes not have\r\npermission \u001b[31m ', { reason: 'forbidden' }),
  '/v1/missing': apiError(404, 'NOT_FOUND', GOOGLE_MESSAGES.notFound, { reason: 'notFound' }),
  '/v1/invalid': apiError(400, 'INVALID_ARGUMENT', GOOGLE_MESSAGES.invalidArgument, {
    reason: 'badRequest',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: [{ field: 'range', description: GOOGLE_MESSAGES.invalidArgument }],
      },
    ],
  }),
  // a create whose id is taken (Calendar, Drive: ALREADY_EXISTS) and a failed If-Match (Cloud Storage: no `status`)
  '/v1/conflict': apiError(409, 'ALREADY_EXISTS', GOOGLE_MESSAGES.alreadyExists, { reason: 'duplicate' }),
  '/v1/precondition': apiError(412, undefined, GOOGLE_MESSAGES.conditionNotMet, { reason: 'conditionNotMet' }),
  '/v1/internal': apiError(500, 'INTERNAL', GOOGLE_MESSAGES.internal, { reason: 'backendError' }),
  '/v1/unavailable': apiError(503, 'UNAVAILABLE', GOOGLE_MESSAGES.unavailable),
  '/v1/quota': apiError(429, 'RESOURCE_EXHAUSTED', GOOGLE_MESSAGES.quota, {
    reason: 'rateLimitExceeded',
    domain: 'usageLimits',
    headers: { 'retry-after': '30' },
    details: [errorInfo('RATE_LIMIT_EXCEEDED', SHEETS_READ_QUOTA)],
  }),
  // 429 whose delay is only in the body: a google.rpc.RetryInfo detail (no retry-after header).
  '/v1/quota-retry-info': apiError(429, 'RESOURCE_EXHAUSTED', GOOGLE_MESSAGES.quota, {
    details: [errorInfo('RATE_LIMIT_EXCEEDED', SHEETS_READ_QUOTA), { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '12.5s' }],
  }),
  // 503 with a retry-after header given as an HTTP date: Google's front ends send one on overload.
  '/v1/unavailable-retry': apiError(503, 'UNAVAILABLE', GOOGLE_MESSAGES.unavailable, {
    headers: { 'retry-after': 'Fri, 31 Dec 2100 23:59:59 GMT' },
  }),
  // 429 with a retry-after header in seconds and no RetryInfo.
  '/v1/too-many-requests': apiError(429, 'RESOURCE_EXHAUSTED', GOOGLE_MESSAGES.tooManyRequests, {
    headers: { 'retry-after': '7' },
  }),
  '/v1/quota-no-retry': apiError(429, 'RESOURCE_EXHAUSTED', GOOGLE_MESSAGES.quota, {
    reason: 'rateLimitExceeded',
    domain: 'usageLimits',
  }),
  // Drive-style rate limit: a 403 without an AIP-193 `status`, recognised by its reason.
  '/v1/user-rate-limit': apiError(403, undefined, GOOGLE_MESSAGES.userRateLimit, {
    reason: 'userRateLimitExceeded',
    domain: 'usageLimits',
  }),
  '/v1/scopes': apiError(403, 'PERMISSION_DENIED', GOOGLE_MESSAGES.scopes, {
    reason: 'insufficientPermissions',
    details: [errorInfo('ACCESS_TOKEN_SCOPE_INSUFFICIENT', { service: 'drive.googleapis.com', method: 'google.apps.drive.v3.DriveFiles.List' })],
  }),
  '/v1/unauthenticated': apiError(401, 'UNAUTHENTICATED', GOOGLE_MESSAGES.unauthenticated, {
    reason: 'authError',
    details: [errorInfo('ACCESS_TOKEN_TYPE_UNSUPPORTED')],
  }),
};

/** An OAuth token endpoint's error answer: the HTTP status and the body `{ error, error_description, ...more }`. */
function tokenError(http: number, error: string, description: string, more: Record<string, string> = {}): { http: number; body: Record<string, string> } {
  return { http, body: { error, error_description: description, ...more } };
}

/** OAuth token endpoint answers, by path. `/token/ok` issues a token. */
const TOKEN_ERRORS: Readonly<Record<string, { http: number; body: Record<string, string> }>> = {
  '/token/invalid_grant': tokenError(400, 'invalid_grant', GOOGLE_MESSAGES.invalidGrant),
  '/token/invalid_rapt': tokenError(400, 'invalid_grant', GOOGLE_MESSAGES.invalidRapt, {
    error_uri: 'https://support.google.com/a/answer/9368756',
    error_subtype: 'invalid_rapt',
  }),
  '/token/unauthorized_client': tokenError(401, 'unauthorized_client', GOOGLE_MESSAGES.unauthorizedClient),
  '/token/invalid_client': tokenError(401, 'invalid_client', GOOGLE_MESSAGES.invalidClient),
  // A service account's signed JWT refused (gtoken rewrites the message to `invalid_grant: Invalid JWT Signature.`).
  '/token/invalid_jwt': tokenError(400, 'invalid_grant', GOOGLE_MESSAGES.invalidJwt),
  // Workload identity federation: the external token's audience is not the pool provider's.
  '/sts/audience': tokenError(400, 'invalid_grant', GOOGLE_MESSAGES.stsAudience),
  // Workforce identity federation: an external account's user refresh token, revoked (the STS `oauthtoken` endpoint).
  '/sts/v1/oauthtoken': tokenError(400, 'invalid_grant', GOOGLE_MESSAGES.invalidGrant),
  '/sts/invalid_grant': tokenError(400, 'invalid_grant', GOOGLE_MESSAGES.stsInvalidGrant),
};

/** An access token the fake token endpoint issues: shaped like Google's, so scrubbers recognise it. */
export const ISSUED_ACCESS_TOKEN = 'ya29.a0AfB_fakeIssuedAccessTokenFromTheFakeServer0123456789';

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(text);
}

/** A form-encoded body as text (`refresh_token=1%2F%2F...` reads `refresh_token=1//...`). */
function formDecoded(body: string): string {
  try {
    return decodeURIComponent(body.replace(/\+/g, ' '));
  } catch {
    return body;
  }
}

/** A certificate and key (PEM) for 127.0.0.1: the fake then speaks HTTP/2 over TLS (and HTTP/1.1), at `https://`. */
export interface FakeGoogleTls {
  readonly key: string;
  readonly cert: string;
}

/**
 * Listens with an HTTP/2 TLS server (HTTP/1.1 allowed) on 127.0.0.1, the way googleapis-common's `http2: true` client
 * connects (`https://<host>`), serving `handler`. Closing destroys the open sessions first.
 */
async function listenHttp2OnLoopback(
  tls: FakeGoogleTls,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<Listening> {
  const sessions = new Set<Http2Session>();
  const server = createSecureServer({ key: tls.key, cert: tls.cert, allowHTTP1: true }, handler as never);
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  return listenOn(server, 'https', () => {
    for (const session of sessions) session.destroy();
  });
}

/**
 * Starts the fake server (plain HTTP/1.1; with `tls`, HTTP/2 and HTTP/1.1 over TLS, see {@link FakeGoogleTls}).
 *
 * Paths: `/v1/<case>` (see {@link API_ERRORS}), `/v1/ok`, `/token/<oauth error>`, `/token/ok`, `/sts/invalid_grant`,
 * `/iam/v1/projects/-/serviceAccounts/<email>:generateAccessToken` (IAM 403), the metadata server's token path (404),
 * `/html502`, `/reset` (TCP reset before any response), `/hangup` (the peer closes the socket), `/slow?ms=N`.
 */
export async function startFakeGoogle(options: { tls?: FakeGoogleTls } = {}): Promise<FakeGoogle> {
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    void (async () => {
      const body = await readRequestBody(req);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: { ...req.headers }, body });
      const path = url.pathname;

      const api = API_ERRORS[path];
      if (api !== undefined) {
        sendJson(res, api.http, api.body, api.headers ?? {});
        return;
      }
      if (/^\/iam\/v1\/projects\/-\/serviceAccounts\/[^/]+:generateAccessToken$/.test(path)) {
        const iam = apiError(403, 'PERMISSION_DENIED', GOOGLE_MESSAGES.iamDenied, {
          details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'IAM_PERMISSION_DENIED', domain: 'iam.googleapis.com' }],
        });
        sendJson(res, iam.http, iam.body);
        return;
      }
      const oauth = TOKEN_ERRORS[path];
      if (oauth !== undefined) {
        sendJson(res, oauth.http, oauth.body, { 'cache-control': 'no-cache, no-store, max-age=0, must-revalidate' });
        return;
      }
      switch (path) {
        case '/v1/ok':
          sendJson(res, 200, { ok: true });
          return;
        case '/token/ok':
          sendJson(res, 200, { access_token: ISSUED_ACCESS_TOKEN, expires_in: 3599, token_type: 'Bearer' });
          return;
        case '/computeMetadata/v1/instance/service-accounts/default/token':
          // A Compute Engine instance without service account scopes: the metadata server answers a bare 404.
          res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'metadata-flavor': 'Google' });
          res.end('Not Found');
          return;
        case '/html502':
          res.writeHead(502, { 'content-type': 'text/html; charset=UTF-8' });
          res.end(HTML_502);
          return;
        case '/reset':
          req.socket.resetAndDestroy();
          return;
        case '/hangup':
          req.socket.destroy();
          return;
        case '/slow': {
          const ms = Number(url.searchParams.get('ms') ?? '2000');
          const timer = setTimeout(() => {
            timers.delete(timer);
            if (!res.destroyed) sendJson(res, 200, { ok: true });
          }, ms);
          timers.add(timer);
          return;
        }
        default:
          sendJson(res, 404, { error: { code: 404, message: `No fake route for ${path}`, status: 'NOT_FOUND' } });
      }
    })();
  };
  const { origin, port, close } =
    options.tls === undefined ? await listenOnLoopback(createServer(handler) as Server) : await listenHttp2OnLoopback(options.tls, handler);

  return {
    origin,
    port,
    url: (path: string) => `${origin}${path}`,
    requests,
    received(needle: string): boolean {
      return requests.some(
        (r) =>
          r.url.includes(needle) ||
          r.body.includes(needle) ||
          formDecoded(r.body).includes(needle) ||
          JSON.stringify(r.headers).includes(needle),
      );
    },
    close(): Promise<void> {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      return close();
    },
  };
}

/** A URL on 127.0.0.1 where a connection is refused (see closedPort). */
export async function closedPortUrl(path = '/'): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}${path}`;
}

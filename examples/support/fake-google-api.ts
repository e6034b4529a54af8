/**
 * A fake Google API on 127.0.0.1, for trying examples/google-server.ts without a Google account: it answers what the
 * server's tools ask for as Google does (AIP-193 JSON errors, an OAuth token endpoint that issues or refuses a token,
 * a quota error with retry-after), and remembers what it received, so that the demo (examples/demo.ts, which starts
 * it) can show that the fake credentials were really sent. No traffic leaves 127.0.0.1.
 *
 * Run by itself, it prints the environment examples/google-server.ts needs, then serves until Ctrl-C:
 *   npx tsx examples/support/fake-google-api.ts
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createConnection, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** A running fake. */
export interface FakeGoogleApi {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** True when a request it received (URL, headers or body, form-decoded too) contains `needle`. */
  received(needle: string): boolean;
  close(): Promise<void>;
}

/** One answer: the HTTP status, the JSON body and any extra headers. */
interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** An AIP-193 error body, as Google's APIs send it. */
function apiError(status: number, code: string, message: string, extra: { reason: string; domain?: string; details?: unknown[] }): Answer {
  const errors = [{ message, domain: extra.domain ?? 'global', reason: extra.reason }];
  return { status, body: { error: { code: status, message, errors, status: code, ...(extra.details === undefined ? {} : { details: extra.details }) } } };
}

const QUOTA =
  "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:123456789'.";

/** The answers, by path. */
const ANSWERS: Readonly<Record<string, Answer>> = {
  '/v1/ok': { status: 200, body: { ok: true } },
  '/v1/forbidden': apiError(403, 'PERMISSION_DENIED', 'The caller does not have permission', { reason: 'forbidden' }),
  '/v1/quota': {
    ...apiError(429, 'RESOURCE_EXHAUSTED', QUOTA, {
      reason: 'rateLimitExceeded',
      domain: 'usageLimits',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'RATE_LIMIT_EXCEEDED',
          domain: 'googleapis.com',
          metadata: { service: 'sheets.googleapis.com', quota_metric: 'sheets.googleapis.com/read_requests' },
        },
      ],
    }),
    headers: { 'retry-after': '30' },
  },
  '/v1/unavailable': { status: 503, body: { error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } } },
  // An access token shaped like Google's, so that scrubbers recognise it.
  '/token/ok': { status: 200, body: { access_token: 'ya29.a0AfB_fakeIssuedAccessTokenFromTheFakeServer0123456789', expires_in: 3599, token_type: 'Bearer' } },
  '/token/invalid_grant': { status: 400, body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' } },
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** A form-encoded body as text (`refresh_token=1%2F%2F...` reads `refresh_token=1//...`). */
function formDecoded(body: string): string {
  try {
    return decodeURIComponent(body.replace(/\+/g, ' '));
  } catch {
    return body;
  }
}

/** Starts the fake on 127.0.0.1, on a port the OS hands out. */
export async function startFakeGoogleApi(): Promise<FakeGoogleApi> {
  const seen: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then((body) => {
      seen.push(req.url ?? '', JSON.stringify(req.headers), body, formDecoded(body));
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      const answer = ANSWERS[path] ?? { status: 404, body: { error: { code: 404, message: `No fake route for ${path}`, status: 'NOT_FOUND' } } };
      res.writeHead(answer.status, { 'content-type': 'application/json; charset=UTF-8', ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: (needle) => seen.some((text) => text.includes(needle)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A URL on 127.0.0.1 where a connection is refused: the first of a few ports below 1024 that refuses one now (a server
 * started with port 0 never gets one of them, and fetch does not block them).
 */
export async function unreachableUrl(): Promise<string> {
  for (const port of [2, 3, 4, 5, 6, 8, 10, 12]) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
    if (refused) return `http://127.0.0.1:${port}`;
  }
  throw new Error('no closed port found on 127.0.0.1');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const fake = await startFakeGoogleApi();
  process.stdout.write(
    [
      `Fake Google API on ${fake.origin} (Ctrl-C to stop). Environment for examples/google-server.ts:`,
      `  GOOGLE_API_BASE=${fake.origin}`,
      `  CALENDAR_API_BASE=${await unreachableUrl()}`,
      '',
    ].join('\n'),
  );
  const stop = (): void => void fake.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * Per-user sign-in over Streamable HTTP (SDK v2), on both protocol revisions: users call `acme_profile`, a tool that
 * needs each user's own Acme sign-in. A call made before the user signed in to Acme fails with `AcmeSignInRequired`,
 * whose rule asks for re-authorization; the policy's `reauthorize` function builds a sign-in URL for that user and
 * call, with a `state` that ties the sign-in to the elicitation. The client opens the URL; the sign-in page
 * (`/acme/login`, standing in for an OAuth callback) stores the user's Acme token and, for a 2025-11-25 session,
 * sends `notifications/elicitation/complete` for the elicitation; the client retries.
 * - 2025-11-25 clients (sessions, `isLegacyRequest`): the -32042 error with the URL, then the completion notification.
 * - 2026-07-28 clients (`createMcpHandler`, no sessions): an input-required result with the URL; the client opens
 *   it and retries the call itself.
 * Users are told apart by their bearer token (a real server verifies an OAuth token here).
 *
 * Install: npm install mcp-error-policy @modelcontextprotocol/server tsx
 * Try: npx tsx examples/sign-in-http.ts (listens on 127.0.0.1:3000)
 * Connect: http://127.0.0.1:3000/mcp with "Authorization: Bearer token-alice". A 2025-11-25 client that declared no
 * URL elicitation gets the sign-in URL after the text (one that declared it gets the -32042 error with the URL):
 *   acme_profile {} → Error executing tool acme_profile: You are not signed in to Acme …
 *   stderr → Acme MCP server on http://127.0.0.1:3000/mcp (bearer tokens: token-alice, token-bob)
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createMcpHandler, isLegacyRequest, McpServer, WebStandardStreamableHTTPServerTransport, type AuthInfo } from '@modelcontextprotocol/server';
import { applyErrorPolicy, coreRules, createErrorPolicy, type ErrorPolicyOptions, type ErrorRule } from 'mcp-error-policy';

/** The demo's users, by bearer token. */
const USERS: Readonly<Record<string, string>> = { 'token-alice': 'alice', 'token-bob': 'bob' };

/** Thrown by the Acme client when the user has no Acme token (or it was revoked). */
export class AcmeSignInRequired extends Error {
  override readonly name = 'AcmeSignInRequired';
}

const acmeSignInRule: ErrorRule = {
  name: 'acme-sign-in',
  predicate: (error) => error instanceof AcmeSignInRequired,
  message: 'You are not signed in to Acme',
  level: 'info',
  reauthorize: true,
};

/** What a test (or a real server) adds to the policy: its logger, access log, telemetry. */
export type ExtraPolicyOptions = Pick<ErrorPolicyOptions, 'logger' | 'onOutcome' | 'telemetry'>;

export interface SignInServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  close(): Promise<void>;
}

function userOf(authInfo: AuthInfo | undefined): string | undefined {
  const user = authInfo?.extra?.['user'];
  return typeof user === 'string' ? user : undefined;
}

/**
 * Starts the server on 127.0.0.1 (`port` 0: any free port). `register` adds tools, resources and prompts to each
 * McpServer it makes.
 */
export async function startSignInServer(options: { port?: number; policy?: ExtraPolicyOptions; register?: (server: McpServer) => void } = {}): Promise<SignInServer> {
  const acmeTokens = new Map<string, string>(); // user -> Acme token
  const pending = new Map<string, { user: string; elicitationId: string; sessionId?: string }>(); // sign-in state
  const sessions = new Map<string, { server: McpServer; transport: WebStandardStreamableHTTPServerTransport }>();
  let base = '';

  const policy = createErrorPolicy({
    ...options.policy,
    rules: [acmeSignInRule, ...coreRules],
    // the call's user, session and elicitation id: a sign-in URL of this user's own, whose state finds them again
    reauthorize: (_error, { authInfo, sessionId, elicitationId }) => {
      const user = typeof authInfo?.extra?.['user'] === 'string' ? authInfo.extra['user'] : undefined;
      if (user === undefined) return 'Sign in to Acme first.';
      const state = randomUUID();
      pending.set(state, { user, elicitationId, ...(sessionId === undefined ? {} : { sessionId }) });
      return { text: `Sign in to Acme as ${user}.`, url: `${base}/acme/login?state=${state}` };
    },
  });

  function newServer(): McpServer {
    const server = new McpServer({ name: 'acme', version: '1.0.0' });
    applyErrorPolicy(server, policy);
    server.registerTool('acme_profile', { description: "The user's Acme profile" }, (ctx) => {
      const user = userOf(ctx.http?.authInfo);
      if (user === undefined || !acmeTokens.has(user)) throw new AcmeSignInRequired('no Acme token');
      return { content: [{ type: 'text', text: `Acme profile of ${user}` }] };
    });
    options.register?.(server);
    return server;
  }

  /** The sign-in page (an OAuth callback in a real server): signs the user in, then tells their session. */
  async function signIn(state: string | null): Promise<Response> {
    const entry = state === null ? undefined : pending.get(state);
    if (entry === undefined || state === null) return new Response('Unknown or used sign-in link', { status: 400 });
    pending.delete(state);
    acmeTokens.set(entry.user, `acme-${randomUUID()}`);
    const session = entry.sessionId === undefined ? undefined : sessions.get(entry.sessionId);
    // 2025-11-25: the client learns that this elicitation is done and retries (2026-07-28 clients retry by themselves)
    if (session !== undefined) await session.server.server.createElicitationCompletionNotifier(entry.elicitationId)();
    return new Response(`Signed in to Acme as ${entry.user}. You can close this page.`);
  }

  const modern = createMcpHandler(() => newServer(), { legacy: 'reject' });

  async function mcp(request: Request, authInfo: AuthInfo): Promise<Response> {
    if (!(await isLegacyRequest(request))) return modern.fetch(request, { authInfo });
    const sessionId = request.headers.get('mcp-session-id');
    let session = sessionId === null ? undefined : sessions.get(sessionId);
    if (session === undefined) {
      if (sessionId !== null) return new Response('Unknown session', { status: 404 });
      const server = newServer();
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, { server, transport });
        },
        onsessionclosed: (id) => {
          sessions.delete(id);
        },
      });
      await server.connect(transport);
      session = { server, transport };
    }
    return session.transport.handleRequest(request, { authInfo });
  }

  async function route(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/acme/login' && request.method === 'GET') return signIn(url.searchParams.get('state'));
    if (url.pathname !== '/mcp') return new Response('Not found', { status: 404 });
    const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
    const user = token === undefined ? undefined : USERS[token];
    if (token === undefined || user === undefined) return new Response('Unauthorized', { status: 401 });
    return mcp(request, { token, clientId: 'acme-demo', scopes: [], extra: { user } });
  }

  /** node:http to the web-standard handlers. */
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
    const body = req.method === 'POST' ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined;
    const request = new Request(`${base}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, ...(body ? { body, duplex: 'half' } : {}) } as RequestInit);
    const response = await route(request);
    const out: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      out[key] = value;
    });
    res.writeHead(response.status, out);
    if (response.body === null) res.end();
    else Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>).pipe(res);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    close: async () => {
      await modern.close();
      await Promise.all([...sessions.values()].map(({ server }) => server.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const { url } = await startSignInServer({ port: 3000 });
  process.stderr.write(`Acme MCP server on ${url} (bearer tokens: token-alice, token-bob)\n`);
}

/**
 * Sentry beside the policy: Sentry's MCP instrumentation traces every request, and the policy's `onOutcome` reports
 * each crash to Sentry once, tagged with the reference the client saw. Anticipated failures open no Sentry issue.
 *
 * Install: npm install mcp-error-policy @modelcontextprotocol/sdk zod @sentry/node tsx
 * Run: SENTRY_DSN=https://<key>@<host>/<project> RATES_API_KEY=... npx tsx examples/sentry-server.ts (stdio).
 * Without SENTRY_DSN, Sentry sends nothing; the policy works the same:
 * Try: RATES_API_KEY=rk_live_51FAKEfakeFAKEfake0123 npx tsx examples/sentry-server.ts. A client sees:
 *   convert {"amount":10,"from":"EUR","to":"USD"} → 10.80 USD
 *   convert {"amount":10,"from":"EUR","to":"XYZ"} → Error executing tool convert: Unknown currency: XYZ
 *   refresh_rates {} → Error executing tool refresh_rates (reference 3f9a1c2b7d04)
 *   rates://usd → MCP error -32603: Currency codes are three capital letters
 *   rates://GBP → MCP error -32603: Error reading resource rates://GBP (reference 3f9a1c2b7d04)
 *   stderr → [mcp-error-policy] ERROR tool "refresh_rates" crashed (reference 3f9a1c2b7d04): Error "GET https://rates.example/v1/latest?key=[REDACTED] returned a body that is not JSON"
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as Sentry from '@sentry/node';
import { applyErrorPolicy, createErrorPolicy, ResourceError, scrubSecrets, ToolError } from 'mcp-error-policy';
import { z } from 'zod';

/** Every string in `value`, scrubbed of credentials (events carry the raw message, stack frames and causes). */
function scrubDeep<T>(value: T): T {
  if (typeof value === 'string') return scrubSecrets(value) as T;
  if (Array.isArray(value)) return value.map(scrubDeep) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, scrubDeep(inner)])) as T;
  }
  return value;
}

/**
 * Sentry's own MCP captures: its handler wrapper and its capture of JSON-RPC error responses. The policy answers every
 * failure, so these are duplicates of the crashes `onOutcome` reports, or anticipated failures (a `ResourceError` is
 * a -32603 response). Transport errors (`error_type: 'transport'`) are kept.
 */
function isSentryMcpCapture(event: Sentry.ErrorEvent): boolean {
  return (event.exception?.values ?? []).some(
    ({ mechanism }) => mechanism?.type === 'auto.ai.mcp_server' && mechanism.data?.['error_type'] !== 'transport',
  );
}

Sentry.init({
  dsn: process.env.SENTRY_DSN,
  tracesSampleRate: 1,
  // Sentry is an operator backend like the logs: no credential may reach it either.
  beforeSend: (event) => (isSentryMcpCapture(event) ? null : scrubDeep(event)),
  // Spans stream by default in Sentry 11 (`beforeSendTransaction` is not called); they hold tool arguments and results.
  beforeSendSpan: (span) => scrubDeep(span),
});

const policy = createErrorPolicy({
  // The hook: the policy answers every failure itself, so Sentry's instrumentation never sees a crash; report it here.
  onOutcome: ({ kind, name, classification }) => {
    if (classification?.kind !== 'crash') return;
    Sentry.captureException(classification.error, {
      captureContext: { tags: { 'mcp_error_policy.reference': classification.reference, 'mcp.handler': kind, 'mcp.name': name } },
      mechanism: { type: 'mcp_error_policy', handled: false },
    });
  },
});

// 1. Sentry (its mcpServer integration does this at construction when Sentry is loaded first, with `node --import`;
// a second call is a no-op), 2. the policy, 3. the handlers. Sentry's handler wrappers must sit outside the policy's:
// inside, Sentry captures the raw error first and ignores the hook's capture of it (docs/observability.md, "Sentry").
const server = applyErrorPolicy(Sentry.wrapMcpServerWithSentry(new McpServer({ name: 'rates', version: '1.0.0' })), policy);

const rates = new Map([['EUR', 1], ['USD', 1.08]]);

server.registerTool('convert', { inputSchema: { amount: z.number(), from: z.string(), to: z.string() } }, ({ amount, from, to }) => {
  const a = rates.get(from);
  const b = rates.get(to);
  // Anticipated: the client sees this text; no Sentry issue.
  if (a === undefined || b === undefined) throw new ToolError(`Unknown currency: ${a === undefined ? from : to}`);
  return { content: [{ type: 'text', text: `${((amount / a) * b).toFixed(2)} ${to}` }] };
});

server.registerTool('refresh_rates', {}, async () => {
  const url = `https://rates.example/v1/latest?key=${process.env.RATES_API_KEY ?? ''}`;
  // A bug whose message holds a credential: the client sees only a reference; Sentry gets the error, key scrubbed.
  throw new Error(`GET ${url} returned a body that is not JSON`);
});

server.registerResource('rate', new ResourceTemplate('rates://{currency}', { list: undefined }), {}, (uri, { currency }) => {
  // Anticipated: a JSON-RPC error -32603 with this text, which Sentry's own capture would report (see beforeSend).
  if (!/^[A-Z]{3}$/.test(String(currency))) throw new ResourceError('Currency codes are three capital letters');
  // A bug for currencies without a rate: the client sees only a reference.
  return { contents: [{ uri: uri.href, text: rates.get(String(currency))!.toFixed(4) }] };
});

// A stdio server ends when the client closes stdin: send what Sentry still holds before the process exits.
process.stdin.once('end', () => void Sentry.flush(2000).then(() => process.exit(0)));

await server.connect(new StdioServerTransport());

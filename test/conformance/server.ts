/**
 * The project's own conformance server: an SDK v1 McpServer with the tools, resources and prompts the official MCP
 * conformance suite (`@modelcontextprotocol/conformance`, its `server` scenarios) calls, served over Streamable HTTP
 * (stateful, with an event store for SEP-1699 resumability) on 127.0.0.1.
 *
 *   node --import tsx test/conformance/server.ts --policy on|off [--port N]
 *
 * With `--policy on`, `applyErrorPolicy` puts the whole server under a policy (applied between the tools and the
 * resources, so registrations before and after it are covered): the handlers that send log and progress
 * notifications, sampling and elicitation requests then run inside the policy's wrappers. With `--policy off` it is
 * the same server without it. scripts/conformance.sh runs the suite against both and requires the same results.
 *
 * Prints `listening <url>` on stdout once it accepts connections. Failure records go to stderr (the policy's default
 * logger), one `[mcp-error-policy] ...` line each.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport, type EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type ElicitRequestFormParams,
  type JSONRPCMessage,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { applyErrorPolicy, createErrorPolicy } from '../../src/index.js';

/** Asks the client to fill in a form: `elicitation/create`, mode `form`, with this message and requested schema. */
function elicitForm(extra: RequestHandlerExtra<ServerRequest, ServerNotification>, message: string, requestedSchema: Omit<ElicitRequestFormParams['requestedSchema'], 'type'>) {
  return extra.sendRequest({ method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: { type: 'object', ...requestedSchema } } }, ElicitResultSchema);
}

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : (process.argv[at + 1] ?? fallback);
}

const withPolicy = option('policy', 'on') === 'on';
const port = Number(option('port', '0'));

/** A 1x1 PNG and a minimal WAV, base64. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** Resumability (SEP-1699): every event of every stream, replayable after a Last-Event-ID. */
function memoryEventStore(): EventStore {
  const events: { id: string; streamId: string; message: JSONRPCMessage }[] = [];
  let counter = 0;
  return {
    async storeEvent(streamId, message) {
      counter += 1;
      const id = `${streamId}::${String(counter).padStart(10, '0')}`;
      events.push({ id, streamId, message });
      return id;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const streamId = lastEventId.split('::')[0] ?? '';
      for (const event of events) {
        if (event.streamId === streamId && event.id > lastEventId) await send(event.id, event.message);
      }
      return streamId;
    },
  };
}

/** The transport of each session, so that a tool can close its own SSE stream (SEP-1699 polling). */
const transports = new Map<string, StreamableHTTPServerTransport>();

function newServer(): McpServer {
  const server = new McpServer(
    { name: 'mcp-error-policy-conformance', version: '1.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        logging: {},
        completions: {},
      },
    },
  );

  // ---- tools (registered before applyErrorPolicy)
  server.registerTool('test_simple_text', { description: 'Returns simple text content' }, async () => text('This is a simple text response for testing.'));
  server.registerTool('test_image_content', { description: 'Returns image content' }, async () => ({
    content: [{ type: 'image', data: PNG, mimeType: 'image/png' }],
  }));
  server.registerTool('test_audio_content', { description: 'Returns audio content' }, async () => ({
    content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }],
  }));
  server.registerTool('test_embedded_resource', { description: 'Returns an embedded resource' }, async () => ({
    content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
  }));
  server.registerTool('test_multiple_content_types', { description: 'Returns text, image and resource content' }, async () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) } },
    ],
  }));
  server.registerTool('test_tool_with_logging', { description: 'Sends three log notifications while it runs', inputSchema: {} }, async (_args, extra) => {
    for (const [i, data] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
      if (i > 0) await pause(50);
      await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data } });
    }
    return text('Tool with logging executed successfully');
  });
  server.registerTool('test_tool_with_progress', { description: 'Reports progress 0, 50, 100 of 100', inputSchema: {} }, async (_args, extra) => {
    const progressToken = extra._meta?.progressToken;
    for (const [i, progress] of [0, 50, 100].entries()) {
      if (i > 0) await pause(50);
      if (progressToken !== undefined) {
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, total: 100, message: `Completed step ${progress} of 100` } });
      }
    }
    return text(String(progressToken ?? 'no progress token'));
  });
  server.registerTool('test_error_handling', { description: 'Always fails' }, async () => {
    // A plain Error: with the policy it is a crash, masked with a reference id (still an isError result with text).
    throw new Error('This tool intentionally returns an error for testing');
  });
  server.registerTool('test_sampling', { description: 'Asks the client for an LLM completion', inputSchema: { prompt: z.string() } }, async ({ prompt }, extra) => {
    const result = await extra.sendRequest(
      { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 } },
      CreateMessageResultSchema,
    );
    const content = result.content as { type: string; text?: string };
    return text(`LLM response: ${content.type === 'text' ? (content.text ?? '') : content.type}`);
  });
  server.registerTool('test_elicitation', { description: 'Asks the user for input', inputSchema: { message: z.string() } }, async ({ message }, extra) => {
    const result = await elicitForm(extra, message, {
      properties: { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } },
      required: ['username', 'email'],
    });
    return text(`User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
  });
  server.registerTool('test_elicitation_sep1034_defaults', { description: 'Elicitation with defaults (SEP-1034)', inputSchema: {} }, async (_args, extra) => {
    const result = await elicitForm(extra, 'Please review and update the form fields with defaults', {
      properties: {
        name: { type: 'string', description: 'User name', default: 'John Doe' },
        age: { type: 'integer', description: 'User age', default: 30 },
        score: { type: 'number', description: 'User score', default: 95.5 },
        status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
        verified: { type: 'boolean', description: 'Verification status', default: true },
      },
      required: [],
    });
    return text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
  });
  server.registerTool('test_elicitation_sep1330_enums', { description: 'Elicitation with the enum variants (SEP-1330)', inputSchema: {} }, async (_args, extra) => {
    const result = await elicitForm(extra, 'Please select options from the enum fields', {
      properties: {
        untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
        titledSingle: {
          type: 'string',
          description: 'Select one option with titles',
          oneOf: [
            { const: 'value1', title: 'First Option' },
            { const: 'value2', title: 'Second Option' },
            { const: 'value3', title: 'Third Option' },
          ],
        },
        legacyEnum: { type: 'string', description: 'Select one option (legacy)', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
        untitledMulti: { type: 'array', description: 'Select multiple options', minItems: 1, maxItems: 3, items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
        titledMulti: {
          type: 'array',
          description: 'Select multiple options with titles',
          minItems: 1,
          maxItems: 3,
          items: {
            anyOf: [
              { const: 'value1', title: 'First Choice' },
              { const: 'value2', title: 'Second Choice' },
              { const: 'value3', title: 'Third Choice' },
            ],
          },
        },
      },
      required: [],
    });
    return text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
  });
  server.registerTool('test_reconnection', { description: 'Closes its SSE stream mid-call, then answers (SEP-1699)', inputSchema: {} }, async (_args, extra) => {
    const transport = extra.sessionId === undefined ? undefined : transports.get(extra.sessionId);
    if (transport !== undefined) transport.closeSSEStream(extra.requestId);
    await pause(100);
    return text('Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.');
  });
  // JSON Schema 2020-12 (SEP-1613): zod 4 puts `$schema`, `$defs` (for a schema with an id) and
  // `additionalProperties: false` (strict object) in the listed inputSchema.
  const address = z.object({ street: z.string().optional(), city: z.string().optional() }).meta({ id: 'address' });
  server.registerTool(
    'json_schema_2020_12_tool',
    { description: 'Tool with JSON Schema 2020-12 features', inputSchema: z.strictObject({ name: z.string().optional(), address: address.optional() }) },
    async (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
  );

  if (withPolicy) applyErrorPolicy(server, createErrorPolicy());

  // ---- resources (registered after applyErrorPolicy)
  server.registerResource('static-text', 'test://static-text', { title: 'Static Text Resource', description: 'A static text resource', mimeType: 'text/plain' }, async () => ({
    contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  }));
  server.registerResource('static-binary', 'test://static-binary', { title: 'Static Binary Resource', description: 'A static binary resource', mimeType: 'image/png' }, async () => ({
    contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG }],
  }));
  server.registerResource(
    'template',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { title: 'Resource Template', description: 'A resource template with parameter substitution', mimeType: 'application/json' },
    async (uri, { id }) => ({
      contents: [{ uri: uri.toString(), mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }) }],
    }),
  );
  server.registerResource('watched-resource', 'test://watched-resource', { title: 'Watched Resource', description: 'A resource clients subscribe to', mimeType: 'text/plain' }, async () => ({
    contents: [{ uri: 'test://watched-resource', mimeType: 'text/plain', text: 'Watched resource content' }],
  }));
  const subscriptions = new Set<string>();
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscriptions.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });

  // ---- prompts (registered after applyErrorPolicy)
  server.registerPrompt('test_simple_prompt', { title: 'Simple Test Prompt', description: 'A prompt without arguments' }, async () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      title: 'Prompt With Arguments',
      description: 'A prompt with required arguments',
      argsSchema: {
        arg1: completable(z.string().describe('First test argument'), (value) => ['paris', 'park', 'party'].filter((v) => v.startsWith(value))),
        arg2: z.string().describe('Second test argument'),
      },
    },
    async ({ arg1, arg2 }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }] }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    { title: 'Prompt With Embedded Resource', description: 'A prompt that embeds a resource', argsSchema: { resourceUri: z.string().describe('URI of the resource to embed') } },
    async ({ resourceUri }) => ({
      messages: [
        { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  );
  server.registerPrompt('test_prompt_with_image', { title: 'Prompt With Image', description: 'A prompt with image content' }, async () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }));
  return server;
}

/** DNS-rebinding protection: only localhost Host and Origin headers. */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
function isLocal(req: IncomingMessage): boolean {
  const host = req.headers.host;
  if (host === undefined) return false;
  const hostName = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
  if (!LOCAL_HOSTS.has(hostName ?? '')) return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return LOCAL_HOSTS.has(new URL(origin).hostname) || LOCAL_HOSTS.has(`[${new URL(origin).hostname}]`);
  } catch {
    return false;
  }
}

function jsonError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  return body === '' ? undefined : (JSON.parse(body) as unknown);
}

function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize');
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!isLocal(req)) {
    jsonError(res, 403, 'Forbidden: non-localhost Host or Origin');
    return;
  }
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname !== '/mcp') {
    jsonError(res, 404, 'Not found');
    return;
  }
  const sessionId = req.headers['mcp-session-id'];
  const existing = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
  if (req.method === 'POST') {
    let body: unknown;
    try {
      body = await readJson(req);
    } catch {
      jsonError(res, 400, 'Parse error');
      return;
    }
    if (existing !== undefined) {
      await existing.handleRequest(req, res, body);
      return;
    }
    if (sessionId !== undefined || !isInitialize(body)) {
      jsonError(res, 400, 'Invalid or missing session ID');
      return;
    }
    const server = newServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: memoryEventStore(),
      retryInterval: 500,
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
      void server.close();
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    return;
  }
  if (existing === undefined) {
    jsonError(res, 400, 'Invalid or missing session ID');
    return;
  }
  await existing.handleRequest(req, res);
}

const http = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    process.stderr.write(`conformance server: ${String(error)}\n`);
    if (!res.headersSent) jsonError(res, 500, 'Internal server error');
  });
});
http.listen(port, '127.0.0.1', () => {
  const { port: bound } = http.address() as AddressInfo;
  process.stdout.write(`listening http://127.0.0.1:${bound}/mcp (policy ${withPolicy ? 'on' : 'off'})\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    http.closeAllConnections();
    http.close(() => process.exit(0));
  });
}

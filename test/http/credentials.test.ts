/**
 * Credentials in the forms the real clients and services put them into errors, end to end: a real McpServer under
 * `applyErrorPolicy(server, createErrorPolicy({ rules: [...httpRules, ...coreRules], logger }))`, whose tools call the
 * real client libraries against a fake on 127.0.0.1, through the real SDK Client (every message the server sends
 * captured). The fake answers as the services do when they quote what they got:
 *
 * - AWS Lambda (`@aws-sdk/client-lambda`, signed with a session token): 403 `InvalidSignatureException` and
 *   `SignatureDoesNotMatch` whose message quotes the canonical request (`x-amz-security-token:<token>`, built from the
 *   headers the fake received) and the `authorization: AWS4-HMAC-SHA256 Credential=..., Signature=...` line.
 * - OpenAI (`openai` 6): 401 `Incorrect API key provided: sk-Dq3kF4***...Zq9W` (the key half-masked, as OpenAI does).
 * - Stripe (`stripe` 23): 401 `Invalid API Key provided: sk_test_****...Dq3k`.
 * - A JSON API through axios: 400 whose problem detail echoes the request's header lines (`authorization`, `cookie`,
 *   `x-api-key`) and the tokens it got.
 * - `fetch` of a URL with user info: the `TypeError` (a crash) quotes the URL, password included.
 *
 * No 6 characters of any planted secret (secrets.ts's FORM), nor a masked key's visible head or tail, reach the wire,
 * the failure object or a log record. The negative control: the same tools on a server without the policy put the
 * secrets on the wire, and the same check finds them there.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyErrorPolicy, coreRules, createErrorPolicy, type LogRecord } from '../../src/index.js';
import { httpRules } from '../../src/http/index.js';
import { FAILURE_KEY } from '../support/calls.js';
import { listenOnLoopback, readRequestBody, type Listening } from '../support/loopback.js';
import { FORM, leakIn } from '../security/secrets.js';
import { openSession, type WireSession } from '../security/support.js';

/** The keys the clients send; the services echo them masked (their visible heads and tails are FORM's masked keys). */
const KEYS = {
  openai: `sk-Dq3kF4${'Hx7Lm2Pq9Rt4Vw8Yb3Nc6Kd1Fg5Js0'}Zq9W`,
  stripe: `sk_test_${'Tn4Bv8Cx2Mz6Lq1Wp5Rk9Hs3'}Dq3k`,
} as const;

/** What a service shows of a key: its head, a mask, its tail (OpenAI: 9 and 4 characters; Stripe: the prefix and 4). */
function masked(key: string, head: number, mask: string): string {
  return `${key.slice(0, head)}${mask}${key.slice(-4)}`;
}

/** Every request header as a canonical-request line (`name:value`), in name order. */
function headerLines(req: IncomingMessage, names: readonly string[]): string {
  return names.map((name) => `${name}:${String(req.headers[name] ?? '')}`).join('\n');
}

/** AWS's answer to a request it could not verify: the code in `x-amzn-ErrorType`, the canonical request in the message. */
function awsSignatureError(req: IncomingMessage, res: ServerResponse, code: string): void {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  const canonical = [req.method, path, '', headerLines(req, ['host', 'x-amz-date', 'x-amz-security-token']), '', 'host;x-amz-date;x-amz-security-token', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'].join('\n');
  const message =
    'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. ' +
    `Consult the service documentation for details.\n\nThe Canonical String for this request should have been\n'${canonical}'\n\n` +
    `The String-to-Sign should have been\n'AWS4-HMAC-SHA256\n${String(req.headers['x-amz-date'])}\n20260101/us-east-1/lambda/aws4_request\n0f1e2d3c'\n` +
    `Request headers: authorization: ${String(req.headers['authorization'])}`;
  res.writeHead(403, { 'content-type': 'application/json', 'x-amzn-errortype': `${code}:http://internal.amazon.com/coral/com.amazon.coral.service/`, 'x-amzn-requestid': 'c0ffee00-1d2e-4f3a-9b8c-7d6e5f4a3b2c' });
  res.end(JSON.stringify({ message }));
}

/** The fake's routes; every request is recorded. */
async function startFake(): Promise<Listening & { readonly seen: IncomingMessage['headers'][] }> {
  const seen: IncomingMessage['headers'][] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readRequestBody(req);
      seen.push({ ...req.headers, 'x-test-url': req.url, 'x-test-body': body });
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      if (path.startsWith('/2015-03-31/functions/')) {
        awsSignatureError(req, res, path.includes('s3style') ? 'SignatureDoesNotMatch' : 'InvalidSignatureException');
      } else if (path.startsWith('/openai/')) {
        const key = String(req.headers['authorization']).replace(/^Bearer /, '');
        const message = `Incorrect API key provided: ${masked(key, 9, '***...')}. You can find your API key at https://platform.openai.com/account/api-keys.`;
        res.writeHead(401, { 'content-type': 'application/json', 'x-request-id': 'req_0123456789abcdef' });
        res.end(JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }));
      } else if (path.startsWith('/v1/customers/')) {
        const key = String(req.headers['authorization']).replace(/^Bearer /, '');
        res.writeHead(401, { 'content-type': 'application/json', 'request-id': 'req_8PLxm1W2nZqY3r' });
        res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${masked(key, 8, '*'.repeat(20))}` } }));
      } else {
        const echoed = headerLines(req, ['authorization', 'cookie', 'x-api-key']);
        const detail = `Rejected the request. Request headers:\n${echoed}\nTokens seen: ${FORM.huggingFace}, ${FORM.npm}, ${FORM.slackApp}`;
        res.writeHead(400, { 'content-type': 'application/problem+json' });
        res.end(JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail }));
      }
    })();
  });
  return { ...(await listenOnLoopback(server)), seen };
}

interface LambdaModule {
  LambdaClient: new (config: Record<string, unknown>) => { send(command: unknown): Promise<unknown> };
  GetFunctionConfigurationCommand: new (input: Record<string, unknown>) => unknown;
}
interface OpenAiCtor {
  new (options: Record<string, unknown>): { models: { retrieve(id: string): Promise<unknown> } };
}
interface StripeCtor {
  new (key: string, options: Record<string, unknown>): { customers: { retrieve(id: string): Promise<unknown> } };
}
interface AxiosLike {
  get(url: string, config: Record<string, unknown>): Promise<unknown>;
}

/** The tools, each calling one real client against the fake; each fails. */
async function toolsFor(origin: string): Promise<Record<string, () => Promise<unknown>>> {
  const { LambdaClient, GetFunctionConfigurationCommand } = (await import('@aws-sdk/client-lambda')) as unknown as LambdaModule;
  const lambda = new LambdaClient({
    region: 'us-east-1',
    endpoint: origin,
    credentials: { accessKeyId: FORM.accessKeyId, secretAccessKey: FORM.secretAccessKey, sessionToken: FORM.sessionToken },
    maxAttempts: 1,
  });
  const OpenAI = ((await import('openai6')) as { default: OpenAiCtor }).default;
  const openai = new OpenAI({ apiKey: KEYS.openai, baseURL: `${origin}/openai/v1`, maxRetries: 0 });
  const Stripe = ((await import('stripe23')) as { default: StripeCtor }).default;
  const { hostname, port } = new URL(origin);
  const stripe = new Stripe(KEYS.stripe, { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0, telemetry: false });
  const axios = ((await import('axios')) as { default: AxiosLike }).default;
  return {
    lambda_invalid_signature: () => lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'report' })),
    lambda_signature_mismatch: () => lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 's3style' })),
    openai_masked_key: () => openai.models.retrieve('gpt-4o'),
    stripe_masked_key: () => stripe.customers.retrieve('cus_1'),
    axios_header_echo: () => axios.get(`${origin}/api/items/1`, { headers: { Authorization: `Bearer ${FORM.userToken}`, Cookie: `session=${FORM.cookie}`, 'x-api-key': FORM.gitlab } }),
    fetch_userinfo_url: () => fetch(`${origin.replace('://', `://deploy:${FORM.basicPassword}@`)}/api/items/1`),
  };
}

/** The planted secrets: FORM's windows (leakIn), the whole keys, and the masked keys' visible tails. */
function leakOf(text: string): string | undefined {
  return leakIn(text) ?? [KEYS.openai, KEYS.stripe, 'Zq9W', 'Dq3k'].find((secret) => text.includes(secret));
}

/** A server with the tools registered; `withPolicy` applies the policy first. */
function register(tools: Record<string, () => Promise<unknown>>, records: LogRecord[] | undefined): (server: McpServer) => void {
  return (server) => {
    if (records !== undefined) applyErrorPolicy(server, createErrorPolicy({ rules: [...httpRules, ...coreRules], logger: (record) => records.push(record) }));
    for (const [name, call] of Object.entries(tools)) {
      server.registerTool(name, { description: name }, async () => {
        await call();
        return { content: [{ type: 'text', text: 'unreachable' }] };
      });
    }
  };
}

describe('planted credentials through the real clients, a real McpServer under applyErrorPolicy and the real SDK Client', () => {
  let fake: Listening & { readonly seen: IncomingMessage['headers'][] };
  let tools: Record<string, () => Promise<unknown>>;
  let session: WireSession;
  let bare: WireSession;
  const records: LogRecord[] = [];

  beforeAll(async () => {
    fake = await startFake();
    tools = await toolsFor(fake.origin);
    session = await openSession(register(tools, records));
    bare = await openSession(register(tools, undefined));
  });
  afterAll(async () => {
    await session.close();
    await bare.close();
    await fake.close();
  });

  /** The exact client text and record message of each tool, given the request the fake got. */
  function expected(name: string, seen: IncomingMessage['headers']): { text: string; errorMessage: string } {
    const { host } = new URL(fake.origin);
    const path = `/2015-03-31/functions/${name === 'lambda_invalid_signature' ? 'report' : 's3style'}/configuration`;
    const date = String(seen['x-amz-date']);
    const signed = /SignedHeaders=([^,]+)/.exec(String(seen['authorization']))?.[1] ?? '';
    const lead = 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';
    const canonical = ['GET', path, '', `host:${host}`, `x-amz-date:${date}`, 'x-amz-security-token:[REDACTED]', '', 'host;x-amz-date;x-amz-security-token'];
    const openaiMessage = 'Incorrect API key provided: [REDACTED]. You can find your API key at https://platform.openai.com/account/api-keys.';
    switch (name) {
      case 'lambda_invalid_signature':
      case 'lambda_signature_mismatch':
        return {
          // the service's text on one line, cut at 500 characters inside the payload hash, which goes with the cut
          // (the loopback host the service quotes is an internal host: the exit gate names none)
          text: `AWS Lambda request failed with 403 Forbidden (${name === 'lambda_invalid_signature' ? 'InvalidSignatureException' : 'SignatureDoesNotMatch'}): Credentials rejected: ${lead} The Canonical String for this request should have been '${canonical.filter((line) => line !== '').join(' ').replace(`host:${host}`, 'host:[internal host]')} …`,
          errorMessage: `${lead}\n\nThe Canonical String for this request should have been\n'${[...canonical, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'].join('\n')}'\n\nThe String-to-Sign should have been\n'AWS4-HMAC-SHA256\n${date}\n20260101/us-east-1/lambda/aws4_request\n0f1e2d3c'\nRequest headers: authorization: [REDACTED], SignedHeaders=${signed}, Signature=[REDACTED]`,
        };
      case 'openai_masked_key':
        return { text: `OpenAI API request failed with 401 Unauthorized (invalid_api_key): Credentials rejected: ${openaiMessage}`, errorMessage: `401 ${openaiMessage}` };
      case 'stripe_masked_key':
        return { text: 'Stripe API request failed with 401 Unauthorized (invalid_request_error): Credentials rejected: Invalid API Key provided: [REDACTED]', errorMessage: 'Invalid API Key provided: [REDACTED]' };
      case 'axios_header_echo':
        // the detail on one line: the authorization value runs to the first comma, over the lines that followed it
        return { text: `HTTP GET /api/items/1 failed with 400 Bad Request: Rejected the request. Request headers: authorization:[REDACTED], [REDACTED], [REDACTED]`, errorMessage: 'Request failed with status code 400' };
      default:
        return { text: '', errorMessage: `Request cannot be constructed from a URL that includes credentials: http://[REDACTED]@${host}/api/items/1` };
    }
  }

  it.each([
    ['lambda_invalid_signature', 'aws-unauthorized', 'InvalidSignatureException'],
    ['lambda_signature_mismatch', 'aws-unauthorized', 'SignatureDoesNotMatch'],
    ['openai_masked_key', 'openai-unauthorized', 'invalid_api_key'],
    ['stripe_masked_key', 'stripe-unauthorized', 'invalid_request_error'],
    ['axios_header_echo', 'axios-http-error', 'invalid_request'],
    ['fetch_userinfo_url', undefined, 'internal'],
  ] as const)('%s: the exact scrubbed text and record, no planted credential on the wire, in the failure object or the record', async (name, rule, code) => {
    const [before, requests] = [records.length, fake.seen.length];
    const result = (await session.client.callTool({ name, arguments: {} })) as { content: { text: string }[]; isError?: boolean; _meta?: Record<string, unknown> };
    const wire = session.wire.at(-1)!;
    const failure = result._meta?.[FAILURE_KEY];
    const logged = records.slice(before);
    expect(logged).toHaveLength(1);
    const record = logged[0]!;
    const id = record.correlationId ?? record.reference;
    const want = expected(name, fake.seen[requests] ?? {});
    expect({ text: result.content[0]!.text, isError: result.isError, failure, rule: record.rule, errorMessage: record.errorMessage }).toEqual({
      text: rule === undefined ? `Error executing tool ${name} (reference ${String(id)})` : `Error executing tool ${name}: ${want.text}`,
      isError: true,
      failure: { code, retryable: false, correlationId: id },
      rule,
      errorMessage: want.errorMessage,
    });
    expect({ wire: leakOf(wire), failure: leakOf(JSON.stringify(failure)), record: leakOf(JSON.stringify(logged)) }).toEqual({ wire: undefined, failure: undefined, record: undefined });
  });

  it('the fake got every planted credential, and the session token and the keys came back in its answers', () => {
    const sent = JSON.stringify(fake.seen);
    for (const secret of [FORM.sessionToken, FORM.accessKeyId, KEYS.openai, KEYS.stripe, FORM.userToken, FORM.cookie, FORM.gitlab]) expect(sent).toContain(secret);
  });

  it('negative control: without the policy the same tools put the credentials on the wire, and the check finds them', async () => {
    const found: Record<string, string | undefined> = {};
    for (const name of Object.keys(tools)) {
      const result = (await bare.client.callTool({ name, arguments: {} })) as { content: { text: string }[] };
      found[name] = leakOf(JSON.stringify(result));
    }
    expect(found).toEqual({
      lambda_invalid_signature: expect.any(String),
      lambda_signature_mismatch: expect.any(String),
      openai_masked_key: expect.any(String),
      stripe_masked_key: expect.any(String),
      // axios's message names the status only; the detail with the echoed headers stays in its response
      axios_header_echo: undefined,
      fetch_userinfo_url: expect.any(String),
    });
  });
});

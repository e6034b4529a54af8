/**
 * Report mode's advice (`mode: 'report'`), through real servers and the real SDK Client:
 * - the entry it names for an HTTP failure: `...httpRules` exactly where the pack would show more than the core's
 *   status (checked on the real errors of every client the pack reads), `...httpRulesFor({ name, match, status })`
 *   for an HTTP status no pack reads (the server's own error class), and never a pack the policy already holds;
 * - for a crash no rule would show, the deliberate error of the handler's kind: `ToolError` for tools,
 *   `ResourceError` (or `ResourceNotFoundError` for a missing one) for resources, `ResourceError` for prompts, and
 *   the same for their list and completion requests.
 */
import { createRequire } from 'node:module';
import { LinearClient } from '@linear/sdk';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { Client as GraphClient, HTTPMessageHandler } from '@microsoft/microsoft-graph-client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CompleteRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { graphql } from '@octokit/graphql';
import type { AxiosStatic } from 'axios';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyErrorPolicy, classifyError, coreRules, createErrorPolicy, type ErrorRule, type LogRecord } from '../../src/index.js';
import { httpRules } from '../../src/http/index.js';
import { packagedRuleFor } from '../../src/packaged-rules.js';
import { closedOrigin, startFakeApis, type FakeApis } from '../http/support/fake-apis.js';
import { NODE_MAJOR, TABLE_VARIANTS } from '../http/support/clients.js';
import { casesOf } from '../http/support/expected.js';
import { startGraphqlFake, type GraphqlFake } from '../http/support/graphql-fake.js';
import { link } from '../support/link.js';
import { rejectionOf, startHttp } from '../support/loopback.js';
import { capture, connect, newServer, rpcError, type Session } from '../support/session.js';
import { GitHubError, HttpClientError } from './fixtures/http-class.js';

const axios = createRequire(import.meta.url)('axios') as AxiosStatic;

const HTTP_RULES_FOR = '...httpRulesFor({ name, match, status })';
const PACK_SHOWS = "would name the request and, where safe, the service's message";
/** The note of the httpRulesFor advice for a class named `name`. */
const forClass = (name: string): string => `(${name}: no packaged rule reads its HTTP status)`;

describe('the ...httpRules advice is given exactly where the pack shows more than the core', () => {
  let fake: FakeApis;
  let graphqlFake: GraphqlFake;
  let kube: { url: string; close: () => Promise<void> };
  const errors: [string, unknown][] = [];

  beforeAll(async () => {
    fake = await startFakeApis();
    graphqlFake = await startGraphqlFake();
    kube = await startHttp((req, res) => {
      const status = Number(/\/pods\/(\d{3})$/.exec(req.url ?? '')?.[1] ?? 200);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ kind: 'Status', status: 'Failure', message: 'no', reason: 'NotFound', code: status }));
    });
    const refusedOrigin = await closedOrigin();
    for (const variant of TABLE_VARIANTS.filter((v) => v.nodeMajor <= NODE_MAJOR)) {
      const call = await variant.make(fake.origin, 1000);
      const refused = await variant.make(refusedOrigin, 1000);
      for (const which of casesOf(variant).filter((c) => c !== 'slow')) errors.push([`${variant.label} ${which}`, await rejectionOf(which === 'refused' ? refused('missing') : call(which))]);
    }
    const origin = graphqlFake.origin;
    const octokit = graphql.defaults({ baseUrl: `${origin}/github`, headers: { authorization: 'token x' } });
    const linear = new LinearClient({ accessToken: 'lin_api_x', apiUrl: `${origin}/linear/graphql` });
    const msgraph = GraphClient.initWithMiddleware({ middleware: new HTTPMessageHandler(), baseUrl: `${origin}/msgraph` });
    for (const which of ['forbidden', 'missing', 'limited', 'broken']) {
      errors.push([`@octokit/graphql ${which}`, await rejectionOf(octokit('query { repository(owner: "o", name: "r") { id } }', { name: which }))]);
      errors.push([`@linear/sdk ${which}`, await rejectionOf(linear.issue(which))]);
      errors.push([`microsoft-graph ${which}`, await rejectionOf(msgraph.api(`/users/${which}`).get() as Promise<unknown>)]);
    }
    const config = new KubeConfig();
    config.loadFromOptions({ clusters: [{ name: 'c', server: kube.url, skipTLSVerify: true }], users: [{ name: 'u' }], contexts: [{ name: 'c', cluster: 'c', user: 'u' }], currentContext: 'c' });
    const api = config.makeApiClient(CoreV1Api);
    for (const status of [404, 409, 500]) errors.push([`@kubernetes/client-node ${status}`, await rejectionOf(api.readNamespacedPod({ name: String(status), namespace: 'default' }))]);
  }, 60_000);

  afterAll(async () => {
    await fake.close();
    await graphqlFake.close();
    await kube.close();
  });

  it('on the real errors of every client the pack reads (none the core shows by more than its status)', () => {
    const core = createErrorPolicy({ logger: () => undefined });
    const pack = createErrorPolicy({ rules: [...httpRules, ...coreRules], logger: () => undefined });
    const packRules = new Set(httpRules.map((rule) => rule.name));
    const advised: string[] = [];
    const wrong: string[] = [];
    for (const [label, error] of errors) {
      const underCore = classifyError(error, core);
      // advice is for what the core masks or shows by its status alone
      if (underCore.kind === 'anticipated' && underCore.rule.name !== 'http-status') continue;
      const underPack = classifyError(error, pack);
      const packShows = underPack.kind === 'anticipated' && packRules.has(underPack.rule.name);
      if ((packagedRuleFor(error)?.add === '...httpRules') !== packShows) wrong.push(`${label}: the pack ${packShows ? 'shows it' : 'does not show it'}`);
      // with the pack held, never the pack
      if (packagedRuleFor(error, httpRules)?.add === '...httpRules') wrong.push(`${label}: advised the pack the policy holds`);
      if (packShows) advised.push(label);
    }
    expect(wrong).toEqual([]);
    // every client is among them
    for (const client of ['axios', 'octokit', 'openai', 'anthropic', 'stripe', 'aws', 'notion', 'slack', 'ky', 'fetch', '@octokit/graphql', '@linear/sdk', 'microsoft-graph', '@kubernetes/client-node']) {
      expect({ client, advised: advised.some((label) => label.includes(client)) }).toEqual({ client, advised: true });
    }
  });
});

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe("the server's own HTTP error class: httpRulesFor, never a pack that cannot read it", () => {
  let api: { url: string; close: () => Promise<void> };
  beforeAll(async () => {
    api = await startHttp((req, res) => {
      const status = Number(/\/(\d{3})$/.exec(req.url ?? '')?.[1] ?? 200);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `answered ${status}` }));
    });
  });
  afterAll(() => api.close());

  // As the GitHub server throws it: the status and the parsed body, no headers.
  async function github(status: number): Promise<never> {
    const response = await fetch(`${api.url}/${status}`);
    throw new GitHubError('GitHub API error', response.status, await response.json());
  }

  // As Notion's server throws it: the status, the body and the headers.
  async function notion(status: number): Promise<never> {
    const response = await fetch(`${api.url}/${status}`);
    throw new HttpClientError(response.statusText, response.status, await response.json(), response.headers);
  }

  async function reporting(rules: readonly ErrorRule[]): Promise<LogRecord[]> {
    const { policy, records } = capture({ mode: 'report', rules });
    const server = applyErrorPolicy(newServer(), policy);
    server.registerTool('create_branch', {}, () => notion(409));
    server.registerTool('update_page', {}, () => notion(422));
    server.registerTool('get_issue', {}, () => github(404));
    server.registerTool('merge', {}, async () => {
      await axios.put(`${api.url}/409`);
      return { content: [] };
    });
    session = await connect(server);
    for (const name of ['create_branch', 'update_page', 'get_issue', 'merge']) await session.client.callTool({ name, arguments: {} });
    return records;
  }

  it.each([
    ['the core rules alone', coreRules],
    ['[...httpRules, ...coreRules]', [...httpRules, ...coreRules]],
  ])('under %s', async (label, rules) => {
    const records = await reporting(rules);
    const [branch, page, issue, merge] = records;
    // the class with headers: the core shows its 409 and 422 by the status alone; httpRulesFor would show the body's message
    for (const [record, status, text] of [
      [branch, 409, 'Conflict'],
      [page, 422, 'Unprocessable Entity'],
    ] as const) {
      expect(record).toMatchObject({
        level: 'info',
        kind: 'anticipated',
        rule: 'http-status',
        report: true,
        wouldShowWith: HTTP_RULES_FOR,
        message: `report: tool "${status === 409 ? 'create_branch' : 'update_page'}" failed (rule http-status: status ${status}): HttpClientError "${status} ${text}"; 'enforce' would show "HTTP request failed with status ${status}"; rules: [${HTTP_RULES_FOR}, ...coreRules] with \`body\` would show the service's message (its body's, or the class's own: \`body: (e) => ({ message: e.message })\`) ${forClass('HttpClientError')}`,
      });
    }
    // the class without headers: masked; httpRulesFor would show it (an API's answer: no stack)
    expect(issue).toMatchObject({ kind: 'crash', level: 'warn', report: true, wouldShowWith: HTTP_RULES_FOR });
    expect(issue?.message).toMatch(new RegExp(`^report: tool "get_issue" would be masked \\(reference [0-9a-f]{12}\\): GitHubError "GitHub API error" at .*; it would show with rules: \\[\\.\\.\\.httpRulesFor\\(\\{ name, match, status \\}\\), \\.\\.\\.coreRules\\] \\(GitHubError: `));
    expect(issue?.message.endsWith(forClass('GitHubError'))).toBe(true);
    expect(issue?.stack).toBeUndefined();
    // axios: the pack, unless the policy holds it (then the pack's own rule shows it, and nothing is advised)
    if (label === 'the core rules alone') {
      expect(merge).toMatchObject({ rule: 'http-status', wouldShowWith: '...httpRules' });
      expect(merge?.message.endsWith(`; 'enforce' would show "HTTP request failed with status 409"; rules: [...httpRules, ...coreRules] ${PACK_SHOWS}`)).toBe(true);
    } else {
      expect(merge).toMatchObject({ rule: 'axios-http-error', report: true });
      expect(merge?.wouldShowWith).toBeUndefined();
      expect(merge?.message).toMatch(/; 'enforce' would show "HTTP PUT \/409 failed with 409 Conflict: answered 409"$/);
    }
  });
});

describe('a crash no rule shows: the deliberate error of its kind', () => {
  const missing = (): never => {
    throw new Error('Sheet Q3 not found');
  };
  const broken = (): never => {
    throw new TypeError("Cannot read properties of undefined (reading 'rows')");
  };
  /** Each record's message from `; a crash:` on. */
  const advice = (records: readonly LogRecord[]): (string | undefined)[] => records.map((record) => /; a crash: .*$/.exec(record.message)?.[0]);

  it('on an McpServer: tools, resources (a missing one), prompts, a template list and completions', async () => {
    const { policy, records } = capture({ mode: 'report' });
    const server = applyErrorPolicy(newServer(), policy);
    server.registerTool('get_sheet', {}, broken);
    server.registerResource('sheet', new ResourceTemplate('sheet://{id}', { list: broken, complete: { id: broken } }), {}, (uri) => (uri.href.endsWith('q3') ? missing() : broken()));
    server.registerPrompt('summarize', { argsSchema: { sheet: completable(z.string(), broken) } }, broken);
    session = await connect(server);
    const { client } = session;
    await client.callTool({ name: 'get_sheet', arguments: {} });
    await rpcError(client.readResource({ uri: 'sheet://q3' }));
    await rpcError(client.readResource({ uri: 'sheet://q4' }));
    await rpcError(client.getPrompt({ name: 'summarize', arguments: { sheet: 'Q3' } }));
    await rpcError(client.listResources());
    await rpcError(client.complete({ ref: { type: 'ref/prompt', name: 'summarize' }, argument: { name: 'sheet', value: 'Q' } }));
    await rpcError(client.complete({ ref: { type: 'ref/resource', uri: 'sheet://{id}' }, argument: { name: 'id', value: 'q' } }));
    expect(records.map(({ handler, name }) => `${handler} ${name}`)).toEqual([
      'tool get_sheet',
      'resource sheet://q3',
      'resource sheet://q4',
      'prompt summarize',
      'resource resources/list',
      'prompt completion/complete',
      'resource completion/complete',
    ]);
    const prompts = '; a crash: fix it, or throw a ResourceError (prompts share it; ToolError is for tools)';
    expect(advice(records)).toEqual([
      '; a crash: fix it, or throw a ToolError',
      '; a crash: fix it, or throw a ResourceNotFoundError',
      '; a crash: fix it, or throw a ResourceError',
      prompts,
      '; a crash: fix it, or throw a ResourceError',
      prompts,
      '; a crash: fix it, or throw a ResourceError',
    ]);
  });

  it("on a low-level Server: tools/list a ToolError, prompts/list and a prompt's completion a ResourceError", async () => {
    const { policy, records } = capture({ mode: 'report' });
    const server = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {}, prompts: {}, completions: {} } });
    server.setRequestHandler(ListToolsRequestSchema, broken);
    server.setRequestHandler(ListPromptsRequestSchema, broken);
    server.setRequestHandler(CompleteRequestSchema, missing);
    applyErrorPolicy(server, policy);
    const { client, close } = await link(server, new Client({ name: 'c', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
    try {
      await rpcError(client.listTools());
      await rpcError(client.listPrompts());
      // "not found" in a completion names no missing resource: ResourceNotFoundError is for reads
      await rpcError(client.complete({ ref: { type: 'ref/resource', uri: 'sheet://{id}' }, argument: { name: 'id', value: 'q' } }));
    } finally {
      await close();
    }
    expect(advice(records)).toEqual([
      '; a crash: fix it, or throw a ToolError',
      '; a crash: fix it, or throw a ResourceError (prompts share it; ToolError is for tools)',
      '; a crash: fix it, or throw a ResourceError',
    ]);
  });
});

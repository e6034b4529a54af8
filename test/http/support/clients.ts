/**
 * The client libraries under test, each at the versions the entry supports, pointed at the fake services
 * (fake-apis.ts) through their base URL option, retries off. Each variant turns a case name (`missing`, `limited`,
 * `slow`...) into a real call that fails the way the library fails.
 *
 * Planted secrets ride along in every place a client keeps them: the `Authorization` / `x-api-key` header, the URL
 * query, a request body. The fake records them (so a test knows they were sent); the client and the log must never
 * see them.
 */
import { readFileSync } from 'node:fs';
import { CARD_DECLINE } from './fake-apis.js';

/** Secrets planted in the requests: none may reach the wire or a log record. */
export const SECRETS = {
  github: 'ghp_PLANTEDgithubTOKEN0123456789abcdefABCD',
  githubPat: 'github_pat_11PLANTED0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGH',
  openai: 'sk-proj-PLANTEDopenaiKEY0123456789abcdefghijklmnop',
  anthropic: 'sk-ant-api03-PLANTEDanthropicKEY0123456789abcdefgh',
  slack: 'xoxb-1234567890-PLANTEDslackTOKENabcdef',
  stripe: 'sk_live_PLANTEDstripeKEY0123456789abcdef',
  notion: 'ntn_PLANTED0123456789notionTOKENabcdefghijklmnopqrs',
  amzSignature: 'PLANTEDamzSIGNATUREfe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024',
  amzCredential: 'AKIAPLANTED000000000',
  password: 'PLANTED-hunter2-password',
  queryToken: 'PLANTEDqueryTOKENvalue0123456789',
} as const;

/** Every planted secret, for searching: those the clients send, and the one the fake sends (a payment intent's client secret). */
export const ALL_SECRETS: readonly string[] = [...Object.values(SECRETS), CARD_DECLINE.clientSecret];

/** A failing call: the case name picks what the fake answers. */
export type Call = (which: string) => Promise<unknown>;

/** One client library at one version. */
export interface Variant {
  /** `axios 1`, `@octokit/rest 22`... */
  readonly label: string;
  /** The package (alias) it loads. */
  readonly module: string;
  /** The rule name prefix (`github`, `openai`...). */
  readonly rules: string;
  /** The lowest Node.js major the library runs on. */
  readonly nodeMajor: number;
  /** Makes the call against `origin` (the fake, or a closed port), with `timeoutMs` as the client's timeout. */
  make(origin: string, timeoutMs: number): Promise<Call>;
}

interface AxiosLike {
  request(config: Record<string, unknown>): Promise<unknown>;
  create(config: Record<string, unknown>): AxiosLike;
}
interface OctokitCtor {
  new (options: Record<string, unknown>): { request(route: string, params: Record<string, unknown>): Promise<unknown> };
}
interface StainlessCtor {
  new (options: Record<string, unknown>): { models: { retrieve(id: string): Promise<unknown> } };
}
interface StripeCtor {
  new (
    key: string,
    options: Record<string, unknown>,
  ): {
    customers: { retrieve(id: string, params?: Record<string, unknown>): Promise<unknown> };
    paymentIntents: { create(params: Record<string, unknown>): Promise<unknown> };
  };
}
interface LambdaModule {
  LambdaClient: new (config: Record<string, unknown>) => { send(command: unknown): Promise<unknown> };
  GetFunctionCommand: new (input: Record<string, unknown>) => unknown;
}
interface NotionCtor {
  new (options: Record<string, unknown>): { pages: { retrieve(args: Record<string, unknown>): Promise<unknown> } };
}
interface SlackCtor {
  new (token: string, options: Record<string, unknown>): { conversations: { archive(args: Record<string, unknown>): Promise<unknown> } };
}
interface KyLike {
  get(url: string, options: Record<string, unknown>): Promise<unknown>;
}

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/**
 * A library: its rule name prefix, and how a version of it (the package alias `module`) makes the failing call. Gives
 * the variant of one version: its label, its alias, and the lowest Node.js major it runs on (20 unless said).
 */
const family =
  (rules: string, make: (module: string, origin: string, timeoutMs: number) => Promise<Call>) =>
  (label: string, module: string, nodeMajor = 20): Variant => ({ label, module, rules, nodeMajor, make: (origin, timeoutMs) => make(module, origin, timeoutMs) });

const axios = family('axios', async (module, origin, timeoutMs) => {
  const lib = ((await import(module)) as { default: AxiosLike }).default;
  const client = lib.create({
    baseURL: `${origin}/api`,
    timeout: timeoutMs,
    headers: { Authorization: `Bearer ${SECRETS.github}`, 'x-api-key': SECRETS.anthropic },
  });
  return (which) =>
    client.request({
      method: 'post',
      url: `/items/${which}?access_token=${SECRETS.queryToken}&X-Amz-Credential=${SECRETS.amzCredential}%2F20260101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature=${SECRETS.amzSignature}&view=full`,
      data: { password: SECRETS.password, name: 'widget' },
    });
});

const octokit = family('github', async (module, origin, timeoutMs) => {
  const { Octokit } = (await import(module)) as { Octokit: OctokitCtor };
  const client = new Octokit({ auth: SECRETS.github, baseUrl: `${origin}/github`, log: quiet, request: { retries: 0 } });
  return (which) =>
    client.request('GET /repos/{owner}/{repo}', {
      owner: 'octo-org',
      repo: which,
      access_token: SECRETS.githubPat,
      request: { signal: AbortSignal.timeout(timeoutMs) },
    });
});

/** The Stainless-generated SDKs (openai, @anthropic-ai/sdk): one client shape, each with its own key and base path. */
const stainless = (rules: 'openai' | 'anthropic') =>
  family(rules, async (module, origin, timeoutMs) => {
    const Client = ((await import(module)) as { default: StainlessCtor }).default;
    const client =
      rules === 'openai'
        ? new Client({ apiKey: SECRETS.openai, baseURL: `${origin}/openai/v1`, maxRetries: 0, timeout: timeoutMs, defaultQuery: { key: SECRETS.queryToken } })
        : new Client({ apiKey: SECRETS.anthropic, baseURL: `${origin}/anthropic`, maxRetries: 0, timeout: timeoutMs, defaultQuery: { key: SECRETS.queryToken } });
    return (which) => client.models.retrieve(which);
  });
const openai = stainless('openai');
const anthropic = stainless('anthropic');

const stripe = family('stripe', async (module, origin, timeoutMs) => {
  const Stripe = ((await import(module)) as { default: StripeCtor }).default;
  const { hostname, port } = new URL(origin);
  const client = new Stripe(SECRETS.stripe, { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0, timeout: timeoutMs, telemetry: false });
  // `declined`: a payment intent confirmed with Stripe's test card that is declined for insufficient funds (402).
  return (which) =>
    which === 'declined'
      ? client.paymentIntents.create({ amount: 2000, currency: 'usd', payment_method: 'pm_card_visa_chargeDeclinedInsufficientFunds', confirm: true })
      : client.customers.retrieve(which);
});

const aws = family('aws', async (module, origin, timeoutMs) => {
  const { LambdaClient, GetFunctionCommand } = (await import(module)) as LambdaModule;
  const client = new LambdaClient({
    region: 'us-east-1',
    endpoint: origin,
    credentials: { accessKeyId: SECRETS.amzCredential, secretAccessKey: SECRETS.amzSignature },
    maxAttempts: 1,
    requestHandler: { requestTimeout: timeoutMs, throwOnRequestTimeout: true },
  });
  return (which) => client.send(new GetFunctionCommand({ FunctionName: which }));
});

const notion = family('notion', async (module, origin, timeoutMs) => {
  const { Client } = (await import(module)) as { Client: NotionCtor };
  const client = new Client({ auth: SECRETS.notion, baseUrl: `${origin}/notion`, timeoutMs, retry: false, logger: () => {} });
  return (which) => client.pages.retrieve({ page_id: which });
});

const slack = family('slack', async (module, origin, timeoutMs) => {
  const { WebClient } = (await import(module)) as { WebClient: SlackCtor };
  const logger = { ...quiet, setLevel: () => {}, getLevel: () => 'error', setName: () => {} };
  const client = new WebClient(SECRETS.slack, {
    slackApiUrl: `${origin}/slack/api/`,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: timeoutMs,
    logger,
  });
  return (which) => client.conversations.archive({ channel: which });
});

const ky = family('ky', async (module, origin, timeoutMs) => {
  const lib = ((await import(module)) as { default: KyLike }).default;
  return (which) =>
    lib.get(`${origin}/api/items/${which}?key=${SECRETS.queryToken}&sig=${SECRETS.amzSignature}`, {
      retry: 0,
      timeout: timeoutMs,
      headers: { Authorization: `Bearer ${SECRETS.slack}` },
    });
});

/** The `module` of the plain fetch variant: Node's own fetch, no package. */
const FETCH = 'fetch';

/**
 * Plain fetch (Node's own): a POST made as a `Request`, a failed Response thrown as the cause of an Error that keeps
 * the Request (so the text can name the method) and the body it read (`data`: the parsed JSON, else the text).
 */
const plainFetch = family('fetch', async (_module, origin, timeoutMs) => async (which) => {
  const request = new Request(`${origin}/api/items/${which}?api_key=${SECRETS.queryToken}&view=full`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${SECRETS.openai}`, 'content-type': 'application/json' },
    body: JSON.stringify({ password: SECRETS.password, name: 'widget' }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const res = await fetch(request);
  const text = await res.text();
  if (res.ok) return text;
  let data: unknown = text;
  try {
    data = JSON.parse(text) as unknown;
  } catch {
    // not JSON (a proxy's page): kept as text, which the rule never shows
  }
  throw Object.assign(new Error(`POST ${request.url} failed with ${res.status}`, { cause: res }), { request, data });
});

/** The variants, in the entry's priority order. */
export const VARIANTS: readonly Variant[] = [
  axios('axios 1', 'axios'),
  octokit('@octokit/rest 21', 'octokit-rest21'),
  octokit('@octokit/rest 22', 'octokit-rest22'),
  openai('openai 6', 'openai6'),
  openai('openai 7', 'openai7', 22),
  anthropic('@anthropic-ai/sdk 0.x', 'anthropic0'),
  anthropic('@anthropic-ai/sdk 1.x', 'anthropic1'),
  stripe('stripe 22', 'stripe22'),
  stripe('stripe 23', 'stripe23'),
  aws('@aws-sdk/client-lambda 3', '@aws-sdk/client-lambda'),
  notion('@notionhq/client 4', 'notion4'),
  notion('@notionhq/client 5', 'notion5'),
  slack('@slack/web-api 7', 'slack-web-api7'),
  slack('@slack/web-api 8', 'slack-web-api8'),
  ky('ky 1', 'ky1'),
  ky('ky 2', 'ky2', 22),
  plainFetch('fetch', FETCH),
];

/** The installed version of a package (alias), for test titles and docs; Node's undici for plain fetch. */
export function installedVersion(module: string): string {
  if (module === FETCH) return `undici ${process.versions.undici ?? '?'}`;
  const file = new URL(`../../../node_modules/${module}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/** The running Node.js major version. */
export const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/**
 * The variants the HTTP status table runs: every one at full size (`TEST_SIZE` heavy or full, vitest.config.ts), the
 * newest version of each library that runs on this Node.js in `npm test`.
 */
export const TABLE_VARIANTS: readonly Variant[] =
  process.env['TEST_SIZE'] === 'quick'
    ? VARIANTS.filter((variant, i) => variant.nodeMajor <= NODE_MAJOR && !VARIANTS.slice(i + 1).some((later) => later.rules === variant.rules && later.nodeMajor <= NODE_MAJOR))
    : VARIANTS;

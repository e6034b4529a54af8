/**
 * The assertions of the one-policy scenario (one-policy.ts), for any SDK client and transport: what the client read
 * for each call, and exactly which records and outcomes each policy received.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyErrorPolicy, type LogRecord, type Outcome } from '../../src/index.js';
import { REFERENCE, splitFailure } from '../support/calls.js';
import { startFakeGoogle, type FakeGoogle } from '../support/fake-google.js';
import { link, type LinkableClient } from '../support/link.js';
import type { LooseServer } from './scenarios.js';
import { buildOnePolicyServer, EXPECTED_OUTCOMES, expectedRecords, expectedToolTexts, EXPECTED_FAILURES, googleText, PLANTED_KEY, TOOL_CALLS, withoutStack, type PolicyTag, type Sinks } from './one-policy.js';

/** What a client of either SDK offers the test. */
export interface AnyClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  getPrompt(params: { name: string }): Promise<unknown>;
  readResource(params: { uri: string }): Promise<unknown>;
}

/** Records and outcomes as the policies received them (in process) or as the fixture wrote them (stdio). */
export interface Seen {
  readonly records: { tag: PolicyTag; record: LogRecord }[];
  readonly outcomes: { tag: PolicyTag; outcome: Omit<Outcome, 'classification'> }[];
}

export function collect(): Seen & { sinks: Sinks } {
  const seen: Seen = { records: [], outcomes: [] };
  return {
    ...seen,
    sinks: {
      record: (tag, record) => seen.records.push({ tag, record }),
      // the classification holds the thrown error itself (for the server's own code): compared without it
      outcome: (tag, { classification: _classification, ...outcome }) => seen.outcomes.push({ tag, outcome }),
    },
  };
}

/** The lines the stdio fixture wrote, parsed. */
export function parseFixtureLines(stderr: string): Seen {
  const seen: Seen = { records: [], outcomes: [] };
  for (const line of stderr.split('\n')) {
    const match = /^\[(record|outcome)\] (.*)$/.exec(line);
    if (match === null) continue;
    const { tag, ...value } = JSON.parse(match[2]!) as { tag: PolicyTag } & Record<string, unknown>;
    if (match[1] === 'record') seen.records.push({ tag, record: value as unknown as LogRecord });
    else seen.outcomes.push({ tag, outcome: value as unknown as Outcome });
  }
  return seen;
}

/** What the client read of one call: the text (and `isError`), or the JSON-RPC error's message; the failure object apart. */
export interface Read {
  readonly answer: { readonly text: unknown; readonly isError?: true } | string;
  /** The failure object without its correlation id. */
  readonly failure?: Readonly<Record<string, unknown>>;
  readonly correlationId?: unknown;
}

async function errorRead(promise: Promise<unknown>): Promise<Read> {
  try {
    await promise;
  } catch (error) {
    return { answer: (error as Error).message, ...splitFailure(error) };
  }
  throw new Error('expected a JSON-RPC error');
}

/** Makes every call of the scenario; returns what the client read, in order. */
export async function callAll(client: AnyClient): Promise<Read[]> {
  const read: Read[] = [];
  for (const name of TOOL_CALLS) {
    const result = (await client.callTool({ name, arguments: {} })) as { content: { text: string }[]; isError?: boolean };
    const text = result.content[0]?.text;
    read.push({ answer: result.isError === true ? { text, isError: true } : { text }, ...splitFailure(result) });
  }
  read.push(await errorRead(client.getPrompt({ name: 'prompt_before' })));
  read.push(await errorRead(client.readResource({ uri: 'note://forbidden' })));
  return read;
}

/** The message of gaxios 7's 403 error, as the record quotes it (the fake Google's JSON body, as gaxios words it). */
export function gaxiosMessageOf(seen: Seen): string {
  const first = seen.records[0]?.record.errorMessage;
  if (first === undefined) throw new Error('no record');
  return first;
}

/** Asserts the scenario: the client's reads, then exactly the records and outcomes, each to its policy. */
export function checkOnePolicy(sdk: 'v1' | 'v2', origin: string, read: readonly Read[], seen: Seen): void {
  const texts = expectedToolTexts();
  const rpc = (message: string): string => (sdk === 'v1' ? `MCP error -32603: ${message}` : message);
  expect(read.map((r) => r.answer)).toEqual([...TOOL_CALLS.map((name) => texts[name]), rpc(googleText()), rpc(googleText())]);
  expect(read.map((r) => r.failure)).toEqual(EXPECTED_FAILURES);

  const gaxiosMessage = gaxiosMessageOf(seen);
  expect(gaxiosMessage).not.toContain(PLANTED_KEY);
  expect(seen.records.map(({ tag, record }) => withoutStack(tag, record))).toEqual(expectedRecords(origin, gaxiosMessage));
  for (const { record } of seen.records) {
    // warn records carry the stack, info records are one line
    expect(record.stack === undefined, record.message).toBe(record.level === 'info');
  }
  // Each failure answered (one record each, in call order) carries its record's correlation id, whichever policy logged it.
  const ids = read.flatMap((r) => (r.correlationId === undefined ? [] : [r.correlationId]));
  expect(ids).toEqual(seen.records.map(({ record }) => record.correlationId));
  for (const id of ids) expect(id).toMatch(REFERENCE);
  expect(new Set(ids).size).toBe(ids.length);
  expect(seen.outcomes.filter(({ outcome }) => outcome.name !== 'mark').map(({ tag, outcome }) => ({ tag, kind: outcome.kind, name: outcome.name, status: outcome.status }))).toEqual(
    EXPECTED_OUTCOMES,
  );
  expect(JSON.stringify(read) + JSON.stringify(seen)).not.toContain(PLANTED_KEY);
}

/** How to start the stdio fixture, for either SDK's StdioClientTransport (and where its stderr goes). */
export interface StdioLaunch {
  readonly command: string;
  readonly args: string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly stderr: 'pipe';
  onStderr(chunk: string): void;
}

const FIXTURE = fileURLToPath(new URL('./one-policy-server.ts', import.meta.url));
const REDIRECT = fileURLToPath(new URL('./redirect.mjs', import.meta.url));

/** Runs the stdio fixture with `sdk`, makes every call, and returns what the client read and the fixture logged. */
export async function overStdio(sdk: 'v1' | 'v2', origin: string, connect: (stdio: StdioLaunch) => Promise<AnyClient & { close(): Promise<void> }>) {
  const deps = process.env['COMPAT_DEPS'];
  let stderr = '';
  const client = await connect({
    command: process.execPath,
    args: ['--import', 'tsx', ...(deps === undefined || deps === '' ? [] : ['--import', REDIRECT]), FIXTURE],
    cwd: process.cwd(),
    env: { ...(process.env as Record<string, string>), NODE_ENV: 'production', ONE_POLICY_SDK: sdk, FAKE_GOOGLE_ORIGIN: origin },
    stderr: 'pipe',
    onStderr: (chunk) => {
      stderr += chunk;
    },
  });
  try {
    const read = await callAll(client);
    await client.callTool({ name: 'mark', arguments: {} });
    const until = Date.now() + 10_000;
    while (!stderr.includes('[mark] done\n')) {
      if (Date.now() > until) throw new Error(`no mark on stderr; it is:\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return { read, seen: parseFixtureLines(stderr) };
  } finally {
    await client.close();
  }
}


/** What a test file gives for its SDK: a server, a client, and the SDK's in-memory and stdio client transports. */
export interface OnePolicySdk {
  readonly major: 'v1' | 'v2';
  newServer(): LooseServer;
  newClient(): AnyClient & LinkableClient;
  /** `InMemoryTransport.createLinkedPair()`. */
  linkedPair(): readonly [unknown, unknown];
  /** `new StdioClientTransport(stdio)`. */
  stdioTransport(stdio: StdioLaunch): { readonly stderr: { on(event: 'data', listener: (chunk: Buffer) => void): unknown } | null };
}

/** The classes of an SDK major that the check needs, as its test file imports them from that SDK's own packages. */
export interface OnePolicyClasses {
  readonly McpServer: new (info: { name: string; version: string }) => unknown;
  readonly Client: new (info: { name: string; version: string }) => AnyClient & LinkableClient;
  readonly InMemoryTransport: { createLinkedPair(): readonly [unknown, unknown] };
  readonly StdioClientTransport: new (stdio: StdioLaunch) => ReturnType<OnePolicySdk['stdioTransport']>;
}

/** The {@link OnePolicySdk} of SDK `major`, made of its classes (server `one-policy-<major>`, client `one-policy-client`). */
export function onePolicySdk(major: 'v1' | 'v2', classes: OnePolicyClasses): OnePolicySdk {
  const { McpServer, Client, InMemoryTransport, StdioClientTransport } = classes;
  return {
    major,
    newServer: () => new McpServer({ name: `one-policy-${major}`, version: '1.0.0' }) as LooseServer,
    newClient: () => new Client({ name: 'one-policy-client', version: '1.0.0' }),
    linkedPair: () => InMemoryTransport.createLinkedPair(),
    stdioTransport: (stdio) => new StdioClientTransport(stdio),
  };
}

/** A client of `sdk` connected to the stdio fixture, its stderr going to `stdio.onStderr`. */
async function connectStdio(sdk: OnePolicySdk, stdio: StdioLaunch): Promise<AnyClient & LinkableClient> {
  const client = sdk.newClient();
  const transport = sdk.stdioTransport(stdio);
  transport.stderr?.on('data', (chunk: Buffer) => stdio.onStderr(chunk.toString('utf8')));
  await client.connect(transport as never);
  return client;
}

/** The tests of the scenario, for one SDK: in memory, and over stdio with the fixture as a subprocess. */
export function describeOnePolicy(sdk: OnePolicySdk): void {
  describe(`one policy per server, SDK ${sdk.major}`, () => {
    let fake: FakeGoogle;
    beforeAll(async () => {
      fake = await startFakeGoogle();
    });
    afterAll(async () => {
      await fake.close();
    });

    it('in memory: hand-wrapped callbacks follow the server policy and name; an explicit policy keeps its own', async () => {
      const seen = collect();
      const server = sdk.newServer();
      await buildOnePolicyServer(server, (s, policy) => applyErrorPolicy(s as never, policy), fake.origin, seen.sinks);
      const { client } = await link(server, sdk.newClient(), sdk.linkedPair());
      const read = await callAll(client);
      await client.close();
      checkOnePolicy(sdk.major, fake.origin, read, seen);
    });

    it('over stdio: the same answers, records and outcomes from a subprocess', async () => {
      const { read, seen } = await overStdio(sdk.major, fake.origin, (stdio) => connectStdio(sdk, stdio));
      checkOnePolicy(sdk.major, fake.origin, read, seen);
    });
  });
}

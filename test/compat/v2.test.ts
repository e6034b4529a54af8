/**
 * SDK v2 (`@modelcontextprotocol/server` + `@modelcontextprotocol/client` 2.x): the same table, the same wrappers and
 * the same `applyErrorPolicy`, through the real v2 client over InMemoryTransport. Also: v2's ProtocolError is recognised
 * structurally (by its brand, across copies), and v2's ResourceNotFoundError keeps its code.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer, ProtocolError, ResourceNotFoundError, ResourceTemplate, UrlElicitationRequiredError } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  classifyError,
  createErrorPolicy,
  ResourceNotFoundError as OwnResourceNotFoundError,
  withClientVisibleResourceErrors,
  type LogRecord,
} from '../../src/index.js';
import { isProtocolError } from '../../src/protocol.js';
import { appendFileSync } from 'node:fs';
import { link } from '../support/link.js';
import { thrownBy, versionOf } from './loaded.js';
import { checkCorrelation, checkLineCorrelations } from './check.js';
import { inProcessCall, type Observed, type ObservedRecord } from './observe.js';
import {
  captureRecords,
  closedPortUrl,
  compatSdk,
  makePolicies,
  comparableRecord,
  expectedLine,
  normaliseRunValues,
  referencesIn,
  registerScenarios,
  expectedFor,
  scenarios,
  SECRET_TOKEN,
  upstreamZodMessage,
  type CompatSdk,
  type ExpectedRecord,
  type Install,
  type LooseServer,
} from './scenarios.js';

const sdkV2: CompatSdk = compatSdk('v2', 'compat-server-v2', { McpServer, ResourceTemplate, ProtocolError, UrlElicitationRequiredError });

function connect(server: McpServer) {
  return link(server, new Client({ name: 'compat-client-v2', version: '1.0.0' }), InMemoryTransport.createLinkedPair());
}

const facts = { zodMessage: upstreamZodMessage() };

describe('the SDK v2 under test', () => {
  it('is the copy the matrix cell asked for', () => {
    const server = new McpServer({ name: 'probe', version: '1.0.0' });
    server.registerTool('probe', {}, () => ({ content: [] }));
    const loaded = {
      node: process.versions.node,
      server: versionOf(
        thrownBy(() => server.registerTool('probe', {}, () => ({ content: [] }))),
        '@modelcontextprotocol/server',
      ),
    };
    const env = process.env;
    if (env['COMPAT_REPORT'] !== undefined && env['COMPAT_REPORT'] !== '') appendFileSync(env['COMPAT_REPORT'], `${JSON.stringify(loaded)}\n`);
    expect(loaded.server).toMatch(/^2\.\d+\.\d+$/);
    if (env['COMPAT_EXPECT_SERVER']) expect(loaded.server).toBe(env['COMPAT_EXPECT_SERVER']);
  });
});
const seen = new Map<Install, Map<string, Observed>>();

function checkRecords(observed: Observed, records: readonly ObservedRecord[], expected: readonly ExpectedRecord[]): void {
  expect(records.map((r) => normaliseRunValues(r.line))).toEqual(expected.map(expectedLine));
  checkLineCorrelations(records);
  const full = records.map((r) => r.record as LogRecord);
  expect(full.map(comparableRecord)).toEqual(expected.map((r) => ({ ...r })));
  for (const record of full) expect(record.stack === undefined).toBe(record.level === 'info');
  const crashRefs = full.flatMap((r) => (r.reference === undefined ? [] : [r.reference]));
  expect(new Set(referencesIn(observed.rawJson))).toEqual(new Set(crashRefs));
  expect(observed.rawJson).not.toContain(SECRET_TOKEN);
  expect(JSON.stringify(full)).not.toContain(SECRET_TOKEN);
}

describe.each(['wrappers', 'server'] as const)('the compat table on SDK v2 over InMemoryTransport (%s)', (install) => {
  let close: (() => Promise<void>) | undefined;
  let call: ReturnType<typeof inProcessCall> | undefined;
  const byScenario = new Map<string, Observed>();
  beforeAll(async () => {
    const { records, logger } = captureRecords();
    const server = new McpServer({ name: 'compat-server-v2', version: '1.0.0' });
    registerScenarios(server as unknown as LooseServer, { ...makePolicies(logger), closedUrl: await closedPortUrl(), sdk: sdkV2 }, install);
    const session = await connect(server);
    close = session.close;
    call = inProcessCall(session.client, records);
    seen.set(install, byScenario);
  });
  afterAll(async () => {
    await close?.();
  });

  it.each(scenarios)('$kind $id ($category): $title', async (scenario) => {
    const { observed, records } = await call!(scenario);
    const expected = expectedFor(scenario, 'v2', facts);
    expect(observed.wire).toEqual(expected.wire);
    checkCorrelation(observed, records, expected.wire);
    checkRecords(observed, records, expected.records);
    byScenario.set(scenario.id, observed);
  });
});

describe('SDK v2: wrappers by hand and applyErrorPolicy', () => {
  it.each(scenarios)('$id: the client gets byte-identical results either way', (scenario) => {
    const wrappers = seen.get('wrappers')?.get(scenario.id)?.json;
    expect(wrappers).toBeDefined();
    expect(seen.get('server')?.get(scenario.id)?.json).toBe(wrappers);
  });
});

/**
 * Serves `read`, wrapped under a logging policy, as the template resource `compat://sheets/{sheet}` and reads
 * `compat://sheets/Q3`: what the client's request rejects with, and the records.
 */
async function readQ3(read: (uri: URL, variables: Record<string, string | string[]>) => Promise<never>): Promise<{ error: unknown; records: LogRecord[] }> {
  const { records, logger } = captureRecords();
  const policy = createErrorPolicy({ logger });
  const server = new McpServer({ name: 'compat-server-v2', version: '1.0.0' });
  server.registerResource('sheet', new ResourceTemplate('compat://sheets/{sheet}', { list: undefined }), {}, withClientVisibleResourceErrors(read, { policy }));
  const session = await connect(server);
  try {
    const error = await session.client.readResource({ uri: 'compat://sheets/Q3' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    return { error, records };
  } finally {
    await session.close();
  }
}

describe("SDK v2's own errors", () => {
  it('recognises ProtocolError, its subclasses and a foreign copy of it structurally', () => {
    const policy = createErrorPolicy({ logger: () => undefined });
    const own = new ProtocolError(-32602, 'Unknown cell');
    expect(isProtocolError(own)).toBe(true);
    expect(classifyError(own, policy)).toEqual({ kind: 'protocol', code: -32602, status: 400, level: 'info', error: own, message: 'Unknown cell' });

    // v2's ResourceNotFoundError carries -32602 (invalid params) and the URI: the 2026-07-28 revision's code for a miss.
    const notFound = new ResourceNotFoundError('compat://sheets/Q3', 'No sheet named Q3');
    expect(notFound.code).toBe(-32602);
    expect(notFound.data).toEqual({ uri: 'compat://sheets/Q3' });
    expect(classifyError(notFound, policy)).toEqual({ kind: 'protocol', code: -32602, status: 400, level: 'info', error: notFound, message: 'No sheet named Q3' });

    const elicitation = sdkV2.urlElicitationRequired();
    expect(classifyError(elicitation, policy)).toMatchObject({ kind: 'protocol', code: -32042, status: 403 });

    // Another copy of the SDK: a plain Error carrying v2's registered brand set (what `instanceof` cannot see).
    const foreign = Object.assign(new Error('Sheet locked'), { code: -32603 });
    Object.defineProperty(foreign, Symbol.for('mcp.sdk.errorBrands'), { value: new Set(['mcp.ProtocolError']) });
    expect(isProtocolError(foreign)).toBe(true);
    expect(own instanceof Error && Object.getOwnPropertySymbols(own).includes(Symbol.for('mcp.sdk.errorBrands'))).toBe(true);
  });

  it("v2's ResourceNotFoundError thrown in a wrapped resource passes through as v2 sends it (-32602, data.uri), one info record", async () => {
    const { error, records } = await readQ3(async (uri) => {
      throw new ResourceNotFoundError(uri.href, `No sheet at ${uri.href}`);
    });
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    expect((error as ResourceNotFoundError).code).toBe(-32602);
    expect((error as ResourceNotFoundError).uri).toBe('compat://sheets/Q3');
    expect((error as ProtocolError).message).toBe('No sheet at compat://sheets/Q3');
    expect(records).toEqual([
      {
        level: 'info',
        message: 'resource "compat://sheets/Q3" failed with protocol error -32602: ProtocolError "No sheet at compat://sheets/Q3"',
        kind: 'protocol',
        handler: 'resource',
        name: 'compat://sheets/Q3',
        status: 400,
        errorName: 'ProtocolError',
        errorMessage: 'No sheet at compat://sheets/Q3',
      },
    ]);
  });

  it("this package's ResourceNotFoundError (-32002) reaches a v2 client as -32602 with its text: v2 never emits -32002", async () => {
    const { error: rejected, records } = await readQ3(async (_uri, variables) => {
      throw new OwnResourceNotFoundError(`No sheet named '${String(variables['sheet'])}'`);
    });
    const error = rejected as ProtocolError;
    expect({ code: error.code, message: error.message }).toEqual({ code: -32602, message: "No sheet named 'Q3'" });
    expect(records.map((r) => [r.level, r.kind, r.rule, r.status, r.message])).toEqual([
      ['info', 'anticipated', 'resource-not-found', 404, 'resource "compat://sheets/Q3" failed: ResourceNotFoundError "No sheet named \'Q3\'"'],
    ]);
  });
});

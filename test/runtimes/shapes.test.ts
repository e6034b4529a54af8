/**
 * The network failures of Bun, Deno and workerd, as those runtimes really throw them (test/runtimes/shapes.json: the
 * shapes captured from each runtime's `fetch` by scripts/runtimes.sh, which captures them again on every CI run and
 * fails when they drift), rebuilt here on Node and thrown out of a tool of a real McpServer under applyErrorPolicy,
 * called through a real Client: each gets Node's network text, failure object and log record, or, for workerd's
 * unknown host (an `internal error` that workerd throws for any internal failure too), a crash's.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { applyErrorPolicy, type LogRecord } from '../../src/index.js';
import { failureObject, expectCorrelated, toolFailure } from '../support/failure.js';
import { capture, connect, newServer, referenceIn, textOf, withoutReferences, type Session } from '../support/session.js';

/** A captured error: name, message, own primitive properties, cause. */
interface Shape {
  readonly name: string;
  readonly message: string;
  readonly props: Readonly<Record<string, string | number | boolean | null>>;
  readonly cause?: Shape;
}

type Scenario = 'refused' | 'dns' | 'reset';
type Runtime = 'bun' | 'deno' | 'workerd';

const recorded = JSON.parse(readFileSync(new URL('./shapes.json', import.meta.url), 'utf8')) as {
  readonly runtimes: Record<Runtime, { readonly version: string; readonly shapes: Record<Scenario, Shape> }>;
};

/** The secret in every captured URL (shape.mjs). */
const SECRET_KEY = 'AIzaSyRUNTIMESxxxxxxxxxxxxxxxxxxxxxxx';
const TOOL = 'fetch_rows';

/** The error a shape describes: a TypeError or an Error with its message, own properties and cause. */
function rebuild(shape: Shape): Error {
  const cause = shape.cause === undefined ? {} : { cause: rebuild(shape.cause) };
  const error = shape.name === 'TypeError' ? new TypeError(shape.message, cause) : new Error(shape.message, cause);
  return Object.assign(error, shape.props);
}

/** What each runtime's failure must answer: the network words, or a crash. */
const EXPECTED: Record<Runtime, Record<Scenario, string>> = {
  bun: { refused: 'connection refused (ECONNREFUSED)', dns: 'host not found (ENOTFOUND)', reset: 'connection reset by peer (ECONNRESET)' },
  deno: { refused: 'connection refused (ECONNREFUSED)', dns: 'host not found (ENOTFOUND)', reset: 'connection reset by peer (ECONNRESET)' },
  workerd: { refused: 'connection lost (CONNECTION_LOST)', dns: 'crash', reset: 'connection lost (CONNECTION_LOST)' },
};

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function callThrowing(error: Error) {
  const { policy, records } = capture();
  const server = newServer();
  applyErrorPolicy(server, policy);
  server.registerTool(TOOL, {}, () => {
    throw error;
  });
  session = await connect(server);
  return { result: await session.client.callTool({ name: TOOL, arguments: {} }), records };
}

/** Neither the key, the host nor the path reaches the client; the key reaches no record. */
function expectNoSecret(result: unknown, records: readonly LogRecord[]): void {
  const answer = withoutReferences(JSON.stringify(result));
  for (const leak of [SECRET_KEY, '127.0.0.1', 'no-such-host.invalid', '/v1/rows', 'internal error']) expect(answer).not.toContain(leak);
  expect(JSON.stringify(records)).not.toContain(SECRET_KEY);
}

const cases = (Object.keys(EXPECTED) as Runtime[]).flatMap((runtime) =>
  (Object.keys(EXPECTED[runtime]) as Scenario[]).map((scenario) => [`${recorded.runtimes[runtime].version}: ${scenario}`, runtime, scenario] as const),
);

describe('network failures of Bun, Deno and workerd, as captured from them', () => {
  it('has a shape for every runtime and scenario', () => {
    expect(Object.keys(recorded.runtimes).sort()).toEqual(['bun', 'deno', 'workerd']);
    for (const runtime of Object.values(recorded.runtimes)) expect(Object.keys(runtime.shapes).sort()).toEqual(['dns', 'refused', 'reset']);
  });

  it.each(cases)('%s', async (_title, runtime, scenario) => {
    const shape = recorded.runtimes[runtime].shapes[scenario];
    const { result, records } = await callThrowing(rebuild(shape));
    const words = EXPECTED[runtime][scenario];
    expect(records).toHaveLength(1);
    const record = records[0]!;
    if (words === 'crash') {
      const reference = referenceIn(textOf(result));
      expect(result).toEqual(toolFailure(`Error executing tool ${TOOL} (reference ${reference})`, failureObject('internal', false, { correlationId: reference })));
      expect(record).toMatchObject({ level: 'error', kind: 'crash', status: 500, reference, correlationId: reference, errorName: shape.name });
    } else {
      expect(result).toEqual(toolFailure(`Error executing tool ${TOOL}: Network error: ${words}`, failureObject('network', true, { unreached: /\((ECONNREFUSED|ENOTFOUND|EAI_AGAIN)\)$/.test(words) })));
      const correlationId = expectCorrelated(result, record);
      // the matched error is the thrown one (Bun, workerd) or its cause (Deno's `TypeError: fetch failed`)
      const matched = shape.cause === undefined ? {} : { matchedErrorName: shape.cause.name };
      expect(record).toMatchObject({ level: 'warn', kind: 'anticipated', rule: 'network', status: 502, correlationId, errorName: shape.name, ...matched });
    }
    expectNoSecret(result, records);
  });
});

/**
 * resources/read through a real SDK v1 McpServer and Client: what reaches the wire for each kind of failure, static and
 * template resources, installed by hand (withClientVisibleResourceErrors) and server-wide (applyErrorPolicy).
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  applyErrorPolicy,
  coreRules,
  ResourceError,
  ResourceNotFoundError,
  withClientVisibleResourceErrors,
  type ErrorPolicy,
  type ErrorRule,
} from '../../src/index.js';
import { expectCorrelated, failureData, failureObject } from '../support/failure.js';
import { capture, connect, FAILURE_KEY, newServer, REFERENCE, referenceIn, rpcError, withoutDurations } from '../support/session.js';

const CANARY = 'CANARY-51d0';

type ReadCallback = (uri: URL, ...rest: never[]) => unknown;
type Mode = 'by hand' | 'applyErrorPolicy';

/** A server with one static resource (`static://sheet`) and one template (`sheet://{name}`), both running `cb`. */
function serve(mode: Mode, policy: ErrorPolicy, cb: ReadCallback): McpServer {
  const server = newServer();
  const wrap = (fn: ReadCallback): ReadCallback => (mode === 'by hand' ? withClientVisibleResourceErrors(fn, { policy }) : fn);
  server.registerResource('static', 'static://sheet', {}, wrap(cb) as never);
  server.registerResource('sheet', new ResourceTemplate('sheet://{name}', { list: undefined }), {}, wrap(cb) as never);
  if (mode === 'applyErrorPolicy') applyErrorPolicy(server, policy);
  return server;
}

/** Serves `cb` (mode `mode`) under a capturing policy made with `options`, reads `uri`: the JSON-RPC error, the records, the outcomes. */
async function readError(mode: Mode, uri: string, cb: ReadCallback, options: Parameters<typeof capture>[0] = {}) {
  const { policy, records, outcomes } = capture(options);
  const { client } = await connect(serve(mode, policy, cb));
  return { error: await rpcError(client.readResource({ uri })), records, outcomes };
}

class BusyError extends Error {
  override name = 'BusyError';
}

const busyRule: ErrorRule = {
  name: 'busy',
  predicate: (error) => error instanceof BusyError,
  message: 'The sheet is busy, try again in a minute',
  status: 503,
  code: -32000,
};

for (const mode of ['by hand', 'applyErrorPolicy'] as const) {
  describe(`resources/read, ${mode}`, () => {
    for (const uri of ['static://sheet', 'sheet://x']) {
      describe(uri.startsWith('static') ? 'static resource' : 'resource template', () => {
        it('ResourceNotFoundError -> -32002 with its text, logged once at info, status 404', async () => {
          const { error, records, outcomes } = await readError(mode, uri, () => {
            throw new ResourceNotFoundError('No sheet named x');
          });
          expect(error).toEqual({ code: -32002, message: 'MCP error -32002: No sheet named x', data: failureData(failureObject('resource_not_found', false), uri) });
          const correlationId = expectCorrelated(error, records[0]);
          expect(records).toEqual([
            {
              level: 'info',
              message: `resource ${JSON.stringify(uri)} failed: ResourceNotFoundError "No sheet named x"`,
              kind: 'anticipated',
              handler: 'resource',
              name: uri,
              status: 404,
              rule: 'resource-not-found',
              errorName: 'ResourceNotFoundError',
              errorMessage: 'No sheet named x',
              correlationId,
            },
          ]);
          expect(withoutDurations(outcomes)).toEqual([{ kind: 'resource', name: uri, status: 404, classification: 'anticipated' }]);
        });

        it('ResourceError -> -32603 with its text', async () => {
          const { error, records, outcomes } = await readError(mode, uri, () => {
            throw new ResourceError('The sheet is being recalculated, try again shortly', { cause: new Error(CANARY) });
          });
          expect(error).toEqual({ code: -32603, message: 'MCP error -32603: The sheet is being recalculated, try again shortly', data: failureData(failureObject('resource_error', false)) });
          expect(records).toHaveLength(1);
          expectCorrelated(error, records[0]);
          expect(records[0]).toMatchObject({ level: 'info', kind: 'anticipated', rule: 'deliberate', status: 500 });
          expect(records[0]?.stack).toBeUndefined();
          expect(outcomes.map((o) => o.status)).toEqual([500]);
        });

        it('an allowlisted foreign error (network) -> -32603 with the rule text, never the original message', async () => {
          const { error, records, outcomes } = await readError(mode, uri, () => {
            throw Object.assign(new Error(`connect ECONNREFUSED 10.0.0.7:443 ${CANARY}`), { code: 'ECONNREFUSED', syscall: 'connect' });
          });
          expect(error).toEqual({ code: -32603, message: 'MCP error -32603: Network error: connection refused (ECONNREFUSED)', data: failureData(failureObject('network', true, { unreached: true })) });
          expect(records).toHaveLength(1);
          expectCorrelated(error, records[0]);
          expect(records[0]).toMatchObject({ level: 'warn', kind: 'anticipated', rule: 'network', status: 502, errorMessage: `connect ECONNREFUSED 10.0.0.7:443 ${CANARY}` });
          expect(records[0]?.stack).toMatch(/^ {4}at /);
          expect(withoutDurations(outcomes)).toEqual([{ kind: 'resource', name: uri, status: 502, classification: 'anticipated' }]);
        });

        it("a rule's own JSON-RPC code and status", async () => {
          const { error, records, outcomes } = await readError(mode, uri, () => {
            throw new BusyError(CANARY);
          }, { rules: [busyRule, ...coreRules] });
          expect(error).toEqual({ code: -32000, message: 'MCP error -32000: The sheet is busy, try again in a minute', data: failureData(failureObject('busy', false)) });
          expectCorrelated(error, records[0]);
          expect(records.map((r) => [r.level, r.rule, r.status])).toEqual([['warn', 'busy', 503]]);
          expect(outcomes.map((o) => o.status)).toEqual([503]);
        });

        it('a crash -> -32603 naming the URI and the reference, none of its text', async () => {
          const { error, records, outcomes } = await readError(mode, uri, () => {
            throw new TypeError(`Cannot read properties of undefined (reading '${CANARY}')`);
          });
          const reference = referenceIn(error.message);
          expect(error).toEqual({
            code: -32603,
            message: `MCP error -32603: Error reading resource ${uri} (reference ${reference})`,
            data: failureData(failureObject('internal', false, { correlationId: reference })),
          });
          expect(error.message).not.toContain('CANARY');
          expect(records).toHaveLength(1);
          expect(records[0]).toMatchObject({
            level: 'error',
            kind: 'crash',
            name: uri,
            reference,
            correlationId: reference,
            status: 500,
            errorName: 'TypeError',
            errorMessage: `Cannot read properties of undefined (reading '${CANARY}')`,
          });
          expect(withoutDurations(outcomes)).toEqual([{ kind: 'resource', name: uri, status: 500, classification: 'crash' }]);
        });

        it("a thrown object's own integer code and data never reach the wire", async () => {
          for (const code of [403, -32001, -32002]) {
            const { error, records } = await readError(mode, uri, () => {
              throw Object.assign(new Error(`forbidden ${CANARY}`), { code, data: { secret: CANARY } });
            });
            expect(error.code).toBe(-32603);
            // the policy's own data only: the failure object of a crash
            expect(error.data).toEqual(failureData(failureObject('internal', false, { correlationId: referenceIn(error.message) })));
            expect(error.message).toBe(`MCP error -32603: Error reading resource ${uri} (reference ${referenceIn(error.message)})`);
            expect(JSON.stringify(error)).not.toContain('CANARY');
            expect(records.map((r) => r.kind)).toEqual(['crash']);
          }
        });

        it('a successful read is unchanged', async () => {
          const read = (u: URL) => ({ contents: [{ uri: u.href, mimeType: 'text/csv', text: 'a,b\n1,2' }], _meta: { rows: 1 } });
          const { policy, records, outcomes } = capture();
          const { client: plain } = await connect(serve('by hand', capture().policy, read));
          const { client } = await connect(serve(mode, policy, read));
          const expected = await plain.readResource({ uri });
          expect(expected.contents).toEqual([{ uri, mimeType: 'text/csv', text: 'a,b\n1,2' }]);
          expect(await client.readResource({ uri })).toEqual(expected);
          expect(records).toEqual([]);
          expect(withoutDurations(outcomes)).toEqual([{ kind: 'resource', name: uri, status: 200 }]);
        });

        it('a protocol error (McpError) passes through as the SDK sends it', async () => {
          const { policy, records, outcomes } = capture();
          const thrower = () => {
            throw new McpError(ErrorCode.InvalidParams, 'Sheet ids are numeric');
          };
          const { client: plain } = await connect(serve('by hand', capture().policy, thrower));
          const { client } = await connect(serve(mode, policy, thrower));
          const expected = await rpcError(plain.readResource({ uri }));
          // the SDK's McpError carries the prefix in its message, so the client shows it twice: the SDK's own behaviour
          expect(expected).toEqual({ code: -32602, message: 'MCP error -32602: MCP error -32602: Sheet ids are numeric', data: undefined });
          expect(await rpcError(client.readResource({ uri }))).toEqual(expected);
          expect(records.map((r) => [r.level, r.kind, r.status])).toEqual([['info', 'protocol', 400]]);
          expect(outcomes.map((o) => o.status)).toEqual([400]);
        });
      });
    }

    it('a crash names a long URI bounded, and scrubs secrets from it', async () => {
      const { policy } = capture();
      const server = serve(mode, policy, () => {
        throw new Error(CANARY);
      });
      const { client } = await connect(server);
      const long = `sheet://${'a'.repeat(1000)}`;
      const error = await rpcError(client.readResource({ uri: long }));
      expect(error.message).toBe(`MCP error -32603: Error reading resource ${long.slice(0, 199)}… (reference ${referenceIn(error.message)})`);
      const secret = await rpcError(client.readResource({ uri: 'sheet://x?access_token=ya29.a0AfH6SMBsecret' }));
      expect(secret.message).toBe(`MCP error -32603: Error reading resource sheet://x?access_token=[REDACTED] (reference ${referenceIn(secret.message)})`);
    });
  });
}

describe('the failure object on resource and prompt errors', () => {
  it('failureObject: false: `data` only for a resource not found (its uri); draftToolFailure never reaches `data`', async () => {
    for (const mode of ['by hand', 'applyErrorPolicy'] as const) {
      for (const [thrown, code, failureCode] of [
        [() => new ResourceNotFoundError('No sheet named x'), -32002, 'resource_not_found'],
        [() => new ResourceError('Busy', { retryAfterMs: 1000 }), -32603, 'resource_error'],
        [() => new Error(CANARY), -32603, 'internal'],
      ] as const) {
        const cb = () => {
          throw thrown();
        };
        const off = await readError(mode, 'sheet://x', cb, { failureObject: false, draftToolFailure: true });
        expect(off.error.code).toBe(code);
        expect(off.error.data).toEqual(code === -32002 ? { uri: 'sheet://x' } : undefined);
        expect(off.records[0]?.correlationId).toMatch(REFERENCE);
        const on = await readError(mode, 'sheet://x', cb, { draftToolFailure: true });
        expect(Object.keys(on.error.data as object)).toEqual(code === -32002 ? ['uri', FAILURE_KEY] : [FAILURE_KEY]);
        expect((on.error.data as Record<string, { code: string }>)[FAILURE_KEY]!.code).toBe(failureCode);
        expectCorrelated(on.error, on.records[0]);
      }
    }
  });
});

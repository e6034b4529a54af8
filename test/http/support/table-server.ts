/**
 * The per-status table's server, shared by the in-memory run (mcp.test.ts) and the stdio run (stdio.test.ts, through
 * the subprocess fixtures/table-server.ts): a real McpServer with one tool per case of a variant, each calling the
 * real client library against the fakes, under `[...httpRules, ...coreRules]` and the tests' re-authorization text.
 * No vitest import: the subprocess loads this file outside the test runner.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { coreRules, createErrorPolicy, withClientVisibleErrors, type LogRecord, type Outcome } from '../../../src/index.js';
import { httpRules } from '../../../src/http/index.js';
import type { Variant } from './clients.js';
import { REAUTHORIZE, casesOf } from './expected.js';

/**
 * The client's timeout: the fake's `slow` case answers after 5 s, every other case at once. 1 s leaves a loaded machine
 * room for the other cases (a row that timed out would fail as the wrong text, never pass).
 */
export const TIMEOUT_MS = 1000;

/** The key of the failure object in a tool result's `_meta`. */
export const FAILURE_KEY = 'mcp-error-policy/failure';

/** What the table's server is made of. */
export interface TableServerOptions {
  readonly variant: Variant;
  /** The fakes' origin. */
  readonly origin: string;
  /** An origin where connections are refused (the `refused` case). */
  readonly refusedOrigin: string;
  readonly logger: (record: LogRecord) => void;
  readonly onOutcome: (outcome: Outcome) => void;
}

/** An McpServer with one tool per case of the variant (casesOf), each failing the way the library fails. */
export async function tableServer({ variant, origin, refusedOrigin, logger, onOutcome }: TableServerOptions): Promise<McpServer> {
  const call = await variant.make(origin, TIMEOUT_MS);
  const refused = await variant.make(refusedOrigin, TIMEOUT_MS);
  // One successful call first (the fake answers `ok` with 200), so that what a library loads on its first request is
  // loaded before the first row's call runs against the timeout.
  await call('ok');
  const policy = createErrorPolicy({ rules: [...httpRules, ...coreRules], reauthorize: REAUTHORIZE, logger, onOutcome });
  const server = new McpServer({ name: 'http-rules-test', version: '1.0.0' });
  for (const which of casesOf(variant)) {
    server.registerTool(
      which,
      { description: `fails with ${which}` },
      withClientVisibleErrors(
        async (): Promise<CallToolResult> => {
          await (which === 'refused' ? refused('missing') : call(which));
          return { content: [{ type: 'text', text: 'unreachable' }] };
        },
        { name: which, policy },
      ),
    );
  }
  return server;
}

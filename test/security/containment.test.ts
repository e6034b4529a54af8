/**
 * Containment: a logger, an `onOutcome`, a rule `message` (and a rule predicate, a `redact`, a `reauthorize`, a
 * `degraded` function) that throws is contained, and the failure is still answered, with the exact text, through a
 * real McpServer and SDK Client over InMemoryTransport. A logger that throws has its record written to stderr instead
 * (once); when stderr throws too, the call is still answered.
 */
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  coreRules,
  createErrorPolicy,
  ToolError,
  withClientVisibleErrors,
  withClientVisiblePromptErrors,
  withClientVisibleResourceErrors,
  type ErrorPolicy,
  type ErrorPolicyOptions,
  type ErrorRule,
  type Outcome,
} from '../../src/index.js';
import { failureObjectOf } from '../support/calls.js';
import { CANARY, captureStderr, openSession, recordLogger, settle, type WireSession } from './support.js';

class QuotaError extends Error {
  override name = 'QuotaError';
}

function hostileThrowable(): unknown {
  const { proxy, revoke } = Proxy.revocable(new Error(CANARY), {});
  revoke();
  return proxy;
}

let session: WireSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

/** A server with one failing tool, resource and prompt under `policy`; each throws what `thrown()` makes. */
async function serve(policy: ErrorPolicy, thrown: () => unknown): Promise<WireSession> {
  return openSession((server) => {
    server.registerTool(
      'work',
      { inputSchema: { n: z.number() } },
      withClientVisibleErrors(async () => {
        throw thrown();
      }, { name: 'work', policy }),
    );
    server.registerResource(
      'doc',
      new ResourceTemplate('doc://{id}', { list: undefined }),
      {},
      withClientVisibleResourceErrors(async () => {
        throw thrown();
      }, { policy }),
    );
    server.registerPrompt(
      'brief',
      { argsSchema: { topic: z.string() } },
      withClientVisiblePromptErrors(async (): Promise<GetPromptResult> => {
        throw thrown();
      }, { name: 'brief', policy }),
    );
  });
}

/** Calls the tool, the resource and the prompt once each; returns the three client-visible texts. */
async function callAll(s: WireSession): Promise<[string, string, string]> {
  const tool = (await s.client.callTool({ name: 'work', arguments: { n: 1 } })) as { content: { text: string }[]; isError?: boolean };
  expect(tool.isError).toBe(true);
  const resource = await settle(s.client.readResource({ uri: 'doc://1' }));
  const prompt = await settle(s.client.getPrompt({ name: 'brief', arguments: { topic: 't' } }));
  expect(resource.rejected && prompt.rejected).toBe(true);
  return [tool.content[0]!.text, (resource as { error: Error }).error.message, (prompt as { error: Error }).error.message];
}

const CRASH_TEXTS = [
  /^Error executing tool work \(reference ([0-9a-f]{12})\)$/,
  /^MCP error -32603: Error reading resource doc:\/\/1 \(reference ([0-9a-f]{12})\)$/,
  /^MCP error -32603: Error getting prompt brief \(reference ([0-9a-f]{12})\)$/,
];

function referencesOf(texts: readonly string[]): string[] {
  return texts.map((text, i) => {
    const match = CRASH_TEXTS[i]!.exec(text);
    expect(match, text).not.toBeNull();
    return match![1]!;
  });
}

describe('a throwing logger', () => {
  const throwers: [string, ErrorPolicyOptions['logger']][] = [
    [
      'a function logger that throws an Error',
      () => {
        throw new Error(`logger down ${CANARY}`);
      },
    ],
    [
      'a function logger that throws a revoked Proxy',
      () => {
        throw hostileThrowable();
      },
    ],
    [
      'a console-shaped logger whose methods throw',
      {
        info: () => {
          throw new Error('info down');
        },
        warn: () => {
          throw new Error('warn down');
        },
        error: () => {
          throw new Error('error down');
        },
      },
    ],
  ];
  for (const [label, logger] of throwers) {
    it(`${label}: every call is answered; each record goes to stderr once instead`, async () => {
      const policy = createErrorPolicy({ logger: logger!, exposeCrashDetails: false });
      session = await serve(policy, () => new Error(`boom ${CANARY}`));
      let texts: [string, string, string] = ['', '', ''];
      const written = await captureStderr(async () => {
        texts = await callAll(session!);
      });
      const references = referencesOf(texts);
      const lines = written.split('\n').filter((line) => line.startsWith('[mcp-error-policy] '));
      expect(lines).toEqual([
        `[mcp-error-policy] ERROR tool "work" crashed (reference ${references[0]}): Error "boom ${CANARY}" (the configured logger threw)`,
        `[mcp-error-policy] ERROR resource "doc://1" crashed (reference ${references[1]}): Error "boom ${CANARY}" (the configured logger threw)`,
        `[mcp-error-policy] ERROR prompt "brief" crashed (reference ${references[2]}): Error "boom ${CANARY}" (the configured logger threw)`,
      ]);
      for (const message of session.wire) expect(message.includes(CANARY)).toBe(false);
    });
  }

  it('a throwing logger and a throwing stderr: the failure is still answered', async () => {
    const policy = createErrorPolicy({
      logger: () => {
        throw new Error('logger down');
      },
      exposeCrashDetails: false,
    });
    session = await serve(policy, () => new ToolError('quota reached'));
    const original = process.stderr.write;
    process.stderr.write = (() => {
      throw new Error('EPIPE: stderr closed');
    }) as typeof process.stderr.write;
    let texts: [string, string, string];
    try {
      texts = await callAll(session);
    } finally {
      process.stderr.write = original;
    }
    expect(texts).toEqual(['Error executing tool work: quota reached', 'MCP error -32603: quota reached', 'MCP error -32603: quota reached']);
  });
});

describe('a throwing onOutcome', () => {
  it('failures are answered and logged once; a success still returns its result', async () => {
    const { records, logger } = recordLogger();
    const outcomes: Outcome[] = [];
    const policy = createErrorPolicy({
      logger,
      exposeCrashDetails: false,
      onOutcome: (outcome) => {
        outcomes.push(outcome);
        throw new Error(`access log down ${CANARY}`);
      },
    });
    session = await serve(policy, () => new Error(`boom ${CANARY}`));
    const references = referencesOf(await callAll(session));
    expect(records.map((r) => [r.handler, r.reference])).toEqual([
      ['tool', references[0]],
      ['resource', references[1]],
      ['prompt', references[2]],
    ]);
    expect(outcomes.map((o) => [o.kind, o.name, o.status])).toEqual([
      ['tool', 'work', 500],
      ['resource', 'doc://1', 500],
      ['prompt', 'brief', 500],
    ]);
    const ok = withClientVisibleErrors(async () => ({ content: [{ type: 'text' as const, text: 'fine' }] }), { name: 'ok', policy });
    expect(await ok()).toEqual({ content: [{ type: 'text', text: 'fine' }] });
    expect(outcomes.at(-1)).toMatchObject({ kind: 'tool', name: 'ok', status: 200 });
    expect(records).toHaveLength(3);
  });
});

describe('throwing rule functions', () => {
  const rules: [string, ErrorRule][] = [
    [
      'a rule message function that throws',
      {
        name: 'quota',
        predicate: (e) => e instanceof QuotaError,
        message: () => {
          throw new Error(`message down ${CANARY}`);
        },
      },
    ],
    ['a rule message function that returns a non-string', { name: 'quota', predicate: (e) => e instanceof QuotaError, message: (() => ({ toString: () => CANARY })) as unknown as () => string }],
    [
      'a rule message function that throws a revoked Proxy',
      {
        name: 'quota',
        predicate: (e) => e instanceof QuotaError,
        message: () => {
          throw hostileThrowable();
        },
      },
    ],
  ];
  for (const [label, rule] of rules) {
    it(`${label}: the failure is answered as a crash (fail closed), logged once`, async () => {
      const { records, logger } = recordLogger();
      const policy = createErrorPolicy({ logger, rules: [rule, ...coreRules], exposeCrashDetails: false });
      session = await serve(policy, () => new QuotaError(`quota ${CANARY}`));
      const references = referencesOf(await callAll(session));
      expect(records.map((r) => [r.kind, r.handler, r.reference, r.errorName])).toEqual([
        ['crash', 'tool', references[0], 'QuotaError'],
        ['crash', 'resource', references[1], 'QuotaError'],
        ['crash', 'prompt', references[2], 'QuotaError'],
      ]);
      for (const message of session.wire) expect(message.includes(CANARY)).toBe(false);
    });
  }

  it('a rule predicate that throws counts as "no": the next rule decides', async () => {
    const { records, logger } = recordLogger();
    const throwing: ErrorRule = {
      name: 'throwing-predicate',
      predicate: () => {
        throw new Error('predicate down');
      },
      message: CANARY,
    };
    const policy = createErrorPolicy({ logger, rules: [throwing, ...coreRules], exposeCrashDetails: false });
    session = await serve(policy, () => new ToolError('item locked'));
    expect(await callAll(session)).toEqual(['Error executing tool work: item locked', 'MCP error -32603: item locked', 'MCP error -32603: item locked']);
    expect(records.map((r) => r.rule)).toEqual(['deliberate', 'deliberate', 'deliberate']);
  });

  it('a rule status function that throws (or returns no HTTP status): answered with the rule text, status 500', async () => {
    const { records, logger } = recordLogger();
    const outcomes: Outcome[] = [];
    const throwingStatus: ErrorRule = {
      name: 'quota',
      predicate: (e) => e instanceof QuotaError,
      message: 'Quota exceeded',
      status: () => {
        throw new Error(`status down ${CANARY}`);
      },
    };
    const policy = createErrorPolicy({ logger, rules: [throwingStatus, ...coreRules], exposeCrashDetails: false, onOutcome: (o) => void outcomes.push(o) });
    session = await serve(policy, () => new QuotaError('x'));
    expect(await callAll(session)).toEqual(['Error executing tool work: Quota exceeded', 'MCP error -32603: Quota exceeded', 'MCP error -32603: Quota exceeded']);
    expect(records.map((r) => [r.rule, r.status])).toEqual([
      ['quota', 500],
      ['quota', 500],
      ['quota', 500],
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([500, 500, 500]);
  });

  it('a redactor that throws replaces the whole text with [REDACTED]', async () => {
    const { records, logger } = recordLogger();
    const policy = createErrorPolicy({
      logger,
      exposeCrashDetails: false,
      redact: () => {
        throw new Error('redactor down');
      },
    });
    session = await serve(policy, () => new ToolError(`item ${CANARY} locked`));
    expect(await callAll(session)).toEqual(['Error executing tool [REDACTED]: [REDACTED]', 'MCP error -32603: [REDACTED]', 'MCP error -32603: [REDACTED]']);
    expect(records).toHaveLength(3);
    expect(JSON.stringify(records).includes(CANARY)).toBe(false);
  });

  it('hostile failure facts (a throwing function, revoked Proxies, throwing getters) and hostile Retry-After headers: the defaults', async () => {
    const trap = (): never => {
      throw new Error(`facts down ${CANARY}`);
    };
    const trapping = new Proxy({}, { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap });
    const facts: ErrorRule['failure'][] = [
      trap,
      () => hostileThrowable() as never,
      () => trapping as never,
      trapping as never,
      { get code(): string { return trap(); } },
      undefined,
    ];
    const headers = [trapping, hostileThrowable(), { get 'retry-after'(): string { return trap(); } }];
    for (const failure of facts) {
      for (const header of headers) {
        const { records, logger } = recordLogger();
        const rule: ErrorRule = { name: 'quota', predicate: (e) => e instanceof QuotaError, message: 'Quota exceeded', ...(failure === undefined ? {} : { failure }) };
        const policy = createErrorPolicy({ logger, rules: [rule, ...coreRules], exposeCrashDetails: false });
        session = await serve(policy, () => Object.assign(new QuotaError(`quota ${CANARY}`), { response: { headers: header } }));
        const tool = await session.client.callTool({ name: 'work', arguments: { n: 1 } });
        const resource = await settle(session.client.readResource({ uri: 'doc://1' }));
        const prompt = await settle(session.client.getPrompt({ name: 'brief', arguments: { topic: 't' } }));
        const answers = [tool, resource.rejected ? resource.error : undefined, prompt.rejected ? prompt.error : undefined];
        expect(answers.map((answer) => failureObjectOf(answer))).toEqual(records.map((r) => ({ code: 'quota', retryable: false, correlationId: r.correlationId })));
        expect(records.map((r) => [r.kind, r.rule])).toEqual([
          ['anticipated', 'quota'],
          ['anticipated', 'quota'],
          ['anticipated', 'quota'],
        ]);
        for (const message of session.wire) expect(message.includes(CANARY)).toBe(false);
        await session.close();
        session = undefined;
      }
    }
  });

  it('a reauthorize function that throws: the failure is answered without the hint', async () => {
    const { records, logger } = recordLogger();
    const revoked: ErrorRule = { name: 'revoked', predicate: (e) => e instanceof QuotaError, message: 'Sign-in expired', reauthorize: true };
    const policy = createErrorPolicy({
      logger,
      rules: [revoked, ...coreRules],
      exposeCrashDetails: false,
      reauthorize: () => {
        throw new Error('hint down');
      },
    });
    session = await serve(policy, () => new QuotaError('x'));
    expect(await callAll(session)).toEqual(['Error executing tool work: Sign-in expired', 'MCP error -32603: Sign-in expired', 'MCP error -32603: Sign-in expired']);
    expect(records.map((r) => r.status)).toEqual([401, 401, 401]);
  });

  it('a degraded check that throws: the handler is not run and the client is told the server is not ready', async () => {
    const { records, logger } = recordLogger();
    let ran = 0;
    const policy = createErrorPolicy({
      logger,
      exposeCrashDetails: false,
      degraded: () => {
        throw new Error(`credentials check down ${CANARY}`);
      },
    });
    session = await serve(policy, () => {
      ran += 1;
      return new Error('unreachable');
    });
    const text = 'The server is not ready: its credentials could not be checked';
    expect(await callAll(session)).toEqual([`Error executing tool work: ${text}`, `MCP error -32603: ${text}`, `MCP error -32603: ${text}`]);
    expect(ran).toBe(0);
    expect(records.map((r) => [r.kind, r.status])).toEqual([
      ['degraded', 401],
      ['degraded', 401],
      ['degraded', 401],
    ]);
  });
});

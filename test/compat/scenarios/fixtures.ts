/**
 * The inputs of the compatibility table (test/compat/scenarios.ts): fixed values, the custom rule, thrown values that
 * are hard to handle, and the real operations that fail (a fetch to a closed port, a missing file, a real timer).
 */
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { ToolError, withClientVisibleErrors, withClientVisibleResourceErrors, type ErrorPolicy, type ErrorRule } from '../../../src/index.js';
import { closedPort } from '../../support/loopback.js';

/** A path that does not exist on any test machine. */
export const MISSING_FILE = '/nonexistent/mcp-error-policy-compat/sheet.csv';

/** The policy's re-authorization text. */
export const REAUTHORIZE = 'Sign in again: run `acme auth login`.';

/** What the degraded policy answers. */
export const DEGRADED = 'Not signed in: run `acme auth login`.';

/** A secret planted in thrown values; it must never reach a client or a log. */
export const SECRET_TOKEN = 'ya29.a0AfB_compatSecretAccessToken0123456789';

/** An error class of the server's own that a custom rule marks as needing re-authorization. */
export class GrantRevokedError extends Error {
  constructor(message = 'Token has been expired or revoked.') {
    super(message);
    this.name = 'GrantRevokedError';
  }
}

/** The custom rule: `reauthorize: true`, so the client text gets {@link REAUTHORIZE} and the status is 401. */
export const grantRevokedRule: ErrorRule = {
  name: 'grant-revoked',
  predicate: (error) => error instanceof GrantRevokedError,
  message: (error) => (error as Error).message,
  reauthorize: true,
};

/** A URL on 127.0.0.1 where a connection is refused (see closedPort). */
export async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}/v1/sheets`;
}

/** The elicitation an SDK's `UrlElicitationRequiredError` carries in the table (`CompatSdk.urlElicitationRequired`). */
export function urlElicitations(): { mode: 'url'; elicitationId: string; url: string; message: string }[] {
  return [{ mode: 'url', elicitationId: 'e-1', url: 'https://sheets.example/authorize', message: 'Authorize access to the sheet' }];
}

/** Upstream data that fails the schema a handler parses it with (a bug: not allowlisted by default). */
export const upstreamSchema = z.object({ rows: z.array(z.string()) });
export const upstreamData: unknown = { rows: 'not-an-array' };

/** The ZodError message the zod in use gives for {@link upstreamData} (zod 3 and 4 word it differently). */
export function upstreamZodMessage(): string {
  const parsed = upstreamSchema.safeParse(upstreamData);
  if (parsed.success) throw new Error('upstream data unexpectedly valid');
  return parsed.error.message;
}

/** A thrown object whose every property read throws. */
export function hostileObject(): object {
  return new Proxy(
    {},
    {
      get() {
        throw new Error('getter trap');
      },
      getPrototypeOf() {
        throw new Error('prototype trap');
      },
    },
  );
}

export function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable(new Error('revoked'), {});
  revoke();
  return proxy;
}

export function cyclicCrash(): Error {
  const outer = new Error('Sync failed');
  const inner = new Error('Row merge failed', { cause: outer });
  outer.cause = inner;
  return outer;
}

export function cyclicAllowlisted(): Error {
  const deliberate = new ToolError('Row 7 is locked by another editor');
  const wrapper = new Error('Sync failed', { cause: deliberate });
  deliberate.cause = wrapper;
  return wrapper;
}

export const HUGE = 'x'.repeat(10 * 1024 * 1024);
/** What a 10 MB message becomes: cut to maxMessageLength (4000) with an ellipsis. */
export const HUGE_BOUNDED = `${'x'.repeat(3999)}…`;

// ---------------------------------------------------------------------------------------------------------------------
// Operations that fail for real.

export function readUndefinedY(): string {
  const missing: { x?: { y: string } } = {};
  return missing.x!.y;
}

export async function fetchClosed(url: string): Promise<never> {
  await fetch(url);
  throw new Error(`expected ${url} to refuse the connection`);
}

export async function readMissing(): Promise<never> {
  await readFile(MISSING_FILE, 'utf8');
  throw new Error(`expected ${MISSING_FILE} to be missing`);
}

export async function waitTooLong(): Promise<never> {
  await sleep(10_000, undefined, { signal: AbortSignal.timeout(5) });
  throw new Error('expected the wait to time out');
}

export function abortNow(): never {
  const controller = new AbortController();
  controller.abort();
  controller.signal.throwIfAborted();
  throw new Error('expected an abort');
}

/** The handler of the degraded scenarios, which the degraded policy must not let run: a new function on each call. */
export const mustNotRun = (): (() => Promise<never>) => async () => {
  throw new Error('the degraded handler must not run');
};

// ---------------------------------------------------------------------------------------------------------------------
// Results.

export function text(value: string): { content: { type: 'text'; text: string }[] } {
  return { content: [{ type: 'text', text: value }] };
}

export function promptResult(value: string): { messages: { role: 'user'; content: { type: 'text'; text: string } }[] } {
  return { messages: [{ role: 'user', content: { type: 'text', text: value } }] };
}

/** Text of an isError tool result (as a wrapped callback returns it). */
export function failureText(result: unknown): string {
  const content = (result as { content?: { text?: unknown }[] } | undefined)?.content;
  const first = content?.[0]?.text;
  return typeof first === 'string' ? first : '(no text)';
}

// ---------------------------------------------------------------------------------------------------------------------
// Handlers that other handlers call (the nested scenarios): wrapped on their own, always, under the table's policy.

export interface InnerHandlers {
  /** Tool `inner_locked`: a ToolError. */
  readonly locked: () => Promise<unknown>;
  /** Tool `inner_crash`: a TypeError. */
  readonly crash: () => Promise<unknown>;
  /** Resource `inner_resource`: a crash. */
  readonly resource: (uri: URL) => Promise<unknown>;
}

export function innerHandlers(policy: ErrorPolicy): InnerHandlers {
  return {
    locked: withClientVisibleErrors(
      async () => {
        throw new ToolError('Row 7 is locked by another editor');
      },
      { name: 'inner_locked', policy },
    ),
    crash: withClientVisibleErrors(async () => text(readUndefinedY()), { name: 'inner_crash', policy }),
    resource: withClientVisibleResourceErrors(
      async (_uri: URL) => {
        throw new Error('Index corrupt');
      },
      { policy },
    ),
  };
}

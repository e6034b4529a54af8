/**
 * Real SDK v1 server and client over InMemoryTransport, with a capturing logger, an access log and a record of the
 * notifications the client receives.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ErrorPolicyOptions, LogRecord, Outcome } from '../../src/index.js';
import { createErrorPolicy } from '../../src/index.js';

/** Captured log records and outcomes, with the policy that writes them. */
export function capture(options: Omit<ErrorPolicyOptions, 'logger' | 'onOutcome'> = {}) {
  const records: LogRecord[] = [];
  const outcomes: Outcome[] = [];
  const policy = createErrorPolicy({
    ...options,
    logger: (record) => {
      records.push(record);
    },
    onOutcome: (outcome) => {
      outcomes.push(outcome);
    },
  });
  return { policy, records, outcomes };
}

/** Connects a real v1 Client to `server`; `notifications` collects every notification method the client receives. */
export async function connect(server: McpServer) {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const notifications: string[] = [];
  client.fallbackNotificationHandler = async (notification) => {
    notifications.push(notification.method);
  };
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return { client, notifications };
}

export { newServer, REFERENCE } from '../support/session.js';

/** The JSON-RPC error a client request rejects with: its code and message, as the client shows them. */
export async function rpcError(promise: Promise<unknown>): Promise<{ code: unknown; message: string; data: unknown }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown; data?: unknown };
    return { code: e.code, message: String(e.message), data: e.data };
  }
  throw new Error('expected the request to fail');
}

/** The one text of a tool result. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content;
  if (content?.length !== 1 || content[0]?.type !== 'text') throw new Error(`expected one text content, got ${JSON.stringify(result)}`);
  return content[0].text ?? '';
}

/** The reference id at the end of a crash text. */
export function referenceIn(text: string): string {
  const match = /\(reference ([0-9a-f]{12})\)$/.exec(text);
  if (match?.[1] === undefined) throw new Error(`no reference in ${JSON.stringify(text)}`);
  return match[1];
}

/**
 * The text with every `(reference <12 hex>)` written `(reference <id>)`: a search for a short literal (`403`, say)
 * in text holding a random reference id must not find it inside the id.
 */
export function withoutReferences(text: string): string {
  return text.replace(/\(reference [0-9a-f]{12}\)/g, '(reference <id>)');
}

/** Waits for in-flight notifications to arrive. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** Outcomes without their (variable) durations, for exact comparison. */
export function withoutDurations(outcomes: readonly Outcome[]) {
  return outcomes.map(({ durationMs, classification, ...rest }) => {
    if (!(typeof durationMs === 'number' && durationMs >= 0 && Number.isFinite(durationMs))) throw new Error(`bad durationMs ${String(durationMs)}`);
    return classification === undefined ? rest : { ...rest, classification: classification.kind };
  });
}

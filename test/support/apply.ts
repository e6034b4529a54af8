/**
 * Applying the policy to a server whose client is already connected, whatever the SDK (imports no SDK, see link.ts).
 */
import { expect } from 'vitest';
import { applyErrorPolicy, type McpServerLike } from '../../src/index.js';
import { capture, settle, textOf } from './calls.js';

/** A connected server and client of either SDK, as `link` returns them. */
interface ConnectedSession<S> {
  readonly server: S;
  readonly client: { callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<unknown> };
  readonly notifications: string[];
}

/**
 * Applies a policy to the connected `session`'s server, whose tool `t` (handle `tool`) crashes: no list_changed
 * notification is sent, neither by connecting nor by applying; `t` is then answered under the policy; and the client
 * does receive notifications: a later `update()` sends the SDK's own.
 */
export async function expectAppliedWithoutNotifications<S extends McpServerLike>(session: ConnectedSession<S>, tool: { update(updates: { title: string }): void }): Promise<void> {
  await settle();
  expect(session.notifications).toEqual([]);

  applyErrorPolicy(session.server, capture().policy);
  await settle();
  expect(session.notifications).toEqual([]);
  expect(textOf(await session.client.callTool({ name: 't', arguments: {} }))).toMatch(/^Error executing tool t \(reference/);

  tool.update({ title: 'T' });
  await settle();
  expect(session.notifications).toEqual(['notifications/tools/list_changed']);
}

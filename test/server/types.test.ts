/**
 * Types: applyErrorPolicy takes the McpServer and the low-level Server of SDK v1 and of SDK v2 as they are (no cast),
 * returns the same type,
 * and refuses other values at compile time. Checked by `tsc --noEmit` (this file is in the project) and run by vitest.
 */
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server as ServerV1 } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer as McpServerV2, Server as ServerV2 } from '@modelcontextprotocol/server';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { applyErrorPolicy, createErrorPolicy, type ErrorPolicy, type LowLevelServerLike, type McpServerLike } from '../../src/index.js';

describe('applyErrorPolicy types', () => {
  it('accepts SDK v1 and v2 McpServer without a cast and returns the same type', () => {
    const v1 = new McpServerV1({ name: 'v1', version: '1.0.0' });
    const v2 = new McpServerV2({ name: 'v2', version: '1.0.0' });
    const policy = createErrorPolicy();
    expectTypeOf(applyErrorPolicy(v1, policy)).toEqualTypeOf<McpServerV1>();
    expectTypeOf(applyErrorPolicy(v2, policy)).toEqualTypeOf<McpServerV2>();
    expectTypeOf(applyErrorPolicy(new McpServerV1({ name: 'v1', version: '1.0.0' }))).toEqualTypeOf<McpServerV1>();
    expectTypeOf<McpServerV1>().toMatchTypeOf<McpServerLike>();
    expectTypeOf<McpServerV2>().toMatchTypeOf<McpServerLike>();
    expectTypeOf(applyErrorPolicy).parameter(1).toEqualTypeOf<ErrorPolicy | undefined>();
    expect(applyErrorPolicy(v1, policy)).toBe(v1);
    expect(applyErrorPolicy(v2, policy)).toBe(v2);
  });

  it('accepts the low-level Server of SDK v1 and v2 without a cast and returns the same type', () => {
    const v1 = new ServerV1({ name: 'low', version: '1.0.0' });
    const v2 = new ServerV2({ name: 'low', version: '1.0.0' });
    expectTypeOf(applyErrorPolicy(v1)).toEqualTypeOf<ServerV1>();
    expectTypeOf(applyErrorPolicy(v2, createErrorPolicy())).toEqualTypeOf<ServerV2>();
    expectTypeOf<ServerV1>().toMatchTypeOf<LowLevelServerLike>();
    expectTypeOf<ServerV2>().toMatchTypeOf<LowLevelServerLike>();
  });

  it('refuses a plain object and a non-policy at compile time (and at run time)', () => {
    // @ts-expect-error a plain object is not an McpServer
    expect(() => applyErrorPolicy({ server: {} })).toThrow(TypeError);
    const v1 = new McpServerV1({ name: 'v1', version: '1.0.0' });
    // @ts-expect-error options are not a policy: make one with createErrorPolicy
    expect(() => applyErrorPolicy(v1, { onOutcome: () => undefined })).toThrow(TypeError);
  });
});

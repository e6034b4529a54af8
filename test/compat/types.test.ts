/**
 * Types: each wrapper returns its handler's own type, so that
 * `server.registerTool(name, config, withClientVisibleErrors(cb, { name }))` (and the resource and prompt twins)
 * type-checks on `@modelcontextprotocol/sdk` 1.x and `@modelcontextprotocol/server` 2.x, with the arguments still
 * inferred from the schema. Checked by `npx tsc --noEmit -p tsconfig.json`; the registrations also run.
 */
import { McpServer as McpServerV1, ResourceTemplate as ResourceTemplateV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult as CallToolResultV1 } from '@modelcontextprotocol/sdk/types.js';
import { McpServer as McpServerV2, ResourceTemplate as ResourceTemplateV2 } from '@modelcontextprotocol/server';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  applyErrorPolicy,
  createErrorPolicy,
  ToolError,
  withClientVisibleErrors,
  withClientVisiblePromptErrors,
  withClientVisibleResourceErrors,
} from '../../src/index.js';

const policy = createErrorPolicy({ logger: () => undefined });

describe('wrapper types on SDK v1', () => {
  it('registerTool / registerResource / registerPrompt accept the wrapped callbacks; arguments stay inferred', () => {
    const server = new McpServerV1({ name: 'types-v1', version: '1.0.0' });
    const tool = server.registerTool(
      'get_sheet',
      { inputSchema: { name: z.string(), rows: z.number().optional() } },
      withClientVisibleErrors(
        async ({ name, rows }) => {
          expectTypeOf(name).toEqualTypeOf<string>();
          expectTypeOf(rows).toEqualTypeOf<number | undefined>();
          if (name === '') throw new ToolError('Sheet name must not be empty');
          return { content: [{ type: 'text' as const, text: name }] };
        },
        { name: 'get_sheet', policy },
      ),
    );
    server.registerTool('ping', {}, withClientVisibleErrors(async () => ({ content: [] }), { name: 'ping' }));
    server.registerTool(
      'typed',
      { inputSchema: { rows: z.number() } },
      withClientVisibleErrors(async ({ rows }) => {
        // @ts-expect-error the schema says rows is a number: the wrapper keeps the inferred type
        const text: string = rows;
        return { content: [{ type: 'text' as const, text }] };
      }),
    );
    server.registerResource(
      'sheet',
      new ResourceTemplateV1('sheet://{name}', { list: undefined }),
      {},
      withClientVisibleResourceErrors(async (uri, variables) => {
        expectTypeOf(uri).toEqualTypeOf<URL>();
        return { contents: [{ uri: uri.href, text: String(variables['name']) }] };
      }),
    );
    server.registerResource('readme', 'sheet://readme', {}, withClientVisibleResourceErrors(async (uri) => ({ contents: [{ uri: uri.href, text: 'hi' }] }), { policy }));
    server.registerPrompt(
      'summarize',
      { argsSchema: { sheet: z.string() } },
      withClientVisiblePromptErrors(
        async ({ sheet }) => {
          expectTypeOf(sheet).toEqualTypeOf<string>();
          return { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: sheet } }] };
        },
        { name: 'summarize' },
      ),
    );
    expect(tool.enabled).toBe(true);
  });

  it('a wrapper returns exactly the type it was given', () => {
    const handler = async (args: { name: string }): Promise<CallToolResultV1> => ({ content: [{ type: 'text', text: args.name }] });
    expectTypeOf(withClientVisibleErrors(handler)).toEqualTypeOf(handler);
    expectTypeOf(withClientVisibleErrors(handler, { name: 'x', policy })).toEqualTypeOf<(args: { name: string }) => Promise<CallToolResultV1>>();
    const read = (uri: URL): { contents: { uri: string; text: string }[] } => ({ contents: [{ uri: uri.href, text: '' }] });
    expectTypeOf(withClientVisibleResourceErrors(read)).toEqualTypeOf(read);
    expectTypeOf(applyErrorPolicy(new McpServerV1({ name: 'x', version: '1' }), policy)).toEqualTypeOf<McpServerV1>();
    // @ts-expect-error a wrapper takes a function, not a result
    expect(() => withClientVisibleErrors({ content: [] })).toThrow(TypeError);
  });
});

describe('wrapper types on SDK v2', () => {
  it('registerTool / registerResource / registerPrompt accept the wrapped callbacks; arguments stay inferred', () => {
    const server = new McpServerV2({ name: 'types-v2', version: '1.0.0' });
    server.registerTool(
      'get_sheet',
      { inputSchema: z.object({ name: z.string(), rows: z.number().optional() }) },
      withClientVisibleErrors(
        async ({ name, rows }) => {
          expectTypeOf(name).toEqualTypeOf<string>();
          expectTypeOf(rows).toEqualTypeOf<number | undefined>();
          if (name === '') throw new ToolError('Sheet name must not be empty');
          return { content: [{ type: 'text' as const, text: name }] };
        },
        { name: 'get_sheet', policy },
      ),
    );
    server.registerTool('ping', {}, withClientVisibleErrors(async () => ({ content: [] }), { name: 'ping' }));
    server.registerResource(
      'sheet',
      new ResourceTemplateV2('sheet://{name}', { list: undefined }),
      {},
      withClientVisibleResourceErrors(async (uri, variables) => {
        expectTypeOf(uri).toEqualTypeOf<URL>();
        return { contents: [{ uri: uri.href, text: String(variables['name']) }] };
      }),
    );
    server.registerResource('readme', 'sheet://readme', {}, withClientVisibleResourceErrors(async (uri) => ({ contents: [{ uri: uri.href, text: 'hi' }] }), { policy }));
    server.registerPrompt(
      'summarize',
      { argsSchema: z.object({ sheet: z.string() }) },
      withClientVisiblePromptErrors(
        async ({ sheet }) => {
          expectTypeOf(sheet).toEqualTypeOf<string>();
          return { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: sheet } }] };
        },
        { name: 'summarize' },
      ),
    );
    expectTypeOf(applyErrorPolicy(server, policy)).toEqualTypeOf<McpServerV2>();
  });
});

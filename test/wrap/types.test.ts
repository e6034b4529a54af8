/**
 * Types of a handler wrapped on its own, outside `registerTool(name, config, …)` and its resource and prompt twins: no
 * schema gives its arguments their types there. Annotated, they keep theirs; unannotated, reading one fails to compile
 * at once with a message that says how to type it (the argument's type is
 * `Annotate_the_handler_arguments__e_g__async_args_id_string`), never `never` silently. Checked by
 * `tsc --noEmit` (this file is in the project); the handlers wrapped here also run through real servers and clients.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryTransportV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServerV1, ResourceTemplate as ResourceTemplateV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { InMemoryTransport as InMemoryTransportV2, McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  createErrorPolicy,
  ToolError,
  withClientVisibleErrors,
  withClientVisiblePromptErrors,
  withClientVisibleResourceErrors,
  type Annotate_the_handler_arguments__e_g__async_args_id_string as Unannotated,
} from '../../src/index.js';
import { link } from '../support/link.js';

const policy = createErrorPolicy({ logger: () => undefined });

// Wrapped on their own, annotated: the types are the annotations.
const getSheet = withClientVisibleErrors(
  async ({ id }: { id: string }) => {
    if (id === '') throw new ToolError('Sheet id must not be empty');
    return { content: [{ type: 'text' as const, text: `sheet ${id}` }] };
  },
  { name: 'get_sheet', policy },
);
const readSheet = withClientVisibleResourceErrors(async (uri: URL) => ({ contents: [{ uri: uri.href, text: `read ${uri.href}` }] }), { policy });
const summarize = withClientVisiblePromptErrors(
  async ({ sheet }: { sheet: string }) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `summarize ${sheet}` } }] }),
  { name: 'summarize', policy },
);

/** What the SDK v1 and v2 clients have in common for these calls. */
interface SdkClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  getPrompt(params: { name: string; arguments: Record<string, string> }): Promise<unknown>;
}

/** The wrapped tool's success and its ToolError, and the wrapped prompt, as the client receives them. */
async function expectToolAndPromptAnswers(client: SdkClient): Promise<void> {
  expect(await client.callTool({ name: 'get_sheet', arguments: { id: 'a1' } })).toEqual({ content: [{ type: 'text', text: 'sheet a1' }] });
  expect(await client.callTool({ name: 'get_sheet', arguments: { id: '' } })).toMatchObject({
    isError: true,
    content: [{ type: 'text', text: 'Error executing tool get_sheet: Sheet id must not be empty' }],
  });
  expect(await client.getPrompt({ name: 'summarize', arguments: { sheet: 'q3' } })).toEqual({
    messages: [{ role: 'user', content: { type: 'text', text: 'summarize q3' } }],
  });
}

describe('a handler wrapped on its own', () => {
  it('keeps its annotated parameter and return types', () => {
    expectTypeOf(getSheet).parameter(0).toEqualTypeOf<{ id: string }>();
    expectTypeOf(readSheet).parameter(0).toEqualTypeOf<URL>();
    expectTypeOf(summarize).parameter(0).toEqualTypeOf<{ sheet: string }>();
    withClientVisibleErrors(async ({ id }: { id: string }) => {
      // @ts-expect-error id is a string, as annotated: not `never`, which a number would be assignable to
      const n: number = id;
      return { content: [{ type: 'text' as const, text: String(n) }] };
    });
    withClientVisibleResourceErrors(async (uri: URL, variables: Record<string, string | string[]>) => {
      expectTypeOf(variables).toEqualTypeOf<Record<string, string | string[]>>();
      return { contents: [{ uri: uri.href, text: '' }] };
    });
  });

  it('fails at once when its arguments have no annotation, with a message that says how to type them', () => {
    withClientVisibleErrors(async (args) => {
      expectTypeOf(args).toEqualTypeOf<Unannotated>();
      expectTypeOf(args).not.toBeNever();
      // @ts-expect-error Property 'id' does not exist on type 'Annotate_the_handler_arguments__e_g__async_args_id_string'
      const { id } = args;
      // @ts-expect-error the error type is not a number either (with `never`, this compiled)
      const n: number = args;
      return { content: [{ type: 'text' as const, text: String(id) + String(n) }] };
    });
    // @ts-expect-error Property 'id' does not exist on type 'Annotate_the_handler_arguments__e_g__async_args_id_string'
    withClientVisibleErrors(async ({ id }) => ({ content: [{ type: 'text' as const, text: String(id) }] }));
    // @ts-expect-error Property 'href' does not exist on type 'Annotate_the_handler_arguments__e_g__async_args_id_string'
    withClientVisibleResourceErrors(async (uri) => ({ contents: [{ uri: uri.href, text: '' }] }));
    // @ts-expect-error Property 'sheet' does not exist on type 'Annotate_the_handler_arguments__e_g__async_args_id_string'
    withClientVisiblePromptErrors(async ({ sheet }) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text: String(sheet) } }] }));
    // an annotated first argument leaves an unannotated second one (the SDK's extra) to the same message
    withClientVisibleErrors(async (_args: { id: string }, extra) => {
      // @ts-expect-error Property 'signal' does not exist on type 'Annotate_the_handler_arguments__e_g__async_args_id_string'
      const aborted: boolean = extra.signal.aborted;
      return { content: [{ type: 'text' as const, text: String(aborted) }] };
    });
  });

  it('registers on SDK v1 as annotated, and answers through the policy', async () => {
    const server = new McpServerV1({ name: 'standalone-v1', version: '1.0.0' });
    server.registerTool('get_sheet', { inputSchema: { id: z.string() } }, getSheet);
    server.registerResource('sheet', new ResourceTemplateV1('sheet://{name}', { list: undefined }), {}, readSheet);
    server.registerPrompt('summarize', { argsSchema: { sheet: z.string() } }, summarize);
    const session = await link(server, new ClientV1({ name: 'c', version: '1.0.0' }), InMemoryTransportV1.createLinkedPair());
    try {
      await expectToolAndPromptAnswers(session.client);
      expect(await session.client.readResource({ uri: 'sheet://q3' })).toEqual({ contents: [{ uri: 'sheet://q3', text: 'read sheet://q3' }] });
    } finally {
      await session.close();
    }
  });

  it('registers on SDK v2 as annotated, and answers through the policy', async () => {
    const server = new McpServerV2({ name: 'standalone-v2', version: '1.0.0' });
    server.registerTool('get_sheet', { inputSchema: z.object({ id: z.string() }) }, getSheet);
    server.registerPrompt('summarize', { argsSchema: z.object({ sheet: z.string() }) }, summarize);
    const session = await link(server, new ClientV2({ name: 'c', version: '1.0.0' }), InMemoryTransportV2.createLinkedPair());
    try {
      await expectToolAndPromptAnswers(session.client);
    } finally {
      await session.close();
    }
  });
});

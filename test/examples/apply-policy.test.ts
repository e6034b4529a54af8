import { describe, expect, it } from 'vitest';
import { failureData, failureObject, toolFailure } from '../support/failure.js';
import { correlationIdOf } from '../support/calls.js';
import { exampleForThisFile } from '../support/stdio.js';

const example = exampleForThisFile('examples/apply-policy.ts');

describe('examples/apply-policy.ts over stdio', () => {
  it('covers tools, resources and prompts registered after the call, with one record and one access line each', async () => {
    expect(await example.client.callTool({ name: 'take', arguments: { item: 'apple', count: 1 } })).toEqual({ content: [{ type: 'text', text: '2 apple left' }] });
    const took = await example.client.callTool({ name: 'take', arguments: { item: 'apple', count: 9 } });
    expect(took).toEqual(toolFailure('Error executing tool take: Only 2 apple left', failureObject('tool_error', false)));
    const pear = await example.client.readResource({ uri: 'stock://pear' }).catch((error: unknown) => error);
    expect(pear).toMatchObject({
      code: -32002,
      message: 'MCP error -32002: No item named pear',
      data: failureData(failureObject('resource_not_found', false), 'stock://pear'),
    });
    const prompt = await example.client.getPrompt({ name: 'restock', arguments: { item: 'apple' } }).catch((error: unknown) => error as { code: number; message: string });
    const reference = /^MCP error -32603: Error getting prompt restock \(reference ([0-9a-f]{12})\)$/.exec((prompt as { message: string }).message)?.[1];
    expect(reference, (prompt as { message: string }).message).toBeDefined();
    expect((prompt as { data?: unknown }).data).toEqual(failureData(failureObject('internal', false, { correlationId: reference })));
    await example.waitForStderr((all) => (all.match(/^access /gm) ?? []).length >= 4);
    const lines = example.stderr().split('\n').filter((line) => line !== '' && !line.startsWith('    at '));
    expect(lines.map((line) => line.replace(/ [0-9.]+ms$/, ' <ms>'))).toEqual([
      'access tool "take" 200 <ms>',
      `[mcp-error-policy] INFO tool "take" failed: ToolError "Only 2 apple left" (correlation ${correlationIdOf(took)})`,
      'access tool "take" 500 <ms>',
      `[mcp-error-policy] INFO resource "stock://pear" failed: ResourceNotFoundError "No item named pear" (correlation ${correlationIdOf(pear)})`,
      'access resource "stock://pear" 404 <ms>',
      `[mcp-error-policy] ERROR prompt "restock" crashed (reference ${reference}): TypeError "Cannot read properties of undefined (reading 'name')"`,
      'access prompt "restock" 500 <ms>',
    ]);
  });
});

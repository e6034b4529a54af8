import { describe, expect, it } from 'vitest';
import { failureObject, toolFailure } from '../support/failure.js';
import { correlationIdOf } from '../support/calls.js';
import { exampleForThisFile } from '../support/stdio.js';

const example = exampleForThisFile('examples/low-level.ts');

describe('examples/low-level.ts over stdio', () => {
  it('answers, shows a ToolError, masks a crash and lets a protocol error through, each named after the tool called', async () => {
    expect(await example.client.callTool({ name: 'divide', arguments: { a: 6, b: 3 } })).toEqual({ content: [{ type: 'text', text: '2' }] });
    const divided = await example.client.callTool({ name: 'divide', arguments: { a: 1, b: 0 } });
    expect(divided).toEqual(toolFailure('Error executing tool divide: Cannot divide by zero', failureObject('tool_error', false)));
    const crash = await example.client.callTool({ name: 'explain', arguments: { code: 'E42' } });
    const text = (crash as { content: { text: string }[] }).content[0]!.text;
    const reference = /^Error executing tool explain \(reference ([0-9a-f]{12})\)$/.exec(text)?.[1];
    expect(reference, text).toBeDefined();
    expect(crash).toEqual(toolFailure(text, failureObject('internal', false, { correlationId: reference })));
    await expect(example.client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow('MCP error -32602: Tool nope not found');
    await example.waitForStderr((all) => all.includes('tool "nope"'));
    const records = example.stderr().split('\n').filter((line) => line.startsWith('[mcp-error-policy]'));
    expect(records).toEqual([
      `[mcp-error-policy] INFO tool "divide" failed: ToolError "Cannot divide by zero" (correlation ${correlationIdOf(divided)})`,
      `[mcp-error-policy] ERROR tool "explain" crashed (reference ${reference}): TypeError "Cannot read properties of undefined (reading 'text')"`,
      '[mcp-error-policy] INFO tool "nope" failed with protocol error -32602: McpError "MCP error -32602: Tool nope not found"',
    ]);
  });
});

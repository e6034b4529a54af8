import { describe, expect, it } from 'vitest';
import { failureObject, toolFailure } from '../support/failure.js';
import { correlationIdOf } from '../support/calls.js';
import { exampleForThisFile } from '../support/stdio.js';

const example = exampleForThisFile('examples/quickstart.ts');

describe('examples/quickstart.ts over stdio', () => {
  it('answers a good call', async () => {
    expect(await example.client.callTool({ name: 'get_sheet', arguments: { name: 'Budget' } })).toEqual({ content: [{ type: 'text', text: 'A1: 42' }] });
  });

  it('shows a ToolError and logs one info line to stderr', async () => {
    const before = example.stderr().length;
    const result = await example.client.callTool({ name: 'get_sheet', arguments: { name: '' } });
    expect(result).toEqual(toolFailure('Error executing tool get_sheet: Sheet name must not be empty', failureObject('tool_error', false)));
    await example.waitForStderr((text) => text.slice(before).includes('\n'));
    // the line ends with the correlation id the client received, so that the id a client reports finds it
    expect(example.stderr().slice(before)).toBe(
      `[mcp-error-policy] INFO tool "get_sheet" failed: ToolError "Sheet name must not be empty" (correlation ${correlationIdOf(result)})\n`,
    );
  });

  it('masks a crash with a reference that is in the stderr record, with its stack', async () => {
    const before = example.stderr().length;
    const result = await example.client.callTool({ name: 'get_sheet', arguments: { name: 'Missing' } });
    const text = (result as { content: { text: string }[] }).content[0]!.text;
    const reference = /^Error executing tool get_sheet \(reference ([0-9a-f]{12})\)$/.exec(text)?.[1];
    expect(reference, text).toBeDefined();
    expect(result).toEqual(toolFailure(text, failureObject('internal', false, { correlationId: reference })));
    expect(text).not.toContain('toUpperCase');
    await example.waitForStderr((all) => all.slice(before).includes('\n    at '));
    const lines = example.stderr().slice(before).trimEnd().split('\n');
    expect(lines[0]).toBe(
      `[mcp-error-policy] ERROR tool "get_sheet" crashed (reference ${reference}): TypeError "Cannot read properties of undefined (reading 'toUpperCase')"`,
    );
    expect(lines.slice(1).every((line) => line.startsWith('    at '))).toBe(true);
    // a crash's line names its reference, which is its correlation id: no correlation suffix
    expect(example.stderr().slice(before)).not.toContain('(correlation ');
    expect(example.stderr().split('reference ' + reference!).length - 1).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { failureObject, toolFailure } from '../support/failure.js';
import { correlationIdOf } from '../support/calls.js';
import { exampleForThisFile } from '../support/stdio.js';

const example = exampleForThisFile('examples/sdk-v2.ts');

describe('examples/sdk-v2.ts over stdio (SDK v2 server, SDK v1 client)', () => {
  it('shows a ToolError, masks a crash, answers a missing resource, and logs each once', async () => {
    const exists = await example.client.callTool({ name: 'add_note', arguments: { id: 'welcome', text: 'x' } });
    expect(exists).toEqual(toolFailure('Error executing tool add_note: A note named welcome exists already', failureObject('tool_error', false)));
    const crash = await example.client.callTool({ name: 'add_note', arguments: { id: 'new', text: 'crash' } });
    const text = (crash as { content: { text: string }[] }).content[0]!.text;
    const reference = /^Error executing tool add_note \(reference ([0-9a-f]{12})\)$/.exec(text)?.[1];
    expect(reference, text).toBeDefined();
    expect(crash).toEqual(toolFailure(text, failureObject('internal', false, { correlationId: reference })));
    // v2 sends the -32002 as -32602, with the data as it is
    const nope = await example.client.readResource({ uri: 'note://nope' }).catch((error: unknown) => error);
    expect(nope).toMatchObject({
      code: -32602,
      message: 'MCP error -32602: No note named nope',
      // exactly { uri }: what SDK v2's client raises as ResourceNotFoundError (no failure object beside it)
      data: { uri: 'note://nope' },
    });
    expect(await example.client.readResource({ uri: 'note://welcome' })).toEqual({ contents: [{ uri: 'note://welcome', text: 'Hello from SDK v2' }] });
    await example.waitForStderr((all) => all.includes('resource "note://nope"'));
    const lines = example.stderr().split('\n').filter((line) => line.startsWith('[mcp-error-policy]'));
    expect(lines.slice(0, 2)).toEqual([
      `[mcp-error-policy] INFO tool "add_note" failed: ToolError "A note named welcome exists already" (correlation ${correlationIdOf(exists)})`,
      `[mcp-error-policy] ERROR tool "add_note" crashed (reference ${reference}): Error "index corrupted at /var/lib/notes/idx (CANARY)"`,
    ]);
    // the correlation id is in the record only: the client's data is exactly { uri }
    expect(lines.slice(2)).toEqual([expect.stringMatching(/^\[mcp-error-policy\] INFO resource "note:\/\/nope" failed: ResourceNotFoundError "No note named nope" \(correlation [0-9a-f]{12}\)$/)]);
    expect(example.stderr()).not.toContain('Saved');
  });
});

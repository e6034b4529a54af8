import { describe, expect, it } from 'vitest';
import { failureObjectOf } from '../support/calls.js';
import { failureObject, toolFailure } from '../support/failure.js';
import { exampleForThisFile } from '../support/stdio.js';

const example = exampleForThisFile('examples/pino-logger.ts');

function records(): Record<string, unknown>[] {
  return example.stderr().trim().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('examples/pino-logger.ts over stdio', () => {
  it('writes one pino record per failure and one access-log record per call, on stderr', async () => {
    const deliberate = await example.client.callTool({ name: 'rename_sheet', arguments: { from: 'a', to: 'x'.repeat(40) } });
    expect(deliberate).toEqual(toolFailure('Error executing tool rename_sheet: Sheet names are at most 31 characters', failureObject('tool_error', false)));
    const crash = await example.client.callTool({ name: 'rename_sheet', arguments: { from: 'a', to: 'b' } });
    const reference = /\(reference ([0-9a-f]{12})\)$/.exec((crash as { content: { text: string }[] }).content[0]!.text)?.[1];
    expect(reference).toBeDefined();
    expect(crash).toEqual(toolFailure(`Error executing tool rename_sheet (reference ${reference})`, failureObject('internal', false, { correlationId: reference })));
    await example.waitForStderr(() => records().length >= 4);
    const all = records();
    expect(all.map((r) => [r.level, r.msg])).toEqual([
      [30, 'tool "rename_sheet" failed: ToolError "Sheet names are at most 31 characters"'],
      [30, 'mcp call'],
      [50, `tool "rename_sheet" crashed (reference ${reference}): Error "rename a failed: lock held by worker 7"`],
      [30, 'mcp call'],
    ]);
    // the pino records carry the correlation id of the answer they logged
    expect(all[0]).toMatchObject({ handlerName: 'rename_sheet', kind: 'anticipated', correlationId: failureObjectOf(deliberate)?.['correlationId'] });
    expect(all[1]).toMatchObject({ handler: 'tool', handlerName: 'rename_sheet', status: 500 });
    expect(all[2]).toMatchObject({ name: 'sheets', handlerName: 'rename_sheet', reference, correlationId: reference, kind: 'crash', status: 500 });
    expect(all[3]).toMatchObject({ status: 500 });
  });
});

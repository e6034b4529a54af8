/** The wrappers' options: unknown names throw, like createErrorPolicy's; the global console never writes to stdout. */
import { describe, expect, it, vi } from 'vitest';
import { createErrorPolicy, ToolError, withClientVisibleErrors, withClientVisiblePromptErrors, withClientVisibleResourceErrors } from '../../src/index.js';
import { correlationIdOf, withStderr } from '../support/calls.js';

describe('wrapper options', () => {
  it.each([
    ['withClientVisibleErrors', withClientVisibleErrors],
    ['withClientVisibleResourceErrors', withClientVisibleResourceErrors],
    ['withClientVisiblePromptErrors', withClientVisiblePromptErrors],
  ] as const)('%s throws a TypeError naming a misspelt option', (_name, wrap) => {
    expect(() => wrap(() => undefined, { nmae: 'get_sheet' } as never)).toThrow(new TypeError('Unknown option `nmae`: expected name or policy'));
    expect(() => wrap(() => undefined, { name: 'get_sheet', policy: createErrorPolicy() })).not.toThrow();
  });
});

describe('logger: console', () => {
  it('writes every record, info included, to stderr and nothing to stdout (stdout is the stdio transport)', async () => {
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const policy = createErrorPolicy({ logger: console });
      const { value: result, written } = await withStderr(() => withClientVisibleErrors(() => { throw new ToolError('Sheet name must not be empty'); }, { name: 'get_sheet', policy })());
      expect(stdout).not.toHaveBeenCalled();
      expect(written).toEqual([`[mcp-error-policy] INFO tool "get_sheet" failed: ToolError "Sheet name must not be empty" (correlation ${correlationIdOf(result)})\n`]);
    } finally {
      stdout.mockRestore();
    }
  });
});

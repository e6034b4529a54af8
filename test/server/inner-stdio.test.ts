/**
 * Handlers set on `mcpServer.server` over stdio: a real server subprocess (`node --import tsx`) whose server code sets
 * tools/call on the McpServer's `server` before `applyErrorPolicy`, and a real Client over StdioClientTransport. The
 * answers arrive on stdout; the one log record per failure and the warning about the handler the policy cannot guard
 * arrive on the subprocess's stderr.
 */
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { failureObject, toolFailure } from '../support/failure.js';
import { startExample } from '../support/stdio.js';
import { correlationIdOf, referenceIn, textOf } from '../support/session.js';

const fixture = fileURLToPath(new URL('./fixtures/inner-stdio-server.ts', import.meta.url));
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.c3RkaW8taW5uZXI.Q0FOQVJZLXN0ZGlvLWlubmVy';

it('masks a crash of a tools/call handler set on mcpServer.server, logs it once on stderr, and warns of the custom handler', async () => {
  const { client, closeAndReadStderr } = await startExample(fixture);
  try {
    expect(await client.callTool({ name: 'ok', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'fine' }] });
    const deliberate = await client.callTool({ name: 'deliberate', arguments: {} });
    expect(deliberate).toEqual(toolFailure('Error executing tool deliberate: Sheet name must not be empty', failureObject('tool_error', false)));
    const leaked = await client.callTool({ name: 'leak', arguments: {} });
    const reference = referenceIn(textOf(leaked));
    expect(leaked).toEqual(toolFailure(`Error executing tool leak (reference ${reference})`, failureObject('internal', false, { correlationId: reference })));

    const stderr = await closeAndReadStderr();
    expect(stderr).not.toContain(TOKEN);
    const lines = stderr.split('\n').filter((line) => line !== '');
    const headlines = lines.filter((line) => !line.startsWith('    '));
    expect(headlines).toEqual([
      expect.stringMatching(
        /^\(node:\d+\) \[MCP_ERROR_POLICY_UNGUARDED_HANDLER\] McpErrorPolicyWarning: applyErrorPolicy: the handler of "acme\/reindex" is not under the policy: /,
      ),
      '(Use `node --trace-warnings ...` to show where the warning was created)',
      `[mcp-error-policy] INFO tool "deliberate" failed: ToolError "Sheet name must not be empty" (correlation ${correlationIdOf(deliberate)})`,
      `[mcp-error-policy] ERROR tool "leak" crashed (reference ${reference}): Error "GET https://sheets.example/v1/q3 answered 401 for Authorization: [REDACTED]"`,
    ]);
    // the crash record carries its stack, on the lines right after its headline
    const crashAt = lines.indexOf(headlines[3] ?? '');
    expect(lines[crashAt + 1]).toMatch(/^ {4}at .*inner-stdio-server\.ts:\d+:\d+/);
  } finally {
    await client.close();
  }
}, 30_000);

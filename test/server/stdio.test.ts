/**
 * applyErrorPolicy over stdio: a real server subprocess (`node --import tsx`), a real Client over
 * StdioClientTransport. The client gets the policy's answers on stdout; the log records and the access log are on the
 * subprocess's stderr, which the test reads.
 */
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { crashRpcError, failureData, failureObject, toolFailure } from '../support/failure.js';
import { startExample } from '../support/stdio.js';
import { correlationIdOf, referenceIn, rpcError, textOf } from '../support/session.js';

const fixture = fileURLToPath(new URL('./fixtures/stdio-server.ts', import.meta.url));

it('answers on stdout, logs each failure once on stderr, and writes one access-log line per call', async () => {
  const { client, closeAndReadStderr } = await startExample(fixture);
  try {
    // The failure objects cross stdio as the in-process tests see them. The default logger's lines name a crash's
    // reference (its correlation id), and end any other failure's line with its correlation id.
    const crashResult = await client.callTool({ name: 'crash', arguments: { sheet: 'Q3' } });
    const crash = textOf(crashResult);
    const reference = referenceIn(crash);
    expect(crashResult).toEqual(toolFailure(`Error executing tool crash (reference ${reference})`, failureObject('internal', false, { correlationId: reference })));
    const deliberate = await client.callTool({ name: 'deliberate', arguments: {} });
    expect(deliberate).toEqual(toolFailure('Error executing tool deliberate: Sheet name must not be empty', failureObject('tool_error', false)));
    const later = await client.callTool({ name: 'recalculate', arguments: {} });
    expect(later).toEqual(
      toolFailure('Error executing tool recalculate: The sheet is being recalculated. Retry after 30 s.', failureObject('recalculating', true, { retryAfterMs: 30_000 })),
    );
    // no URL elicitation declared: the sign-in text and URL in the text
    const signIn = await client.callTool({ name: 'acme_files', arguments: {} });
    expect(signIn).toEqual(
      toolFailure('Error executing tool acme_files: The Acme session expired.\n\nSign in to Acme again. https://acme.example/login', failureObject('session-expired', false)),
    );
    // the SDK's own answer: no failure object
    expect(await client.callTool({ name: 'nope', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'MCP error -32602: Tool nope not found' }], isError: true });
    const missing = await rpcError(client.readResource({ uri: 'sheet://x' }));
    expect(missing).toEqual({
      code: -32002,
      message: 'MCP error -32002: No sheet named x',
      data: failureData(failureObject('resource_not_found', false), 'sheet://x'),
    });
    const prompt = await rpcError(client.getPrompt({ name: 'summarize' }));
    const promptReference = referenceIn(prompt.message);
    expect(prompt).toEqual(crashRpcError('MCP error -32603: Error getting prompt summarize', promptReference));

    const stderr = await closeAndReadStderr();
    const lines = stderr.split('\n').filter((line) => line !== '');
    const headlines = lines.filter((line) => !line.startsWith('    '));
    expect(headlines).toEqual([
      `[mcp-error-policy] ERROR tool "crash" crashed (reference ${reference}): Error "CANARY-stdio: cannot open /srv/sheets/Q3.csv"`,
      '[access] {"kind":"tool","name":"crash","status":500}',
      `[mcp-error-policy] INFO tool "deliberate" failed: ToolError "Sheet name must not be empty" (correlation ${correlationIdOf(deliberate)})`,
      '[access] {"kind":"tool","name":"deliberate","status":500}',
      `[mcp-error-policy] INFO tool "recalculate" failed: ToolError "The sheet is being recalculated." (correlation ${correlationIdOf(later)})`,
      '[access] {"kind":"tool","name":"recalculate","status":500}',
      `[mcp-error-policy] WARN tool "acme_files" failed (rule session-expired): SessionExpired "CANARY-stdio: refresh token rt-1 refused" (correlation ${correlationIdOf(signIn)})`,
      '[access] {"kind":"tool","name":"acme_files","status":401}',
      '[access] {"kind":"tool","name":"nope","status":404}',
      `[mcp-error-policy] INFO resource "sheet://x" failed: ResourceNotFoundError "No sheet named x" (correlation ${correlationIdOf(missing)})`,
      '[access] {"kind":"resource","name":"sheet://x","status":404}',
      `[mcp-error-policy] ERROR prompt "summarize" crashed (reference ${promptReference}): TypeError "CANARY-stdio prompt"`,
      '[access] {"kind":"prompt","name":"summarize","status":500}',
    ]);
    // each crash record carries its stack, on the lines right after its headline
    const crashAt = lines.indexOf(headlines[0] ?? '');
    expect(lines[crashAt + 1]).toMatch(/^ {4}at .*stdio-server\.ts:\d+:\d+/);
  } finally {
    await client.close();
  }
}, 30_000);

it('answers a sign-in failure with -32042 and the sign-in URL to a client that declared URL elicitation', async () => {
  const { client, closeAndReadStderr } = await startExample(fixture, {}, { capabilities: { elicitation: { url: {} } } });
  try {
    const error = await rpcError(client.callTool({ name: 'acme_files', arguments: {} }));
    const headlines = (await closeAndReadStderr()).split('\n').filter((line) => line !== '' && !line.startsWith('    '));
    const correlationId = /\(correlation ([0-9a-f]{12})\)$/.exec(headlines[0] ?? '')?.[1];
    expect(correlationId).toBeDefined();
    expect(error).toEqual({
      code: -32042,
      message: 'MCP error -32042: Error executing tool acme_files: The Acme session expired.\n\nSign in to Acme again. https://acme.example/login',
      data: { elicitations: [{ mode: 'url', elicitationId: correlationId, url: 'https://acme.example/login', message: 'Sign in to Acme again.' }] },
    });
    expect(headlines).toEqual([
      `[mcp-error-policy] WARN tool "acme_files" failed (rule session-expired): SessionExpired "CANARY-stdio: refresh token rt-1 refused" (correlation ${correlationId})`,
      '[access] {"kind":"tool","name":"acme_files","status":401}',
    ]);
  } finally {
    await client.close();
  }
}, 30_000);

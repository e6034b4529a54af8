/**
 * A Mastra MCPServer (stdio) under the policy, with the recipe of docs/frameworks.md: Mastra answers any value `execute`
 * returns as a success, except its own validation-error shape (`{ error: true, message, validationErrors }`), which it
 * answers as an isError result with `message` as the text. `withPolicy` returns that shape with the policy's text.
 * Runs from a scratch install on Node 22 (scripts/frameworks.sh: Mastra wants Node >= 22.13).
 */
import { MCPServer } from '@mastra/mcp';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import { createErrorPolicy, toToolResult, ToolError, type LogRecord } from '../../../src/index.js';

// the tests read the records from stderr, one JSON line each
const policy = createErrorPolicy({ logger: (record: LogRecord) => process.stderr.write(`RECORD ${JSON.stringify(record)}\n`) });

/** The recipe: a tool's `execute` whose failures Mastra answers with the policy's text, isError. */
function withPolicy<I, C, O>(name: string, execute: (input: I, context: C) => Promise<O>) {
  return async (input: I, context: C) => {
    try {
      return await execute(input, context);
    } catch (error) {
      const message = toToolResult(error, name, policy).content[0]?.text;
      return { error: true as const, message, validationErrors: {} };
    }
  };
}

const crash = createTool({
  id: 'crash',
  description: 'crashes',
  inputSchema: z.object({}),
  execute: withPolicy('crash', async () => {
    throw new Error('Cannot read /srv/app/secrets/config.json');
  }),
});

const toolError = createTool({
  id: 'tool_error',
  description: 'says no',
  inputSchema: z.object({}),
  execute: withPolicy('tool_error', async () => {
    throw new ToolError('Sheet name must not be empty');
  }),
});

const server = new MCPServer({ id: 'sheets', name: 'sheets', version: '1.0.0', tools: { crash, tool_error: toolError } });
await server.startStdio();

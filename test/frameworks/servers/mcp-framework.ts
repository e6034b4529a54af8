/**
 * An mcp-framework server (stdio) under the policy, with the recipe of docs/frameworks.md: a base class whose
 * `createErrorResponse` (the hook mcp-framework calls with whatever a tool's `execute` threw) answers with
 * `toToolResult`. Runs from a scratch install (scripts/frameworks.sh: mcp-framework wants zod 3).
 */
import { MCPServer, MCPTool } from 'mcp-framework';
import { z } from 'zod';
import { createErrorPolicy, toToolResult, ToolError, type LogRecord } from '../../../src/index.js';

// the tests read the records from stderr, one JSON line each
const policy = createErrorPolicy({ logger: (record: LogRecord) => process.stderr.write(`RECORD ${JSON.stringify(record)}\n`) });

/** The recipe: every tool extends this instead of MCPTool. */
abstract class PolicyTool extends MCPTool {
  protected override createErrorResponse(error: Error) {
    return toToolResult(error, this.name, policy);
  }
}

class Crash extends PolicyTool {
  name = 'crash';
  description = 'crashes';
  schema = z.object({});
  protected async execute(): Promise<unknown> {
    throw new Error('Cannot read /srv/app/secrets/config.json');
  }
}

class Deliberate extends PolicyTool {
  name = 'tool_error';
  description = 'says no';
  schema = z.object({});
  protected async execute(): Promise<unknown> {
    throw new ToolError('Sheet name must not be empty');
  }
}

class Fine extends PolicyTool {
  name = 'ok';
  description = 'works';
  schema = z.object({});
  protected async execute(): Promise<unknown> {
    return 'fine';
  }
}

const server = new MCPServer({ name: 'sheets', version: '1.0.0', transport: { type: 'stdio' } });
server.addTool(Crash);
server.addTool(Deliberate);
server.addTool(Fine);
await server.start();

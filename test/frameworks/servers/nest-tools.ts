/**
 * The tools, resources and prompts the NestJS servers (nest.ts: a pure microservice over stdio; nest-hybrid.ts: an HTTP
 * app with the MCP microservice connected) serve with `@rekog/mcp-nest`, and the policy they register the filter with.
 * Environment: FAKE_HTTP, a local URL that answers 429 (axios); FAKE_GOOGLE, the origin of the suite's fake Google
 * (gaxios); POLICY_MODE=report, the policy in report mode. Each record is written to stderr as a `RECORD <json>` line.
 */
import 'reflect-metadata';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { Ctx, Payload, RpcException } from '@nestjs/microservices';
import { McpController, Prompt, Resource, ResourceTemplate, Tool, type McpContext } from '@rekog/mcp-nest';
import axios from 'axios';
import { request } from 'gaxios';
import { z } from 'zod';
import { coreRules, createErrorPolicy, ResourceNotFoundError, ToolError, type LogRecord } from '../../../src/index.js';
import { googleRules } from '../../../src/google/index.js';

export const policy = createErrorPolicy({
  rules: [...googleRules, ...coreRules],
  mode: process.env['POLICY_MODE'] === 'report' ? 'report' : 'enforce',
  logger: (record: LogRecord) => process.stderr.write(`RECORD ${JSON.stringify(record)}\n`),
});

const sheets: Record<string, { title: string } | undefined> = {};

@McpController()
export class SheetsTools {
  @Tool({ name: 'crash', description: 'a bug' })
  crash() {
    throw new Error('Cannot read /srv/app/secrets/config.json');
  }

  @Tool({ name: 'type_error', description: 'a real TypeError' })
  typeError() {
    return { content: [{ type: 'text', text: sheets['q3']!.title }] };
  }

  @Tool({ name: 'tool_error', description: 'says no' })
  toolError() {
    throw new ToolError('Sheet name must not be empty');
  }

  @Tool({ name: 'rpc_error', description: "Nest's deliberate error" })
  rpcError() {
    throw new RpcException('Sheet Q3 is locked');
  }

  @Tool({ name: 'rpc_object', description: "Nest's deliberate error, an object payload" })
  rpcObject() {
    throw new RpcException({ status: 'error', message: 'Sheet Q3 is archived' });
  }

  @Tool({ name: 'rpc_leak', description: "Nest's deliberate error whose text carries a crash and a token" })
  rpcLeak() {
    throw new RpcException("Cannot read properties of undefined (reading 'id') with token ghp_1234567890abcdefghijklmnopqrstuvwxyzAB");
  }

  @Tool({ name: 'protocol_error', description: "a ProtocolError of the SDK mcp-nest serves with" })
  protocolError() {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Unknown sheet Q3');
  }

  @Tool({ name: 'rate_limited', description: 'axios, 429' })
  async rateLimited() {
    return { content: [{ type: 'text', text: String((await axios.get(process.env['FAKE_HTTP'] ?? '')).data) }] };
  }

  @Tool({ name: 'google', description: 'gaxios, 403' })
  async google() {
    await request({ url: `${process.env['FAKE_GOOGLE'] ?? ''}/v1/forbidden?key=AIzaSyA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tU1v&fields=id` });
    return 'unreachable';
  }

  @Tool({
    name: 'get_sheet',
    description: 'reads a sheet',
    parameters: z.object({ name: z.string() }),
    outputSchema: z.object({ name: z.string(), rows: z.number() }),
  })
  getSheet(@Payload() { name }: { name: string }, @Ctx() context: McpContext) {
    return { name, rows: context.mcpRequest.method === 'tools/call' ? 3 : 0 };
  }

  @Tool({ name: 'ok', description: 'succeeds' })
  ok() {
    return { content: [{ type: 'text', text: 'fine' }] };
  }

  @Resource({ uri: 'file:///logs/today', name: 'today', mimeType: 'text/plain' })
  today() {
    throw new Error('Cannot read /srv/app/secrets/config.json');
  }

  @Resource({ uri: 'file:///readme', name: 'readme', mimeType: 'text/plain' })
  readme() {
    return { contents: [{ uri: 'file:///readme', mimeType: 'text/plain', text: 'Sheets, served by Nest' }] };
  }

  @ResourceTemplate({ uriTemplate: 'file:///days/{day}', name: 'log', mimeType: 'text/plain' })
  log(@Payload() { day }: { day: string }) {
    if (day === 'missing') throw new ResourceNotFoundError(`No log for ${day}`);
    if (day === 'locked') throw new RpcException(`The log for ${day} is locked`);
    if (day === 'refused') throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid day ${day}`);
    throw new Error('Cannot read /srv/app/secrets/config.json');
  }

  @Prompt({ name: 'broken', description: 'crashes' })
  broken() {
    throw new Error('Cannot read /srv/app/secrets/config.json');
  }

  @Prompt({ name: 'refused', description: "Nest's deliberate error" })
  refused() {
    throw new RpcException({ message: 'No summary for Q3 yet' });
  }

  @Prompt({ name: 'summary', description: 'summarizes' })
  summary() {
    return { messages: [{ role: 'user', content: { type: 'text', text: 'Summarize Q3' } }] };
  }
}

// Type-checked by scripts/smoke-packed.sh in a fresh project that installed the packed tarball, copied there as
// consumer.mts and consumer.cts: what a user's TypeScript sees through the package's `import` and `require` conditions
// (`module: nodenext`), and through a bundler (`moduleResolution: bundler`).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ToolError,
  ResourceNotFoundError,
  applyErrorPolicy,
  classifyError,
  coreRules,
  createErrorPolicy,
  withClientVisibleErrors,
  withClientVisibleResourceErrors,
  type Classification,
  type ErrorRule,
  type LogRecord,
} from 'mcp-error-policy';
import { googleRules, isGaxiosError, redactUrl } from 'mcp-error-policy/google';
import { z } from 'zod';

const records: LogRecord[] = [];
const policy = createErrorPolicy({ rules: [...googleRules, ...coreRules], logger: (record) => records.push(record) });
const server = applyErrorPolicy(new McpServer({ name: 'consumer', version: '1.0.0' }), policy);

server.registerTool(
  'get_sheet',
  { inputSchema: { name: z.string() } },
  withClientVisibleErrors(
    async ({ name }) => {
      if (name === '') throw new ToolError('Sheet name must not be empty');
      return { content: [{ type: 'text' as const, text: name.toUpperCase() }] };
    },
    { name: 'get_sheet', policy },
  ),
);
server.registerResource(
  'file',
  'file:///data.txt',
  {},
  withClientVisibleResourceErrors(async (uri: URL) => {
    throw new ResourceNotFoundError(uri.href);
  }),
);

const classification: Classification = classifyError(new Error('boom'), policy);
const text: string = classification.kind === 'anticipated' ? classification.message : classification.kind;
const rule: ErrorRule | undefined = googleRules[0];
const thrown: unknown = new ToolError('x');
const deliberate: string = thrown instanceof ToolError ? thrown.message : '';
const google: boolean = isGaxiosError(thrown);
const url: string = redactUrl('https://x.test/v1?key=AIzaSyFAKE');

// @ts-expect-error an option the policy does not have
createErrorPolicy({ rulez: [] });
// @ts-expect-error a rule needs a predicate
const broken: ErrorRule = { name: 'broken' };

export { text, rule, deliberate, google, url, broken };

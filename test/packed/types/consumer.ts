// Type-checked by scripts/smoke-packed.sh in a fresh project that installed the packed tarball, copied there as
// consumer.mts, consumer.cts and consumer-node10.ts: what a user's TypeScript sees through the package's `import` and
// `require` conditions (`module: nodenext`), through a bundler (`moduleResolution: bundler`), and through the older
// `moduleResolution: node` (node10, `module: commonjs`), which ignores `exports` and finds `mcp-error-policy/google`,
// `mcp-error-policy/http`, `mcp-error-policy/opentelemetry` and `mcp-error-policy/client` through `typesVersions`.
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
import { httpRules, type ErrorRule as HttpErrorRule } from 'mcp-error-policy/http';
import { openTelemetry, type OpenTelemetryOptions, type PolicyTelemetry } from 'mcp-error-policy/opentelemetry';
import { readFailure, retryToolCall, type Failure, type RetryOutcome } from 'mcp-error-policy/client';
import { z } from 'zod';

const records: LogRecord[] = [];
const telemetryOptions: OpenTelemetryOptions = { recordExceptions: false };
const telemetry: PolicyTelemetry = openTelemetry(telemetryOptions);
createErrorPolicy({ telemetry });
const policy = createErrorPolicy({ rules: [...httpRules, ...googleRules, ...coreRules], logger: (record) => records.push(record) });
const githubRules: readonly HttpErrorRule[] = httpRules.filter((candidate) => candidate.name.startsWith('github-'));
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
const quota: ErrorRule | undefined = googleRules.find((candidate) => candidate.name === 'google-quota');

// @ts-expect-error an option the policy does not have
createErrorPolicy({ rulez: [] });
// @ts-expect-error a rule needs a predicate
const broken: ErrorRule = { name: 'broken' };

const failure: Failure | undefined = readFailure(thrown);
const retried: Promise<RetryOutcome<string>> = retryToolCall(async () => 'ok', { maxAttempts: 2, tool: { annotations: { readOnlyHint: true } } });
// @ts-expect-error an attempt count is a number
void retryToolCall(async () => 'ok', { maxAttempts: '2' });

export { text, rule, deliberate, google, url, quota, broken, githubRules, failure, retried };

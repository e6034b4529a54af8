/**
 * `mcp-error-policy/client`: for agents that call MCP servers under the policy. It reads the wire format only and
 * imports nothing of the server side.
 */
export { readFailure, type Failure, type SignIn } from './read.js';
export { retryToolCall, type RetryOptions, type RetryOutcome, type ToolHints } from './retry.js';

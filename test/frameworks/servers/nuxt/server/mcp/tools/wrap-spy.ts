import { seen } from '../../utils/spy';

const WRAPPED = Symbol.for('mcp-error-policy.wrapped');

// How many MCP requests carried the tool `crash`, with how many distinct handlers, and whether each was the policy's.
export default defineMcpTool({
  name: 'wrap_spy',
  description: 'for the test: the handlers of `crash` seen',
  handler: async () => ({
    requests: seen.length,
    distinct: new Set(seen).size,
    wrapped: seen.every((handler) => typeof handler === 'function' && WRAPPED in handler),
  }),
});

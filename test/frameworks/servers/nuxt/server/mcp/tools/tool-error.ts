import { ToolError } from 'mcp-error-policy';

export default defineMcpTool({
  name: 'tool_error',
  description: 'says no',
  handler: async () => {
    throw new ToolError('Sheet name must not be empty');
  },
});

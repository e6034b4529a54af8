import { ToolError, withClientVisibleErrors } from 'mcp-error-policy';
import { policy } from '../policy';

export const metadata = { name: 'tool_error', description: 'says no' };
export default withClientVisibleErrors(
  async function toolError(): Promise<string> {
    throw new ToolError('Sheet name must not be empty');
  },
  { name: metadata.name, policy },
);

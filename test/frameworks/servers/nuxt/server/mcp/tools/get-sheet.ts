import { z } from 'zod';

// No `name`: the toolkit names it after the file, `get-sheet`.
export default defineMcpTool({
  description: 'reads a sheet',
  inputSchema: { name: z.string() },
  handler: async ({ name }) => ({ name, rows: 3 }),
});

import { z } from 'zod';

export default defineMcpPrompt({
  name: 'greeting',
  description: 'hello',
  inputSchema: { who: z.string() },
  handler: async ({ who }) => `Hello, ${who}`,
});

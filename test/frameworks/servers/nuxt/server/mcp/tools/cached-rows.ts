import { z } from 'zod';

let calls = 0;

// Cached for an hour by sheet: its first call fails, the next succeeds, and later calls get that success from the cache.
export default defineMcpTool({
  name: 'cached_rows',
  description: 'a cached tool whose first call fails',
  inputSchema: { sheet: z.string() },
  cache: '1h',
  handler: async ({ sheet }) => {
    calls += 1;
    if (calls === 1) throw new Error('Cannot read /srv/app/cache/rows.db');
    return `rows of ${sheet} (call ${calls})`;
  },
});

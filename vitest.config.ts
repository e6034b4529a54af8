import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      'mcp-error-policy/google': fileURLToPath(new URL('./src/google/index.ts', import.meta.url)),
      'mcp-error-policy/http': fileURLToPath(new URL('./src/http/index.ts', import.meta.url)),
      'mcp-error-policy/opentelemetry': fileURLToPath(new URL('./src/opentelemetry/index.ts', import.meta.url)),
      'mcp-error-policy/client': fileURLToPath(new URL('./src/client/index.ts', import.meta.url)),
      'mcp-error-policy': fileURLToPath(new URL('./src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});

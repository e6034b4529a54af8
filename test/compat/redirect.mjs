// Node --import hook for subprocesses of the compatibility matrix: when COMPAT_DEPS names a scratch directory (one with
// its own node_modules), imports of the MCP SDKs, OpenTelemetry and zod resolve from there instead of the project's
// node_modules.
// The in-process counterpart is the resolver plugin in test/compat/vitest.config.ts.
import { register } from 'node:module';

if (process.env.COMPAT_DEPS) register('./redirect-hooks.mjs', import.meta.url);

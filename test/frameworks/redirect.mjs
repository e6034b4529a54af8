// Node --import hook for the framework servers of test/frameworks/servers/: when FRAMEWORK_DEPS names a scratch
// directory (its own package.json and node_modules, made by scripts/frameworks.sh), the bare imports of those server
// files resolve from there (the framework, and the zod and SDK versions it wants), not from the project's node_modules.
import { register } from 'node:module';

if (process.env.FRAMEWORK_DEPS) register('./redirect-hooks.mjs', import.meta.url);

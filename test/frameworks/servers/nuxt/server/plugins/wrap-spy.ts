// For the test only: after the policy's listener (plugins run in file-name order), notes the handler each MCP request's
// config holds for the tool `crash`, so that the tool `wrap_spy` can tell how many distinct handlers served how many
// requests (the policy wraps a definition once, not per request).
import { seen } from '../utils/spy';

/** What the toolkit's `mcp:config:resolved` hands its listeners (its type augmentation does not reach tsc here). */
type ConfigResolved = (context: { config: { tools: { name?: string; handler: unknown }[] } }) => void;

export default defineNitroPlugin((nitroApp) => {
  const hook = nitroApp.hooks.hook as unknown as (name: string, listener: ConfigResolved) => void;
  hook.call(nitroApp.hooks, 'mcp:config:resolved', ({ config }) => {
    const crash = config.tools.find((tool) => tool.name === 'crash');
    if (crash !== undefined) seen.push(crash.handler);
  });
});

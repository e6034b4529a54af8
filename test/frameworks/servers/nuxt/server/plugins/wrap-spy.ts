// For the test only: after the policy's listener (plugins run in file-name order), notes the handler each MCP request's
// config holds for the tool `crash`, so that the tool `wrap_spy` can tell how many distinct handlers served how many
// requests (the policy wraps a definition once, not per request).
import { seen } from '../utils/spy';

export default defineNitroPlugin((nitroApp) => {
  nitroApp.hooks.hook('mcp:config:resolved', ({ config }) => {
    const crash = config.tools.find((tool) => tool.name === 'crash');
    if (crash !== undefined) seen.push(crash.handler);
  });
});

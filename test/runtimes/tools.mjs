// The failures every runtime must answer as Node does: a crash, a ToolError, a closed port, an unknown host and a
// missing resource, registered by check.mjs (Node, Bun, Deno) and worker.mjs (workerd). Imports nothing, so that a
// Worker bundles it as it is; the caller passes the entry's error classes.

/** Text in the crash that must never reach a client (dev mode off). */
export const CANARY = 'CANARY crash reading /srv/app/secret.json';

/** Registers the scenarios' tools and resource on `server` (an McpServer under applyErrorPolicy). */
export function registerScenarios(server, { ToolError, ResourceNotFoundError }, urls) {
  const fetchText = (url) => async () => ({ content: [{ type: 'text', text: await (await fetch(url)).text() }] });
  server.registerTool('crash', {}, async () => {
    throw new Error(CANARY);
  });
  server.registerTool('deliberate', {}, async () => {
    throw new ToolError('Sheet name must not be empty');
  });
  server.registerTool('refused', {}, fetchText(urls.refused));
  server.registerTool('dns', {}, fetchText(urls.dns));
  server.registerResource('item', 'stock://nope', {}, async () => {
    throw new ResourceNotFoundError('No item named nope');
  });
}

/** The `crash` tool's handler in each MCP request's config, in order (server/plugins/wrap-spy.ts). */
export const seen: unknown[] = [];

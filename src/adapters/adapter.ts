/**
 * One interface for every server shape `applyErrorPolicy` takes (McpServer of SDK v1 and v2, the low-level `Server`,
 * frameworks). Each shape is one adapter in its own file under src/adapters/, and only that file reads the shape's
 * private fields. `applyErrorPolicy` (src/server.ts) checks the policy, keeps one policy per server (a second apply with
 * the same policy does nothing), then hands the server to the first adapter in its list that accepts it.
 */
import type { ErrorPolicy } from '../policy.js';

/**
 * The oldest `@modelcontextprotocol/sdk` whose `McpServer` `applyErrorPolicy` takes: the first with `registerResource`
 * and `registerPrompt`. Older ones are refused by the types (`McpServer_requires_sdk_1_13_or_later__…` in
 * src/server.ts) and at run time alike. (1.13.0 and 1.13.1 refuse a failing tool's isError result when it declares an
 * `outputSchema`; ./mcp-server.ts answers such a refusal with the policy's answer.)
 */
export const MCP_SERVER_FLOOR = '1.13.0';

/** A server shape the policy can be applied to. */
export interface ServerAdapter {
  /** The shape, for messages: `McpServer`, `low-level Server`, `FastMCP`. */
  readonly name: string;
  /** Whether `value` is a server of this shape (read structurally: no SDK or framework is imported). It must not throw. */
  accepts(value: unknown): boolean;
  /**
   * Puts every handler of `server` (one `accepts` took) under `policy` (resolved: never undefined), now and whenever
   * the server is given one later. Called at most once per server. Throws an `Error` naming what it does not know
   * about the server's layout, before changing anything.
   */
  apply(server: object, policy: ErrorPolicy): void;
  /**
   * The objects besides `server` that `apply` puts under the policy, which must not get another one (the low-level
   * `Server` an `McpServer` holds). Default: none.
   */
  covers?(server: object): readonly object[];
}

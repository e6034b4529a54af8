/**
 * mcp-error-policy/nestjs: the policy for NestJS servers built with `@rekog/mcp-nest` (2.x), as an exception filter
 * registered the way Nest registers any filter: `app.useGlobalFilters(new McpErrorPolicyFilter(policy))`. Nothing of
 * Nest, rxjs or mcp-nest is imported; the core is, by the package's own name.
 *
 * @packageDocumentation
 */
export { McpErrorPolicyFilter } from './filter.js';
export type { NestArgumentsHostLike } from './filter.js';

/**
 * mcp-error-policy: one error policy for MCP servers. Which handler failures the client may see with their text,
 * which are masked with a reference id, and one log record per failure.
 */
export { ToolError, ResourceError, ResourceNotFoundError, isToolError, isResourceError, isResourceNotFoundError, isDeliberateError } from './errors.js';
export type { DeliberateErrorOptions } from './errors.js';
export { createErrorPolicy, defaultPolicy, isErrorPolicy, DEFAULT_MAX_MESSAGE_LENGTH } from './policy.js';
export type { ErrorPolicy, ErrorPolicyOptions, Outcome } from './policy.js';
export { classifyError, MAX_CHAIN_NODES } from './classify.js';
export type { Classification, AnticipatedClassification, CrashClassification, ProtocolClassification } from './classify.js';
export { isProtocolError } from './protocol.js';
export type { ErrorRule, AnticipatedLevel } from './rules/rule.js';
export { coreRules } from './rules/index.js';
export { networkErrorRule, isNetworkError, networkErrorMessage } from './rules/network.js';
export { timeoutRule, abortRule, isTimeoutError, isAbortError } from './rules/timeout.js';
export { fileSystemRule, createFileSystemRule, isFileSystemError } from './rules/file-system.js';
export type { FileSystemRuleOptions } from './rules/file-system.js';
export { zodErrorRule, isZodError, zodErrorMessage } from './rules/zod.js';
export { scrubSecrets } from './scrub.js';
export { REDACTED } from './text.js';
export type { LogRecord, LogLevel, LogFunction, LevelLogger, PolicyLogger, HandlerKind, FailureKind } from './log.js';
export { withClientVisibleErrors, toToolResult } from './wrap/tool.js';
export type { ToolErrorResult } from './wrap/tool.js';
export { withClientVisibleResourceErrors } from './wrap/resource.js';
export { withClientVisiblePromptErrors } from './wrap/prompt.js';
export type { WrapOptions } from './wrap/options.js';
export { applyErrorPolicy } from './server.js';
export type { McpServerLike } from './server.js';

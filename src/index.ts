/**
 * mcp-error-policy: one error policy for MCP servers. Which handler failures the client may see with their text,
 * which are masked with a reference id, and one log record per failure.
 *
 * @packageDocumentation
 */
export { createErrorPolicy, defaultPolicy } from './policy.js';
export type { CallAuthInfo, ErrorPolicy, ErrorPolicyOptions, Reauthorization, Reauthorize, ReauthorizeCall } from './policy.js';
export type { FailureInfo } from './failure.js';
export type {
  PolicyTelemetry,
  TelemetryCall,
  TelemetryCallHandle,
  TelemetryException,
  TelemetryFailure,
  TelemetryMethod,
  TelemetryResult,
} from './policy-telemetry.js';
export type { Outcome } from './policy.js';
export { classifyError } from './classify.js';
export type { Classification, AnticipatedClassification, CrashClassification, ProtocolClassification } from './classification.js';
export { withClientVisibleErrors, toToolResult } from './wrap/tool.js';
export type { ToolErrorResult } from './wrap/tool.js';
export { withClientVisibleResourceErrors } from './wrap/resource.js';
export { withClientVisiblePromptErrors } from './wrap/prompt.js';
export type { Annotate_the_handler_arguments__e_g__async_args_id_string, WrapOptions, WrappableHandler } from './wrap/options.js';
export { applyErrorPolicy } from './server.js';
export type { LowLevelServerLike, McpServerLike, McpServer_requires_sdk_1_13_or_later__wrap_handlers_with_withClientVisibleErrors } from './server.js';
export type { FastMcpLike } from './adapters/fastmcp.js';
export type { TmcpServerLike } from './adapters/tmcp.js';
export type { McpUseServerLike } from './adapters/mcp-use.js';
export type { NitroAppLike } from './adapters/nitro.js';
export { ToolError, ResourceError, ResourceNotFoundError } from './errors.js';
export type { DeliberateErrorOptions } from './errors.js';
export { coreRules } from './rules/index.js';
export { zodErrorRule } from './rules/zod.js';
export { ownErrorRule } from './rules/own-error.js';
export type { OwnErrorRuleOptions } from './rules/own-error.js';
export type { ErrorRule, AnticipatedLevel, FailedCall, FailedRequest, FailureFacts } from './rules/rule.js';
export { scrubSecrets } from './scrub.js';
export type { LogRecord, LogLevel, LogFunction, LevelLogger, PolicyLogger, HandlerKind, FailureKind } from './log.js';

/**
 * mcp-error-policy/opentelemetry: the policy's telemetry with `@opentelemetry/api` (an optional peer dependency), after
 * the OpenTelemetry semantic conventions for MCP. One option turns it on:
 * `createErrorPolicy({ telemetry: openTelemetry() })`.
 *
 * @packageDocumentation
 */
export { openTelemetry } from './telemetry.js';
export type { OpenTelemetryOptions } from './telemetry.js';
export type {
  PolicyTelemetry,
  TelemetryCall,
  TelemetryCallHandle,
  TelemetryException,
  TelemetryFailure,
  TelemetryMethod,
  TelemetryResult,
} from '../policy-telemetry.js';

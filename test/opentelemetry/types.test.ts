/**
 * Types of the opentelemetry entry: `openTelemetry()` returns what the policy's `telemetry` option takes, its options
 * take the OpenTelemetry API's provider types (and the SDK's providers as they are), and wrong options do not compile.
 */
import type { MeterProvider as ApiMeterProvider, TracerProvider as ApiTracerProvider } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createErrorPolicy, type ErrorPolicyOptions, type PolicyTelemetry as CorePolicyTelemetry } from '../../src/index.js';
import { openTelemetry, type OpenTelemetryOptions, type PolicyTelemetry, type TelemetryCall, type TelemetryResult } from '../../src/opentelemetry/index.js';
import { traceSdk } from './support.js';

describe('opentelemetry entry types', () => {
  it('openTelemetry() fits the telemetry option; its options take the API and SDK providers', () => {
    expectTypeOf(openTelemetry).returns.toEqualTypeOf<PolicyTelemetry>();
    expectTypeOf<PolicyTelemetry>().toEqualTypeOf<CorePolicyTelemetry>();
    expectTypeOf<ErrorPolicyOptions['telemetry']>().toEqualTypeOf<CorePolicyTelemetry | undefined>();
    expectTypeOf(openTelemetry).parameter(0).toEqualTypeOf<OpenTelemetryOptions | undefined>();
    expectTypeOf<OpenTelemetryOptions['tracerProvider']>().toEqualTypeOf<ApiTracerProvider | undefined>();
    expectTypeOf<OpenTelemetryOptions['meterProvider']>().toEqualTypeOf<ApiMeterProvider | undefined>();
    expectTypeOf<TelemetryCall['method']>().toEqualTypeOf<'tools/call' | 'resources/read' | 'prompts/get'>();
    expectTypeOf<TelemetryResult['errorType']>().toEqualTypeOf<string | undefined>();
    const telemetry = openTelemetry({ tracerProvider: traceSdk.tracerProvider(), meterProvider: new MeterProvider(), recordExceptions: false });
    expect(createErrorPolicy({ telemetry }).telemetry).toBe(telemetry);
  });

  it('refuses wrong options at compile time (and at run time)', () => {
    // @ts-expect-error recordExceptions is a boolean
    expect(() => openTelemetry({ recordExceptions: 'no' })).toThrow(TypeError);
    // @ts-expect-error no such option
    expect(() => openTelemetry({ sampler: {} })).toThrow(TypeError);
    // @ts-expect-error a tracer provider has getTracer
    expect(() => openTelemetry({ tracerProvider: {} })).toThrow(TypeError);
    // @ts-expect-error telemetry is not a string
    expect(() => createErrorPolicy({ telemetry: 'otel' })).toThrow(TypeError);
  });

  it('a hand-written telemetry implements the interface', () => {
    const mine: CorePolicyTelemetry = { start: () => ({ run: (fn) => fn(), end: () => undefined }) };
    expect(createErrorPolicy({ telemetry: mine }).telemetry).toBe(mine);
  });
});

/**
 * Which copies of the OpenTelemetry packages are really loaded, read from the stack frames of errors thrown inside them
 * (test/compat/loaded.ts), as test/compat/versions.test.ts does for the MCP SDK and zod. The API copy is read twice:
 * through this file's import and through the one src/opentelemetry imports (a call's `run` goes through that copy's
 * `context.with`), so a run where the package under test and the SDK use different API copies is caught. Used by
 * test/compat/otel-versions.test.ts and, in its subprocess, by test/opentelemetry/fixtures/otlp-server.ts.
 */
import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { MeterProvider, type MetricReader } from '@opentelemetry/sdk-metrics';
import { openTelemetry } from '../../src/opentelemetry/index.js';
import { traceSdk } from '../opentelemetry/support.js';
import { thrownBy, versionOf } from './loaded.js';

/** The versions of the OpenTelemetry packages loaded in this process. */
export interface OtelLoaded {
  /** `@opentelemetry/api`, as the tests import it. */
  readonly api: string;
  /** `@opentelemetry/api`, as src/opentelemetry imports it. */
  readonly apiOfEntry: string;
  /**
   * `@opentelemetry/sdk-trace-base` (from 2.1 on, the `@opentelemetry/sdk-trace` it re-exports), or on the 3.x line
   * (no sdk-trace-base) `@opentelemetry/sdk-trace`.
   */
  readonly trace: string;
  /** The SDK line test/opentelemetry/support.ts found installed: 2 (sdk-trace-base) or 3 (sdk-trace alone). */
  readonly traceLine: 2 | 3;
  readonly core: string;
  readonly contextAsyncHooks: string;
  readonly metrics: string;
  readonly exporter: string;
}

function probe(): never {
  throw new Error('probe');
}

/**
 * The version of the first of `pkgs` with a frame in the stack of `error`: from 2.1 on, sdk-trace-base re-exports
 * `@opentelemetry/sdk-trace` (installed in the same version), which then holds the code that throws.
 */
function versionOfAny(error: unknown, ...pkgs: string[]): string {
  for (const pkg of pkgs) {
    if (String((error as Error).stack).includes(`/node_modules/${pkg}/`)) return versionOf(error, pkg);
  }
  throw new Error(`no frame of ${pkgs.join(' or ')} in:\n${String((error as Error).stack)}`);
}

/** The API copy src/opentelemetry imported: a call's `run` enters the span's context with that copy's `context.with`. */
function apiOfEntry(): unknown {
  // a provider of its own, with no span processor: nothing is exported
  const handle = openTelemetry({ tracerProvider: traceSdk.tracerProvider() }).start({ method: 'tools/call', target: 'probe', carrier: {} });
  if (handle === undefined) throw new Error('openTelemetry() started no call with a tracer provider');
  return thrownBy(() => handle.run(probe));
}

export function otelLoaded(): OtelLoaded {
  const withSpan = trace.setSpanContext(ROOT_CONTEXT, { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 });
  return {
    api: versionOf(
      thrownBy(() => context.with(ROOT_CONTEXT, probe)),
      '@opentelemetry/api',
    ),
    apiOfEntry: versionOf(apiOfEntry(), '@opentelemetry/api'),
    trace: versionOfAny(
      thrownBy(() => traceSdk.tracerProvider().getTracer('probe').startActiveSpan('probe', probe)),
      '@opentelemetry/sdk-trace-base',
      '@opentelemetry/sdk-trace',
    ),
    traceLine: traceSdk.line,
    core: versionOf(
      thrownBy(() => new W3CTraceContextPropagator().inject(withSpan, {}, { set: probe })),
      '@opentelemetry/core',
    ),
    contextAsyncHooks: versionOf(
      thrownBy(() => new AsyncLocalStorageContextManager().with(ROOT_CONTEXT, probe)),
      '@opentelemetry/context-async-hooks',
    ),
    metrics: versionOf(
      thrownBy(() => new MeterProvider({ readers: [{ setMetricProducer: probe } as unknown as MetricReader] })),
      '@opentelemetry/sdk-metrics',
    ),
    exporter: versionOf(
      thrownBy(
        () =>
          new OTLPTraceExporter({
            get url(): string {
              return probe();
            },
          }),
      ),
      '@opentelemetry/exporter-trace-otlp-http',
    ),
  };
}

/**
 * What differs from the versions a matrix cell asked for (COMPAT_EXPECT_OTEL_API; _TRACE for sdk-trace-base, or on
 * the 3.x line sdk-trace, and core and context-async-hooks; _METRICS; _EXPORTER), plus an API copy of
 * src/opentelemetry other than the tests', and an SDK line in test/opentelemetry/support.ts other than the loaded
 * tracing SDK's major version. Empty: all as asked.
 */
export function otelMismatches(loaded: OtelLoaded, env: NodeJS.ProcessEnv = process.env): string[] {
  const wrong: string[] = [];
  const check = (what: string, got: string, expected: string | undefined): void => {
    if (expected !== undefined && expected !== '' && got !== expected) wrong.push(`${what} ${got}, expected ${expected}`);
  };
  if (!/^1\.\d+\.\d+$/.test(loaded.api)) wrong.push(`@opentelemetry/api ${loaded.api}, expected 1.x`);
  if (loaded.apiOfEntry !== loaded.api) wrong.push(`src/opentelemetry loaded @opentelemetry/api ${loaded.apiOfEntry}, the tests ${loaded.api}`);
  check('@opentelemetry/api', loaded.api, env['COMPAT_EXPECT_OTEL_API']);
  const tracePkg = loaded.traceLine === 2 ? '@opentelemetry/sdk-trace-base' : '@opentelemetry/sdk-trace';
  check(tracePkg, loaded.trace, env['COMPAT_EXPECT_OTEL_TRACE']);
  // the SDK line the tests constructed their providers for is the one of the version loaded (3.x: sdk-trace alone)
  if (loaded.traceLine !== Number(loaded.trace.split('.')[0])) wrong.push(`${tracePkg} ${loaded.trace} loaded, but the tests took it for the ${loaded.traceLine}.x line`);
  check('@opentelemetry/core', loaded.core, env['COMPAT_EXPECT_OTEL_TRACE']);
  check('@opentelemetry/context-async-hooks', loaded.contextAsyncHooks, env['COMPAT_EXPECT_OTEL_TRACE']);
  check('@opentelemetry/sdk-metrics', loaded.metrics, env['COMPAT_EXPECT_OTEL_METRICS']);
  check('@opentelemetry/exporter-trace-otlp-http', loaded.exporter, env['COMPAT_EXPECT_OTEL_EXPORTER']);
  return wrong;
}

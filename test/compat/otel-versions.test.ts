/**
 * Which copies of the OpenTelemetry packages test/opentelemetry really loads (test/compat/otel-loaded.ts): the ones
 * the matrix cell asked for, and one API copy shared by src/opentelemetry and the SDK. scripts/matrix.sh sets
 * COMPAT_EXPECT_OTEL_* for its OpenTelemetry cells, and COMPAT_REPORT to collect what ran. The OTLP-over-stdio test
 * checks its subprocess the same way (test/opentelemetry/otlp-stdio.test.ts).
 */
import { appendFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { otelLoaded, otelMismatches } from './otel-loaded.js';

describe('the OpenTelemetry versions under test', () => {
  const loaded = otelLoaded();

  it('are the ones the matrix cell asked for, and src/opentelemetry uses the same API copy as the SDK', () => {
    const env = process.env;
    if (env['COMPAT_REPORT'] !== undefined && env['COMPAT_REPORT'] !== '') {
      appendFileSync(env['COMPAT_REPORT'], `${JSON.stringify({ node: process.versions.node, otel: loaded })}\n`);
    }
    expect(otelMismatches(loaded)).toEqual([]);
    if (env['COMPAT_EXPECT_NODE_MAJOR']) expect(process.versions.node.split('.')[0]).toBe(env['COMPAT_EXPECT_NODE_MAJOR']);
  });
});

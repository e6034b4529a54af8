// The line, as docs/frameworks.md shows it. With POLICY=off the same app runs without it (the test compares successes
// byte for byte). Each record is a `RECORD <json>` line on stderr, each access-log outcome an `OUTCOME <json>` line.
import { applyErrorPolicy, coreRules, createErrorPolicy, type LogRecord } from 'mcp-error-policy';
import { googleRules } from 'mcp-error-policy/google';

const policy = createErrorPolicy({
  rules: [...googleRules, ...coreRules],
  logger: (record: LogRecord) => process.stderr.write(`RECORD ${JSON.stringify(record)}\n`),
  onOutcome: ({ kind, name, status }) => process.stderr.write(`OUTCOME ${JSON.stringify({ kind, name, status })}\n`),
});

export default defineNitroPlugin((nitroApp) => {
  if (process.env['POLICY'] !== 'off') applyErrorPolicy(nitroApp, policy);
});

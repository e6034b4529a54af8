// The server's one policy, shared by every tool file. The test reads the records from stderr, one JSON line each.
import { createErrorPolicy, type LogRecord } from 'mcp-error-policy';

export const policy = createErrorPolicy({ logger: (record: LogRecord) => process.stderr.write(`RECORD ${JSON.stringify(record)}\n`) });

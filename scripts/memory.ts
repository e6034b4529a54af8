/**
 * Memory: 1,000,000 failures through one policy leave the heap flat (nothing is kept per failure).
 *
 * Direct calls of wrapped tool, resource and prompt functions (no transport), failing in every way the policy knows
 * (crashes with stacks and cause chains, deliberate errors, network errors, a revoked Proxy, a string), with a function
 * logger and an access log that drop what they get. After a warm-up, the heap is measured (after forced GC), the
 * failures run, and the heap is measured again; the script prints the numbers and exits non-zero when the growth
 * exceeds the bound.
 *
 *   node --expose-gc --import tsx scripts/memory.ts
 *
 * Environment: MEMORY_FAILURES (default 1000000), MEMORY_WARMUP (default 50000), MEMORY_LIMIT_MB (default 5).
 * MEMORY_RETAIN_RECORDS=1 makes the logger keep every record: a deliberate leak, to see the check fail.
 */
import {
  createErrorPolicy,
  ResourceNotFoundError,
  ToolError,
  withClientVisibleErrors,
  withClientVisiblePromptErrors,
  withClientVisibleResourceErrors,
} from '../src/index.js';

// tsx turns source maps on; production stacks are formatted without them (and it triples the cost of each stack).
process.setSourceMapsEnabled(false);

const gc = (globalThis as { gc?: () => void }).gc;
if (typeof gc !== 'function') {
  process.stderr.write('memory.ts needs the gc() hook: run `node --expose-gc --import tsx scripts/memory.ts`\n');
  process.exit(2);
}

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) {
    process.stderr.write(`${name} must be a positive integer, got ${JSON.stringify(raw)}\n`);
    process.exit(2);
  }
  return n;
}

const FAILURES = positiveInt('MEMORY_FAILURES', 1_000_000);
const WARMUP = positiveInt('MEMORY_WARMUP', 50_000);
const LIMIT_MB = positiveInt('MEMORY_LIMIT_MB', 5);
const SAMPLES = 10;

const RETAIN = process.env.MEMORY_RETAIN_RECORDS === '1';
const retained: unknown[] = [];
let records = 0;
let outcomes = 0;
const policy = createErrorPolicy({
  logger: (record) => {
    records += 1;
    if (RETAIN) retained.push(record);
  },
  onOutcome: () => {
    outcomes += 1;
  },
  exposeCrashDetails: false,
});

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable(new Error('revoked'), {});
  revoke();
  return proxy;
}

/** The i-th failure: every kind the policy answers. */
function failure(i: number): unknown {
  switch (i % 8) {
    case 0:
      return new Error(`crash ${i}`);
    case 1:
      return new ToolError(`item ${i} is locked`);
    case 2:
      return Object.assign(new Error(`request to https://api.example.test/v1?key=AIzaSyDq3kF4keK3yV4lu3Xz9Qw8Er7Ty6Ui5Op&i=${i} failed`), { code: 'ECONNREFUSED' });
    case 3:
      return new Error(`outer ${i}`, { cause: new Error(`middle ${i}`, { cause: new ToolError(`inner ${i}`) }) });
    case 4:
      return revoked();
    case 5:
      return `a string ${i}`;
    case 6: {
      const a = new Error(`cycle a ${i}`);
      const b = new Error(`cycle b ${i}`, { cause: a });
      (a as Error & { cause?: unknown }).cause = b;
      return a;
    }
    default:
      return new AggregateError([new Error(`member ${i}`), new TypeError(`member ${i}`)], `aggregate ${i}`);
  }
}

const tool = withClientVisibleErrors((i: number) => {
  throw failure(i);
}, { name: 'memory_tool', policy });
const resource = withClientVisibleResourceErrors((_uri: URL, i: number) => {
  throw i % 2 === 0 ? new ResourceNotFoundError(`no item ${i}`) : failure(i);
}, { policy });
const prompt = withClientVisiblePromptErrors((i: number) => {
  throw failure(i);
}, { name: 'memory_prompt', policy });

const uri = new URL('memory://item/1');

/** One failure through one of the three wrappers (tools 8 of 10; resources and prompts 1 each). */
async function fail(i: number): Promise<void> {
  const which = i % 10;
  if (which < 8) {
    const result = (await tool(i)) as { isError?: boolean };
    if (result.isError !== true) throw new Error(`failure ${i} was not answered as an isError result`);
    return;
  }
  try {
    await (which === 8 ? resource(uri, i) : prompt(i));
  } catch {
    return;
  }
  throw new Error(`failure ${i} was not answered as a JSON-RPC error`);
}

function heapUsed(): number {
  for (let i = 0; i < 4; i += 1) gc!();
  return process.memoryUsage().heapUsed;
}

const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(2);

const started = performance.now();
for (let i = 0; i < WARMUP; i += 1) await fail(i);
const before = heapUsed();
const samples: string[] = [];
const step = Math.max(1, Math.floor(FAILURES / SAMPLES));
for (let i = 0; i < FAILURES; i += 1) {
  await fail(WARMUP + i);
  if ((i + 1) % step === 0 && samples.length < SAMPLES - 1) samples.push(mb(heapUsed()));
}
const after = heapUsed();
const seconds = (performance.now() - started) / 1000;
const growth = after - before;

if (records !== WARMUP + FAILURES || outcomes !== WARMUP + FAILURES) {
  process.stderr.write(`expected ${WARMUP + FAILURES} records and outcomes, got ${records} and ${outcomes}\n`);
  process.exit(1);
}
process.stdout.write(
  `${[
    `memory: ${FAILURES} failures (after ${WARMUP} warm-up) in ${seconds.toFixed(1)} s, one record and one outcome each`,
    `memory: heapUsed after warm-up ${mb(before)} MB, at the end ${mb(after)} MB, growth ${mb(growth)} MB (limit ${LIMIT_MB} MB)`,
    `memory: heapUsed every ${step} failures: ${samples.join(', ')} MB`,
  ].join('\n')}\n`,
);
if (growth > LIMIT_MB * 1024 * 1024) {
  process.stderr.write(`memory: the heap grew by ${mb(growth)} MB over ${FAILURES} failures: something is kept per failure\n`);
  process.exit(1);
}

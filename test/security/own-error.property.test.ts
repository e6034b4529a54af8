/**
 * Property: ownErrorRule never shows a dependency's text. A tool of a real McpServer, under a policy with
 * `ownErrorRule({ root })`, throws a plain Error made by a file under `root/node_modules/` (a dependency), holding the
 * canary and secrets in any arrangement: the client gets the masked answer, never the canary or a secret. The same
 * text made by a file of the server's own (`root/src/`) is shown, scrubbed: no secret on the wire or in the record.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyErrorPolicy, coreRules, createErrorPolicy, ownErrorRule, scrubSecrets } from '../../src/index.js';
import { CANARY, openSession, recordLogger, type WireSession } from './support.js';
import { EMBEDDINGS, FORM_EMBEDDINGS, leakIn } from './secrets.js';

// V8's own stack formatting, as a production server has it (see hostile-harness.ts).
delete (Error as { prepareStackTrace?: unknown }).prepareStackTrace;

type Make = (text: string) => Error;

let root: string;
let session: WireSession;
const { records, logger } = recordLogger();
const made: { dependency?: Make; own?: Make } = {};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'own-error-property-'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'own-server' }));
  const maker = 'export const make = (text) => new Error(text);\n';
  for (const [key, dir] of [['dependency', 'node_modules/dep'], ['own', 'src']] as const) {
    mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, dir, 'make.mjs'), maker);
    made[key] = ((await import(join(root, dir, 'make.mjs'))) as { make: Make }).make;
  }
  const policy = createErrorPolicy({ rules: [ownErrorRule({ root }), ...coreRules], logger, exposeCrashDetails: false });
  session = await openSession((server) => {
    applyErrorPolicy(server, policy);
    server.registerTool('fail', { inputSchema: { by: z.enum(['dependency', 'own']), text: z.string() } }, ({ by, text }) => {
      throw made[by]!(text);
    });
  });
});

afterAll(async () => {
  await session.close();
  rmSync(root, { recursive: true, force: true });
});

/** The secrets in the forms a text carries them (each scrubbed by the policy wherever it stands). */
const EMBEDDED = [...Object.values(EMBEDDINGS), ...Object.values(FORM_EMBEDDINGS)].map(([raw]) => raw);

/** Texts with the canary and one or two embedded secrets (or lines that look like a stack frame) between arbitrary strings. */
const FRAME_PIECE = '\n    at /srv/own.js:1:1\n';
const piece = fc.constantFrom(...EMBEDDED, FRAME_PIECE);
const textArb = fc
  .tuple(fc.string({ maxLength: 40 }), piece, fc.string({ maxLength: 20 }), fc.option(piece, { nil: '' }), fc.string({ maxLength: 40 }))
  .map((parts) => `${CANARY} ${parts.join(' ')}`);

describe('ownErrorRule: a dependency\'s plain Error stays masked, the server\'s own is scrubbed', () => {
  it('masks canaries thrown from a file under node_modules; shows the same text from the server\'s own file without a secret', async () => {
    await fc.assert(
      fc.asyncProperty(textArb, async (text) => {
        for (const by of ['dependency', 'own'] as const) {
          records.length = 0;
          session.wire.length = 0;
          const result = (await session.client.callTool({ name: 'fail', arguments: { by, text } })) as { content: { text: string }[] };
          const wire = session.wire.join('\n');
          expect(records).toHaveLength(1);
          const leak = leakIn(wire) ?? leakIn(JSON.stringify(records[0]));
          expect(leak, `${by}: a secret on the wire or in the record`).toBeUndefined();
          if (by === 'dependency') {
            expect(result.content[0]!.text).toMatch(/^Error executing tool fail \(reference [0-9a-f]{12}\)$/);
            expect(wire).not.toContain(CANARY);
            expect(records[0]).toMatchObject({ level: 'error', kind: 'crash' });
          } else if (scrubSecrets(text).includes(FRAME_PIECE.trim())) {
            // a text that carries a stack frame is a crash's, however it was made (the exit gate, which sees the
            // scrubbed text: a private key cut off before its END line is redacted to the end, frame included)
            expect(result.content[0]!.text).toMatch(/^Error executing tool fail \(reference [0-9a-f]{12}\)$/);
            expect(wire).not.toContain(CANARY);
            expect(records[0]).toMatchObject({ level: 'error', kind: 'crash', withheld: 'its text carries a stack frame' });
          } else {
            expect(result.content[0]!.text.startsWith('Error executing tool fail: ')).toBe(true);
            expect(result.content[0]!.text).toContain(CANARY);
            expect(records[0]).toMatchObject({ level: 'warn', kind: 'anticipated', rule: 'own-error' });
          }
        }
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});

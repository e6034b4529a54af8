// Compares the shapes a runtime threw just now (capture.mjs, or workerd.mjs for workerd) with those recorded in
// shapes.json, which npm test rebuilds on Node (shapes.test.ts): they must be equal, or the record has drifted.
// `node compare.mjs <runtime> <captured.json> [--update]`; --update writes the captured shapes into shapes.json.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';

const [runtime, capturedFile, update] = process.argv.slice(2);
const recordFile = new URL('./shapes.json', import.meta.url);
const record = JSON.parse(readFileSync(recordFile, 'utf8'));
const captured = JSON.parse(readFileSync(capturedFile, 'utf8'));
if (update === '--update') {
  record.runtimes[runtime].shapes = captured;
  writeFileSync(recordFile, `${JSON.stringify(record, null, 2)}\n`);
  console.log(`shapes.json: ${runtime} updated`);
} else {
  assert.deepEqual(captured, record.runtimes[runtime].shapes, `${runtime}'s errors differ from test/runtimes/shapes.json (run scripts/runtimes.sh --update and review the diff)`);
  console.log(`${runtime}: the errors thrown now are those of shapes.json: 1 passed, 0 failed`);
}

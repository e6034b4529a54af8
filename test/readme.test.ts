/** Every TypeScript block of the README compiles, and the quick start is the example a test runs. */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const readme = readFileSync('README.md', 'utf8');
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe('README code', () => {
  it('has TypeScript blocks', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
  });

  it('shows examples/quickstart.ts as its quick start', () => {
    const example = readFileSync('examples/quickstart.ts', 'utf8').replace(/^\/\*\*[\s\S]*?\*\/\n/, '');
    expect(blocks).toContain(example);
  });

  it('type-checks every TypeScript block', () => {
    const dir = join('.tmp', 'readme-blocks');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files = blocks.map((code, i) => {
      const file = join(dir, `block-${i}.ts`);
      writeFileSync(file, code.includes('import ') || code.includes('export ') ? code : `${code}\nexport {};\n`);
      return file;
    });
    const config = ts.getParsedCommandLineOfConfigFile('tsconfig.json', {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
    const program = ts.createProgram(files, { ...config!.options, noEmit: true, noUnusedLocals: false });
    const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.file === undefined || files.some((f) => d.file!.fileName.endsWith(f)));
    const text = diagnostics.map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(text).toEqual([]);
  }, 60_000);
});

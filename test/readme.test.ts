/** Every TypeScript block of the README compiles, and the quick start is the example a test runs. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
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
    // Each block is compiled as if it were a file of the repository (so that it resolves the package and its
    // dependencies as an example would), from memory: nothing is written into the working tree.
    const sources = new Map(
      blocks.map((code, i) => [resolve(`test/readme-block-${i}.ts`), code.includes('import ') || code.includes('export ') ? code : `${code}\nexport {};\n`]),
    );
    const files = [...sources.keys()];
    const config = ts.getParsedCommandLineOfConfigFile('tsconfig.json', {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
    const options = { ...config!.options, noEmit: true, noUnusedLocals: false };
    const host = ts.createCompilerHost(options);
    const { fileExists, getSourceFile, readFile } = host;
    host.fileExists = (name) => sources.has(resolve(name)) || fileExists.call(host, name);
    host.readFile = (name) => sources.get(resolve(name)) ?? readFile.call(host, name);
    host.getSourceFile = (name, language, ...rest) => {
      const code = sources.get(resolve(name));
      return code === undefined ? getSourceFile.call(host, name, language, ...rest) : ts.createSourceFile(name, code, language);
    };
    const program = ts.createProgram(files, options, host);
    const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.file === undefined || files.some((f) => d.file!.fileName.endsWith(f)));
    const text = diagnostics.map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(text).toEqual([]);
  }, 60_000);
});

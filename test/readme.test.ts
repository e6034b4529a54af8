/** Every TypeScript block of the README and of docs/*.md compiles, and the README's quick start is the example a test runs. */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** The TypeScript blocks of a Markdown file, indented ones (inside list items) included. */
function tsBlocks(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^( *)```ts\n([\s\S]*?)^\1```/gm)].map(([, indent, code]) =>
    code!
      .split('\n')
      .map((line) => line.slice(indent!.length))
      .join('\n'),
  );
}

const docs = readdirSync('docs')
  .filter((name) => name.endsWith('.md'))
  .sort()
  .map((name) => join('docs', name));
const readme = tsBlocks('README.md');
const pages = [{ file: 'README.md', blocks: readme }, ...docs.map((file) => ({ file, blocks: tsBlocks(file) }))];

describe('README and docs code', () => {
  it('has TypeScript blocks', () => {
    expect(readme.length).toBeGreaterThanOrEqual(2);
  });

  it('gives the demo and the test commands within its first 40 lines', () => {
    const head = readFileSync('README.md', 'utf8').split('\n').slice(0, 40);
    expect(head.some((line) => line.startsWith('npm ci && npm run demo'))).toBe(true);
    expect(head.some((line) => /^npm test\b/.test(line))).toBe(true);
  });

  it('links every docs page from the README', () => {
    const links = [...readFileSync('README.md', 'utf8').matchAll(/\]\((docs\/[^)#]+\.md)/g)].map((m) => m[1]!);
    expect(new Set(links)).toEqual(new Set(docs));
  });

  it('shows examples/quickstart.ts as its quick start', () => {
    const example = readFileSync('examples/quickstart.ts', 'utf8').replace(/^\/\*\*[\s\S]*?\*\/\n/, '');
    expect(readme).toContain(example);
  });

  it('type-checks every TypeScript block', () => {
    // Each block is compiled as if it were a file of the repository (so that it resolves the package and its
    // dependencies as an example would), from memory: nothing is written into the working tree.
    const sources = new Map(
      pages.flatMap(({ file, blocks }) =>
        blocks.map((code, i): [string, string] => [
          resolve(`test/${basename(file, '.md')}-block-${i}.ts`),
          code.includes('import ') || code.includes('export ') ? code : `${code}\nexport {};\n`,
        ]),
      ),
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

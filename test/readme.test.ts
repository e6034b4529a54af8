/** Every TypeScript block of the README and of docs/*.md compiles, and the README's quick start is the example a test runs. */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
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
const blocks = [{ file: 'README.md', blocks: readme }, ...docs.map((file) => ({ file, blocks: tsBlocks(file) }))];

describe('README and docs code', () => {
  it('has TypeScript blocks', () => {
    expect(readme.length).toBeGreaterThanOrEqual(2);
  });

  it('has the docs pages the README links to', () => {
    const links = [...readFileSync('README.md', 'utf8').matchAll(/\]\((docs\/[^)#]+\.md)/g)].map((m) => m[1]!);
    expect(new Set(links)).toEqual(new Set(docs));
  });

  it('shows examples/quickstart.ts as its quick start', () => {
    const example = readFileSync('examples/quickstart.ts', 'utf8').replace(/^\/\*\*[\s\S]*?\*\/\n/, '');
    expect(readme).toContain(example);
  });

  it('type-checks every TypeScript block', () => {
    const dir = join('.tmp', 'readme-blocks');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files = blocks.flatMap(({ file, blocks: codes }) =>
      codes.map((code, i) => {
        const out = join(dir, `${basename(file, '.md')}-block-${i}.ts`);
        writeFileSync(out, code.includes('import ') || code.includes('export ') ? code : `${code}\nexport {};\n`);
        return out;
      }),
    );
    const config = ts.getParsedCommandLineOfConfigFile('tsconfig.json', {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
    const program = ts.createProgram(files, { ...config!.options, noEmit: true, noUnusedLocals: false });
    const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.file === undefined || files.some((f) => d.file!.fileName.endsWith(f)));
    const text = diagnostics.map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(text).toEqual([]);
  }, 60_000);
});

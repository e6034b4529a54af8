/**
 * Every TypeScript block of the README and of docs/*.md compiles, the README's quick start is the example a test runs,
 * and every relative link of those pages resolves inside the packed package (where a user reads them, in
 * node_modules/mcp-error-policy), anchors included.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, posix, resolve } from 'node:path';
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

/** GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (outside code blocks), repeated ones numbered as GitHub numbers them. */
function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** The relative links of a Markdown file (outside code): `[text](target)`, as `page.md` or `page.md#anchor`. */
function relativeLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/^ *```[\s\S]*?^ *```/gm, '')
    .replace(/(`+)[\s\S]*?\1/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

describe('README and docs links', () => {
  it('resolve to files of the packed package, and to headings of those files', () => {
    // The file list `npm pack` would put in the tarball (no build: links never point into dist/).
    const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8' })) as [
      { files: { path: string }[] },
    ];
    const packed = new Set(pack.files.map((f) => f.path));
    const broken: string[] = [];
    for (const file of ['README.md', ...docs]) {
      for (const link of relativeLinks(file)) {
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target = path === '' ? file : posix.normalize(posix.join(dirname(file), path));
        if (!packed.has(target)) broken.push(`${file}: ${link} (${target} is not in the package)`);
        else if (anchor !== undefined && target.endsWith('.md') && !anchors(target).has(anchor)) broken.push(`${file}: ${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  }, 60_000);
});

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

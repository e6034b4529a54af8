/**
 * The examples run where the package is installed: every TypeScript file under examples/ ships in the tarball, imports
 * packages by the names a user installs (never this repository's version aliases, such as gaxios7), names each of them
 * on its header's "Install: npm install ..." line, imports nothing from outside examples/, and says how to run it
 * ("Try: npx tsx examples/<file>.ts") and what a run shows. scripts/examples-packed.sh runs them all from the packed
 * tarball and checks what they print against their headers (test/packed/examples.mjs).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';

const files = readdirSync('examples', { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.ts'))
  .map((name) => join('examples', name).replaceAll('\\', '/'))
  .sort();

/** devDependencies installed under another name: `"gaxios7": "npm:gaxios@^7.3.1"`. */
const aliases = Object.entries((JSON.parse(readFileSync('package.json', 'utf8')) as { devDependencies: Record<string, string> }).devDependencies)
  .filter(([, spec]) => spec.startsWith('npm:'))
  .map(([name]) => name);

/** The module specifiers `file` imports (static and dynamic), type-only imports included. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'|\bimport\('([^']+)'\)/gm)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** The package a bare specifier names: `@scope/name` or `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The line of `file`'s header that starts with `label` (`Install:`), without the comment's ` * `. */
function headerLine(file: string, label: string): string | undefined {
  const header = /^\/\*\*\n([\s\S]*?)\n \*\//.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
  return header
    .split('\n')
    .map((line) => line.replace(/^ \* ?/, ''))
    .find((line) => line.startsWith(label));
}

describe('the examples, as shipped', () => {
  it('are all in the packed tarball', () => {
    const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8' })) as [{ files: { path: string }[] }];
    const packed = pack.files.map((f) => f.path).filter((path) => path.startsWith('examples/'));
    expect(packed.sort()).toEqual(files);
  }, 60_000);

  it.each(files)('%s imports packages by the names its Install line gives, and nothing from outside examples/', (file) => {
    const install = headerLine(file, 'Install: npm install ');
    const named = new Set(install?.slice('Install: npm install '.length).trim().split(/\s+/) ?? []);
    if (!file.startsWith('examples/support/')) expect(install, `${file}: no "Install: npm install ..." line`).toBeDefined();
    const specifiers = importsOf(file);
    expect(specifiers.length).toBeGreaterThan(0);
    const packages = specifiers.filter((s) => !s.startsWith('.') && !s.startsWith('node:')).map(packageOf);
    expect(packages.filter((name) => aliases.includes(name)), `${file} imports a repository alias`).toEqual([]);
    if (install !== undefined) expect(packages.filter((name) => !named.has(name)), `${file}: imported but not on its Install line`).toEqual([]);
    for (const relative of specifiers.filter((s) => s.startsWith('.'))) {
      expect(posix.normalize(posix.join(dirname(file), relative)), `${file} imports ${relative}`).toMatch(/^examples\//);
    }
  });

  it.each(files.filter((file) => !file.startsWith('examples/support/')))('%s says how to run it and what a run shows', (file) => {
    expect(headerLine(file, 'Try: '), file).toMatch(/^Try: (?:[A-Z][A-Z0-9_]*=\S*\s+)*npx tsx examples\/\S+\.ts\b/);
    expect(headerLine(file, 'Try: ')).toContain(file);
    const header = /^\/\*\*\n([\s\S]*?)\n \*\//.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
    expect(header.split('\n').filter((line) => / → /.test(line)).length, `${file}: no "<what> → <text>" lines`).toBeGreaterThan(0);
  });
});

/**
 * Which installed copy of a package is really loaded: read from the stack frames of an error thrown inside it (a
 * redirection that silently fell back to the project's node_modules would show there).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The installed version of the package whose file constructed `error` (found in its stack). */
export function versionOf(error: unknown, pkg: string): string {
  const stack = String((error as Error).stack);
  const marker = `/node_modules/${pkg}/`;
  for (const line of stack.split('\n')) {
    const match = /\((.*?):\d+:\d+\)$|at (\S+):\d+:\d+$/.exec(line.trim());
    let file = match?.[1] ?? match?.[2];
    if (file === undefined) continue;
    if (file.startsWith('file://')) file = fileURLToPath(file);
    const at = file.lastIndexOf(marker);
    if (at === -1) continue;
    const root = file.slice(0, at + marker.length);
    return (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string }).version;
  }
  throw new Error(`no frame of ${pkg} in:\n${stack}`);
}

/** An error thrown from inside `fn` (its stack has the frames of the package that threw). */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}


/** Node file-system errors: shown by code and syscall, and by the path only when it is the caller's own. */
import { nodeBuiltin } from '../kit/builtin.js';
import { stringCode } from '../kit/codes.js';
import { isObjectLike, readString } from '../kit/read.js';
import type { AnticipatedLevel, ErrorRule, FailedCall } from './rule.js';

/** Words for the file-system codes. */
const FILE_SYSTEM_CODE_TEXT: Readonly<Record<string, string>> = Object.freeze({
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  EEXIST: 'file already exists',
  ENOTEMPTY: 'directory not empty',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in system',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EBUSY: 'resource busy or locked',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'file name too long',
  EXDEV: 'cross-device link not permitted',
  EBADF: 'bad file descriptor',
  EFBIG: 'file too large',
  ETXTBSY: 'text file is busy',
});

/**
 * True for a Node file-system error as Node makes it: a known file-system `code`, a string `syscall`, and Node's own
 * message shape (`ENOENT: no such file or directory, open '/p'`, or `spawn x ENOENT`). An error a library re-wrote
 * around the same fields (google-auth-library's credential-file error) is left to a rule that knows it.
 */
export function isFileSystemError(error: unknown): boolean {
  const code = stringCode(error);
  if (code === undefined || !Object.hasOwn(FILE_SYSTEM_CODE_TEXT, code)) return false;
  const syscall = readString(error, 'syscall');
  const message = readString(error, 'message');
  if (syscall === undefined || message === undefined) return false;
  return message.startsWith(`${code}:`) || message.startsWith(`${syscall} `);
}

/** Codes that, on the caller's own path, are the caller's mistake (a routine failure, logged at info). */
const CALLER_CODES: readonly string[] = ['ENOENT', 'EEXIST', 'ENOTDIR', 'EISDIR'];

/** How deep and how many of the call's values are read for paths. */
const MAX_ARG_DEPTH = 4;
const MAX_ARG_STRINGS = 256;

/** The strings among the call's arguments (in objects and arrays, bounded), as given and as `path.resolve` makes them. */
function callerPaths(call: FailedCall): Set<string> {
  const out = new Set<string>();
  const resolve = nodeBuiltin<typeof import('node:path')>('node:path')?.resolve;
  const visit = (value: unknown, depth: number): void => {
    if (out.size >= MAX_ARG_STRINGS) return;
    if (typeof value === 'string') {
      out.add(value);
      if (resolve !== undefined && value !== '') out.add(resolve(value));
    } else if (isObjectLike(value) && depth < MAX_ARG_DEPTH) {
      for (const member of Object.values(value)) visit(member, depth + 1);
    }
  };
  try {
    visit(call.args, 0);
  } catch {
    // a value that cannot be read names no path
  }
  return out;
}

/** The error's `path` and `dest` that the caller passed (as given or resolved), each `undefined` when it is not. */
function ownPaths(error: unknown, call: FailedCall): { path: string | undefined; dest: string | undefined } {
  const path = readString(error, 'path');
  const dest = readString(error, 'dest');
  if (path === undefined && dest === undefined) return { path, dest };
  const given = callerPaths(call);
  return { path: path !== undefined && given.has(path) ? path : undefined, dest: dest !== undefined && given.has(dest) ? dest : undefined };
}

/**
 * `File system error: no such file or directory (ENOENT, open 'docs/missing.txt')`: code and syscall, and the path
 * only when the caller passed it. For two paths (rename, copyfile, link), `from '<path>'` and `to '<dest>'`, each
 * only when it is the caller's.
 */
function fileSystemErrorMessage(error: unknown, call: FailedCall): string {
  const code = stringCode(error) ?? 'UNKNOWN';
  const words = FILE_SYSTEM_CODE_TEXT[code] ?? 'file system error';
  const word = readString(error, 'syscall')?.split(' ')[0];
  const syscall = word !== undefined && /^[a-z_]{1,20}$/.test(word) ? word : 'unknown';
  const { path, dest } = ownPaths(error, call);
  const twoPaths = readString(error, 'dest') !== undefined;
  const shown = [path !== undefined && `${twoPaths ? 'from ' : ''}'${path}'`, dest !== undefined && `to '${dest}'`].filter((part) => part !== false);
  return `File system error: ${words} (${code}, ${[syscall, ...shown].join(' ')})`;
}

/** Info for a routine failure on the caller's own path (ENOENT, EEXIST, ENOTDIR, EISDIR); warn for any other. */
function fileSystemErrorLevel(error: unknown, call: FailedCall): AnticipatedLevel {
  if (!CALLER_CODES.includes(stringCode(error) ?? '')) return 'warn';
  const { path, dest } = ownPaths(error, call);
  return path !== undefined || dest !== undefined ? 'info' : 'warn';
}

/**
 * Node file-system errors ({@link isFileSystemError}), shown by code and syscall. The path is shown only when it is
 * one the caller passed in the call's arguments (as given, or resolved against the working directory): other paths
 * reveal the server's layout. Status 500. Logged at info on one line when the failure is the caller's (ENOENT, EEXIST,
 * ENOTDIR or EISDIR on the caller's own path), else at warn with the stack.
 */
export const fileSystemRule: ErrorRule = Object.freeze({
  name: 'file-system',
  predicate: isFileSystemError,
  message: fileSystemErrorMessage,
  level: fileSystemErrorLevel,
});

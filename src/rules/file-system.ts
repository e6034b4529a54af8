/** Node file-system errors: shown by code and syscall, never the path. */
import { stringCode } from '../kit/codes.js';
import { readString } from '../kit/read.js';
import type { ErrorRule } from './rule.js';

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

/** `File system error: no such file or directory (ENOENT, open)`: code and syscall, never the path. */
function fileSystemErrorMessage(error: unknown): string {
  const code = stringCode(error) ?? 'UNKNOWN';
  const words = FILE_SYSTEM_CODE_TEXT[code] ?? 'file system error';
  const word = readString(error, 'syscall')?.split(' ')[0];
  const syscall = word !== undefined && /^[a-z_]{1,20}$/.test(word) ? word : 'unknown';
  return `File system error: ${words} (${code}, ${syscall})`;
}

/**
 * Node file-system errors ({@link isFileSystemError}), shown by code and syscall, never the path (paths reveal the
 * server's layout; a server whose paths are the user's own can add a rule of its own before the core rules). Status
 * 500, logged at warn.
 */
export const fileSystemRule: ErrorRule = Object.freeze({
  name: 'file-system',
  predicate: isFileSystemError,
  message: fileSystemErrorMessage,
});

/** Node file-system errors: shown by code and syscall; the path only when the rule is made to allow it. */
import { readMessage, readString, readStringWith } from '../read.js';
import { stringCode } from './codes.js';
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
 *
 * @example
 * ```ts
 * await readFile('/missing').catch((error) => isFileSystemError(error)); // true
 * ```
 */
export function isFileSystemError(error: unknown): boolean {
  const code = stringCode(error);
  if (code === undefined || !Object.prototype.hasOwnProperty.call(FILE_SYSTEM_CODE_TEXT, code)) return false;
  const syscall = readString(error, 'syscall');
  const message = readStringWith(error, readMessage);
  if (syscall === undefined || message === undefined) return false;
  return message.startsWith(`${code}:`) || message.startsWith(`${syscall} `);
}

/** Options of {@link createFileSystemRule}. */
export interface FileSystemRuleOptions {
  /**
   * Show the error's `path` to the client. Paths reveal the server's layout: leave this off unless the paths are the
   * user's own.
   * @default false
   * @example
   * ```ts
   * createFileSystemRule({ exposePaths: true });
   * ```
   */
  readonly exposePaths?: boolean;
}

/**
 * Makes a file-system rule. Client text: `File system error: no such file or directory (ENOENT, open)`, with
 * ` '<path>'` appended when `exposePaths` is on. Status 500, logged at warn.
 *
 * @example
 * ```ts
 * const policy = createErrorPolicy({
 *   rules: coreRules.map((rule) => (rule === fileSystemRule ? createFileSystemRule({ exposePaths: true }) : rule)),
 * });
 * ```
 */
export function createFileSystemRule(options: FileSystemRuleOptions = {}): ErrorRule {
  const exposePaths = options.exposePaths === true;
  return Object.freeze({
    name: 'file-system',
    predicate: isFileSystemError,
    message: (error: unknown): string => {
      const code = stringCode(error) ?? 'UNKNOWN';
      const words = FILE_SYSTEM_CODE_TEXT[code] ?? 'file system error';
      const word = readString(error, 'syscall')?.split(' ')[0];
      const syscall = word !== undefined && /^[a-z_]{1,20}$/.test(word) ? word : 'unknown';
      const path = exposePaths ? readString(error, 'path') : undefined;
      return `File system error: ${words} (${code}, ${syscall})${path === undefined ? '' : ` '${path}'`}`;
    },
  });
}

/**
 * The default file-system rule, without paths.
 * @example
 * ```ts
 * createErrorPolicy({ rules: coreRules.filter((rule) => rule !== fileSystemRule) }); // file errors become crashes
 * ```
 */
export const fileSystemRule: ErrorRule = createFileSystemRule();

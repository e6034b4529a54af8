/**
 * ownErrorRule: a plain `Error` made by the server's own code, JavaScript's counterpart of Python's deliberate
 * `ValueError`. Where it was made is read from the first frame of its stack and compared with the server's own folder,
 * found once, when the rule is made.
 */
import { nodeBuiltin } from '../kit/builtin.js';
import { fail } from '../kit/fail.js';
import { httpAnswerOf } from '../kit/http.js';
import { hasKey, isRecord, messageOf, readProp, stackOf } from '../kit/read.js';
import type { ErrorRule } from './rule.js';

/** The options of {@link ownErrorRule}. */
export interface OwnErrorRuleOptions {
  /**
   * The server's own folder: plain `Error`s made by a file under it, and not under a `node_modules` folder inside it,
   * are shown. A relative path is resolved against the working directory; it must name an existing folder.
   * @default the folder of the nearest `package.json` with a `name` above the file that called `ownErrorRule()`
   * (that file's folder when there is none)
   * @example
   * ```ts
   * ownErrorRule({ root: new URL('..', import.meta.url).pathname });
   * ```
   */
  readonly root?: string;
}

/** Fields of Node's system errors (and of errors that copy them): an error with one is not a plain own error. */
const SYSTEM_FIELDS = ['code', 'errno', 'syscall', 'path', 'dest', 'address', 'port'];

/** `at fn (/srv/a.js:1:2)`, `at async fn (file:///srv/a.mjs:1:2)`, `at /srv/a.js:1:2`: the location's file. */
const FRAME = /^\s*at (?:.*? \()?(.+?):\d+:\d+\)?$/;

/** True when `error`'s class is exactly `Error` (of any realm): not a subclass, not `TypeError` and its kin, not a Proxy. */
function isPlainError(error: unknown): boolean {
  try {
    if (Object.prototype.toString.call(error) !== '[object Error]') return false;
    const proto: unknown = Object.getPrototypeOf(error);
    if (!isRecord(proto) || Object.getPrototypeOf(Object.getPrototypeOf(proto)) !== null) return false;
    const ctor = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value as unknown;
    return typeof ctor === 'function' && ctor.name === 'Error' && ctor.prototype === proto;
  } catch {
    return false;
  }
}

type Fs = typeof import('node:fs');
type Path = typeof import('node:path');
type Url = typeof import('node:url');

/** What the rule reads files and paths with (Node's, Bun's and Deno's own modules). */
interface Files {
  readonly fs: Fs;
  readonly path: Path;
  readonly url: Url;
}

/** The runtime's own file and path modules, or `undefined` where it has none (Cloudflare Workers). */
function runtimeFiles(): Files | undefined {
  const fs = nodeBuiltin<Fs>('node:fs');
  const path = nodeBuiltin<Path>('node:path');
  const url = nodeBuiltin<Url>('node:url');
  return fs === undefined || path === undefined || url === undefined ? undefined : { fs, path, url };
}

/** The absolute file of a stack line, or `undefined` (the runtime's code, eval, no file). */
function fileOf(line: string, { path, url }: Files): string | undefined {
  const file = FRAME.exec(line)?.[1];
  try {
    const absolute = file?.startsWith('file:') === true ? url.fileURLToPath(file) : file;
    return absolute !== undefined && path.isAbsolute(absolute) ? absolute : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The files of a stack's frames, in order, after its `Name: message` header (which may hold lines like frames); none
 * when the message is not in the stack (changed after the error was made).
 */
function framesOf(stack: string, message: string, files: Files): (string | undefined)[] {
  const header = stack.indexOf(message);
  if (header === -1) return [];
  return stack
    .slice(header + message.length)
    .split('\n')
    .filter((line) => /^\s*at /.test(line))
    .map((line) => fileOf(line, files));
}

/** Whether `file` is under `root` and under no `node_modules` folder inside it. */
function isUnder(root: string, file: string | undefined, { path }: Files): boolean {
  if (file === undefined) return false;
  const inside = path.relative(root, file);
  return inside !== '' && !inside.startsWith('..') && !path.isAbsolute(inside) && !inside.split(path.sep).includes('node_modules');
}

/** The folder of the nearest `package.json` with a `name` above `file`, else `file`'s folder. */
function packageRootOf(file: string, { fs, path }: Files): string {
  const start = path.dirname(file);
  for (let dir = start; ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (typeof manifest.name === 'string') return dir;
    } catch {
      // no manifest here, or one without a name (dist/esm/package.json): look further up
    }
    if (path.dirname(dir) === dir) return start;
  }
}

/** `root` as an existing folder's real path; a TypeError naming `root` when it is none. */
function rootFolder(root: string, { fs, path }: Files): string {
  try {
    const dir = fs.realpathSync(path.resolve(root));
    if (fs.statSync(dir).isDirectory()) return dir;
  } catch {
    // not there: below
  }
  return fail('root', 'an existing folder', root);
}

/**
 * An opt-in rule for servers whose user-facing failures are `throw new Error('…')`: it shows the message of an error
 *
 * - whose class is exactly `Error` (not `TypeError`, `RangeError`, `SyntaxError`, `ReferenceError`, `AggregateError` or
 *   any subclass),
 * - with a message, and none of the fields of a system error (`code`, `errno`, `syscall`, `path`, `dest`, `address`, `port`),
 * - that carries no HTTP client's failed answer (a `response` with a status and headers, as an `Error` made to carry a
 *   fetch `Response` has): the HTTP rules show those, with their status and retry delay, whatever the rule order,
 * - made by the server's own code: the first frame of its stack lies in a file under the server's folder and under no
 *   `node_modules` inside it. The folder is `root`, or that of the nearest `package.json` above the file that called
 *   `ownErrorRule()`, which holds whether the server runs from a checkout, a build folder or an install under some
 *   `node_modules` (npx, a global install, a dependency). An error made by the runtime, a dependency or this package is
 *   not accepted.
 *
 * The text is the error's message, through the exit gate like every client text: scrubbed of secrets and bounded,
 * without internal hosts or source locations, an upstream 5xx answer's body cut; a message that carries a crash (it
 * quotes a runtime error, a stack frame, an HTML page or its own cause: "catch, add context, rethrow") is not shown
 * for being own, and the call is answered as a crash. Logged at warn with its stack, since it can still be a bug.
 * Status 500; failure code `own-error`, not retryable.
 *
 * A server bundled into one file (esbuild, wrangler) holds this package's code in the same file as its own, so the rule
 * cannot tell them apart and accepts nothing, unless Node maps the stack to the sources (`node --enable-source-maps`
 * with a source map). Where files cannot be read (Cloudflare Workers) it accepts nothing either. It never throws
 * after it is made.
 *
 * @param options - `root`, the server's own folder (see {@link OwnErrorRuleOptions})
 * @throws TypeError when an option is not valid (`root` not an existing folder)
 *
 * @example
 * ```ts
 * import { applyErrorPolicy, coreRules, createErrorPolicy, ownErrorRule } from 'mcp-error-policy';
 *
 * applyErrorPolicy(server, createErrorPolicy({ rules: [ownErrorRule(), ...coreRules] }));
 * // in a tool: throw new Error(`Entity with name ${name} not found`) reaches the client as it is
 * ```
 */
export function ownErrorRule(options: OwnErrorRuleOptions = {}): ErrorRule {
  if (!isRecord(options)) fail('options', 'an object', options);
  for (const key of Object.keys(options)) if (key !== 'root') throw new TypeError(`Unknown option \`${key}\`: expected root`);
  const { root } = options;
  if (root !== undefined && (typeof root !== 'string' || root === '')) fail('root', 'a non-empty string (a folder)', root);
  // no files to read (Cloudflare Workers): nothing is own
  const files = runtimeFiles();
  let own: string | undefined;
  if (files !== undefined) {
    // this function's own frame, then its caller's
    const [here, caller] = framesOf(new Error().stack ?? '', '', files);
    own = root !== undefined ? rootFolder(root, files) : caller === undefined ? undefined : packageRootOf(caller, files);
    // This package's code under the server's own folder: a bundle (or this package's own repository): nothing is own.
    if (own !== undefined && isUnder(own, here, files)) own = undefined;
  }
  return Object.freeze({
    name: 'own-error',
    predicate: (error: unknown) => {
      if (own === undefined || files === undefined || !isPlainError(error) || SYSTEM_FIELDS.some((field) => hasKey(error, field))) return false;
      if (httpAnswerOf(error) !== undefined) return false;
      const message = messageOf(error);
      return message !== '' && isUnder(own, framesOf(stackOf(error) ?? '', message, files)[0], files);
    },
    message: messageOf,
  });
}

let mainScriptRule: ErrorRule | undefined;

/**
 * Whether {@link ownErrorRule} would show `error` in the server started as `process.argv[1]` (rooted at that script's
 * package): report mode's advice, which has no call site of the user's to start from. The rule is made on first use;
 * it throws where there is no main script or no file system (report mode then gives no advice).
 */
export function ownErrorRuleWouldAccept(error: unknown): boolean {
  if (mainScriptRule === undefined) {
    const files = runtimeFiles() as Files;
    const main = (readProp(readProp(globalThis, 'process'), 'argv') as string[])[1] as string;
    mainScriptRule = ownErrorRule({ root: packageRootOf(files.fs.realpathSync(main), files) });
  }
  return mainScriptRule.predicate(error);
}

/**
 * Missing or unusable Application Default Credentials: google-auth-library's fixed messages, which it throws as plain
 * `Error`s (there is no auth error class to test for). Shown without file-system paths.
 *
 * Two of its failures carry none of its words: google-auth-library 9 throws `JSON.parse`'s bare `SyntaxError` for a
 * credential file that is not JSON (recognised by its stack, which runs through google-auth-library's
 * `auth/googleauth.js`), and a `keyFile` / `keyFilename` that does not exist is Node's own `ENOENT` from `open`
 * (recognised by the file's extension: `.json`, `.p12` or `.pem`, the key file formats GAL reads).
 *
 * The GOOGLE_APPLICATION_CREDENTIALS "file missing" error is Node's own ENOENT error (code, syscall `lstat`, path)
 * with GAL's text prepended to its message: a generic file-system rule accepts it too, so this rule must come before
 * one (`[...googleRules, ...coreRules]`).
 */
import { messageOf, readString, stackOf } from '../kit/read.js';
import type { ErrorRule } from '../rules/rule.js';
import { isGaxiosError } from './gaxios.js';

/** GAL's message prefix (10/11) for any failure to use the GOOGLE_APPLICATION_CREDENTIALS file. */
const GAC_PREFIX = 'Unable to read the credential file specified by the GOOGLE_APPLICATION_CREDENTIALS environment variable: ';

/** GAL's text for a credential file path that is not a file (its path sits between these two parts). */
const FILE_AT = 'The file at ';
const NOT_A_FILE = ' does not exist, or it is not a file.';

/** GAL's fixed ADC messages; shown as they are, on one line. */
const FIXED_PREFIXES = [
  'Could not load the default credentials.',
  'Unable to detect a Project Id in the current environment.',
  'Unable to find credentials in current environment.',
  'Unable to detect a Universe Domain in the current environment.',
] as const;

/** GAL's messages about the content of a credential file (no path in them). */
const CONTENT_PREFIXES = [
  'The incoming JSON object does not ',
  'Must pass in a JSON object containing ',
  'Must pass in a stream containing ',
] as const;

/** Error names GAL throws these as (a ToolError carrying the same words is someone's deliberate error, not GAL's). */
const GAL_NAMES = new Set(['Error', 'SyntaxError']);

/** Every prefix above in one anchored test: most messages are turned away at their first character. */
const KNOWN_PREFIX = new RegExp(
  `^(?:${[GAC_PREFIX, FILE_AT, ...FIXED_PREFIXES, ...CONTENT_PREFIXES].map((prefix) => prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`,
);

/** Longest message looked at. */
const MAX_LOOKED_AT = 4096;

/** The text of GAL 9 for its credential-file failures, which it words without the 10/11 prefix. */
const GAL9_FILE_PREFIX = 'Unable to read the Google credential file: ';

/** A stack frame in google-auth-library's `GoogleAuth` (any install name, such as `google-auth-library9`). */
const GOOGLE_AUTH_FRAME = /google-auth-library[^/\\\s]*[/\\]build[/\\]src[/\\]auth[/\\]googleauth\.js/;

/** Longest stack looked at. */
const MAX_STACK_LOOKED_AT = 8192;

/** The key file formats google-auth-library reads (`keyFile` / `keyFilename`). */
const KEY_FILE = /\.(?:json|p12|pem)$/i;

/**
 * True for google-auth-library 9's bare `SyntaxError` for a credential file that is not JSON: a `SyntaxError` without
 * GAL 10/11's prefix, thrown by `JSON.parse` inside GAL's `auth/googleauth.js` (its stack says so).
 */
function isGal9CredentialSyntaxError(error: unknown): boolean {
  if (readString(error, 'name') !== 'SyntaxError' || messageOf(error).startsWith(GAC_PREFIX)) return false;
  const stack = stackOf(error);
  return stack !== undefined && GOOGLE_AUTH_FRAME.test(stack.slice(0, MAX_STACK_LOOKED_AT));
}

/**
 * True for a `keyFile` / `keyFilename` that does not exist: Node's `ENOENT` error from `open` (named `Error`, string
 * `path`) for a `.json`, `.p12` or `.pem` file, which google-auth-library passes on as it is.
 */
function isMissingKeyFile(error: unknown): boolean {
  if (isGaxiosError(error) || readString(error, 'name') !== 'Error') return false;
  if (readString(error, 'code') !== 'ENOENT' || readString(error, 'syscall') !== 'open') return false;
  const path = readString(error, 'path');
  return path !== undefined && KEY_FILE.test(path);
}

function galMessage(error: unknown): string | undefined {
  // GAL's credential errors are plain Errors it throws itself, never the HTTP errors of gaxios.
  if (isGaxiosError(error)) return undefined;
  const name = readString(error, 'name');
  if (name === undefined || !GAL_NAMES.has(name)) return undefined;
  const message = messageOf(error);
  return message === '' ? undefined : message.slice(0, MAX_LOOKED_AT);
}

function isFileNotFound(text: string): boolean {
  return text.startsWith(FILE_AT) && text.includes(NOT_A_FILE);
}

function startsWithAny(text: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => text.startsWith(prefix));
}

/**
 * True for google-auth-library's "no usable default credentials" errors: `Could not load the default credentials...`,
 * `Unable to detect a Project Id...`, `Unable to find credentials...`, a GOOGLE_APPLICATION_CREDENTIALS file that is
 * missing, not JSON or incomplete (GAL 10/11 prefix `Unable to read the credential file specified by the
 * GOOGLE_APPLICATION_CREDENTIALS environment variable:`; GAL 9 `The file at <path> does not exist, or it is not a
 * file.`; GAL 9's bare `SyntaxError`, see the module comment), a missing `keyFile`, and credential JSON without a
 * required field (`The incoming JSON object does not contain a client_email field`). Only errors named `Error` or
 * `SyntaxError` count.
 */
function isMissingCredentialsError(error: unknown): boolean {
  if (isGal9CredentialSyntaxError(error) || isMissingKeyFile(error)) return true;
  const message = galMessage(error);
  if (message === undefined) return false;
  return KNOWN_PREFIX.test(message) && (!message.startsWith(FILE_AT) || isFileNotFound(message));
}

/** What went wrong with a credential file, in words without its path or content. */
function credentialFileProblem(error: unknown, rest: string): string {
  const code = readString(error, 'code');
  const codeNote = code !== undefined && /^E[A-Z]{2,15}$/.test(code) ? ` (${code})` : '';
  if (isFileNotFound(rest)) return `the file does not exist or is not a file${codeNote}.`;
  if (readString(error, 'name') === 'SyntaxError') return 'the file is not valid JSON.';
  if (startsWithAny(rest, CONTENT_PREFIXES)) return collapseWhitespace(rest);
  return `the file could not be used${codeNote}.`;
}

/** `text` with each whitespace run (newlines included) made one space, trimmed. */
function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Client text, GAL's own words without paths:
 * - `Could not load the default credentials. Browse to https://cloud.google.com/docs/authentication/getting-started for more information.`
 * - `Unable to detect a Project Id in the current environment. To learn more about authentication and Google APIs, visit: https://cloud.google.com/docs/authentication/getting-started`
 * - `Unable to read the credential file specified by the GOOGLE_APPLICATION_CREDENTIALS environment variable: the file does not exist or is not a file (ENOENT).`
 *   (`...: the file is not valid JSON.`, `...: The incoming JSON object does not contain a client_secret field`)
 * - GAL 9, missing file, and a missing `keyFile` (any version): `Unable to read the Google credential file: the file does not exist or is not a file (ENOENT).`
 * - GAL 9, a file that is not JSON: `Unable to read the Google credential file: the file is not valid JSON.`
 */
function missingCredentialsMessage(error: unknown): string {
  if (isGal9CredentialSyntaxError(error)) return `${GAL9_FILE_PREFIX}the file is not valid JSON.`;
  if (isMissingKeyFile(error)) return `${GAL9_FILE_PREFIX}the file does not exist or is not a file (ENOENT).`;
  const message = galMessage(error) ?? '';
  if (message.startsWith(GAC_PREFIX)) {
    return `${GAC_PREFIX}${credentialFileProblem(error, message.slice(GAC_PREFIX.length))}`;
  }
  if (isFileNotFound(message)) return `${GAL9_FILE_PREFIX}${credentialFileProblem(error, message)}`;
  if (startsWithAny(message, FIXED_PREFIXES) || startsWithAny(message, CONTENT_PREFIXES)) return collapseWhitespace(message);
  return 'Google credentials are missing or unusable.';
}

/**
 * Missing or unusable default credentials ({@link isMissingCredentialsError}): text as
 * {@link missingCredentialsMessage}, status 500 (the server's configuration, not the caller's sign-in), logged at
 * warn; failure code `missing_credentials`, not retryable. Place it before any generic file-system rule:
 * `[...googleRules, ...coreRules]`.
 */
export const googleMissingCredentialsRule: ErrorRule = Object.freeze({
  name: 'google-missing-credentials',
  predicate: isMissingCredentialsError,
  message: missingCredentialsMessage,
  status: 500,
  level: 'warn',
  failure: { code: 'missing_credentials', retryable: false },
});

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
import { googleRule, isGaxiosError } from './gaxios.js';

/** GAL's message prefix (10/11) for any failure to use the GOOGLE_APPLICATION_CREDENTIALS file. */
const GAC_PREFIX = 'Unable to read the credential file specified by the GOOGLE_APPLICATION_CREDENTIALS environment variable: ';

/** The text of GAL 9 for its credential-file failures, which it words without the 10/11 prefix. */
const GAL9_FILE_PREFIX = 'Unable to read the Google credential file: ';

/** GAL's text for a credential file path that is not a file (its path sits between these two parts). */
const FILE_AT = 'The file at ';
const NOT_A_FILE = ' does not exist, or it is not a file.';

/** GAL's messages about the content of a credential file (no path in them). */
const CONTENT_PREFIXES = [
  'The incoming JSON object does not ',
  'Must pass in a JSON object containing ',
  'Must pass in a stream containing ',
];

/** GAL's fixed ADC messages, and those about a file's content; shown as they are, on one line. */
const SHOWN_PREFIXES = [
  'Could not load the default credentials.',
  'Unable to detect a Project Id in the current environment.',
  'Unable to find credentials in current environment.',
  'Unable to detect a Universe Domain in the current environment.',
  ...CONTENT_PREFIXES,
];

/** Longest message looked at. */
const MAX_LOOKED_AT = 4096;

/** Longest stack looked at. */
const MAX_STACK_LOOKED_AT = 8192;

/** A stack frame in google-auth-library's `GoogleAuth` (any install name, such as `google-auth-library9`). */
const GOOGLE_AUTH_FRAME = /google-auth-library[^/\\\s]*[/\\]build[/\\]src[/\\]auth[/\\]googleauth\.js/;

/** The key file formats google-auth-library reads (`keyFile` / `keyFilename`). */
const KEY_FILE = /\.(?:json|p12|pem)$/i;

/** GAL 9's text for a credential file path that is not a file: `The file at <path> does not exist, or it is not a file.` */
function isFileNotFound(text: string): boolean {
  return text.startsWith(FILE_AT) && text.includes(NOT_A_FILE);
}

function startsWithAny(text: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => text.startsWith(prefix));
}

/** `text` with each whitespace run (newlines included) made one space, trimmed. */
function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** What went wrong with a credential file, in words without its path or content (`rest`: GAL's words about it). */
function fileProblem(error: unknown, rest: string): string {
  const code = readString(error, 'code');
  const codeNote = code !== undefined && /^E[A-Z]{2,15}$/.test(code) ? ` (${code})` : '';
  if (isFileNotFound(rest)) return `the file does not exist or is not a file${codeNote}.`;
  if (readString(error, 'name') === 'SyntaxError') return 'the file is not valid JSON.';
  if (startsWithAny(rest, CONTENT_PREFIXES)) return collapseWhitespace(rest);
  return `the file could not be used${codeNote}.`;
}

/**
 * The client text of google-auth-library's "no usable default credentials" errors, GAL's own words without paths;
 * `undefined` for any other value. Only errors named `Error` or `SyntaxError` count.
 * - `Could not load the default credentials. Browse to https://cloud.google.com/docs/authentication/getting-started for more information.`
 *   (and `Unable to detect a Project Id...`, `Unable to find credentials...`, `Unable to detect a Universe Domain...`)
 * - A GOOGLE_APPLICATION_CREDENTIALS file that is missing, not JSON or incomplete (GAL 10/11):
 *   `Unable to read the credential file specified by the GOOGLE_APPLICATION_CREDENTIALS environment variable: the file does not exist or is not a file (ENOENT).`
 *   (`...: the file is not valid JSON.`, `...: The incoming JSON object does not contain a client_secret field`)
 * - GAL 9, missing file (`The file at <path> does not exist, or it is not a file.`), and a missing `keyFile` (any
 *   version): `Unable to read the Google credential file: the file does not exist or is not a file (ENOENT).`
 * - GAL 9, a file that is not JSON (its bare `SyntaxError`, see the module comment):
 *   `Unable to read the Google credential file: the file is not valid JSON.`
 * - Credential JSON without a required field: `The incoming JSON object does not contain a client_email field`.
 */
function missingCredentialsText(error: unknown): string | undefined {
  const name = readString(error, 'name');
  const message = messageOf(error).slice(0, MAX_LOOKED_AT);
  if (name === 'SyntaxError' && !message.startsWith(GAC_PREFIX) && GOOGLE_AUTH_FRAME.test(stackOf(error)?.slice(0, MAX_STACK_LOOKED_AT) ?? '')) {
    return `${GAL9_FILE_PREFIX}the file is not valid JSON.`;
  }
  // GAL's credential errors are plain Errors it throws itself, never the HTTP errors of gaxios.
  if (isGaxiosError(error)) return undefined;
  const path = readString(error, 'path');
  if (name === 'Error' && readString(error, 'code') === 'ENOENT' && readString(error, 'syscall') === 'open' && path !== undefined && KEY_FILE.test(path)) {
    return `${GAL9_FILE_PREFIX}the file does not exist or is not a file (ENOENT).`;
  }
  if (name !== 'Error' && name !== 'SyntaxError') return undefined;
  if (message.startsWith(GAC_PREFIX)) return GAC_PREFIX + fileProblem(error, message.slice(GAC_PREFIX.length));
  if (isFileNotFound(message)) return GAL9_FILE_PREFIX + fileProblem(error, message);
  return startsWithAny(message, SHOWN_PREFIXES) ? collapseWhitespace(message) : undefined;
}

/**
 * Missing or unusable default credentials ({@link missingCredentialsText}): text as it, status 500 (the server's
 * configuration, not the caller's sign-in), logged at warn; failure code `missing_credentials`, not retryable. Place it
 * before any generic file-system rule: `[...googleRules, ...coreRules]`.
 */
export const googleMissingCredentialsRule = googleRule({
  name: 'google-missing-credentials',
  predicate: (error) => missingCredentialsText(error) !== undefined,
  message: (error) => missingCredentialsText(error) ?? 'Google credentials are missing or unusable.',
  status: 500,
  failure: { code: 'missing_credentials', retryable: false },
});

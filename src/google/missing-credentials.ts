/**
 * Missing or unusable Application Default Credentials: google-auth-library's fixed messages, which it throws as plain
 * `Error`s (there is no auth error class to test for). Shown without file-system paths.
 *
 * Two of its failures carry none of its words: google-auth-library 9 throws `JSON.parse`'s bare `SyntaxError` for a
 * credential file that is not JSON (recognised by its stack, which runs through google-auth-library's
 * `auth/googleauth.js`, or gtoken's `index.js` for a `keyFile`), and a `keyFile` / `keyFilename` that does not exist
 * is Node's own `ENOENT` from `open` (recognised by the file's extension: `.json`, `.p12` or `.pem`, the key file
 * formats GAL reads).
 *
 * A service account's key that is there but unusable fails when the first token is signed, as measured on GAL 9, 10
 * and 11 (gtoken 7 in 9, its copy inside 10 and 11): a key file without `private_key` or `client_email` throws gtoken's
 * `private_key and client_email are required.`; a key file that is not JSON, gtoken's `SyntaxError` (GAL 9) or
 * `Invalid JSON key file: <the parser's words, quoting the file>` (10, 11); a private key that is not one, Node's
 * OpenSSL error (`error:1E08010C:DECODER routines::unsupported`, code `ERR_OSSL_UNSUPPORTED`) from signing the JWT,
 * whose stack runs through gtoken or GAL's `auth/jwtaccess.js` (self-signed JWTs, without scopes); and a missing
 * private key there, jwa's `TypeError: key must be a string, a buffer or an object`. Each is the server's
 * configuration: this rule's fixed texts, never the key, the parser's quote of the file, or the path.
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

/**
 * A stack frame in google-auth-library's `GoogleAuth` (any install name, such as `google-auth-library9`), or in
 * gtoken's `index.js`, where GAL 9 parses a `keyFile`: where a credential file's JSON is parsed.
 */
const GOOGLE_AUTH_FRAME = /google-auth-library[^/\\\s]*[/\\]build[/\\]src[/\\]auth[/\\]googleauth\.js|gtoken[^/\\\s]*[/\\]build[/\\]src[/\\]index\.js/;

/** A stack frame in the code that reads and signs with a service account's key: gtoken's (GAL 9) or GAL's own copy. */
const SERVICE_ACCOUNT_KEY_FRAME =
  /gtoken[^/\\\s]*[/\\]build[/\\]src[/\\]index\.js|google-auth-library[^/\\\s]*[/\\]build[/\\]src[/\\](?:gtoken[/\\][\w.-]+|auth[/\\]jwtaccess)\.js/;

/** gtoken's fixed messages about a service account's key (GAL 9's gtoken 7, and its copy inside GAL 10 and 11). */
const KEY_MESSAGES = new Set([
  'private_key and client_email are required.',
  'email is required.',
  'No key or keyFile set.',
  'use key rather than keyFile.',
  '*.p12 certificates are not supported after v6.1.2. Consider utilizing *.json format or converting *.p12 to *.pem using the OpenSSL CLI.',
  'Unknown certificate type. Type is determined based on file extension. Current supported extensions are *.json, and *.pem.',
]);

/** GAL 10/11's message for a key file that is not JSON; the parser's words after it quote the file. */
const INVALID_JSON_KEY_FILE = 'Invalid JSON key file: ';

/** What the client is told of a service account's key that cannot be used, before what is wrong with it. */
const KEY_PREFIX = 'The Google service account key cannot be used: ';

/** jwa's message when the key to sign with is missing (`undefined`), a `TypeError`. */
const NO_SIGNING_KEY = 'key must be a string, a buffer or an object';

/** The code of an OpenSSL error Node throws, such as `ERR_OSSL_UNSUPPORTED`. */
const OPENSSL_CODE = /^ERR_OSSL_[A-Z0-9_]{1,64}$/;

/** The key file formats google-auth-library reads (`keyFile` / `keyFilename`). */
const KEY_FILE = /\.(?:json|p12|pem)$/i;

/**
 * The client text of a service account's key that cannot be used (see the module comment), or `undefined`:
 * - a key file that is not JSON (gtoken's `SyntaxError` in GAL 9, `Invalid JSON key file: …` in 10 and 11):
 *   `Unable to read the Google credential file: the file is not valid JSON.`
 * - gtoken's fixed messages: `The Google service account key cannot be used: private_key and client_email are required.`
 * - a private key OpenSSL cannot read, thrown while gtoken or GAL signs with it:
 *   `The Google service account key cannot be used: its private key is not a valid private key (ERR_OSSL_UNSUPPORTED).`
 * - no private key where GAL signs a self-signed JWT (jwa's `TypeError`):
 *   `The Google service account key cannot be used: its private key is missing.`
 */
function serviceAccountKeyText(error: unknown, name: string | undefined, message: string): string | undefined {
  if (name === 'Error' && KEY_MESSAGES.has(message)) return KEY_PREFIX + message;
  if (name === 'Error' && message.startsWith(INVALID_JSON_KEY_FILE)) return `${GAL9_FILE_PREFIX}the file is not valid JSON.`;
  const code = readString(error, 'code');
  const signing = (name === 'Error' && code !== undefined && OPENSSL_CODE.test(code)) || (name === 'TypeError' && message === NO_SIGNING_KEY);
  if (!signing || !SERVICE_ACCOUNT_KEY_FRAME.test(stackOf(error)?.slice(0, MAX_STACK_LOOKED_AT) ?? '')) return undefined;
  return name === 'TypeError' ? `${KEY_PREFIX}its private key is missing.` : `${KEY_PREFIX}its private key is not a valid private key (${code}).`;
}

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
 * - A service account's key that cannot be used (see {@link serviceAccountKeyText}).
 */
function missingCredentialsText(error: unknown): string | undefined {
  const name = readString(error, 'name');
  const message = messageOf(error).slice(0, MAX_LOOKED_AT);
  if (name === 'SyntaxError' && !message.startsWith(GAC_PREFIX) && GOOGLE_AUTH_FRAME.test(stackOf(error)?.slice(0, MAX_STACK_LOOKED_AT) ?? '')) {
    return `${GAL9_FILE_PREFIX}the file is not valid JSON.`;
  }
  // GAL's credential errors are plain Errors it throws itself, never the HTTP errors of gaxios.
  if (isGaxiosError(error)) return undefined;
  const key = serviceAccountKeyText(error, name, message);
  if (key !== undefined) return key;
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
 * Missing or unusable default credentials, or a service account's key that cannot be used
 * ({@link missingCredentialsText}): text as it, status 500 (the server's configuration, not the caller's sign-in: no
 * re-authorization text), logged at warn; failure code `missing_credentials`, not retryable. Place it before any
 * generic file-system rule: `[...googleRules, ...coreRules]`.
 */
export const googleMissingCredentialsRule = googleRule({
  name: 'google-missing-credentials',
  predicate: (error) => missingCredentialsText(error) !== undefined,
  message: (error) => missingCredentialsText(error) ?? 'Google credentials are missing or unusable.',
  status: 500,
  failure: { code: 'missing_credentials', retryable: false },
});

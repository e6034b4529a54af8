/**
 * Text primitives shared by every part of the policy (the Google entry included): the mark that stands in for a
 * secret, the length bound, and quoting on one line. What makes a text safe (scrubbing) is in scrub.ts.
 */

/**
 * What replaces a secret.
 * @example
 * ```ts
 * scrubSecrets('?key=AIza...').includes(REDACTED); // true
 * ```
 */
export const REDACTED = '[REDACTED]';

/** Cuts `text` to at most `max` characters (UTF-16 units), marking the cut with an ellipsis, never splitting a surrogate pair. */
export function boundLength(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return text.slice(0, Math.max(0, max));
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** The run of token characters (or half a surrogate pair) that ends a text, after other text. */
const LAST_TOKEN = /(?<=[^A-Za-z0-9+=_.~*•%\ud800-\udbff-])[A-Za-z0-9+=_.~*•%\ud800-\udbff-]+$/;

/** Longest head of a secret that its shape may not recognise (every shape needs fewer characters). */
const MAX_UNRECOGNISED_HEAD = 128;

/**
 * Marks text that was cut before it was scrubbed: the token the cut split goes too when it is short (the head of a
 * secret may be too short to be recognised), then an ellipsis. A longer one, or a text that is one token, keeps its
 * head: every secret shape recognises a head that long.
 */
export function endCut(text: string): string {
  return `${text.replace(LAST_TOKEN, (head) => (head.length > MAX_UNRECOGNISED_HEAD ? head : ''))}…`;
}

/** Longest server-written message kept, in characters. */
export const MAX_SERVER_TEXT = 1000;

/**
 * Server-written text as one line: whitespace runs (newlines included) and control characters become one space, and
 * the result is bounded to `max` characters (see {@link endCut}: it is scrubbed later). `undefined` for no text or only
 * whitespace. Only a bounded prefix is looked at, so a 10 MB message costs no more than a short one.
 */
export function serverTextLine(text: string | undefined, max = MAX_SERVER_TEXT): string | undefined {
  if (text === undefined) return undefined;
  const head = text.length > max * 4 ? text.slice(0, max * 4).replace(/[\ud800-\udbff]$/, '') : text;
  // eslint-disable-next-line no-control-regex
  const line = head.replace(/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  if (line === '') return undefined;
  return line.length <= max ? line : endCut(line.slice(0, Math.max(0, max - 1)));
}

/** `text` ending with a full stop (`.`, `!` or `?`): as it is, or with `.` added, so that another sentence may follow. */
export function asSentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** C1 controls, DEL and the Unicode line separators, which JSON.stringify leaves as they are. */
const UNQUOTED_CONTROLS = /[\u007f-\u009f\u2028\u2029]/g;

/** `\u001b` for ESC: one character as a JSON-style escape. */
function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Quotes text that is already safe (see {@link safeText}) on one physical line, in double quotes. */
export function quoteLine(safe: string): string {
  return JSON.stringify(safe).replace(UNQUOTED_CONTROLS, unicodeEscape);
}

/** Escapes control characters in a line that is not quoted (stack frames), so that it stays one line. */
export function escapeControls(line: string): string {
  // eslint-disable-next-line no-control-regex
  return line.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, unicodeEscape);
}

/**
 * Message safety: every piece of text that leaves the policy, for the client or for a log, passes through here.
 * Secrets are scrubbed, length is bounded, and log values are quoted on one line.
 */
import { valueFor } from './kit/read.js';
import { REDACTED, boundLength, quoteLine } from './text.js';

/** How much text around the bound is scrubbed, so that a secret crossing the cut is still recognised. */
const SCRUB_MARGIN = 512;

/** Query, form and JSON keys whose values are credentials. */
const SECRET_KEYS =
  'key|api_key|apikey|access_token|refresh_token|id_token|client_secret|token|password|passwd|secret|assertion|code_verifier|x-goog-api-key|' +
  'sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token';

/**
 * Patterns of credentials, each replaced as a whole (or its value part).
 * Order matters: header and key=value forms run before the bare token shapes.
 */
const SECRET_PATTERNS: readonly (readonly [RegExp, string])[] = [
  // Authorization / Proxy-Authorization / X-Goog-Api-Key / Cookie headers, in "Name: value" or JSON "name":"value" form.
  [/((?:proxy-)?authorization|x-goog-api-key|x-api-key|cookie|set-cookie)(["']?\s*[:=]\s*["']?)[^"'\r\n,}]+/gi, `$1$2${REDACTED}`],
  // Bearer / Basic credentials wherever they stand.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{4,}/gi, `$1 ${REDACTED}`],
  // key=value in URLs and form bodies.
  [new RegExp(`(^|[^A-Za-z0-9_-])(${SECRET_KEYS})=[^&\\s#"'<>()[\\]{},;]+`, 'gi'), `$1$2=${REDACTED}`],
  // "key": "value" in JSON.
  [new RegExp(`("(?:${SECRET_KEYS})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi'), `$1"${REDACTED}"`],
  // key: 'value' and 'key' => 'value' as util.inspect prints objects and URLSearchParams.
  [new RegExp(`((?<![A-Za-z0-9_-])['"]?(?:${SECRET_KEYS})['"]?\\s*(?::|=>)\\s*)'(?:[^'\\\\]|\\\\.)*'`, 'gi'), `$1'${REDACTED}'`],
  // Google OAuth client secrets.
  [/(?<![A-Za-z0-9_-])GOCSPX-[A-Za-z0-9_-]+/g, REDACTED],
  // JSON Web Tokens (header.payload[.signature]).
  // (Each start is anchored by a look-behind, so a long run of token characters costs linear time, not quadratic.)
  [/(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{2,}\.eyJ[A-Za-z0-9_-]{2,}(?:\.[A-Za-z0-9_-]*)?/g, REDACTED],
  // Google OAuth access tokens.
  [/ya29\.[A-Za-z0-9._-]+/g, REDACTED],
  // Google OAuth refresh tokens.
  [/1\/\/[A-Za-z0-9._-]{6,}/g, REDACTED],
  // Google API keys.
  [/AIza[A-Za-z0-9_-]{20,}/g, REDACTED],
  // Stripe secret and restricted keys (sk_live_, sk_test_, rk_live_, rk_test_).
  [/(?<![A-Za-z0-9_-])[sr]k_(?:live|test)_[A-Za-z0-9]{8,}/g, REDACTED],
  // OpenAI (sk-, sk-proj-, sk-svcacct-, sk-admin-) and Anthropic (sk-ant-) API keys.
  [/(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{16,}/g, REDACTED],
  // Slack tokens (xoxb-, xoxp-, xoxa-, xoxo-, xoxr-, xoxs-, xoxe-) and app-level tokens (xapp-).
  [/(?<![A-Za-z0-9_-])(?:xox[abeoprs]|xapp)-[A-Za-z0-9-]{6,}/g, REDACTED],
  // GitHub tokens: classic and OAuth/app/refresh (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained (github_pat_).
  [/(?<![A-Za-z0-9_-])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g, REDACTED],
  // Notion integration tokens (ntn_, and the older secret_ of 43 characters).
  [/(?<![A-Za-z0-9_-])(?:ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43,})/g, REDACTED],
  // AWS access key ids (long-term AKIA, temporary ASIA).
  [/(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g, REDACTED],
  // Userinfo in URLs: scheme://user:password@host.
  [/((?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi, `$1${REDACTED}@`],
];

/** A secret key's name followed by `=`, `:`, `=>` or a quote (after an optional quote and spaces). */
const KEY_VALUE = `['"]?\\s*(?:[=:"']|=>)`;
/** A header's name followed by `:` or `=`. */
const HEADER_VALUE = `["']?\\s*[:=]`;

/**
 * What every pattern above needs somewhere in the text: a header name followed by `:` or `=`, `bearer`/`basic` and a
 * space, a secret key's name followed by `=`, `:`, `=>` or a quote (every key of SECRET_KEYS ends with one of the
 * names listed here), the prefix of a token shape, or user info in a URL. Text with none of them holds nothing the
 * patterns could replace and skips them: most client texts and stack frames. A property test holds it to that.
 * It earns its place on the success path too: with `onOutcome` set, every call's name is scrubbed (about 1.3 µs a
 * call through all the patterns, against under 0.1 µs with this test first).
 * Branches are grouped by their first letter, which the regular expression engine then tests once.
 */
const SECRET_HINT = new RegExp(
  [
    `a(?:uthorization${HEADER_VALUE}|ssertion${KEY_VALUE}|iza)`,
    `b(?:earer|asic)\\s`,
    `c(?:ookie${HEADER_VALUE}|ode_verifier${KEY_VALUE})`,
    'eyj',
    'gocspx-',
    `key${KEY_VALUE}`,
    `passw(?:or)?d${KEY_VALUE}`,
    `s(?:ecret(?:_|${KEY_VALUE})|ig(?:nature)?${KEY_VALUE}|k[-_])`,
    'ntn_',
    `credential${KEY_VALUE}`,
    'rk_',
    'xox[abeoprs]-',
    'xapp-',
    'gh[pousr]_',
    'github_pat_',
    'akia',
    'asia',
    `token${KEY_VALUE}`,
    `x-(?:goog-)?api-key${HEADER_VALUE}`,
    'ya29\\.',
    '1//',
    '://[^/\\s:@]+:[^/\\s@]+@',
  ].join('|'),
  'i',
);

/**
 * Replaces every known credential shape in `text` with `[REDACTED]`.
 * @example
 * ```ts
 * scrubSecrets('GET /v1/files?key=AIzaSyA1234567890abcdefghijklmnopqrstu'); // 'GET /v1/files?key=[REDACTED]'
 * ```
 */
export function scrubSecrets(text: string): string {
  return SECRET_HINT.test(text) ? applySecretPatterns(text) : text;
}

/** Every secret pattern, with no shortcut (exported for the property test that checks {@link SECRET_HINT}). */
export function applySecretPatterns(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) {
    out = out.replace(pattern, replacement);
  }
  return out;
}

/**
 * Makes text safe to show or log: bounded before scrubbing (so a 10 MB message costs no more than a short one),
 * scrubbed of secrets, passed through the policy's own redactor, then bounded to `max`.
 */
export function safeText(text: string, max: number, redact?: (text: string) => string): string {
  let out = text.length > max + SCRUB_MARGIN ? text.slice(0, max + SCRUB_MARGIN) : text;
  out = scrubSecrets(out);
  if (redact !== undefined) out = applyRedactor(out, redact);
  return boundLength(out, max);
}

/** The redactor's text; a redactor that fails (or returns no text) must not let the unredacted text through. */
function applyRedactor(text: string, redact: (text: string) => string): string {
  const out = valueFor(redact, text);
  return typeof out === 'string' ? out : REDACTED;
}

/**
 * Quotes a peer-supplied or error-supplied value for a log line: one physical line (newlines, ANSI escapes and other
 * controls escaped), bounded, scrubbed, in double quotes.
 */
export function quoteForLog(text: string, max: number, redact?: (text: string) => string): string {
  return quoteLine(safeText(text, max, redact));
}

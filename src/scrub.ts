/**
 * Message safety: every piece of text that leaves the policy, for the client or for a log, passes through here.
 * Secrets are scrubbed, length is bounded, and log values are quoted on one line.
 */
import { valueFor } from './kit/read.js';
import { REDACTED, boundLength, endCut, quoteLine } from './text.js';

/** How much text around the bound is scrubbed, so that a secret crossing the cut is still recognised. */
const SCRUB_MARGIN = 512;

/**
 * Query, form and JSON keys whose values are credentials (the AWS SDK's `secretAccessKey` and `sessionToken`, Azure's
 * `AccountKey` and `SharedAccessKey` of connection strings, a service account's `private_key` included).
 */
const SECRET_KEYS =
  'key|api_key|apikey|access_token|refresh_token|id_token|client_secret|private_key|token|password|passwd|secret|assertion|code_verifier|' +
  'x-goog-api-key|sig|signature|credential|x-amz-signature|x-amz-credential|x-amz-security-token|' +
  '(?:aws_)?secret_access_key|secretaccesskey|(?:aws_)?session_token|sessiontoken|accountkey|sharedaccesskey';

/**
 * Credentials with a prefix of their own, as secret scanners list them (gitleaks' rules): Google OAuth client secrets,
 * JWTs, Stripe (`sk_live_`, `rk_test_`, `whsec_`), OpenAI and Anthropic (`sk-`), Slack, GitHub, Notion, GitLab, npm,
 * Hugging Face, Linear, Shopify, SendGrid, Twilio API keys, Databricks, Doppler, PyPI, DigitalOcean, Postman,
 * Atlassian, Groq, Sentry, Grafana, HashiCorp Vault, Supabase, Replicate, New Relic, Figma, Square, Mailgun, Pulumi,
 * xAI, Perplexity and age (Azure AD client secrets, `xxx8Q~…`, have a pattern of their own). Each is long enough that no word is taken for one.
 */
const PREFIXED_TOKENS = [
  'GOCSPX-[A-Za-z0-9_-]+',
  'eyJ[A-Za-z0-9_-]{2,}\\.eyJ[A-Za-z0-9_-]{2,}(?:\\.[A-Za-z0-9_-]+)?',
  '[sr]k_(?:live|test)_[A-Za-z0-9]{8,}',
  'whsec_[A-Za-z0-9]{24,}',
  'sk-[A-Za-z0-9_-]{16,}',
  '(?:xox[abeoprs]|xapp)-[A-Za-z0-9-]{6,}',
  'gh[pousr]_[A-Za-z0-9]{20,}',
  'github_pat_[A-Za-z0-9_]{20,}',
  'ntn_[A-Za-z0-9]{40,}',
  'secret_[A-Za-z0-9]{43,}',
  'gl(?:pat|dt|rt|ptt|oas|cbt|ft|imt|agent|soat|ffct)-[A-Za-z0-9_-]{20,}',
  'npm_[A-Za-z0-9]{36,}',
  '(?:hf|api_org)_[A-Za-z0-9]{30,}',
  'lin_(?:api|oauth)_[A-Za-z0-9]{32,}',
  'shp(?:at|ss|ca|pa)_[A-Fa-f0-9]{32,}',
  'SG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}',
  'SK[0-9a-fA-F]{32}',
  'dapi[a-f0-9]{32}(?:-\\d)?',
  'dp\\.(?:pt|st|ct|sa|scim|audit)\\.[A-Za-z0-9]{40,}',
  'pypi-AgE[A-Za-z0-9_-]{50,}',
  'do[opr]_v1_[a-f0-9]{64}',
  'PMAK-[a-f0-9]{24}-[a-f0-9]{34}',
  'ATATT3[A-Za-z0-9_=-]{100,}',
  'gsk_[A-Za-z0-9]{40,}',
  'sntry[su]_[A-Za-z0-9+/=_-]{40,}',
  'glc_[A-Za-z0-9+/]{32,}={0,2}',
  'glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}',
  'hv[sb]\\.[A-Za-z0-9_-]{24,}',
  'sbp_[a-f0-9]{40}',
  'sb_secret_[A-Za-z0-9_-]{20,}',
  'r8_[A-Za-z0-9]{37}',
  'NRAK-[A-Z0-9]{27}',
  'figd_[A-Za-z0-9_-]{40,}',
  'sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}',
  'key-[a-f0-9]{32}',
  'pul-[a-f0-9]{40}',
  'xai-[A-Za-z0-9]{60,}',
  'pplx-[A-Za-z0-9]{40,}',
  'AGE-SECRET-KEY-1[A-Z0-9]{58}',
].join('|');

/**
 * Three or more mask characters (`*` or `•`), then maybe `...` or `…` and more of them, or the key's visible tail (an
 * ellipsis that ends the mask is a sentence's, and stays).
 */
const MASK = '[*•]{3,}(?:(?:\\.{3}|…)(?=[*•A-Za-z0-9_-])[*•]*)?';
/** A key shown half-masked: a visible head and/or tail around the mask. */
const MASKED = `[A-Za-z0-9_-]+${MASK}[A-Za-z0-9_-]*|${MASK}[A-Za-z0-9_-]+`;

/** A secret key's name followed by `=`, `:`, `=>` or a quote (after an optional quote and spaces). */
const KEY_VALUE = `['"]?\\s*(?:[=:"']|=>)`;
/** A header's name followed by `:` or `=`. */
const HEADER_VALUE = `["']?\\s*[:=]`;
/**
 * What follows a context word (or a secret key's or header's name) in every pattern that reads one: maybe a plural
 * `s`, then a quote, a space, `:` or `=` (KEY_VALUE and HEADER_VALUE start with one of these too). A name that ends
 * the text or runs on (`get_api_key`, `tokens_used`) holds no value.
 */
const WORD_END = `s?["'\\x60\\s:=]`;

/**
 * Template placeholders a value may be, kept whole by the value patterns so that they are seen as placeholders (the
 * characters of `${TOKEN}`, `{{token}}` and `<token>` end an ordinary value).
 */
const BRACKETED = '\\$\\{[^{}\\s]*\\}|\\{\\{[^{}]*\\}\\}|<[^<>\\s]*>';

/**
 * What documentation and templates write where a credential goes: `<token>`, `${TOKEN}`, `{{token}}`, `xxxx`, `***`,
 * `...`, `YOUR_API_KEY`, `your-token-here`, `changeme`, alone or after an auth scheme (`Bearer <token>`), and
 * `[REDACTED]` alone (so that scrubbing twice changes nothing; a header's `Bearer [REDACTED]`, which the context rule
 * leaves, becomes `[REDACTED]` as a header's value always does). The patterns leave such a value as it is: it is no
 * secret, and it tells the reader what was missing.
 */
const PLACEHOLDER = new RegExp(
  `^\\[REDACTED\\]$|^(?:(?:bearer|basic|token)\\s+)?(?:${BRACKETED}|<[^<>]*>|x{3,}|[*•]{3,}|\\.{3}|…|your[-_]?[a-z]+(?:[-_][a-z]+)*|[a-z]+(?:[-_][a-z]+)*[-_]here|change[-_]?me)$`,
  'i',
);

/** True for a value that is a placeholder (see {@link PLACEHOLDER}) or empty: nothing to redact. */
function isPlaceholder(value: string): boolean {
  return value === '' || PLACEHOLDER.test(value);
}

/**
 * The replacement of the value patterns: the first group (the key, header name, scheme, separator) stays, the second
 * (the value, never the punctuation after it) becomes `[REDACTED]`, unless it is a placeholder.
 */
function redactValue(match: string, kept: string, value: string): string {
  return isPlaceholder(value) ? match : `${kept}${REDACTED}`;
}

/**
 * The words next to which a random-looking token is taken for a credential (the context rule): each as written in
 * lower case, capitalised (the end of a camelCase name: `apiKey`, `githubToken`) and in upper case (`OPENAI_API_KEY`).
 * `passwd` and `password` both; a plural too (`credentials`).
 */
const CONTEXT_WORDS = ['key', 'token', 'secret', 'password', 'passwd', 'authorization', 'credential', 'bearer'];
/** Words joined to a context word without a separator, in lower or upper case: `apikey`, `accesstoken`, `APIKEY`. */
const JOINED_HEADS = ['api', 'access', 'auth', 'client', 'secret', 'private', 'session', 'refresh', 'id', 'app', 'bot', 'user', 'signing'];

/**
 * A context word as a whole word, or as the last part of a name: `api_key`, `x-api-key`, `process.env.API_KEY`
 * (parts joined by `_`, `-` or `.`), `apiKey`, `apikey`. Not `monkey`, `keyboard`, `tokens_used` or `key-value`.
 */
function contextWord(): string {
  const capitalised = CONTEXT_WORDS.map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`);
  const lower = `(?:${JOINED_HEADS.join('|')})?(?:${CONTEXT_WORDS.join('|')})`;
  const upper = `(?:${JOINED_HEADS.join('|').toUpperCase()})?(?:${CONTEXT_WORDS.join('|').toUpperCase()})`;
  return `(?:[A-Za-z0-9]+[_.-])*(?:${lower}|[A-Za-z0-9]*(?:${capitalised.join('|')})|${upper})[sS]?(?![A-Za-z0-9])`;
}

/**
 * The context rule, as gitleaks' generic-api-key and detect-secrets' keyword detector have it: a context word, then
 * its value (`=`, `:`, `=>`, `:=`, after an optional quote) or up to three short words (`API key provided:`,
 * `token for user`), then maybe a quote or `(`, then a candidate: 16 or more characters of `[A-Za-z0-9_\-.+/=~]` (a
 * trailing `.` is the sentence's). {@link looksRandom} decides whether the candidate is a credential.
 * Linear by construction: a match starts only where a run of token characters starts (the look-behind), so each run
 * is read from one start; every quantifier between the word and the candidate is bounded, so only the few words
 * within three words of a run can read it; and the candidate run is greedy and ends the match, so no start reads
 * another's run again. A megabyte of token characters after `token ` costs one pass.
 */
function contextPattern(): RegExp {
  const separator = `(?:["'\\x60]?[ \\t]{0,8}(?::=|=>|:{1,2}|=)[ \\t]{0,8}|[ \\t]{1,8})`;
  const words = `(?:[A-Za-z0-9_-]{1,15}[,:]?[ \\t]{1,8}){0,3}`;
  return new RegExp(`((?<![A-Za-z0-9_.+/=~-])${contextWord()}${separator}${words}["'\\x60(]?)([A-Za-z0-9_\\-.+/=~]{15,}[A-Za-z0-9_\\-+/=~])`, 'g');
}

/** Least Shannon entropy of a credential found by its context, in bits per character (see {@link looksRandom}). */
const MIN_BITS_PER_CHARACTER = 2.5;
/** Least length of a run of letters and digits that mixes both, in a credential found by its context. */
const MIN_MIXED_RUN = 8;
/** A file name's extension, which ends a file name or path a context word may stand before (`key file app-8f3a2b1c.pem`). */
const FILE_EXTENSION = /\.[a-z]{2,4}$/;

/**
 * True for a candidate of the context rule that looks like a generated credential rather than a word, a name or an
 * id: at least 16 characters, a run of at least 8 letters and digits that holds both (random tokens have one; names
 * such as `service-account-main`, `my-project-123456` or `projects/123/secrets/db/versions/3` do not), at least 2.5
 * bits of Shannon entropy per character (a random 16-digit hex key has 2.5 or more 999 times in 1000; `aaaa…1` has
 * 0.3), and no file extension at its end.
 */
function looksRandom(candidate: string): boolean {
  return (
    candidate.length >= 16 &&
    candidate.split(/[^A-Za-z0-9]+/).some((run) => run.length >= MIN_MIXED_RUN && /\d/.test(run) && /[A-Za-z]/.test(run)) &&
    bitsPerCharacter(candidate) >= MIN_BITS_PER_CHARACTER &&
    !FILE_EXTENSION.test(candidate)
  );
}

/** Shannon entropy of `text` (ASCII, as every candidate is), in bits per character. */
function bitsPerCharacter(text: string): number {
  const counts = new Uint32Array(128);
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i) & 127;
    counts[code] = (counts[code] ?? 0) + 1;
  }
  let bits = 0;
  for (const count of counts) {
    if (count === 0) continue;
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

type Replacement = string | ((match: string, kept: string, value: string) => string);
type SecretPattern = readonly [pattern: RegExp, replacement: Replacement, only?: RegExp];

interface Scrubbing {
  /**
   * Patterns of credentials, each replaced as a whole (or its value part); one with a third member is tried only on text
   * that this matches (a character it cannot do without): a pattern that may start at every word reads every word to
   * its end, ten times the cost of finding one character.
   * Order matters: private keys first (their base64 may hold anything), then the context rule, then header and
   * key=value forms, then the bare token shapes. Each start is anchored by a
   * look-behind (or a fixed prefix), so a long run of token characters costs linear time, not quadratic.
   * A value never takes the punctuation after it: `token=abc: next` keeps `: next`; values end before a trailing `.`,
   * `,`, `;`, `:`, `)` or quote.
   */
  readonly patterns: readonly SecretPattern[];
  /**
   * What every pattern above needs somewhere in the text: a context word (`key`, `token`, `secret`, `passwd` or
   * `password`, `authorization`, `credential`, `bearer`: every key of SECRET_KEYS and every token header but the few
   * listed here holds one), a header name followed by `:` or `=`, `basic` and a space, a secret key's name followed by
   * `=`, `:`, `=>` or a quote, the prefix of a token shape, a PEM header, three mask characters, or user info in a URL.
   * Text with none of them holds nothing the patterns could replace and skips them: most client texts and stack
   * frames. A property test holds it to that.
   * It earns its place on the success path too: with `onOutcome` set, every call's name is scrubbed (about 1.3 µs a
   * call through all the patterns, against under 0.1 µs with this test first).
   * Branches are grouped by their first letter, which the regular expression engine then tests once.
   */
  readonly hint: RegExp;
}

/**
 * The patterns and the hint, built on the first text scrubbed instead of at import (about 0.2 ms of start-up): a
 * server whose calls succeed and that has no access log never scrubs a text.
 */
let built: Scrubbing | undefined;

function scrubbing(): Scrubbing {
  return (built ??= {
    patterns: [
      // PEM private keys (RSA, EC, OpenSSH, PKCS#8, encrypted, PGP), as text or JSON-escaped (`\n`), up to their END
      // line; one cut off before it, to the end of the text (what follows a cut-off key cannot be told from the key).
      [/-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY[A-Z ]{0,10}-----(?:[\s\S]*?-----END[A-Z0-9 ]{0,60}-----|[\s\S]*)/g, REDACTED],
      // The context rule: a random-looking token next to a context word (`token acme_pat_9F8e…`, `API key: 9f86d0…`).
      // Before the header and key=value forms, whose values run to the end of a line: a context word within such a
      // value would be redacted with it, and the token after it kept.
      [contextPattern(), (match, kept, candidate) => (looksRandom(candidate) ? `${kept}${REDACTED}` : match), /\d/],
      // Authorization, Proxy-Authorization, X-Goog-Api-Key, X-Api-Key and Cookie headers in "Name: value" or JSON
      // "name":"value" form: the value up to the line's end (but the punctuation that ends it), or a placeholder
      // (`Bearer <token>`, `Bearer ...`) as written. The value starts after the spaces (which only the name's part
      // takes), so that a line of spaces is read once, not once for each of them.
      [
        new RegExp(
          `((?:(?:proxy-)?authorization|x-goog-api-key|x-api-key|cookie|set-cookie)["']?\\s*[:=]\\s*["']?)((?:(?:bearer|basic|token)\\s+)?(?:${BRACKETED}|\\.{3}|…)(?![^"'\\r\\n,}\\s])|(?:[^"'\\r\\n,}\\s][^"'\\r\\n,}]*)?[^"'\\r\\n,}\\s.;:)])`,
          'gi',
        ),
        redactValue,
      ],
      // Headers holding one token (up to a space), as header lines and as AWS canonical-request lines
      // (`x-amz-security-token:<token>`).
      [
        new RegExp(
          `((?:x-amz-security-token|x-auth-token|x-access-token|private-token|x-vault-token|api-key|ocp-apim-subscription-key|x-shopify-access-token|x-figma-token)["']?\\s*:\\s*["']?)(${BRACKETED}|[^\\s"'\\\\,;}]*[^\\s"'\\\\,;}.:)])`,
          'gi',
        ),
        redactValue,
      ],
      // S3's SignatureDoesNotMatch XML: the signature, and the canonical request and string to sign as hex bytes.
      [/<(SignatureProvided|CanonicalRequestBytes|StringToSignBytes)>[^<]*/g, `<$1>${REDACTED}`],
      // Bearer / Basic credentials wherever they stand; not a placeholder, nor a lower-case word (`Bearer token`,
      // `Basic auth`).
      [/(\b(?:Bearer|Basic)\s+)([A-Za-z0-9._~+/=-]{3,}[A-Za-z0-9_~+/=-])/gi, (match, kept, value) => (/^[a-z]{1,16}$/.test(value) ? match : redactValue(match, kept, value))],
      // key=value in URLs and form bodies.
      [new RegExp(`((?:^|[^A-Za-z0-9_-])(?:${SECRET_KEYS})=)(${BRACKETED}|[^&\\s#"'<>()[\\]{},;]*[^&\\s#"'<>()[\\]{},;.:])`, 'gi'), redactValue, /=/],
      // "key": "value" in JSON.
      [new RegExp(`("(?:${SECRET_KEYS})"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)(?=")`, 'gi'), redactValue, /"/],
      // key: 'value' and 'key' => 'value' as util.inspect prints objects and URLSearchParams.
      [new RegExp(`((?<![A-Za-z0-9_-])['"]?(?:${SECRET_KEYS})['"]?\\s*(?::|=>)\\s*')((?:[^'\\\\]|\\\\.)*)(?=')`, 'gi'), redactValue, /'/],
      // Keys a service echoes half-masked (`sk-ab***...wxyz`, `sk_test_****1234`, `****1234`): the whole token, its visible
      // head and tail included.
      [new RegExp(`(?<![A-Za-z0-9_*•-])(?:${MASKED})`, 'g'), REDACTED, /[*•]{3}/],
      // The prefixed token shapes, Google OAuth access and refresh tokens, Google API keys, AWS access key ids (AKIA, ASIA).
      [
        new RegExp(
          `(?<![A-Za-z0-9_-])(?:${PREFIXED_TOKENS})|ya29\\.[A-Za-z0-9._-]*[A-Za-z0-9_-]|1\\/\\/[A-Za-z0-9._-]{5,}[A-Za-z0-9_-]|AIza[A-Za-z0-9_-]{20,}|(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])`,
          'g',
        ),
        REDACTED,
      ],
      // Azure AD (Entra ID) client secrets: three characters, a digit, `Q~`, then 31 to 34 more (gitleaks' shape).
      [/(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{30,}[A-Za-z0-9_~-]/g, REDACTED, /\dQ~/],
      // Userinfo in URLs: scheme://user:password@host (the user may be empty).
      [/((?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]*:[^/\s@]+@/gi, `$1${REDACTED}@`, /@/],
    ],
    hint: new RegExp(
      [
        `a(?:uthorization${WORD_END}|ssertion${KEY_VALUE}|iza|kia|sia|pi_org_|tatt3|ge-secret-key-1)`,
        `b(?:earer${WORD_END}|asic\\s)`,
        `c(?:ookie${HEADER_VALUE}|ode_verifier${KEY_VALUE}|redential${WORD_END}|anonicalrequestbytes>)`,
        'd(?:api|p\\.|o[opr]_v1_)',
        'eyj',
        'figd_',
        'g(?:ocspx-|h[pousr]_|ithub_pat_|l(?:pat|dt|rt|ptt|oas|cbt|ft|imt|agent|soat|ffct)-|lc_|lsa_|sk_)',
        'h(?:f_|v[sb]\\.)',
        `key(?:${WORD_END}|-)`,
        'lin_',
        'n(?:tn_|pm_|rak-)',
        `p(?:assw(?:or)?d${WORD_END}|ypi-|mak-|ul-|plx-)`,
        'r(?:k_|8_)',
        `s(?:ecret(?:${WORD_END}|_)|ig(?:nature)?${KEY_VALUE}|k[-_]|k[0-9a-f]{32}|hp|ntry|bp_|b_secret_|q0|ignatureprovided>|tringtosignbytes>|g\\.)`,
        `token${WORD_END}`,
        'whsec_',
        `x(?:ox[abeoprs]-|app-|ai-)`,
        'ya29\\.',
        '1//',
        '\\dq~',
        '-----begin',
        '[*•]{3}',
        '://[^/\\s:@]*:[^/\\s@]+@',
      ].join('|'),
      'i',
    ),
  });
}

/**
 * Replaces every known credential shape in `text` with `[REDACTED]`.
 * @example
 * ```ts
 * scrubSecrets('GET /v1/files?key=AIzaSyA1234567890abcdefghijklmnopqrstu'); // 'GET /v1/files?key=[REDACTED]'
 * ```
 */
export function scrubSecrets(text: string): string {
  return scrubbing().hint.test(text) ? applySecretPatterns(text) : text;
}

/** Every secret pattern, with no shortcut (exported for the property test that checks {@link Scrubbing.hint}). */
export function applySecretPatterns(text: string): string {
  let out = text;
  for (const [pattern, replacement, only] of scrubbing().patterns) {
    if (only !== undefined && !only.test(out)) continue;
    out = typeof replacement === 'string' ? out.replace(pattern, replacement) : out.replace(pattern, replacement);
  }
  return out;
}

/**
 * Makes text safe to show or log: bounded before scrubbing (so a 10 MB message costs no more than a short one),
 * scrubbed of secrets, passed through the policy's own redactor, then bounded to `max`.
 * Where the first bound cut the text, the token it cut goes too: the head of a secret may be too short to be
 * recognised, and the secrets before it, each now `[REDACTED]`, may have brought it within `max`.
 */
export function safeText(text: string, max: number, redact?: (text: string) => string): string {
  const cut = text.length > max + SCRUB_MARGIN;
  let out = scrubSecrets(cut ? text.slice(0, max + SCRUB_MARGIN) : text);
  if (cut) out = endCut(out);
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

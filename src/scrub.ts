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
  'eyJ[A-Za-z0-9_-]{2,}\\.eyJ[A-Za-z0-9_-]{2,}(?:\\.[A-Za-z0-9_-]*)?',
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

/** Three or more mask characters (`*` or `•`), then maybe `...` or `…` and more of them. */
const MASK = '[*•]{3,}(?:(?:\\.{3}|…)[*•]*)?';
/** A key shown half-masked: a visible head and/or tail around the mask. */
const MASKED = `[A-Za-z0-9_-]+${MASK}[A-Za-z0-9_-]*|${MASK}[A-Za-z0-9_-]+`;

/** A secret key's name followed by `=`, `:`, `=>` or a quote (after an optional quote and spaces). */
const KEY_VALUE = `['"]?\\s*(?:[=:"']|=>)`;
/** A header's name followed by `:` or `=`. */
const HEADER_VALUE = `["']?\\s*[:=]`;

type SecretPattern = readonly [pattern: RegExp, replacement: string, only?: RegExp];

interface Scrubbing {
  /**
   * Patterns of credentials, each replaced as a whole (or its value part); one with a third member is tried only on text
   * that this matches (a character it cannot do without): a pattern that may start at every word reads every word to
   * its end, ten times the cost of finding one character.
   * Order matters: private keys first (their base64 may hold anything), then header and key=value forms, then the bare
   * token shapes. Each start is anchored by a look-behind (or a fixed prefix), so a long run of token characters costs
   * linear time, not quadratic.
   */
  readonly patterns: readonly SecretPattern[];
  /**
   * What every pattern above needs somewhere in the text: a header name followed by `:` or `=`, `bearer`/`basic` and a
   * space, a secret key's name followed by `=`, `:`, `=>` or a quote (every key of SECRET_KEYS and every token header
   * ends with one of the names listed here), the prefix of a token shape, a PEM header, three mask characters, or user
   * info in a URL. Text with none of them holds nothing the patterns could replace and skips them: most client texts
   * and stack frames. A property test holds it to that.
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
      // Authorization, Proxy-Authorization, X-Goog-Api-Key, X-Api-Key and Cookie headers in "Name: value" or JSON
      // "name":"value" form (the value up to the line's end); headers holding one token (up to a space), as header lines and
      // as AWS canonical-request lines (`x-amz-security-token:<token>`).
      [
        /((?:proxy-)?authorization|x-goog-api-key|x-api-key|cookie|set-cookie)(["']?\s*[:=]\s*["']?)[^"'\r\n,}]+|((?:x-amz-security-token|x-auth-token|x-access-token|private-token|x-vault-token|api-key|ocp-apim-subscription-key|x-shopify-access-token|x-figma-token)["']?\s*:\s*["']?)[^\s"'\\,;}]+/gi,
        `$1$2$3${REDACTED}`,
      ],
      // S3's SignatureDoesNotMatch XML: the signature, and the canonical request and string to sign as hex bytes.
      [/<(SignatureProvided|CanonicalRequestBytes|StringToSignBytes)>[^<]*/g, `<$1>${REDACTED}`],
      // Bearer / Basic credentials wherever they stand.
      [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{4,}/gi, `$1 ${REDACTED}`],
      // key=value in URLs and form bodies.
      [new RegExp(`(^|[^A-Za-z0-9_-])(${SECRET_KEYS})=[^&\\s#"'<>()[\\]{},;]+`, 'gi'), `$1$2=${REDACTED}`, /=/],
      // "key": "value" in JSON.
      [new RegExp(`("(?:${SECRET_KEYS})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi'), `$1"${REDACTED}"`, /"/],
      // key: 'value' and 'key' => 'value' as util.inspect prints objects and URLSearchParams.
      [new RegExp(`((?<![A-Za-z0-9_-])['"]?(?:${SECRET_KEYS})['"]?\\s*(?::|=>)\\s*)'(?:[^'\\\\]|\\\\.)*'`, 'gi'), `$1'${REDACTED}'`, /'/],
      // Keys a service echoes half-masked (`sk-ab***...wxyz`, `sk_test_****1234`, `****1234`): the whole token, its visible
      // head and tail included.
      [new RegExp(`(?<![A-Za-z0-9_*•-])(?:${MASKED})`, 'g'), REDACTED, /[*•]{3}/],
      // The prefixed token shapes, Google OAuth access and refresh tokens, Google API keys, AWS access key ids (AKIA, ASIA).
      [
        new RegExp(`(?<![A-Za-z0-9_-])(?:${PREFIXED_TOKENS})|ya29\\.[A-Za-z0-9._-]+|1\\/\\/[A-Za-z0-9._-]{6,}|AIza[A-Za-z0-9_-]{20,}|(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])`, 'g'),
        REDACTED,
      ],
      // Azure AD (Entra ID) client secrets: three characters, a digit, `Q~`, then 31 to 34 more (gitleaks' shape).
      [/(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,}/g, REDACTED, /\dQ~/],
      // Userinfo in URLs: scheme://user:password@host (the user may be empty).
      [/((?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]*:[^/\s@]+@/gi, `$1${REDACTED}@`, /@/],
    ],
    hint: new RegExp(
      [
        `a(?:uthorization${HEADER_VALUE}|ssertion${KEY_VALUE}|iza|kia|sia|pi_org_|tatt3|ge-secret-key-1)`,
        `b(?:earer|asic)\\s`,
        `c(?:ookie${HEADER_VALUE}|ode_verifier${KEY_VALUE}|redential${KEY_VALUE}|anonicalrequestbytes>)`,
        'd(?:api|p\\.|o[opr]_v1_)',
        'eyj',
        'figd_',
        'g(?:ocspx-|h[pousr]_|ithub_pat_|l(?:pat|dt|rt|ptt|oas|cbt|ft|imt|agent|soat|ffct)-|lc_|lsa_|sk_)',
        'h(?:f_|v[sb]\\.)',
        `key(?:${KEY_VALUE}|-)`,
        'lin_',
        'n(?:tn_|pm_|rak-)',
        `p(?:assw(?:or)?d${KEY_VALUE}|ypi-|mak-|ul-|plx-)`,
        'r(?:k_|8_)',
        `s(?:ecret(?:_|${KEY_VALUE})|ig(?:nature)?${KEY_VALUE}|k[-_]|k[0-9a-f]{32}|hp|ntry|bp_|b_secret_|q0|ignatureprovided>|tringtosignbytes>|g\\.)`,
        `token${KEY_VALUE}`,
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
    if (only === undefined || only.test(out)) out = out.replace(pattern, replacement);
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

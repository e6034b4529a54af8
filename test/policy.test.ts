import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  classifyError,
  coreRules,
  createErrorPolicy,
  defaultPolicy,
  ResourceError,
  ResourceNotFoundError,
  ToolError,
  zodErrorRule,
  type ErrorRule,
} from '../src/index.js';
import { DEFAULT_MAX_MESSAGE_LENGTH } from '../src/policy.js';
import { googleRules } from '../src/google/index.js';
import { httpRules } from '../src/http/index.js';

describe('createErrorPolicy', () => {
  it('returns a frozen policy with the core rules by default', () => {
    const policy = createErrorPolicy();
    expect(Object.isFrozen(policy)).toBe(true);
    expect(Object.isFrozen(policy.rules)).toBe(true);
    expect(policy.rules.map((r) => r.name)).toEqual(['network', 'timeout', 'abort', 'http-status', 'file-system']);
    expect(policy.maxMessageLength).toBe(DEFAULT_MAX_MESSAGE_LENGTH);
    expect(defaultPolicy.rules.map((r) => r.name)).toEqual(coreRules.map((r) => r.name));
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['options', [] as never, 'Expected `options` to be an object, got an array'],
    ['rules', { rules: 'all' }, 'Expected `rules` to be an array of rules, got the string "all"'],
    ['rules[0]', { rules: [null] }, 'Expected `rules[0]` to be a rule object, got null'],
    ['rules[1]', { rules: [{ name: 'x', predicate: () => false }, []] }, 'Expected `rules[1]` to be a rule, got an array: spread rule arrays into `rules` (`rules: [...httpRules, ...coreRules]`)'],
    ['rules[0].name', { rules: [{ predicate: () => false }] }, 'Expected `rules[0].name` to be a non-empty string, got undefined'],
    ['rules[0].predicate', { rules: [{ name: 'x' }] }, 'Expected `rules[0].predicate` to be a function, got undefined'],
    ['rules[0].status', { rules: [{ name: 'x', predicate: () => false, status: 42 }] }, 'Expected `rules[0].status` to be an integer HTTP status from 100 to 599, or a function returning one, got the number 42'],
    ['rules[0].level', { rules: [{ name: 'x', predicate: () => false, level: 'error' }] }, "Expected `rules[0].level` to be 'info', 'warn' or a function returning one, got the string \"error\""],
    ['rules[0].message', { rules: [{ name: 'x', predicate: () => false, message: 3 }] }, 'Expected `rules[0].message` to be a string or a function, got the number 3'],
    ['rules[0].reauthorize', { rules: [{ name: 'x', predicate: () => false, reauthorize: 'yes' }] }, 'Expected `rules[0].reauthorize` to be a boolean, got the string "yes"'],
    ['rules[0].code', { rules: [{ name: 'x', predicate: () => false, code: 1.5 }] }, 'Expected `rules[0].code` to be an integer JSON-RPC error code, got the number 1.5'],
    ['logger', { logger: { info: () => undefined } }, 'Expected `logger` to be a function or an object with info, warn and error methods, got object'],
    ['reauthorize', { reauthorize: 1 }, 'Expected `reauthorize` to be a string, { text, url } or a function, got the number 1'],
    ['reauthorize', { reauthorize: ['Sign in'] }, 'Expected `reauthorize` to be a string, { text, url } or a function, got an array'],
    ['reauthorize.text', { reauthorize: { url: 'https://acme.example/login' } }, 'Expected `reauthorize.text` to be a non-empty string, got undefined'],
    ['reauthorize.text', { reauthorize: { text: '' } }, 'Expected `reauthorize.text` to be a non-empty string, got the string ""'],
    ['reauthorize.url', { reauthorize: { text: 'Sign in', url: 'ftp://acme.example/login' } }, 'Expected `reauthorize.url` to be an http: or https: URL, got the string "ftp://acme.example/login"'],
    ['reauthorize.url', { reauthorize: { text: 'Sign in', url: 'javascript:alert(1)' } }, 'Expected `reauthorize.url` to be an http: or https: URL, got the string "javascript:alert(1)"'],
    ['reauthorize.url', { reauthorize: { text: 'Sign in', url: '/login' } }, 'Expected `reauthorize.url` to be an http: or https: URL, got the string "/login"'],
    ['rules[0].failure', { rules: [{ name: 'x', predicate: () => false, failure: 'rate_limited' }] }, 'Expected `rules[0].failure` to be an object ({ code, retryable, retryAfterMs }) or a function returning one, got the string "rate_limited"'],
    ['rules[1].failure', { rules: [{ name: 'x', predicate: () => false }, { name: 'y', predicate: () => false, failure: [] }] }, 'Expected `rules[1].failure` to be an object ({ code, retryable, retryAfterMs }) or a function returning one, got an array'],
    ['rules[0].failure', { rules: [{ name: 'x', predicate: () => false, failure: null }] }, 'Expected `rules[0].failure` to be an object ({ code, retryable, retryAfterMs }) or a function returning one, got null'],
    ['failureObject', { failureObject: 'no' }, 'Expected `failureObject` to be a boolean, got the string "no"'],
    ['draftToolFailure', { draftToolFailure: 1 }, 'Expected `draftToolFailure` to be a boolean, got the number 1'],
    ['degraded', { degraded: 'down' }, 'Expected `degraded` to be a function, got the string "down"'],
    ['maxMessageLength', { maxMessageLength: 10 }, 'Expected `maxMessageLength` to be an integer from 32 to 1000000, got the number 10'],
    ['maxMessageLength', { maxMessageLength: Number.NaN }, 'Expected `maxMessageLength` to be an integer from 32 to 1000000, got the number NaN'],
    ['redact', { redact: /x/ }, 'Expected `redact` to be a function, got object'],
    ['exposeCrashDetails', { exposeCrashDetails: 'true' }, 'Expected `exposeCrashDetails` to be a boolean, got the string "true"'],
    ['onOutcome', { onOutcome: true }, 'Expected `onOutcome` to be a function, got boolean'],
    ['maskDeliberateErrors', { maskDeliberateErrors: 1 }, 'Expected `maskDeliberateErrors` to be a boolean, got the number 1'],
    ['rules[0].request', { rules: [{ name: 'x', predicate: () => false, request: 'GET' }] }, 'Expected `rules[0].request` to be a function, got the string "GET"'],
    ['allowCatchAll', { allowCatchAll: 'x' }, 'Expected `allowCatchAll` to be an array of rule names, got the string "x"'],
  ])('throws a TypeError naming %s', (_option, options, message) => {
    expect(() => createErrorPolicy(options as never)).toThrow(new TypeError(message));
  });

  it('shows the package\'s own deliberate errors whatever `rules` holds, and masks them only when asked', () => {
    const deliberate = [new ToolError('tool text'), new ResourceError('resource text'), new ResourceNotFoundError('note://gone')];
    for (const rules of [[], googleRules, coreRules, [{ name: 'other', predicate: (e: unknown) => e === 'other' }]]) {
      const policy = createErrorPolicy({ rules });
      expect(deliberate.map((error) => classifyError(error, policy))).toMatchObject([
        { kind: 'anticipated', rule: { name: 'deliberate' }, message: 'tool text', status: 500, level: 'info' },
        { kind: 'anticipated', rule: { name: 'deliberate' }, message: 'resource text', status: 500, level: 'info' },
        { kind: 'anticipated', rule: { name: 'resource-not-found' }, status: 404, code: -32002, level: 'info' },
      ]);
      // wrapped in an unvetted error: found on the cause chain
      expect(classifyError(new Error('outer', { cause: deliberate[0] }), policy)).toMatchObject({ kind: 'anticipated', message: 'tool text' });
    }
    const masked = createErrorPolicy({ maskDeliberateErrors: true });
    expect(deliberate.map((error) => classifyError(error, masked).kind)).toEqual(['crash', 'crash', 'crash']);
    // a rule of the caller's may still accept them
    const own = createErrorPolicy({ maskDeliberateErrors: true, rules: [{ name: 'mine', predicate: (e) => e instanceof ToolError, message: 'Mine' }] });
    expect(classifyError(deliberate[0], own)).toMatchObject({ kind: 'anticipated', rule: { name: 'mine' }, message: 'Mine' });
    expect(createErrorPolicy().maskDeliberateErrors).toBe(false);
  });

  it('throws on an unknown option, naming it', () => {
    expect(() => createErrorPolicy({ rule: [] } as never)).toThrow(TypeError);
    expect(() => createErrorPolicy({ rule: [] } as never)).toThrow(/Unknown option `rule`/);
  });

  it('refuses duplicate rule names', () => {
    const rule: ErrorRule = { name: 'dup', predicate: () => false };
    expect(() => createErrorPolicy({ rules: [rule, rule] })).toThrow(new TypeError('Expected `rules` to have unique names, got "dup" twice'));
  });

  it.each([
    ['Error', (e: unknown) => e instanceof Error],
    ['TypeError', (e: unknown) => e instanceof TypeError],
    ['RangeError', (e: unknown) => (e as Error).name === 'RangeError'],
  ])('refuses a catch-all rule accepting a plain %s unless opted into by name', (accepted, predicate) => {
    const rule: ErrorRule = { name: 'everything', predicate };
    expect(() => createErrorPolicy({ rules: [rule] })).toThrow(TypeError);
    expect(() => createErrorPolicy({ rules: [rule] })).toThrow(`Expected \`rules[0]\` ("everything") to reject a plain ${accepted}`);
    expect(createErrorPolicy({ rules: [rule], allowCatchAll: ['everything'] }).rules[0]!.name).toBe('everything');
  });

  it('accepts the core rules, which accept no plain error', () => {
    expect(() => createErrorPolicy({ rules: [...coreRules] })).not.toThrow();
  });

  it('treats a predicate that throws on the probe as not a catch-all', () => {
    const rule: ErrorRule = { name: 'fragile', predicate: () => { throw new Error('boom'); } };
    expect(createErrorPolicy({ rules: [rule] }).rules).toHaveLength(1);
  });

  it('accepts `test` as an alias of `predicate`', () => {
    const policy = createErrorPolicy({ rules: [{ name: 'aliased', test: () => false } as never] });
    expect(policy.rules[0]!.predicate).toBeTypeOf('function');
  });
});

/** The TypeError for a pack after the core rules: `late` is the pack rule's index, `core` the core rule's before it. */
function packOrderError(pack: string, late: number, lateName: string, core: number, coreName: string, use: string): TypeError {
  return new TypeError(
    `Expected the rules of \`${pack}\` before the core rules, got \`rules[${late}]\` ("${lateName}") after \`rules[${core}]\` ("${coreName}"): ` +
      `the core rules take the failures they share with a pack first (\`http-status\` every HTTP error). Use \`rules: [${use}, ...coreRules]\``,
  );
}

/** The files whose `rules: [...]` compositions users copy: the README, docs/*.md, the examples and src/ (its TSDoc). */
function documentingFiles(): string[] {
  const listed = (dir: string, ext: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith(ext)).map((f) => join(dir, f));
  return ['README.md', ...listed('docs', '.md'), ...listed('examples', '.ts'), ...listed('src', '.ts')];
}

/** Each `rules: [ ... ]` array literal of `text` (brackets balanced), without template placeholders. */
function ruleLists(text: string): string[] {
  const lists: string[] = [];
  for (const match of text.matchAll(/\brules: \[/g)) {
    let depth = 0;
    const start = match.index + 'rules: '.length;
    for (let i = start; i < text.length; i += 1) {
      if (text[i] === '[') depth += 1;
      else if (text[i] === ']' && (depth -= 1) === 0) {
        const list = text.slice(start, i + 1);
        if (!list.includes('${')) lists.push(list.replace(/^\s*\*/gm, ''));
        break;
      }
    }
  }
  return lists;
}

/**
 * The rules a documented list stands for: the packs and core rules themselves (spread or named), `zodErrorRule`; any
 * other element (`ownErrorRule()`, `goneRule`, `...httpRulesFor(...)`, `...serverRules`) a rule of the server's own.
 */
function rulesOf(list: string): ErrorRule[] {
  const known: Record<string, readonly ErrorRule[]> = { coreRules, googleRules, httpRules, zodErrorRule: [zodErrorRule] };
  const source = ts.createSourceFile('list.ts', `(${list})`, ts.ScriptTarget.ES2022);
  const array = ((source.statements[0] as ts.ExpressionStatement).expression as ts.ParenthesizedExpression).expression as ts.ArrayLiteralExpression;
  return array.elements.flatMap((element, i) => {
    const inner = ts.isSpreadElement(element) ? element.expression : element;
    const named = ts.isIdentifier(inner) ? known[inner.text] : undefined;
    return named ?? [{ name: `server-rule-${i}`, predicate: (e: unknown) => e === 'server' }];
  });
}

describe('pack order', () => {
  it('refuses `[...coreRules, ...googleRules]` at creation, naming the order to use', () => {
    expect(() => createErrorPolicy({ rules: [...coreRules, ...googleRules] })).toThrow(
      packOrderError('...googleRules', 5, 'google-missing-credentials', 0, 'network', '...googleRules'),
    );
  });

  it('refuses `[...coreRules, ...httpRules]` at creation, naming the order to use', () => {
    expect(() => createErrorPolicy({ rules: [...coreRules, ...httpRules] })).toThrow(
      packOrderError('...httpRules', 5, 'github-unauthorized', 0, 'network', '...httpRules'),
    );
  });

  it('names every pack the list holds, and finds a single pack rule, a copy of one, and core rules picked by name', () => {
    const [apiError] = googleRules.filter((rule) => rule.name === 'google-api-error');
    const copy = { ...apiError!, message: 'Google said no' };
    const noFiles = coreRules.filter((rule) => rule.name !== 'file-system');
    expect(() => createErrorPolicy({ rules: [...httpRules, ...coreRules, ...googleRules] })).toThrow(
      packOrderError('...googleRules', httpRules.length + 5, 'google-missing-credentials', httpRules.length, 'network', '...httpRules, ...googleRules'),
    );
    expect(() => createErrorPolicy({ rules: [...noFiles, apiError!] })).toThrow(packOrderError('...googleRules', 4, 'google-api-error', 0, 'network', '...googleRules'));
    expect(() => createErrorPolicy({ rules: [coreRules[3]!, copy] })).toThrow(packOrderError('...googleRules', 1, 'google-api-error', 0, 'http-status', '...googleRules'));
  });

  it('accepts the packs before the core rules, the core rules alone, and rules of the server\'s own anywhere', () => {
    const own: ErrorRule = { name: 'own', predicate: (e) => e === 'own' };
    for (const rules of [
      [...googleRules, ...coreRules],
      [...httpRules, ...googleRules, zodErrorRule, ...coreRules],
      [...googleRules, ...httpRules, ...coreRules],
      [own, ...googleRules, ...coreRules, zodErrorRule],
      [...coreRules, own],
      [...googleRules],
      [...coreRules],
    ]) {
      expect(() => createErrorPolicy({ rules })).not.toThrow();
    }
  });

  it('accepts every composition the README, the docs, the examples and the TSDoc show', () => {
    const lists = documentingFiles().flatMap((file) => ruleLists(readFileSync(file, 'utf8')).map((list) => ({ file, list })));
    // The scan finds the documented compositions, the packs' among them (else this test would prove nothing).
    expect(lists.length).toBeGreaterThanOrEqual(15);
    expect(lists.filter(({ list }) => list.includes('...googleRules')).length).toBeGreaterThanOrEqual(4);
    expect(lists.filter(({ list }) => list.includes('...httpRules')).length).toBeGreaterThanOrEqual(3);
    for (const { file, list } of lists) {
      expect(() => createErrorPolicy({ rules: rulesOf(list) }), `${file}: rules: ${list}`).not.toThrow();
    }
    // The same reading refuses the order the packs must not have.
    expect(() => createErrorPolicy({ rules: rulesOf('[...coreRules, ...googleRules]') })).toThrow(TypeError);
  });
});

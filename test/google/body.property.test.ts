/**
 * The body readers' fast paths give exactly what their plain definitions give: server text on one line (a scan
 * that skips the rewrite when nothing would change) and token-like identifiers (a scan instead of a pattern).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readGoogleApiError } from '../../src/google/index.js';
import { MAX_SERVER_TEXT, oneLine } from '../../src/google/body.js';
import { boundLength } from '../../src/text.js';

/** oneLine's definition: whitespace runs become one space, control characters go, trimmed, bounded. */
function oneLineByDefinition(text: string, max = MAX_SERVER_TEXT): string | undefined {
  const head = text.length > max * 4 ? text.slice(0, max * 4).replace(/[\ud800-\udbff]$/, '') : text;
  // eslint-disable-next-line no-control-regex
  const line = head.replace(/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return line === '' ? undefined : boundLength(line, max);
}

/** What an identifier (an API status, a reason) is. */
const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

const pieces = fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\u0000', '\u001b[31m', '\u007f', '\u0085', '\u00a0', '\u2028', '\u3000', 'é', '😀', 'a', 'Z', '0', '_', '.', '-', '~', 'PERMISSION_DENIED', 'The caller does not have permission');
const text = fc.oneof(fc.array(pieces, { maxLength: 16 }).map((parts) => parts.join('')), fc.string(), fc.string({ unit: 'binary' }));

describe('Google body readers', () => {
  it('oneLine equals its definition (property)', () => {
    fc.assert(
      fc.property(text, fc.constantFrom(3, 40, MAX_SERVER_TEXT), (value, max) => {
        expect(oneLine(value, max)).toBe(oneLineByDefinition(value, max));
      }),
      { numRuns: 20_000 },
    );
  });

  it('keeps an API status exactly when it is an identifier (property)', () => {
    const status = fc.oneof(text, fc.stringMatching(/^[A-Za-z][A-Za-z0-9_.-]{0,70}$/), fc.constantFrom('', 'A', '1A', '_A', 'A'.repeat(64), 'A'.repeat(65)));
    fc.assert(
      fc.property(status, (value) => {
        expect(readGoogleApiError({ error: { code: 403, status: value } })?.status).toBe(IDENTIFIER.test(value) ? value : undefined);
      }),
      { numRuns: 20_000 },
    );
  });
});

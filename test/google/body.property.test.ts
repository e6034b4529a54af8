/** The Google body readers: server text on one line and bounded; statuses and reasons kept only when identifier-shaped. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readGoogleApiError } from '../../src/google/body.js';
import { MAX_SERVER_TEXT, serverTextLine } from '../../src/text.js';

/** What an identifier (an API status, a reason) is. */
const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

const pieces = fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\u0000', '\u001b[31m', '\u007f', '\u0085', '\u00a0', '\u2028', '\u3000', 'é', '😀', 'a', 'Z', '0', '_', '.', '-', '~', 'PERMISSION_DENIED', 'The caller does not have permission');
const text = fc.oneof(fc.array(pieces, { maxLength: 16 }).map((parts) => parts.join('')), fc.string(), fc.string({ unit: 'binary' }));

describe('Google body readers', () => {
  it('puts server text on one bounded line, without control characters', () => {
    expect(serverTextLine('  The caller\ndoes not\t\thave permission \u001b[31m ')).toBe('The caller does not have permission [31m');
    expect(serverTextLine(' \n\t ')).toBeUndefined();
    expect(serverTextLine(undefined)).toBeUndefined();
    expect(serverTextLine('x'.repeat(10_000_000))?.length).toBe(MAX_SERVER_TEXT);
  });

  it('server text is one line, trimmed and bounded (property)', () => {
    fc.assert(
      fc.property(text, fc.constantFrom(3, 40, MAX_SERVER_TEXT), (value, max) => {
        const line = serverTextLine(value, max);
        if (line === undefined) return;
        expect(line.length).toBeLessThanOrEqual(max);
        // eslint-disable-next-line no-control-regex
        expect(line).not.toMatch(/[\n\r\t\u0000-\u001f\u007f-\u009f\u2028\u2029]|^\s|\s$|\s\s/);
      }),
      { numRuns: 2_000 },
    );
  });

  it('keeps an API status exactly when it is an identifier (property)', () => {
    const status = fc.oneof(text, fc.stringMatching(/^[A-Za-z][A-Za-z0-9_.-]{0,70}$/), fc.constantFrom('', 'A', '1A', '_A', 'A'.repeat(64), 'A'.repeat(65)));
    fc.assert(
      fc.property(status, (value) => {
        expect(readGoogleApiError({ error: { code: 403, status: value } })?.status).toBe(IDENTIFIER.test(value) ? value : undefined);
      }),
      { numRuns: 2_000 },
    );
  });
});

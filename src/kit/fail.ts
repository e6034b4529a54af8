/** The TypeError a bad option throws when a policy or rule is made: it names the option, what it must be, and what it got. */

function shownValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === 'number') return `the number ${String(value)}`;
  return typeof value;
}

/** Throws `TypeError: Expected \`<option>\` to be <expected>, got <what>`. */
export function fail(option: string, expected: string, got: unknown): never {
  throw new TypeError(`Expected \`${option}\` to be ${expected}, got ${shownValue(got)}`);
}

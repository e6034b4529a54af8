/**
 * The class names of an error's prototype chain (`['NotFoundError', 'APIError', 'OpenAIError', 'Error']`), read
 * without running getters or trusting the value: the brand of SDKs whose errors carry no `name` of their own (OpenAI
 * and Anthropic errors are named `Error`) and whose classes must not be imported (`instanceof` fails across copies).
 */

/** Most prototypes looked at. */
const MAX_DEPTH = 8;

/** The constructor names along `error`'s prototype chain, nearest first; `[]` for a primitive or a hostile value. */
export function classNames(error: unknown): string[] {
  const names: string[] = [];
  if ((typeof error !== 'object' || error === null) && typeof error !== 'function') return names;
  try {
    let proto: unknown = Object.getPrototypeOf(error);
    for (let i = 0; i < MAX_DEPTH && typeof proto === 'object' && proto !== null && proto !== Object.prototype; i += 1) {
      const ctor: unknown = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value;
      if (typeof ctor === 'function') {
        const name: unknown = Object.getOwnPropertyDescriptor(ctor, 'name')?.value;
        if (typeof name === 'string') names.push(name);
      }
      proto = Object.getPrototypeOf(proto);
    }
  } catch {
    // a revoked Proxy or a trap that throws: what was read so far
  }
  return names;
}

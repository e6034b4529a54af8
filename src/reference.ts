/** Reference ids: short, random, shown to the client in place of a crash's text and written in its log record. */

/**
 * A fresh 12-hex-digit reference id (48 random bits), such as `3f9a1c2b7d04`: the first two groups of a version 4 UUID,
 * which hold no fixed bits. One `crypto.randomUUID()` per crash. The global Web Crypto object, rather than an import
 * of `node:crypto`: Node loads it on first use, so importing the package does not pay for it (about 2 ms).
 */
export function newReference(): string {
  const uuid = globalThis.crypto.randomUUID();
  return uuid.slice(0, 8) + uuid.slice(9, 13);
}

/** Reference ids: short, random, shown to the client in place of a crash's text and written in its log record. */

const HEX = '0123456789abcdef';
const BYTES = 6;

/** A fresh 12-hex-digit reference id (48 random bits), such as `3f9a1c2b7d04`. */
export function newReference(): string {
  const bytes = new Uint8Array(BYTES);
  const webCrypto = (globalThis as { crypto?: { getRandomValues?: (array: Uint8Array) => Uint8Array } }).crypto;
  if (webCrypto?.getRandomValues !== undefined) webCrypto.getRandomValues(bytes);
  else for (let i = 0; i < BYTES; i += 1) bytes[i] = Math.floor(Math.random() * 256);
  let out = '';
  for (const byte of bytes) out += HEX.charAt(byte >> 4) + HEX.charAt(byte & 15);
  return out;
}

/** Reference ids: short, random, shown to the client in place of a crash's text and written in its log record. */

const HEX = '0123456789abcdef';
const BYTES = 6;
/**
 * References drawn from one call of `getRandomValues`: a call costs about 2 µs on Node 20 whatever its size, so the
 * bytes of 128 references are drawn at once and each crash takes the next 6.
 */
const POOL_REFERENCES = 128;

let pool: Uint8Array | undefined;
let offset = 0;

function refill(): Uint8Array {
  const bytes = pool ?? new Uint8Array(BYTES * POOL_REFERENCES);
  const webCrypto = (globalThis as { crypto?: { getRandomValues?: (array: Uint8Array) => Uint8Array } }).crypto;
  if (webCrypto?.getRandomValues !== undefined) webCrypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i += 1) bytes[i] = Math.floor(Math.random() * 256);
  pool = bytes;
  offset = 0;
  return bytes;
}

/** A fresh 12-hex-digit reference id (48 random bits), such as `3f9a1c2b7d04`. */
export function newReference(): string {
  const bytes = pool !== undefined && offset + BYTES <= pool.length ? pool : refill();
  let out = '';
  for (let i = offset; i < offset + BYTES; i += 1) {
    const byte = bytes[i] ?? 0;
    out += HEX.charAt(byte >> 4) + HEX.charAt(byte & 15);
  }
  offset += BYTES;
  return out;
}

/** Reference ids: short, random, shown to the client in place of a crash's text and written in its log record. */
import { randomUUID } from 'node:crypto';

/**
 * A fresh 12-hex-digit reference id (48 random bits), such as `3f9a1c2b7d04`: the first two groups of a version 4 UUID,
 * which hold no fixed bits. One call of `randomUUID` per crash.
 */
export function newReference(): string {
  const uuid = randomUUID();
  return uuid.slice(0, 8) + uuid.slice(9, 13);
}

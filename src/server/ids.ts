import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Opaque, random, URL-safe ids of 20 characters (the service's are opaque strings). The first
 * character is always a letter or digit, so an id never looks like an option
 * (`-abc…`) when passed as a positional argument on a command line.
 */
export function newId(): string {
  const id = randomChars(ID_BYTES);
  const first = id.charCodeAt(0);
  if (id[0] !== '-' && id[0] !== '_') return id;
  return ALPHANUMERIC[first % ALPHANUMERIC.length] + id.slice(1);
}

const ID_BYTES = 15;
/** Random bytes are drawn for many ids at once: one call per id costs more than the rest of a create. */
let pool = Buffer.alloc(0);
let used = 0;

function randomChars(bytes: number): string {
  if (used + bytes > pool.length) {
    pool = randomBytes(bytes * 256);
    used = 0;
  }
  const text = pool.toString('base64url', used, used + bytes);
  used += bytes;
  return text;
}

/** A bearer token for a sandbox user. */
export function newToken(): string {
  return `sbx_${randomBytes(24).toString('base64url')}`;
}

/**
 * Whether a presented secret (a share key) is the real one, in constant time: both are hashed to
 * the same length first, so neither the length nor the first differing character shows in the time.
 */
export function sameSecret(given: string | undefined, secret: string): boolean {
  if (given === undefined) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(secret));
}

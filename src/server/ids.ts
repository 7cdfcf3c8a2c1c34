import { randomBytes } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Opaque, random, URL-safe ids of 20 characters (decisions.md). The first
 * character is always a letter or digit, so an id never looks like an option
 * (`-abc…`) when passed as a positional argument on a command line.
 */
export function newId(): string {
  const id = randomBytes(15).toString('base64url');
  const first = id.charCodeAt(0);
  if (id[0] !== '-' && id[0] !== '_') return id;
  return ALPHANUMERIC[first % ALPHANUMERIC.length] + id.slice(1);
}

/** A bearer token for a sandbox user. */
export function newToken(): string {
  return `sbx_${randomBytes(24).toString('base64url')}`;
}

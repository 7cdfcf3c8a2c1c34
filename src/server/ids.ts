import { randomBytes } from 'node:crypto';

/** Opaque, random, URL-safe ids of 20 characters (decisions.md). */
export function newId(): string {
  return randomBytes(15).toString('base64url');
}

/** A bearer token for a sandbox user. */
export function newToken(): string {
  return `sbx_${randomBytes(24).toString('base64url')}`;
}

import crypto, { createHash } from 'node:crypto';

/**
 * SHA-256 of `text`, encoded: with the one-shot `crypto.hash` where Node has it (20.12+), half the
 * cost of a Hash object (the store hashes every request's token), else with a Hash object.
 */
export const sha256: (text: string, encoding: 'base64' | 'base64url' | 'hex') => string =
  typeof crypto.hash === 'function'
    ? (text, encoding) => crypto.hash('sha256', text, encoding)
    : (text, encoding) => createHash('sha256').update(text).digest(encoding);

/**
 * A SAML certificate as an organization file gives it (inline, from `${env:NAME}` or from a file):
 * checked to be exactly one X.509 certificate before anything is sent (src/cli/certificate.ts, the
 * check `saml create/update --certificate-file` makes too), and shown by its fingerprint, never its
 * text.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { checkCertificate } from '../cli/certificate.js';

/** Hex digits of the SHA-256 fingerprint a plan shows (64 bits: not forged by trying certificates). */
const FINGERPRINT_HEX = 16;

/** `sha256:a5c63d771c4ba7fb`: the start of `openssl x509 -noout -fingerprint -sha256`, in lower case without colons. */
export function fingerprintOf(der: Buffer): string {
  return `sha256:${createHash('sha256').update(der).digest('hex').slice(0, FINGERPRINT_HEX)}`;
}

/** How a plan shows a certificate: `sha256:a5c63d771c4ba7fb, expires 2126-10-30` (never its text). */
export function certificateLabel(der: Buffer): string {
  let expires: string | undefined;
  try {
    expires = new Date(new X509Certificate(der).validTo).toISOString().slice(0, 10);
  } catch {
    expires = undefined;
  }
  return `${fingerprintOf(der)}${expires ? `, expires ${expires}` : ''}`;
}

/** How a plan shows a certificate the service has: its fingerprint and expiry, `(none)`, or that it is not one. */
export function describeLiveCertificate(text: string): string | undefined {
  if (!text) return undefined;
  const c = checkCertificate(text);
  return c.ok ? certificateLabel(c.der) : '(not a certificate)';
}

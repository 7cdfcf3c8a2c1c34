/**
 * What a SAML certificate field takes, checked before anything is sent (`saml create/update
 * --certificate-file`, an organization file's `saml[].certificate`): exactly one X.509 certificate,
 * so that nothing else — a private key beside it in a PEM bundle, a secret read by mistake — can
 * travel in that field. A reason never quotes the text.
 */
import { X509Certificate } from 'node:crypto';

export type CertificateCheck = { ok: true; der: Buffer } | { ok: false; why: string };

/**
 * The certificate's DER bytes when `text` is one X.509 certificate and nothing else: one
 * `-----BEGIN CERTIFICATE-----` block, or its bare base64 body (the form of an identity provider's
 * metadata), whitespace around and within allowed. The reason otherwise, which never quotes the text.
 */
export function checkCertificate(text: string): CertificateCheck {
  const trimmed = text.trim();
  let body: string;
  if (trimmed.includes('-----')) {
    const labels = [...trimmed.matchAll(/-----BEGIN ([A-Z0-9 ]{1,40})-----/g)].map((m) => m[1]);
    const other = labels.find((l) => l !== 'CERTIFICATE');
    if (other !== undefined) return { ok: false, why: `it holds a ${other} block: a certificate field takes one certificate and nothing else` };
    if (labels.length > 1)
      return { ok: false, why: `it holds ${labels.length} certificates: a certificate field takes one (the identity provider's signing certificate)` };
    const block = /^-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]*)-----END CERTIFICATE-----$/.exec(trimmed);
    if (!block) return { ok: false, why: 'not one PEM certificate block (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----) and nothing else' };
    body = block[1].replace(/\s+/g, '');
  } else {
    body = trimmed.replace(/\s+/g, '');
  }
  if (!body) return { ok: false, why: 'empty: not a certificate' };
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return { ok: false, why: 'not a certificate: neither PEM nor base64' };
  const der = Buffer.from(body, 'base64');
  if (der.toString('base64') !== body) return { ok: false, why: 'not a certificate: its base64 is malformed' };
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(der);
  } catch {
    return { ok: false, why: 'not a readable X.509 certificate' };
  }
  if (!cert.raw.equals(der)) return { ok: false, why: 'bytes follow the X.509 certificate: a certificate field takes the certificate alone' };
  return { ok: true, der };
}

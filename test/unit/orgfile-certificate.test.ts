/** A certificate in an org file is one X.509 certificate and nothing else (issue 22): what may travel in that field. */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCertificate } from '../../src/cli/certificate.js';
import { fingerprintOf } from '../../src/orgfile/certificate.js';
import { isSecretField } from '../../src/orgfile/schema.js';

const PEM = readFileSync(resolve(import.meta.dirname, '../fixtures/saml-idp.pem'), 'utf8');
const PEM_2 = readFileSync(resolve(import.meta.dirname, '../fixtures/saml-idp-2.pem'), 'utf8');
const body = PEM.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');

const ok = (text: string) => {
  const c = checkCertificate(text);
  return c.ok ? fingerprintOf(c.der) : c.why;
};

describe('checkCertificate', () => {
  it('takes one certificate: PEM (any line ends, whitespace around), or its bare base64 body, with one fingerprint', () => {
    const fp = 'sha256:a5c63d771c4ba7fb';
    expect(ok(PEM)).toBe(fp);
    expect(ok(`\n  ${PEM.replace(/\n/g, '\r\n')}  \n`)).toBe(fp);
    expect(ok(body)).toBe(fp);
    expect(ok(body.replace(/(.{64})/g, '$1\n'))).toBe(fp);
    expect(ok(PEM_2)).toBe('sha256:04b77b05541947c4');
  });

  it('refuses anything beside or after it, and what is not a certificate, without quoting it', () => {
    const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    expect(ok(PEM + key)).toBe('it holds a PRIVATE KEY block: a certificate field takes one certificate and nothing else');
    expect(ok(key + PEM)).toMatch(/PRIVATE KEY block/);
    expect(ok(PEM + PEM_2)).toMatch(/^it holds 2 certificates/);
    expect(ok(`subject=CN = idp\n${PEM}`)).toMatch(/^not one PEM certificate block/);
    expect(ok(`${PEM}DOCSCTL_TOKEN=abc\n`)).toMatch(/^not one PEM certificate block/);
    // DER with bytes after the certificate: OpenSSL would read the certificate and ignore them.
    const der = Buffer.from(body, 'base64');
    expect(ok(Buffer.concat([der, Buffer.from('secret')]).toString('base64'))).toMatch(/^bytes follow the X.509 certificate/);
    expect(ok('DOCSCTL_TOKEN=sbx_abc\0HOME=/root')).toBe('not a certificate: neither PEM nor base64');
    expect(ok('c2VjcmV0')).toBe('not a readable X.509 certificate');
    expect(ok('  ')).toBe('empty: not a certificate');
    expect(ok('-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----')).toBe('empty: not a certificate');
  });
});

describe('isSecretField', () => {
  it('is a SAML provider’s certificate, and nothing else', () => {
    expect(isSecretField(['saml', 0, 'certificate'])).toBe(true);
    expect(isSecretField(['saml', 12, 'certificate'])).toBe(true);
    for (const path of [['saml', 0, 'label'], ['saml', 0, 'certificate', 'file'], ['saml', '0', 'certificate'], ['collections', 0, 'title'], ['saml', 0], []]) {
      expect(isSecretField(path)).toBe(false);
    }
  });
});

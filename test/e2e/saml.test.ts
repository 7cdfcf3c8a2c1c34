import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();
/** A self-signed certificate made with openssl for these tests (CN=idp.sandbox.test). */
const PEM_FILE = resolve(import.meta.dirname, '../fixtures/saml-idp.pem');
const PEM = readFileSync(PEM_FILE, 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'docsctl-saml-'));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A URL of exactly `n` characters. */
function urlOf(n: number): string {
  const head = 'https://idp.test/';
  return head + 'a'.repeat(n - head.length);
}

/** The key/value lines of a `get` as an object. */
const lines = (r: { stdout: string }) => Object.fromEntries(r.stdout.split('\n').map((l) => l.split('\t')));

const count = async () => (await sb.request('GET', '/v1/orgs/org-acme/saml')).body.count;

describe('saml providers', () => {
  it('creates a pending provider from a label alone, with the service URLs on the sandbox’s host', async () => {
    const created = await sb.json(['saml', 'create', '--label', 'Okta']);
    const base = `${sb.server.url}/sso/saml/org-acme/${created.id}`;
    // The official document requires entityID, certificate and ssoURL (a URI): while not set, they
    // show as the values that clear them.
    expect(created).toEqual({
      object: 'saml-provider',
      id: expect.any(String),
      label: 'Okta',
      defaultRole: 'read',
      createdAt: expect.any(String),
      status: 'pending',
      entityID: '',
      certificate: '',
      ssoURL: 'about:blank',
      service: { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` },
      urls: { location: `${sb.server.url}/v1/orgs/org-acme/saml/${created.id}` },
    });
    // a pending provider offers no sign-in link yet, and SSO is not enforced
    expect(await sb.json(['sso', 'list'])).toEqual([]);
    expect((await sb.request('GET', '/v1/orgs/org-acme')).body.sso).toBe(false);
    // the CLI shows the fields not set as blank, with --fields too (the API says about:blank)
    expect(lines(await sb.run(['saml', 'get', created.id]))).toMatchObject({ status: 'pending', entityID: '', ssoURL: '', certificate: '' });
    const fields = await sb.run(['saml', 'get', created.id, '--fields', 'entityID,ssoURL']);
    expect(fields.stdout).toBe('entityID\t\nssoURL\t');
    expect((await sb.json(['saml', 'get', created.id])).ssoURL).toBe('about:blank');
  });

  it('sending a provider’s own fields back changes nothing; empty values clear them (pending again)', async () => {
    const active = (
      await sb.request('POST', '/v1/orgs/org-acme/saml', {
        label: 'Okta',
        entityID: 'http://www.okta.com/exk1',
        ssoURL: 'https://acme.okta.test/sso',
        certificate: PEM,
      })
    ).body;
    const pending = (await sb.request('POST', '/v1/orgs/org-acme/saml', { label: 'Later' })).body;
    for (const p of [active, pending]) {
      const { entityID, certificate, ssoURL, label, defaultRole } = p;
      const again = await sb.request('PATCH', `/v1/orgs/org-acme/saml/${p.id}`, { label, entityID, certificate, ssoURL, defaultRole });
      expect(again).toEqual({ status: 200, body: p });
    }
    const cleared = await sb.json(['saml', 'update', active.id, '--entity-id', '', '--certificate-file', '/dev/null']);
    expect(cleared).toMatchObject({ status: 'pending', entityID: '', certificate: '', ssoURL: 'https://acme.okta.test/sso' });
    expect((await sb.json(['saml', 'update', active.id, '--sso-url', 'about:blank'])).ssoURL).toBe('about:blank');
    expect(
      (await sb.request('GET', '/_sandbox/state')).body.data.slices.$map
        .find(([k]: [string]) => k === 'saml')[1]
        .providers.$map.find(([id]: [string]) => id === active.id)[1],
    ).not.toHaveProperty('ssoURL');
  });

  it('takes the certificate as the bare base64 an identity provider’s metadata carries, with or without line breaks', async () => {
    const body = PEM.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
    const oneLine = file('idp.b64', body);
    const created = await sb.json([
      'saml',
      'create',
      '--label',
      'Metadata',
      '--entity-id',
      'urn:idp:acme',
      '--sso-url',
      'https://idp.test/sso',
      '--certificate-file',
      oneLine,
    ]);
    expect(created).toMatchObject({ status: 'active', certificate: body });
    expect(lines(await sb.run(['saml', 'get', created.id])).certificate).toBe(`base64, ${body.length} characters`);
    // wrapped at 64 columns as metadata often is, read from stdin
    const wrapped = body.replace(/(.{64})/g, '$1\n');
    const r = await sb.run(['saml', 'update', created.id, '--certificate-file', '-', '--json'], { input: wrapped });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'active', certificate: wrapped });
    // PEM reads as PEM
    const pem = await sb.json(['saml', 'update', created.id, '--certificate-file', PEM_FILE]);
    expect(lines(await sb.run(['saml', 'get', pem.id])).certificate).toBe(`PEM, ${PEM.trim().split('\n').length} lines`);
    // base64 of something that is not a certificate is refused before sending, naming the flag and the file
    const notCert = file('not-a-cert.b64', Buffer.from('hello').toString('base64'));
    const bad = await sb.run(['saml', 'update', created.id, '--certificate-file', notCert]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain(`error: --certificate-file: ${notCert}: not a readable X.509 certificate`);
  });

  it('takes any URI as the sign-in URL (http, a URN…), but none that runs script', async () => {
    const p = (await sb.request('POST', '/v1/orgs/org-acme/saml', { label: 'Okta' })).body;
    for (const url of ['http://idp.internal/sso', 'urn:example:idp', 'ftp://idp.test/sso']) {
      expect((await sb.json(['saml', 'update', p.id, '--sso-url', url])).ssoURL).toBe(url);
    }
    const script = await sb.run(['saml', 'update', p.id, '--sso-url', 'javascript:alert(1)']);
    expect(script.exitCode).toBe(1);
    expect(script.stderr).toContain('ssoURL: a javascript: URL would run in the browser');
  });

  it('becomes active once entity ID, certificate and sign-in URL are all set', async () => {
    const id = (await sb.request('POST', '/v1/orgs/org-acme/saml', { label: 'Okta' })).body.id;
    const partial = await sb.json(['saml', 'update', id, '--entity-id', 'http://www.okta.com/exk1', '--sso-url', 'https://acme.okta.test/sso']);
    expect(partial.status).toBe('pending');
    const active = await sb.json(['saml', 'update', id, '--certificate-file', PEM_FILE, '--default-team', 'team-writers', '--default-role', 'edit']);
    expect(active).toMatchObject({
      status: 'active',
      entityID: 'http://www.okta.com/exk1',
      ssoURL: 'https://acme.okta.test/sso',
      certificate: PEM,
      defaultRole: 'edit',
      defaultTeam: { object: 'team', id: 'team-writers', title: 'Writers' },
    });
    expect(await sb.json(['saml', 'get', id])).toEqual(active);
    expect((await sb.json(['saml', 'update', id, '--default-role', 'null'])).defaultRole).toBeNull();
  });

  it('lists providers and, for every member, the sign-in links of the active ones', async () => {
    const pending = (await sb.request('POST', '/v1/orgs/org-acme/saml', { label: 'Later' })).body;
    const active = (
      await sb.request('POST', '/v1/orgs/org-acme/saml', {
        label: 'Okta',
        entityID: 'http://www.okta.com/exk1',
        ssoURL: 'https://acme.okta.test/sso',
        certificate: PEM,
        defaultRole: 'edit',
      })
    ).body;
    expect(active.status).toBe('active');
    const start = `${sb.server.url}/sso/saml/org-acme/${active.id}/start`;
    expect((await sb.run(['sso', 'list'], { as: 'guest' })).stdout).toBe(`${active.id}\tOkta\t${start}`);
    expect(await sb.json(['sso', 'list'])).toEqual([{ id: active.id, label: 'Okta', startURL: start }]);

    const rows = (await sb.run(['saml', 'list'])).stdout.split('\n');
    expect(rows).toEqual([
      `${pending.id}\tLater\tpending\t\tread\t${pending.createdAt}`,
      `${active.id}\tOkta\tactive\thttps://acme.okta.test/sso\tedit\t${active.createdAt}`,
    ]);
    const fields = await sb.run(['saml', 'get', active.id, '--fields', 'label,status,startURL']);
    expect(fields.stdout).toBe(`label\tOkta\nstatus\tactive\nstartURL\t${start}`);
  });

  it('accepts each field at its limit', async () => {
    const cert = PEM + '\n'.repeat(10000 - PEM.length);
    expect(cert).toHaveLength(10000);
    const p = await sb.json([
      'saml',
      'create',
      '--label',
      'L'.repeat(30),
      '--entity-id',
      'e'.repeat(1024),
      '--sso-url',
      urlOf(2048),
      '--certificate-file',
      file('at-limit.pem', cert),
    ]);
    expect(p).toMatchObject({ label: 'L'.repeat(30), entityID: 'e'.repeat(1024), ssoURL: urlOf(2048), certificate: cert, status: 'active' });
  });

  it('rejects each field past its limit before sending (exit 2, the flag named), nothing created', async () => {
    const cases: [string[], string][] = [
      [['--label', 'L'.repeat(31)], '--label: must be at most 30 characters'],
      [['--label', ''], '--label: must not be empty'],
      [[], '--label: is required'],
      [['--label', 'x', '--entity-id', 'e'.repeat(1025)], '--entity-id: must be at most 1024 characters'],
      [['--label', 'x', '--sso-url', urlOf(2049)], '--sso-url: must be at most 2048 characters'],
      [['--label', 'x', '--sso-url', 'not a url'], '--sso-url: must be an absolute URI'],
      [['--label', 'x', '--sso-url', '/relative/sso'], '--sso-url: must be an absolute URI'],
      [
        ['--label', 'x', '--certificate-file', file('past-limit.pem', PEM + '\n'.repeat(10001 - PEM.length))],
        '--certificate-file: must be at most 10000 characters',
      ],
      [['--label', 'x', '--certificate-file', join(dir, 'missing.pem')], `--certificate-file: ${join(dir, 'missing.pem')}: cannot read it (ENOENT)`],
    ];
    for (const [flags, message] of cases) {
      const r = await sb.run(['saml', 'create', ...flags]);
      expect({ flags, exitCode: r.exitCode }).toEqual({ flags, exitCode: 2 });
      expect(r.stderr).toContain(message);
    }
    const role = await sb.run(['saml', 'create', '--label', 'x', '--default-role', 'owner']);
    expect(role.exitCode).toBe(2);
    expect(role.stderr).toMatch(/--default-role.*owner.*invalid/);
    const nothing = await sb.run(['saml', 'update', 'any-id']);
    expect(nothing.exitCode).toBe(2);
    expect(nothing.stderr).toContain('nothing to update');
    expect(await count()).toBe(0);
  });

  it('the server rejects the same with 400 naming the field, and checks what the schema cannot', async () => {
    const post = (body: unknown) => sb.request('POST', '/v1/orgs/org-acme/saml', body);
    const cases: [unknown, string][] = [
      [{ label: 'L'.repeat(31) }, 'label: must be at most 30 characters'],
      [{}, 'label: is required'],
      [{ label: 'x', entityID: 'e'.repeat(1025) }, 'entityID: must be at most 1024 characters'],
      [{ label: 'x', ssoURL: urlOf(2049) }, 'ssoURL: must be at most 2048 characters'],
      [{ label: 'x', ssoURL: 'not a url' }, 'ssoURL: must be an absolute URI'],
      [{ label: 'x', ssoURL: 'javascript:alert(1)' }, 'ssoURL: a javascript: URL would run in the browser'],
      [{ label: 'x', ssoURL: 'DATA:text/html,<script>1</script>' }, 'ssoURL: a data: URL would run in the browser'],
      [{ label: 'x', certificate: PEM + '\n'.repeat(10001 - PEM.length) }, 'certificate: must be at most 10000 characters'],
      // neither PEM nor base64; a private key, not a certificate
      [{ label: 'x', certificate: 'MIIC...' }, 'certificate: not a readable X.509 certificate'],
      [{ label: 'x', certificate: '-----BEGIN PRIVATE KEY-----\nQUJD\n-----END PRIVATE KEY-----\n' }, 'certificate: not a readable X.509 certificate'],
      [{ label: 'x', defaultRole: 'owner' }, 'defaultRole: must be one of'],
      [{ label: 'x', extra: 1 }, 'unknown field "extra"'],
      // shaped like PEM, but not a certificate
      [{ label: 'x', certificate: '-----BEGIN CERTIFICATE-----\nQUJDRA==\n-----END CERTIFICATE-----\n' }, 'certificate: not a readable X.509 certificate'],
      [{ label: 'x', defaultTeam: 'team-nope' }, 'defaultTeam: no team team-nope in organization org-acme'],
    ];
    for (const [body, message] of cases) {
      const r = await post(body);
      expect({ body, status: r.status }).toEqual({ body, status: 400 });
      expect(r.body.error.message).toContain(message);
    }
    // docsctl checks it before sending (exit 2)
    const garbage = await sb.run([
      'saml',
      'create',
      '--label',
      'x',
      '--certificate-file',
      file('garbage.pem', '-----BEGIN CERTIFICATE-----\nQUJDRA==\n-----END CERTIFICATE-----\n'),
    ]);
    expect(garbage.exitCode).toBe(2);
    expect(garbage.stderr).toContain('garbage.pem: not a readable X.509 certificate');
    expect(await count()).toBe(0);

    // a rejected update changes nothing either
    const p = (await post({ label: 'Keep' })).body;
    const bad = await sb.request('PATCH', `/v1/orgs/org-acme/saml/${p.id}`, { label: 'Changed', defaultTeam: 'team-nope' });
    expect(bad.status).toBe(400);
    expect((await sb.request('GET', `/v1/orgs/org-acme/saml/${p.id}`)).body.label).toBe('Keep');
  });

  it('only admins manage providers; delete answers 204 also when missing', async () => {
    const p = (await sb.request('POST', '/v1/orgs/org-acme/saml', { label: 'Okta' })).body;
    const list = await sb.run(['saml', 'list'], { as: 'create' });
    expect(list.exitCode).toBe(5);
    expect(list.stderr).toContain('listing SAML providers needs the admin role or above; you have create');
    expect((await sb.run(['saml', 'create', '--label', 'Mine'], { as: 'review' })).exitCode).toBe(5);
    expect((await sb.run(['saml', 'get', p.id], { as: 'outsider' })).exitCode).toBe(4);
    // a provider of another organization is not found through this one
    expect((await sb.request('GET', `/v1/orgs/org-globex/saml/${p.id}`)).status).toBe(404);

    const refused = await sb.run(['saml', 'delete', p.id]);
    expect(refused.exitCode).toBe(2);
    const r = await sb.run(['saml', 'delete', p.id, '--yes']);
    expect(r).toMatchObject({ exitCode: 0, stdout: '', stderr: `deleted SAML provider ${p.id}` });
    expect((await sb.run(['saml', 'get', p.id])).exitCode).toBe(4);
    expect((await sb.request('DELETE', `/v1/orgs/org-acme/saml/${p.id}`)).status).toBe(204);
    expect((await sb.request('GET', '/v1/orgs/org-acme')).body.sso).toBe(false);
  });
});

describe('issue 15: --default-role takes guest, as members set-role does', () => {
  it('saml create and update send guest as null; null still works; help lists guest', async () => {
    const p = await sb.json(['saml', 'create', '--label', 'Okta', '--default-role', 'guest']);
    expect(p.defaultRole).toBeNull();
    expect((await sb.json(['saml', 'update', p.id, '--default-role', 'edit'])).defaultRole).toBe('edit');
    expect((await sb.json(['saml', 'update', p.id, '--default-role', 'guest'])).defaultRole).toBeNull();
    expect((await sb.json(['saml', 'update', p.id, '--default-role', 'read'])).defaultRole).toBe('read');
    expect((await sb.json(['saml', 'update', p.id, '--default-role', 'null'])).defaultRole).toBeNull();
    expect((await sb.run(['saml', 'create', '--help'])).stdout).toMatch(/--default-role <role>[\s\S]*"guest"/);
  });

  it('saml delete without --yes names the provider by label and id', async () => {
    const p = await sb.json(['saml', 'create', '--label', 'Okta']);
    const r = await sb.run(['saml', 'delete', p.id]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`Delete SAML provider "Okta" (${p.id})? Members can no longer sign in through it.`);
  });
});

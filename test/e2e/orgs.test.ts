import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();
const PEM = readFileSync(resolve(import.meta.dirname, '../fixtures/saml-idp.pem'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'docsctl-orgs-'));

const org = async (role = 'admin') => (await sb.request('GET', '/v1/orgs/org-acme', undefined, role)).body;
/** The key/value lines of a `get` as an object. */
const lines = (r: { stdout: string }) => Object.fromEntries(r.stdout.split('\n').map((l) => l.split('\t')));

describe('the organization', () => {
  it('shows its settings with their defaults: no merge rules, no trial, SSO not enforced', async () => {
    const o = await sb.json(['orgs', 'get']);
    expect(o).toMatchObject({
      object: 'organization',
      id: 'org-acme',
      title: 'Acme Docs',
      type: 'business',
      plan: 'free',
      defaultRole: 'read',
      sso: false,
      ai: false,
      inviteLinks: true,
      mergeRules: { type: 'none' },
      trial: { status: 'notapplicable', count: 0 },
      urls: { location: `${sb.server.url}/v1/orgs/org-acme`, app: `${sb.server.url}/app/o/org-acme` },
      permissions: { view: true, access: true, admin: true, listMembers: true },
    });
    expect(o).not.toHaveProperty('hostname');
    expect(o).not.toHaveProperty('defaultContent');
    // the permissions are the caller's: a guest opens the organization, but administers nothing
    expect((await org('guest')).permissions).toMatchObject({ view: true, access: true, admin: false, listMembers: false });
    expect(lines(await sb.run(['orgs', 'get']))).toMatchObject({ id: 'org-acme', mergeRules: 'none', sso: 'false', defaultRole: 'read' });
  });

  it('an admin changes its settings; the answer and every later read show them', async () => {
    const updated = await sb.json([
      'orgs',
      'update',
      '--title',
      'Acme Documentation',
      '--email-domains',
      'acme.test,acme.example',
      '--hostname',
      'acme',
      '--default-role',
      'null',
      '--logo',
      'https://cdn.acme.test/logo.png',
      '--ai',
      'true',
      '--invite-links',
      'false',
    ]);
    expect(updated).toMatchObject({
      title: 'Acme Documentation',
      emailDomains: ['acme.test', 'acme.example'],
      hostname: 'acme',
      defaultRole: null,
      ai: true,
      inviteLinks: false,
      urls: { logo: 'https://cdn.acme.test/logo.png' },
    });
    expect(await org('read')).toMatchObject({ title: 'Acme Documentation', hostname: 'acme', defaultRole: null });
    expect((await sb.json(['orgs', 'list'], { as: 'read' })).find((o: { id: string }) => o.id === 'org-acme').title).toBe('Acme Documentation');
    // null removes the logo; fields not sent stay as they are
    const again = await sb.json(['orgs', 'update', '--logo', 'null', '--email-domains', '']);
    expect(again.urls).not.toHaveProperty('logo');
    expect(again).toMatchObject({ title: 'Acme Documentation', emailDomains: [], ai: true });
    // an empty update changes nothing (the CLI does not send one)
    expect(await sb.request('PATCH', '/v1/orgs/org-acme', {})).toEqual({ status: 200, body: await org() });
    const nothing = await sb.run(['orgs', 'update']);
    expect(nothing.exitCode).toBe(2);
    expect(nothing.stderr).toContain('nothing to update');
  });

  it('checks the official document’s rules before sending, and what only the server knows', async () => {
    const cases: [string[], string][] = [
      [['--title', 'A'], '--title: must be at least 2 characters'],
      [['--title', '   '], '--title: must match the pattern'],
      [['--hostname', 'ab'], '--hostname: must be at least 3 characters'],
      [['--logo', 'not a url'], '--logo: must be an absolute URI'],
      [['--default-role', 'owner'], '--default-role'],
      [['--sso', 'yes'], '--sso'],
    ];
    for (const [flags, message] of cases) {
      const r = await sb.run(['orgs', 'update', ...flags]);
      expect({ flags, exitCode: r.exitCode }).toEqual({ flags, exitCode: 2 });
      expect(r.stderr).toContain(message);
    }
    const server: [unknown, string][] = [
      [{ title: 'x' }, 'title: must be at least 2 characters'],
      [{ mergeRules: { type: 'inherit' } }, 'mergeRules'],
      [
        { mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: ['u-nobody'] }] } },
        'mergeRules.rules.0.users.0: u-nobody is not a member of organization org-acme',
      ],
      [{ defaultContent: { type: 'site', site: 'site-nope' } }, 'defaultContent.site: no site site-nope in organization org-acme'],
      [{ sso: true }, 'sso: enforcing single sign-on needs an active SAML provider'],
      [{ plan: 'pro' }, 'unknown field "plan"'],
    ];
    for (const [body, message] of server) {
      const r = await sb.request('PATCH', '/v1/orgs/org-acme', body);
      expect({ body, status: r.status }).toEqual({ body, status: 400 });
      expect(r.body.error.message).toContain(message);
    }
    expect((await org()).title).toBe('Acme Docs');
    // only admins
    const r = await sb.run(['orgs', 'update', '--title', 'Mine now'], { as: 'create' });
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('changing the organization needs the admin role or above; you have create');
    expect((await sb.run(['orgs', 'update', 'org-globex', '--title', 'Nope'], { as: 'read' })).exitCode).toBe(4);
  });

  it('enforces SSO only with an active SAML provider, and shows it only while one is', async () => {
    const saml = (
      await sb.request('POST', '/v1/orgs/org-acme/saml', {
        label: 'Okta',
        entityID: 'http://www.okta.com/exk1',
        ssoURL: 'https://acme.okta.test/sso',
        certificate: PEM,
      })
    ).body;
    expect((await org()).sso).toBe(false);
    expect((await sb.json(['orgs', 'update', '--sso', 'true'])).sso).toBe(true);
    // the provider goes pending: SSO cannot be in force
    await sb.request('PATCH', `/v1/orgs/org-acme/saml/${saml.id}`, { certificate: '' });
    expect((await org()).sso).toBe(false);
    await sb.request('PATCH', `/v1/orgs/org-acme/saml/${saml.id}`, { certificate: PEM });
    expect((await org()).sso).toBe(true);
    expect((await sb.json(['orgs', 'update', '--sso', 'false'])).sso).toBe(false);
  });
});

describe('the organization’s merge rules', () => {
  it('are those of every space whose merge rules are inherit: who may merge, who is asked to review', async () => {
    expect((await sb.request('GET', '/v1/spaces/sp-welcome')).body.mergeRules).toEqual({ type: 'inherit' });
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'One']);
    expect((await sb.json(['cr', 'get', 'sp-welcome', '1'], { as: 'review' })).permissions.merge).toBe(true);

    const o = await sb.json(['orgs', 'update', '--require-reviewers', 'u-create']);
    expect(o.mergeRules).toEqual({ type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: ['u-create'] }] });
    expect(lines(await sb.run(['orgs', 'get'])).mergeRules).toBe('require_specific_reviewers(u-create)');
    // the space inherits them: only u-create may merge, and its change requests ask u-create to review
    expect((await sb.json(['cr', 'get', 'sp-welcome', '1'], { as: 'review' })).permissions.merge).toBe(false);
    const refused = await sb.run(['cr', 'merge', 'sp-welcome', '1', '--yes'], { as: 'review' });
    expect(refused.exitCode).toBe(5);
    expect(refused.stderr).toContain('space sp-welcome requires a review by u-create to merge (mergeRules require_specific_reviewers)');
    expect(
      (await sb.json(['cr', 'list', 'sp-welcome', '--status', 'draft', '--requested-reviewer', 'u-create'])).map((c: { number: number }) => c.number),
    ).toEqual([1]);
    expect(await sb.json(['cr', 'list', 'sp-welcome', '--status', 'draft', '--requested-reviewer', 'u-review'])).toEqual([]);

    // a space with rules of its own (here: none) no longer follows the organization's
    expect((await sb.request('PATCH', '/v1/spaces/sp-welcome', { mergeRules: { type: 'none' } })).status).toBe(200);
    expect((await sb.json(['cr', 'get', 'sp-welcome', '1'], { as: 'review' })).permissions.merge).toBe(true);
    expect((await sb.request('PATCH', '/v1/spaces/sp-welcome', { mergeRules: { type: 'inherit' } })).status).toBe(200);

    // rules from a file (the list alone, or the whole object), then none again
    const file = join(dir, 'rules.json');
    writeFileSync(
      file,
      JSON.stringify([{ rule: 'require_one_of_specific_reviewers', users: ['u-review', 'u-edit'] }, { rule: 'require_change_request_subject' }]),
    );
    const fromFile = await sb.json(['orgs', 'update', '--merge-rules', file]);
    expect(fromFile.mergeRules).toEqual({
      type: 'rules',
      rules: [{ rule: 'require_one_of_specific_reviewers', users: ['u-review', 'u-edit'] }, { rule: 'require_change_request_subject' }],
    });
    const fromStdin = await sb.run(['orgs', 'update', '--merge-rules', '-', '--json'], {
      input: JSON.stringify({ type: 'rules', rules: [{ rule: 'require_author_to_merge' }] }),
    });
    expect(JSON.parse(fromStdin.stdout).mergeRules.rules).toEqual([{ rule: 'require_author_to_merge' }]);
    expect((await sb.json(['orgs', 'update', '--merge-rules', 'none'])).mergeRules).toEqual({ type: 'none' });
    expect((await sb.json(['cr', 'merge', 'sp-welcome', '1', '--yes'], { as: 'review' })).result).toBe('merge');

    const bad = await sb.run(['orgs', 'update', '--merge-rules', '-'], { input: '{"type": "rules", "rules": [{"rule": "be_nice"}]}' });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--merge-rules:');
    const both = await sb.run(['orgs', 'update', '--merge-rules', 'none', '--require-reviewers', 'u-create']);
    expect(both.exitCode).toBe(2);
    // each organization has its own
    expect((await sb.request('GET', '/v1/orgs/org-globex')).body.mergeRules).toEqual({ type: 'none' });
  });
});

describe('the organization’s default content', () => {
  it('is a site of the organization, shown while the site exists', async () => {
    const site = await sb.json(['sites', 'create', '--title', 'Docs']);
    const o = await sb.json(['orgs', 'update', '--default-site', site.id]);
    expect(o.defaultContent).toEqual({ type: 'site', site: site.id });
    expect(lines(await sb.run(['orgs', 'get'])).defaultSite).toBe(site.id);
    expect((await sb.json(['orgs', 'update', '--default-site', 'null'])).defaultContent).toBeUndefined();
    await sb.json(['orgs', 'update', '--default-site', site.id]);
    await sb.run(['sites', 'delete', site.id, '--yes']);
    expect(await org()).not.toHaveProperty('defaultContent');
  });
});

describe('issue 15: orgs update --default-role takes guest, as members set-role does', () => {
  it('guest is sent as null (no role for new members); a role and null still work', async () => {
    expect((await sb.json(['orgs', 'update', '--default-role', 'edit'])).defaultRole).toBe('edit');
    const guest = await sb.json(['orgs', 'update', '--default-role', 'guest']);
    expect(guest.defaultRole).toBeNull();
    expect((await sb.json(['orgs', 'update', '--default-role', 'read'])).defaultRole).toBe('read');
    expect((await sb.json(['orgs', 'update', '--default-role', 'null'])).defaultRole).toBeNull();
    const bad = await sb.run(['orgs', 'update', '--default-role', 'owner']);
    expect(bad.exitCode).toBe(2);
  });
});

/**
 * The organization as code, issue 26's rest: a space deleted in the app and still in the file with
 * its id is restored (not created empty), or created anew with the reason when it cannot be; plan
 * needs no secret (an unset `${env:}` certificate is "unknown, unchanged"; apply refuses when it
 * would send it); plan names the role its token lacks. Driven as a user against the sandbox.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { PEM } from '../helpers/fixture.js';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docsctl-orgs-rest-'));
});

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

interface ListedSpace {
  id: string;
  title: string;
  emoji: string;
  parent?: string;
}

async function spaces(): Promise<ListedSpace[]> {
  return (await sb.request('GET', '/v1/orgs/org-acme/spaces?limit=1000')).body.items as ListedSpace[];
}

/** A collection and a space in it, applied; the space's id. */
async function applied(): Promise<{ id: string; yaml: string }> {
  const first = `version: 1
collections:
  - title: Guides
spaces:
  - key: handbook
    title: Handbook
    parent: guides
`;
  expect((await sb.run(['orgs', 'apply', '-f', file('org.yaml', first), '--yes'])).exitCode).toBe(0);
  const id = (await spaces()).find((s) => s.title === 'Handbook')!.id;
  // The file as export --update would keep it: the space with its id.
  const yaml = first.replace('  - key: handbook\n', `  - key: handbook\n    id: ${id}\n`);
  return { id, yaml };
}

describe('a space deleted in the app, still in the file with its id', () => {
  it('is restored (a restore step, shown in the plan), then updated as the file says: not created empty', async () => {
    const { id, yaml } = await applied();
    // Some content, to see that it comes back.
    expect((await sb.request('DELETE', `/v1/spaces/${id}`)).status).toBe(204);
    const edited = file('org.yaml', yaml.replace('    title: Handbook\n', '    title: Staff handbook\n    emoji: "📘"\n'));

    const plan = await sb.run(['orgs', 'plan', '-f', edited]);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(
      /↺ space handbook \(Handbook\)\n\s+deleted on \d{4}-\d\d-\d\d, restorable until \d{4}-\d\d-\d\d: restored with its content, not created empty/,
    );
    expect(plan.stdout).toContain('~ space handbook (Handbook)');
    expect(plan.stdout).toContain('title: "Handbook" → "Staff handbook"');
    expect(plan.stdout).toContain('Plan: 0 to create, 1 to restore, 1 to update, 0 to move, 0 to delete.');
    const json = JSON.parse((await sb.run(['orgs', 'plan', '-f', edited, '--json'])).stdout) as {
      summary: Record<string, number>;
      changes: { action: string }[];
    };
    expect(json.summary).toEqual({ create: 0, restore: 1, update: 1, move: 0, delete: 0 });

    const apply = await sb.run(['orgs', 'apply', '-f', edited, '--yes']);
    expect(apply.exitCode, apply.stderr).toBe(0);
    expect(apply.stderr).toContain('Applied: 2 changes');
    const after = await spaces();
    expect(after.filter((s) => s.title.endsWith('andbook'))).toEqual([expect.objectContaining({ id, title: 'Staff handbook', emoji: '📘' })]);
    // Back in its collection, and the plan is clean.
    expect(after.find((s) => s.id === id)!.parent).toBeDefined();
    expect((await sb.run(['orgs', 'plan', '-f', edited, '--detailed-exitcode'])).exitCode).toBe(0);
  });

  it('a saved plan restores it too', async () => {
    const { id, yaml } = await applied();
    expect((await sb.request('DELETE', `/v1/spaces/${id}`)).status).toBe(204);
    const planFile = join(dir, 'org.plan');
    expect((await sb.run(['orgs', 'plan', '-f', file('org.yaml', yaml), '--out', planFile])).exitCode).toBe(0);
    const apply = await sb.run(['orgs', 'apply', planFile, '--yes']);
    expect(apply.exitCode, apply.stderr).toBe(0);
    expect((await spaces()).filter((s) => s.title === 'Handbook').map((s) => s.id)).toEqual([id]);
  });

  it('a saved plan is refused (exit 6, nothing applied) when the space it restores left the trash since', async () => {
    const { id, yaml } = await applied();
    expect((await sb.request('DELETE', `/v1/spaces/${id}`)).status).toBe(204);
    const planFile = join(dir, 'org.plan');
    expect((await sb.run(['orgs', 'plan', '-f', file('org.yaml', yaml), '--out', planFile])).exitCode).toBe(0);
    // Purged: its 7 days passed between the review and the apply.
    expect((await sb.request('POST', '/_sandbox/clock', { advance: '8d' })).status).toBe(200);
    const stale = await sb.run(['orgs', 'apply', planFile, '--yes']);
    expect(stale.exitCode, stale.stderr).toBe(6);
    expect(stale.stderr).toContain(
      `space Handbook (${id}): in the trash when planned (to be restored), now not (purged, past its 7 days, or restored in the app)`,
    );
    expect((await spaces()).filter((s) => s.title === 'Handbook')).toEqual([]);
    // A new plan says what it does now: create it anew.
    expect((await sb.run(['orgs', 'plan', '-f', join(dir, 'org.yaml')])).stdout).toContain('+ space handbook (Handbook)');
  });

  it('a saved plan is refused when the space it restores was restored in the app since', async () => {
    const { id, yaml } = await applied();
    expect((await sb.request('DELETE', `/v1/spaces/${id}`)).status).toBe(204);
    const planFile = join(dir, 'org.plan');
    expect((await sb.run(['orgs', 'plan', '-f', file('org.yaml', yaml), '--out', planFile])).exitCode).toBe(0);
    expect((await sb.run(['spaces', 'restore', id])).exitCode).toBe(0);
    const stale = await sb.run(['orgs', 'apply', planFile, '--yes']);
    expect(stale.exitCode, stale.stderr).toBe(6);
    expect(stale.stderr).toContain(`space Handbook (${id}): in the trash when planned`);
    expect(stale.stderr).toMatch(/space .*: new/);
  });

  it('past the 7 days (or an id the organization never had) it is created anew, and the plan says why', async () => {
    const { id, yaml } = await applied();
    expect((await sb.request('DELETE', `/v1/spaces/${id}`)).status).toBe(204);
    expect((await sb.request('POST', '/_sandbox/clock', { advance: '8d' })).status).toBe(200);
    const plan = await sb.run(['orgs', 'plan', '-f', file('org.yaml', yaml)]);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('+ space handbook (Handbook)');
    expect(plan.stdout).toContain(
      `${id} is neither a space of the organization nor a deleted one it can still restore (a deleted space is restorable for 7 days): created anew`,
    );
    expect(plan.stdout).toContain('Plan: 1 to create, 0 to update, 0 to move, 0 to delete.');
    const apply = await sb.run(['orgs', 'apply', '-f', join(dir, 'org.yaml'), '--yes']);
    expect(apply.exitCode, apply.stderr).toBe(0);
    expect((await spaces()).filter((s) => s.title === 'Handbook')).toHaveLength(1);
  });
});

const SAML = (label: string, role = 'read') => `version: 1
collections:
  - title: Guides
saml:
  - label: ${label}
    entityID: https://okta.example/entity
    ssoURL: https://okta.example/sso
    certificate: \${env:OKTA_CERT}
    defaultRole: ${role}
`;

interface Provider {
  id: string;
  label: string;
  certificate?: string;
}

async function providers(): Promise<Provider[]> {
  return (await sb.request('GET', '/v1/orgs/org-acme/saml')).body.items as Provider[];
}

describe('plan needs no secret', () => {
  it('an unset ${env:} certificate of an existing provider is "unknown, unchanged": everything else is planned and applied, exit 0', async () => {
    const path = file('org.yaml', SAML('Okta'));
    expect((await sb.run(['orgs', 'apply', '-f', path, '--yes'], { env: { OKTA_CERT: PEM } })).exitCode).toBe(0);
    const [before] = await providers();
    const edited = file('org.yaml', `${SAML('Okta', 'edit')}spaces:\n  - title: Onboarding\n    parent: guides\n`);

    const plan = await sb.run(['orgs', 'plan', '-f', edited, '--detailed-exitcode']);
    expect(plan.exitCode, plan.stderr).toBe(2);
    expect(plan.stdout).toContain('+ space onboarding (Onboarding)');
    expect(plan.stdout).toContain('defaultRole: "read" → "edit"');
    expect(plan.stdout).toMatch(
      /! saml okta certificate: "sha256:[0-9a-f]{16}, expires \d{4}-\d\d-\d\d" \(file: "\$\{env:OKTA_CERT\}"\): unknown, unchanged: the environment variable OKTA_CERT is not set here/,
    );
    expect(plan.stdout).not.toContain(PEM.split('\n')[1]);
    const json = JSON.parse((await sb.run(['orgs', 'plan', '-f', edited, '--json'])).stdout) as { drift: { field?: string; why: string }[] };
    expect(json.drift).toEqual([expect.objectContaining({ kind: 'saml', field: 'certificate', why: expect.stringContaining('unknown, unchanged') })]);

    // apply sends what it knows and leaves the certificate as it is.
    const apply = await sb.run(['orgs', 'apply', '-f', edited, '--yes']);
    expect(apply.exitCode, apply.stderr).toBe(0);
    const [after] = await providers();
    expect(after).toMatchObject({ id: before.id, defaultRole: 'edit', certificate: before.certificate });
    expect((await sb.run(['orgs', 'plan', '-f', edited, '--detailed-exitcode'])).exitCode).toBe(0);
  });

  it('apply refuses (exit 2, naming the variable, nothing sent) when it would send the unknown value: a new provider', async () => {
    const path = file('org.yaml', `${SAML('Okta')}spaces:\n  - title: Onboarding\n`);
    const plan = await sb.run(['orgs', 'plan', '-f', path]);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('certificate: "unknown: ${env:OKTA_CERT} is not set here (apply needs it to create the provider)"');
    const spacesBefore = (await spaces()).length;
    for (const args of [
      ['orgs', 'apply', '-f', path, '--yes'],
      // A plan saved without the secret is refused the same way.
      ...(await (async () => {
        const planFile = join(dir, 'org.plan');
        expect((await sb.run(['orgs', 'plan', '-f', path, '--out', planFile])).exitCode).toBe(0);
        return [['orgs', 'apply', planFile, '--yes']];
      })()),
    ]) {
      const r = await sb.run(args);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('error: ${env:OKTA_CERT}: the environment variable OKTA_CERT is not set, and apply would send its value: nothing was applied');
      expect(r.stderr).toContain('  saml okta: create needs ${env:OKTA_CERT}');
      expect(r.stderr).toContain('hint: set OKTA_CERT');
    }
    expect(await providers()).toEqual([]);
    expect((await spaces()).length).toBe(spacesBefore);
    // With the variable set, it applies.
    expect((await sb.run(['orgs', 'apply', '-f', path, '--yes'], { env: { OKTA_CERT: PEM } })).exitCode).toBe(0);
    expect(await providers()).toHaveLength(1);
  });

  it('plan names the role its token lacks: listing SAML providers needs admin (exit 5, not a bare 403)', async () => {
    const path = file('org.yaml', SAML('Okta'));
    const r = await sb.run(['orgs', 'plan', '-f', path], { as: 'read' });
    expect(r.exitCode).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("error: reading the organization's SAML providers needs the admin role, which this token's user does not have");
    expect(r.stderr).toContain(
      'hint: plan with a token of an admin (the plan reads every kind the files declare), or leave saml: out of the files this token plans',
    );
    // Without saml:, a read token plans.
    const noSaml = await sb.run(['orgs', 'plan', '-f', file('spaces.yaml', 'version: 1\nspaces:\n  - title: Onboarding\n')], { as: 'read' });
    expect(noSaml.exitCode, noSaml.stderr).toBe(0);
  });
});

const PETSTORE = `openapi: 3.0.3
info: { title: Petstore, version: 1.0.0 }
paths:
  /pets:
    get:
      summary: List pets
      responses: { '200': { description: The pets } }
`;

describe('OpenAPI specifications from a file (file: beside the organization file)', () => {
  it('are created from the document, plan clean after; a changed document is put again; a URL and a file together are a problem', async () => {
    file('petstore.yaml', PETSTORE);
    const path = file('org.yaml', 'version: 1\nopenapi:\n  - slug: petstore-file\n    file: petstore.yaml\n');
    const plan = await sb.run(['orgs', 'plan', '-f', path]);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('+ openapi petstore-file\n      file: "petstore.yaml"');
    const apply = await sb.run(['orgs', 'apply', '-f', path, '--yes']);
    expect(apply.exitCode, apply.stderr).toBe(0);
    const spec = (await sb.request('GET', '/v1/orgs/org-acme/openapi/petstore-file')).body as { sourceURL?: string; processingState?: string };
    expect(spec.sourceURL).toBeUndefined();
    const content = (await sb.request('GET', '/v1/orgs/org-acme/openapi/petstore-file/versions/latest/content')).body as {
      filesystem: Record<string, unknown>;
    };
    expect(JSON.stringify(content.filesystem)).toContain('List pets');
    expect((await sb.run(['orgs', 'plan', '-f', path, '--detailed-exitcode'])).exitCode).toBe(0);

    file('petstore.yaml', PETSTORE.replace('List pets', 'List every pet'));
    const changed = await sb.run(['orgs', 'plan', '-f', path]);
    expect(changed.stdout).toContain('~ openapi petstore-file\n      file: "(another document)" → "petstore.yaml"');
    expect((await sb.run(['orgs', 'apply', '-f', path, '--yes'])).exitCode).toBe(0);
    const again = (await sb.request('GET', '/v1/orgs/org-acme/openapi/petstore-file/versions/latest/content')).body as { filesystem: Record<string, unknown> };
    expect(JSON.stringify(again.filesystem)).toContain('List every pet');
    expect((await sb.run(['orgs', 'plan', '-f', path, '--detailed-exitcode'])).exitCode).toBe(0);

    const both = await sb.run([
      'orgs',
      'plan',
      '-f',
      file('both.yaml', 'version: 1\nopenapi:\n  - slug: x\n    url: https://example.com/x.yaml\n    file: petstore.yaml\n'),
    ]);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toMatch(/both\.yaml:5:11: openapi\[0\]\.file: give its url or its file, not both/);
    const outside = await sb.run(['orgs', 'validate', '-f', file('out.yaml', 'version: 1\nopenapi:\n  - slug: x\n    file: /etc/passwd\n')]);
    expect(outside.exitCode).toBe(2);
    expect(outside.stderr).toContain('an OpenAPI document file must be in that folder or below it');
  });
});

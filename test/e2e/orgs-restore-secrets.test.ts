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

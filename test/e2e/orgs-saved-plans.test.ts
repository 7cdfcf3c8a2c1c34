/**
 * Saved plans (issue 26): `orgs plan --out PLAN` and `orgs apply PLAN`, applied exactly or refused
 * when the organization changed since; what apply sends is what plan showed; an OpenAPI entry whose
 * processing fails fails the apply. Driven as a user against the sandbox, its writes counted where
 * the requests reach it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/inprocess.js';
import { ORG_FILE_LIMITS } from '../../src/orgfile/limits.js';

const sb = useSandbox();
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docsctl-saved-plan-'));
});

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** The writes (not GETs) the sandbox serves while `fn` runs: `METHOD /path`. */
async function writesDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const app = sb.server.app;
  const handle = app.handle;
  const writes: string[] = [];
  app.handle = (req) => {
    if (req.method !== 'GET') writes.push(`${req.method} ${req.url.split('?')[0]}`);
    return handle(req);
  };
  try {
    await fn();
  } finally {
    app.handle = handle;
  }
  return writes;
}

const BASE = `version: 1
collections:
  - title: Guides
spaces:
  - title: Welcome
    parent: guides
  - title: Getting started
    parent: guides
  - title: Reference
`;

/** A new site with groups, sections and site spaces with paths: what plan showed 9 changes of and apply made 12. */
const SITE = `${BASE}sites:
  - title: Public docs
    visibility: public
    sections:
      - title: Guides
        path: guides
        default: true
        siteSpaces:
          - space: welcome
            path: hello
          - space: getting-started
            path: start
            hidden: true
      - group: true
        title: More
        sections:
          - title: API
            path: api
            siteSpaces:
              - space: reference
                path: ref
`;

/** BASE with Welcome by its id, under another title. */
const withWelcome = (id: string, title: string) => BASE.replace('  - title: Welcome\n', `  - key: welcome\n    id: ${id}\n    title: ${title}\n`);

interface SavedStep {
  action: string;
  kind: string;
  key: string;
  requests: { op: string; onPathTaken?: unknown; waitProcessing?: true }[];
}

describe('orgs plan --out, orgs apply PLAN', () => {
  it('what apply sends is what plan showed: every write a request of a step, as many changes applied as planned', async () => {
    expect((await sb.run(['orgs', 'apply', '-f', file('base.yaml', BASE), '--yes'])).exitCode).toBe(0);
    const planFile = join(dir, 'site.plan');
    const planned = await sb.run(['orgs', 'plan', '-f', file('site.yaml', SITE), '--out', planFile]);
    expect(planned.exitCode, planned.stderr).toBe(0);
    expect(planned.stderr).toContain(`wrote the plan to ${planFile}`);
    const summary = /Plan: (\d+) to create, (\d+) to update, (\d+) to move, (\d+) to delete\./.exec(planned.stdout)!;
    const shown = summary.slice(1).reduce((n, x) => n + Number(x), 0);
    const saved = JSON.parse(readFileSync(planFile, 'utf8')) as { steps: SavedStep[]; read: { objects: unknown[] } };
    expect(saved.steps).toHaveLength(shown);
    expect(saved.read.objects.length).toBeGreaterThan(0);
    // Readable by its owner only: it holds the values it sends.
    expect(statSync(planFile).mode & 0o077).toBe(0);

    let applied = { exitCode: -1, stderr: '' };
    const writes = await writesDuring(async () => {
      applied = await sb.run(['orgs', 'apply', planFile, '--yes']);
    });
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(applied.stderr).toContain(`Applied: ${shown} changes`);
    const sent = saved.steps.flatMap((s) => s.requests);
    expect(sent.every((r) => !r.onPathTaken && !r.waitProcessing)).toBe(true);
    expect(writes).toHaveLength(sent.length);
    expect(await sb.run(['orgs', 'plan', '-f', join(dir, 'site.yaml'), '--detailed-exitcode'])).toMatchObject({ exitCode: 0 });
  });

  it('apply -f applies as many changes as it shows, and sends no write its plan does not have', async () => {
    expect((await sb.run(['orgs', 'apply', '-f', file('base.yaml', BASE), '--yes'])).exitCode).toBe(0);
    const shownPlan = JSON.parse((await sb.run(['orgs', 'plan', '-f', file('site.yaml', SITE), '--json'])).stdout) as { changes: unknown[] };
    let applied = { exitCode: -1, stderr: '' };
    await writesDuring(async () => {
      applied = await sb.run(['orgs', 'apply', '-f', join(dir, 'site.yaml'), '--yes']);
    });
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(applied.stderr).toContain(`Applied: ${shownPlan.changes.length} changes`);
  });

  it('two engineers: a plan made before someone else changed the organization is refused (exit 6), naming what changed, and nothing is applied', async () => {
    expect((await sb.run(['orgs', 'apply', '-f', file('base.yaml', BASE), '--yes'])).exitCode).toBe(0);
    // Engineer A renames Welcome and saves the plan for review.
    const spaces = (await sb.request('GET', '/v1/orgs/org-acme/spaces')).body.items as { id: string; title: string }[];
    const welcome = spaces.find((x) => x.title === 'Welcome')!.id;
    const mine = file('a.yaml', withWelcome(welcome, 'Welcome aboard'));
    const planFile = join(dir, 'a.plan');
    const planned = await sb.run(['orgs', 'plan', '-f', mine, '--out', planFile]);
    expect(planned.exitCode, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('Plan: 0 to create, 1 to update, 0 to move, 0 to delete.');
    // Engineer B, meanwhile: a new space, and another title for Welcome.
    const theirs = `${withWelcome(welcome, 'Welcome, team')}  - title: Release notes\n`;
    const b = await sb.run(['orgs', 'apply', '-f', file('b.yaml', theirs), '--yes']);
    expect(b.exitCode, b.stderr).toBe(0);
    const before = await sb.request('GET', '/v1/orgs/org-acme/spaces');

    let refused = { exitCode: -1, stderr: '', stdout: '' };
    const writes = await writesDuring(async () => {
      refused = await sb.run(['orgs', 'apply', planFile, '--yes']);
    });
    expect(refused.exitCode).toBe(6);
    expect(refused.stderr).toContain('the organization changed since the plan was made');
    expect(refused.stderr).toContain('nothing was applied');
    expect(refused.stderr).toContain(`space welcome (${welcome}): title changed`);
    expect(refused.stderr).toMatch(/space release-notes \(\S+\): new/);
    expect(refused.stdout).toBe('');
    expect(writes).toEqual([]);
    expect((await sb.request('GET', '/v1/orgs/org-acme/spaces')).body).toEqual(before.body);

    // Planned again from what is there, the plan applies.
    const again = await sb.run(['orgs', 'plan', '-f', mine, '--out', planFile]);
    expect(again.stdout).toContain('title: "Welcome, team" → "Welcome aboard"');
    const ok = await sb.run(['orgs', 'apply', planFile, '--yes']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(await sb.run(['orgs', 'plan', '-f', mine, '--detailed-exitcode'])).toMatchObject({ exitCode: 0 });
  });

  it('a plan file that is not one, or is for another organization, is a usage error (2) and sends nothing', async () => {
    const notJson = await sb.run(['orgs', 'apply', file('x.plan', 'hello'), '--yes']);
    expect(notJson.exitCode).toBe(2);
    expect(notJson.stderr).toContain('not JSON');
    const unknownOp = file(
      'y.plan',
      JSON.stringify({
        format: 'docsctl-plan',
        version: 1,
        organization: 'org-acme',
        steps: [{ phase: 'spaces', requests: [{ op: 'deleteOrganization', params: {} }] }],
        ids: {},
        read: { kinds: [], objects: [] },
      }),
    );
    const bad = await sb.run(['orgs', 'apply', unknownOp, '--yes']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('steps[0].requests[0].op: not an operation docsctl knows');
    const planFile = join(dir, 'p.plan');
    expect((await sb.run(['orgs', 'plan', '-f', file('base.yaml', BASE), '--out', planFile])).exitCode).toBe(0);
    const other = JSON.parse(readFileSync(planFile, 'utf8'));
    other.organization = 'org-other';
    const wrongOrg = await sb.run(['orgs', 'apply', file('o.plan', JSON.stringify(other)), '--yes']);
    expect(wrongOrg.exitCode).toBe(2);
    expect(wrongOrg.stderr).toContain('is a plan for organization org-other, not org-acme');
    const before = await sb.request('GET', '/v1/orgs/org-acme/spaces');
    const both = await sb.run(['orgs', 'apply', planFile, '-f', join(dir, 'base.yaml'), '--yes']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('give a plan file or --file, not both');
    expect((await sb.request('GET', '/v1/orgs/org-acme/spaces')).body).toEqual(before.body);
  });
});

describe('OpenAPI entries', () => {
  let server: http.Server;
  let base = '';
  const waitMs = ORG_FILE_LIMITS.openapiWaitMs;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/spec.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ openapi: '3.0.0', info: { title: 'Pets', version: '1.0.0' }, paths: {} }));
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    ORG_FILE_LIMITS.openapiWaitMs = waitMs;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  });

  it('apply waits for the processing, and fails (exit 1) naming the specification when it failed', async () => {
    const good = await sb.run(['orgs', 'apply', '-f', file('good.yaml', `version: 1\nopenapi:\n  - slug: pets\n    url: ${base}/spec.json\n`), '--yes']);
    expect(good.exitCode, good.stderr).toBe(0);
    expect((await sb.request('GET', '/v1/orgs/org-acme/openapi/pets')).body).toMatchObject({ processingState: 'complete', lastVersion: expect.any(String) });

    const broken = await sb.run(['orgs', 'apply', '-f', file('bad.yaml', `version: 1\nopenapi:\n  - slug: gone\n    url: ${base}/nowhere.json\n`), '--yes']);
    expect(broken.exitCode).toBe(1);
    expect(broken.stderr).toContain('apply stopped: OpenAPI specification gone: processing failed: FETCH_ERROR');
    expect(broken.stderr).toContain('not applied: 1');
  });
});

describe('a site’s structure in one pass', () => {
  it('a site with site spaces only, given sections: the service makes them a section first; --prune deletes it, and the plan is clean after', async () => {
    const flat = `${BASE}sites:
  - title: Flat
    siteSpaces:
      - space: welcome
      - space: reference
`;
    expect((await sb.run(['orgs', 'apply', '-f', file('flat.yaml', flat), '--yes'])).exitCode).toBe(0);
    const sectioned = `${BASE}sites:
  - title: Flat
    sections:
      - title: Start
        siteSpaces:
          - space: getting-started
          - space: welcome
      - title: API
        siteSpaces:
          - space: reference
`;
    const path = file('sectioned.yaml', sectioned);
    const shown = JSON.parse((await sb.run(['orgs', 'plan', '-f', path, '--prune', '--json'])).stdout) as { changes: unknown[] };
    const applied = await sb.run(['orgs', 'apply', '-f', path, '--prune', '--yes']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(applied.stderr).toContain(`Applied: ${shown.changes.length} changes`);
    const after = await sb.run(['orgs', 'plan', '-f', path, '--prune', '--detailed-exitcode']);
    expect(after.stdout).toContain('No changes');
  });
});

describe('a site’s structure in one pass: paths', () => {
  it('a site space moved into a section where its path is taken, the holder changing its path: planned, applied, clean after', async () => {
    const two = (aSpaces: string, bSpaces: string) => `${BASE}sites:
  - title: Paths
    sections:
      - title: Alpha
        siteSpaces:
${aSpaces}      - title: Beta
        siteSpaces:
${bSpaces}`;
    const first = two('          - space: welcome\n            path: intro\n', '          - space: reference\n            path: intro\n');
    const r1 = await sb.run(['orgs', 'apply', '-f', file('first.yaml', first), '--yes']);
    expect(r1.exitCode, r1.stderr).toBe(0);
    expect(await sb.run(['orgs', 'plan', '-f', join(dir, 'first.yaml'), '--detailed-exitcode'])).toMatchObject({ exitCode: 0 });
    // Welcome joins B keeping its path; Reference, in B, takes another.
    const second = two(
      '          - space: getting-started\n',
      '          - space: reference\n            path: reference\n          - space: welcome\n            path: intro\n',
    );
    const path = file('second.yaml', second);
    const shown = JSON.parse((await sb.run(['orgs', 'plan', '-f', path, '--json'])).stdout) as { changes: unknown[] };
    const applied = await sb.run(['orgs', 'apply', '-f', path, '--yes']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(applied.stderr).toContain(`Applied: ${shown.changes.length} change`);
    const after = await sb.run(['orgs', 'plan', '-f', path]);
    expect(after.stdout).toContain('No changes');
  });
});

import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();

const numbers = (list: { number: number }[]) => list.map((cr) => cr.number);

describe('change requests', () => {
  it('creates a draft from the space’s current revision, numbered in the space', async () => {
    const space = (await sb.request('GET', '/v1/spaces/sp-welcome')).body;
    const cr = await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Fix typos'], { as: 'edit' });
    expect(cr).toMatchObject({
      object: 'change-request',
      number: 1,
      status: 'draft',
      subject: 'Fix typos',
      space: 'sp-welcome',
      revision: space.revision,
      revisionInitial: space.revision,
      outdated: false,
      comments: 0,
      createdBy: { object: 'user', id: 'u-edit', displayName: 'Ed Editor' },
    });
    expect(cr.urls.location).toBe(`${sb.server.url}/v1/spaces/sp-welcome/change-requests/${cr.id}`);
    expect(cr.permissions).toEqual({ view: true, edit: true, comment: true, merge: false, review: false });

    // The API allows an untitled change request; the CLI insists on a subject (asked for on a terminal).
    const untitled = await sb.run(['change-requests', 'create', 'sp-welcome']);
    expect(untitled.exitCode).toBe(2);
    expect(untitled.stderr).toContain('missing --subject');
    const second = await sb.json(['change-requests', 'create', 'sp-welcome', '--subject', 'Second']);
    expect(second).toMatchObject({ number: 2, subject: 'Second', status: 'draft' });

    // The service allows further properties on create; they are accepted and ignored.
    const raw = await sb.request('POST', '/v1/spaces/sp-welcome/change-requests', { subject: 'Raw', source: 'script' });
    expect(raw.status).toBe(201);
    expect(raw.body.number).toBe(3);
    expect(raw.body).not.toHaveProperty('source');

    const counters = (await sb.request('GET', '/v1/spaces/sp-welcome')).body;
    expect(counters).toMatchObject({ changeRequests: 3, changeRequestsDraft: 3, changeRequestsOpen: 0 });
  });

  it('lists open ones by default; --status picks another, --status all every status', async () => {
    const a = await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'A']);
    const b = await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'B']);
    const c = await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'C']);
    await sb.json(['cr', 'edit', 'sp-welcome', String(b.number), '--status', 'open']);
    await sb.json(['cr', 'edit', 'sp-welcome', String(c.number), '--status', 'archived']);

    expect(numbers(await sb.json(['cr', 'list', 'sp-welcome']))).toEqual([2]);
    expect(numbers(await sb.json(['cr', 'list', 'sp-welcome', '--status', 'draft']))).toEqual([1]);
    expect(numbers(await sb.json(['cr', 'list', 'sp-welcome', '--status', 'archived']))).toEqual([3]);
    // all: draft, open, archived, merged in turn, newest first within each
    expect(numbers(await sb.json(['cr', 'list', 'sp-welcome', '--status', 'all']))).toEqual([1, 2, 3]);

    const tsv = await sb.run(['cr', 'list', 'sp-welcome']);
    expect(tsv.exitCode).toBe(0);
    expect(tsv.stdout).toBe(
      `${b.id}\t2\topen\tB\tu-admin\t${(await sb.request('GET', `/v1/spaces/sp-welcome/change-requests/${b.id}`)).body.updatedAt}\tsp-welcome`,
    );

    const counters = (await sb.request('GET', '/v1/spaces/sp-welcome')).body;
    expect(counters).toMatchObject({ changeRequests: 3, changeRequestsDraft: 1, changeRequestsOpen: 1 });
    expect(a.status).toBe('draft');
  });

  it('pages through --status all with a cursor of its own', async () => {
    for (const status of ['draft', 'open', 'open', 'archived', 'draft']) {
      const cr = await sb.request('POST', '/v1/spaces/sp-welcome/change-requests', { subject: status });
      if (status !== 'draft') await sb.request('PATCH', `/v1/spaces/sp-welcome/change-requests/${cr.body.number}`, { status });
    }
    const every = await sb.json(['cr', 'list', 'sp-welcome', '--status', 'all', '--all']);
    expect(numbers(every)).toEqual([5, 1, 3, 2, 4]);

    const first = await sb.run(['cr', 'list', 'sp-welcome', '--status', 'all', '--limit', '3']);
    expect(first.stdout.split('\n').map((l) => l.split('\t')[1])).toEqual(['5', '1', '3']);
    expect(first.stderr).toMatch(/^showing 3 of 5 — use --all or --limit \(next page: --page \S+\)$/);
    const cursor = /--page (\S+)\)/.exec(first.stderr)![1];
    const rest = await sb.json(['cr', 'list', 'sp-welcome', '--status', 'all', '--page', cursor]);
    expect(numbers(rest)).toEqual([2, 4]);

    const bad = await sb.run(['cr', 'list', 'sp-welcome', '--status', 'all', '--page', 'nonsense']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--page: not a cursor of `cr list --status all`');
  });

  it('gets a change request by number, #number or id, and 404s for another space’s', async () => {
    const cr = await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Hello']);
    const byNumber = await sb.json(['cr', 'get', 'sp-welcome', '1']);
    const byHash = await sb.json(['cr', 'get', 'sp-welcome', '#1']);
    const byId = await sb.json(['cr', 'get', 'sp-welcome', cr.id]);
    expect(byNumber).toEqual(cr);
    expect(byHash).toEqual(cr);
    expect(byId).toEqual(cr);

    const other = await sb.request('POST', '/v1/orgs/org-acme/spaces', { title: 'Other' });
    const missing = await sb.run(['cr', 'get', other.body.id, cr.id]);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toContain(`no change request ${cr.id} in space ${other.body.id}`);
    expect((await sb.run(['cr', 'get', 'sp-welcome', '2'])).exitCode).toBe(4);

    const fields = await sb.run(['cr', 'get', 'sp-welcome', '1', '--fields', 'number,status,subject']);
    expect(fields.stdout).toBe('number\t1\nstatus\tdraft\nsubject\tHello');
  });

  it('edits subject, description (plain text to a Document) and status, and records contributors', async () => {
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Draft'], { as: 'edit' });
    const edited = await sb.json([
      'cr',
      'edit',
      'sp-welcome',
      '1',
      '--subject',
      'Ready',
      '--status',
      'open',
      '--description',
      'First paragraph.\n\nSecond one.',
    ]);
    expect(edited).toMatchObject({ subject: 'Ready', status: 'open' });
    expect(edited.description).toEqual({
      object: 'document',
      data: { schemaVersion: 1 },
      nodes: ['First paragraph.', 'Second one.'].map((text) => ({
        object: 'block',
        type: 'paragraph',
        data: {},
        nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
      })),
    });
    const shown = await sb.run(['cr', 'get', 'sp-welcome', '1']);
    // TSV cells hold no line breaks: the paragraphs' blank line becomes spaces.
    expect(shown.stdout).toMatch(/^description\tFirst paragraph\. {2}Second one\.$/m);

    const fromStdin = await sb.json(['cr', 'edit', 'sp-welcome', '1', '--description-file', '-'], { input: 'From stdin\n' });
    expect(fromStdin.description.nodes).toHaveLength(1);
    expect(fromStdin.description.nodes[0].nodes[0].leaves[0].text).toBe('From stdin');

    // The creator and everyone who edited it are its contributors.
    expect(numbers(await sb.json(['cr', 'list', 'sp-welcome', '--creator', 'u-edit']))).toEqual([1]);
    expect(numbers(await sb.json(['cr', 'list', 'sp-welcome', '--contributor', 'u-admin']))).toEqual([1]);
    expect(await sb.json(['cr', 'list', 'sp-welcome', '--creator', 'u-admin'])).toEqual([]);
    expect(await sb.json(['cr', 'list', 'sp-welcome', '--contributor', 'u-review'])).toEqual([]);

    // Back to draft, then archived: PATCH moves freely between the three.
    expect((await sb.json(['cr', 'edit', 'sp-welcome', '1', '--status', 'draft'])).status).toBe('draft');
    expect((await sb.json(['cr', 'edit', 'sp-welcome', '1', '--status', 'archived'])).status).toBe('archived');
    const nothing = await sb.run(['cr', 'edit', 'sp-welcome', '1']);
    expect(nothing.exitCode).toBe(2);
    expect(nothing.stderr).toContain('nothing to change');
  });

  it('filters by requested reviewer (the space’s required reviewers) and issues cluster', async () => {
    await sb.request('POST', '/v1/spaces/sp-welcome/change-requests', { subject: 'one', conversationsIssuesCluster: 'cluster-1' });
    await sb.request('POST', '/v1/spaces/sp-welcome/change-requests', { subject: 'two' });
    for (const n of [1, 2]) await sb.request('PATCH', `/v1/spaces/sp-welcome/change-requests/${n}`, { status: 'open' });
    expect(await sb.json(['cr', 'list', 'sp-welcome', '--requested-reviewer', 'u-review'])).toEqual([]);
    const patched = await sb.request('PATCH', '/v1/spaces/sp-welcome', {
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: ['u-review'] }] },
    });
    expect(patched.status).toBe(200);
    expect(numbers(await sb.json(['cr', 'list', 'sp-welcome', '--requested-reviewer', 'u-review']))).toEqual([2, 1]);
    expect(await sb.json(['cr', 'list', 'sp-welcome', '--requested-reviewer', 'u-edit'])).toEqual([]);
    const cluster = await sb.json(['cr', 'list', 'sp-welcome', '--conversations-issues-cluster', 'cluster-1']);
    expect(cluster).toHaveLength(1);
    expect(cluster[0]).toMatchObject({ number: 1, conversationsIssuesCluster: 'cluster-1' });
  });

  it('lists the organization’s change requests across the spaces the caller can see', async () => {
    const other = (await sb.request('POST', '/v1/orgs/org-acme/spaces', { title: 'Other' })).body;
    const inWelcome = (await sb.request('POST', '/v1/spaces/sp-welcome/change-requests', { subject: 'welcome' })).body;
    await sb.request('POST', '/_sandbox/clock', { advance: '1m' });
    const inOther = (await sb.request('POST', `/v1/spaces/${other.id}/change-requests`, { subject: 'private' })).body;
    for (const cr of [inWelcome, inOther]) await sb.request('PATCH', `/v1/spaces/${cr.space}/change-requests/${cr.id}`, { status: 'open' });

    const all = await sb.json(['cr', 'list']);
    expect(all.map((cr: { id: string }) => cr.id)).toEqual([inOther.id, inWelcome.id]);
    expect(await sb.json(['cr', 'list', '--org', 'org-acme'])).toEqual(all);
    expect(await sb.json(['cr', 'list', '--org', 'org-acme', '--status', 'draft'])).toEqual([]);
    expect((await sb.json(['cr', 'list', '--status', 'all'])).map((cr: { id: string }) => cr.id)).toEqual([inOther.id, inWelcome.id]);

    // A guest sees only the spaces open to them: none, even once a default level says read (it raises members, not guests).
    expect(await sb.json(['cr', 'list'], { as: 'guest' })).toEqual([]);
    expect((await sb.request('PATCH', '/v1/spaces/sp-welcome', { defaultLevel: 'read' })).status).toBe(200);
    expect(await sb.json(['cr', 'list'], { as: 'guest' })).toEqual([]);

    const outsider = await sb.run(['cr', 'list', '--org', 'org-acme'], { as: 'outsider' });
    expect(outsider.exitCode).toBe(4);
    expect(await sb.json(['cr', 'list', '--org', 'org-globex'], { as: 'outsider' })).toEqual([]);
  });

  it('gives 50 concurrent creations 50 distinct numbers, 1 to 50', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => sb.request('POST', '/v1/spaces/sp-welcome/change-requests', { subject: `cr ${i}` })),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(results.map((r) => r.body.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(50);
    expect((await sb.request('GET', '/v1/spaces/sp-welcome')).body.changeRequests).toBe(50);
    // Over real sockets too, through the CLI's own client.
    const cli = await Promise.all(Array.from({ length: 5 }, () => sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Draft'])));
    expect(cli.map((cr) => cr.number).sort((a, b) => a - b)).toEqual([51, 52, 53, 54, 55]);
  });

  it('rejects bad input before sending (exit 2), the server the same with 400, and nothing changes', async () => {
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Keep']);
    const long = await sb.run(['cr', 'create', 'sp-welcome', '--subject', 'x'.repeat(101)]);
    expect(long.exitCode).toBe(2);
    expect(long.stderr).toContain('--subject: must be at most 100 characters');
    const longEdit = await sb.run(['cr', 'edit', 'sp-welcome', '1', '--subject', 'x'.repeat(101)]);
    expect(longEdit.exitCode).toBe(2);
    expect(longEdit.stderr).toContain('--subject: must be at most 100 characters');

    const merged = await sb.run(['cr', 'edit', 'sp-welcome', '1', '--status', 'merged']);
    expect(merged.exitCode).toBe(2);
    expect(merged.stderr).toMatch(/--status.*merged.*invalid/);
    const bogus = await sb.run(['cr', 'list', 'sp-welcome', '--status', 'bogus']);
    expect(bogus.exitCode).toBe(2);
    expect(bogus.stderr).toMatch(/--status.*bogus.*invalid/);

    const server = await sb.request('POST', '/v1/spaces/sp-welcome/change-requests', { subject: 'x'.repeat(101) });
    expect(server).toEqual({ status: 400, body: { error: { code: 400, message: 'subject: must be at most 100 characters' } } });
    const serverMerged = await sb.request('PATCH', '/v1/spaces/sp-welcome/change-requests/1', { status: 'merged', subject: 'Changed' });
    expect(serverMerged.status).toBe(400);
    expect(serverMerged.body.error.message).toBe('status: must be one of "draft", "open", "archived"');
    const serverList = await sb.request('GET', '/v1/spaces/sp-welcome/change-requests?status=all');
    expect(serverList.status).toBe(400);
    expect(serverList.body.error.message).toBe('status: must be one of "draft", "open", "archived", "merged"');
    const badDoc = await sb.request('PATCH', '/v1/spaces/sp-welcome/change-requests/1', { description: { object: 'page' } });
    expect(badDoc.status).toBe(400);
    expect(badDoc.body.error.message).toMatch(/^description\.object: /);

    const list = await sb.request('GET', '/v1/spaces/sp-welcome/change-requests?status=draft');
    expect(list.body.count).toBe(1);
    expect(list.body.items[0]).toMatchObject({ subject: 'Keep', status: 'draft' });
    expect(list.body.items[0]).not.toHaveProperty('description');
  });

  it('checks roles: comment cannot create or edit (exit 5), read views, outsiders get 404', async () => {
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Mine'], { as: 'edit' });
    const create = await sb.run(['cr', 'create', 'sp-welcome', '--subject', 'Nope'], { as: 'comment' });
    expect(create.exitCode).toBe(5);
    expect(create.stderr).toContain('creating a change request needs the edit role or above on space sp-welcome');
    const edit = await sb.run(['cr', 'edit', 'sp-welcome', '1', '--status', 'open'], { as: 'comment' });
    expect(edit.exitCode).toBe(5);

    const seen = await sb.json(['cr', 'get', 'sp-welcome', '1'], { as: 'read' });
    expect(seen.permissions).toEqual({ view: true, edit: false, comment: false, merge: false, review: false });
    const reviewer = await sb.json(['cr', 'get', 'sp-welcome', '1'], { as: 'review' });
    expect(reviewer.permissions).toMatchObject({ edit: true, merge: true, review: true });

    expect((await sb.run(['cr', 'get', 'sp-welcome', '1'], { as: 'guest' })).exitCode).toBe(5);
    expect((await sb.run(['cr', 'get', 'sp-welcome', '1'], { as: 'outsider' })).exitCode).toBe(4);
    expect((await sb.request('GET', '/v1/spaces/sp-welcome/change-requests/1')).body.status).toBe('draft');
  });

  it('takes what the official document allows: a description without schemaVersion, external links, a template on create', async () => {
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Docs']);
    const doc = {
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Why', marks: [] }] }] }],
    };
    const described = await sb.request('PATCH', '/v1/spaces/sp-welcome/change-requests/1', { description: doc });
    expect(described.status).toBe(200);
    expect(described.body.description).toEqual(doc);
    expect((await sb.run(['cr', 'get', 'sp-welcome', '1'])).stdout).toMatch(/^description\tWhy$/m);

    // Links: the list as a whole; an id keeps (and updates) a link, one without an id is new.
    const linked = await sb.request('PATCH', '/v1/spaces/sp-welcome/change-requests/1', {
      links: [{ ref: { kind: 'url', url: 'https://issues.example.com/42' }, title: 'Issue 42' }, { ref: { kind: 'url', url: 'https://example.com/spec' } }],
    });
    expect(linked.status).toBe(200);
    expect(linked.body.links).toEqual([
      { id: expect.any(String), ref: { kind: 'url', url: 'https://issues.example.com/42' }, title: 'Issue 42' },
      { id: expect.any(String), ref: { kind: 'url', url: 'https://example.com/spec' } },
    ]);
    const [issue] = linked.body.links;
    const kept = await sb.request('PATCH', '/v1/spaces/sp-welcome/change-requests/1', {
      links: [{ id: issue.id, ref: issue.ref, title: 'Issue 42, reopened' }],
    });
    expect(kept.body.links).toEqual([{ id: issue.id, ref: issue.ref, title: 'Issue 42, reopened' }]);
    expect((await sb.run(['cr', 'get', 'sp-welcome', '1'])).stdout).toMatch(/^links\tIssue 42, reopened <https:\/\/issues\.example\.com\/42>$/m);
    const unknown = await sb.request('PATCH', '/v1/spaces/sp-welcome/change-requests/1', { links: [{ id: 'nope', ref: issue.ref }] });
    expect(unknown).toEqual({
      status: 400,
      body: { error: { code: 400, message: 'links.0.id: change request 1 has no link nope (leave id out to add a link)' } },
    });
    const tooMany = await sb.request('PATCH', '/v1/spaces/sp-welcome/change-requests/1', { links: Array.from({ length: 11 }, () => ({ ref: issue.ref })) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toMatch(/^links: /);
    expect((await sb.request('PATCH', '/v1/spaces/sp-welcome/change-requests/1', { links: [] })).body).not.toHaveProperty('links.0');

    // A field the document's body does not name is ignored, as the document allows.
    const extra = await sb.request('PATCH', '/v1/spaces/sp-welcome/change-requests/1', { subject: 'Docs 2', reviewers: ['u-review'] });
    expect(extra.status).toBe(200);
    expect(extra.body).not.toHaveProperty('reviewers');

    // A template on create, from the CLI.
    const templated = await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Start', '--template', 'getting-started']);
    expect(templated.revision).not.toBe(templated.revisionInitial);
    expect((await sb.json(['cr', 'pages', 'sp-welcome', String(templated.number)])).map((p: { path: string }) => p.path)[0]).toBe('getting-started');
    const badTemplate = await sb.run(['cr', 'create', 'sp-welcome', '--subject', 'Blog', '--template', 'blog']);
    expect(badTemplate.exitCode).toBe(1);
    expect(badTemplate.stderr).toContain('id: unknown template "blog"');
  });

  it('refuses an agent task clearly: the sandbox runs no agents; nothing is created', async () => {
    const r = await sb.request('POST', '/v1/spaces/sp-welcome/change-requests', { subject: 'By an agent', agentTaskId: 'task-1' });
    expect(r).toEqual({
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'agentTaskId: the sandbox runs no agents, so it cannot implement agent task task-1; create the change request without it',
        },
      },
    });
    expect((await sb.request('GET', '/v1/spaces/sp-welcome')).body.changeRequests).toBe(0);
  });

  it('lists the organization’s change requests of several statuses (status repeated); user filters take any id', async () => {
    const created = [];
    for (const status of ['draft', 'open', 'archived']) {
      const cr = (await sb.request('POST', '/v1/spaces/sp-welcome/change-requests', { subject: status })).body;
      if (status !== 'draft') await sb.request('PATCH', `/v1/spaces/sp-welcome/change-requests/${cr.id}`, { status });
      created.push(cr);
    }
    const list = async (query: string) =>
      ((await sb.request('GET', `/v1/orgs/org-acme/change-requests${query}`)).body.items as { subject: string }[]).map((cr) => cr.subject);
    expect(await list('')).toEqual(['open']);
    expect(await list('?status=open')).toEqual(['open']);
    expect(await list('?status=draft&status=archived')).toEqual(['archived', 'draft']);
    expect(await list('?status=draft&status=open&status=archived&status=merged')).toEqual(['archived', 'open', 'draft']);
    const bad = await sb.request('GET', '/v1/orgs/org-acme/change-requests?status=open&status=bogus');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^status\.1: must be one of "draft", "open", "archived", "merged"/);
    // The space's list takes one status.
    expect((await sb.request('GET', '/v1/spaces/sp-welcome/change-requests?status=draft&status=open')).status).toBe(400);

    const longId = 'u'.repeat(300);
    expect(await sb.json(['cr', 'list', 'sp-welcome', '--creator', longId])).toEqual([]);
    expect(await sb.json(['cr', 'list', '--contributor', longId, '--status', 'all'])).toEqual([]);
    expect(created).toHaveLength(3);
  });

  it('filters the organization’s list by site (the spaces it publishes); topic and styleguideRun match none; finding changes nothing', async () => {
    const other = (await sb.request('POST', '/v1/orgs/org-acme/spaces', { title: 'Other' })).body;
    const inWelcome = (await sb.request('POST', '/v1/spaces/sp-welcome/change-requests', { subject: 'welcome' })).body;
    const inOther = (await sb.request('POST', `/v1/spaces/${other.id}/change-requests`, { subject: 'other' })).body;
    const site = (await sb.request('POST', '/v1/orgs/org-acme/sites', { title: 'Docs' })).body;
    const empty = (await sb.request('POST', '/v1/orgs/org-acme/sites', { title: 'Empty' })).body;
    expect((await sb.request('POST', `/v1/orgs/org-acme/sites/${site.id}/site-spaces`, { spaceId: other.id })).status).toBe(201);
    const list = async (query: string) => {
      const r = await sb.request('GET', `/v1/orgs/org-acme/change-requests?status=draft${query}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return (r.body.items as { id: string }[]).map((cr) => cr.id);
    };
    expect((await list('')).sort()).toEqual([inOther.id, inWelcome.id].sort());
    expect(await list(`&site=${site.id}`)).toEqual([inOther.id]);
    expect(await list(`&site=${site.id}&space=sp-welcome`)).toEqual([]);
    expect(await list(`&site=${empty.id}`)).toEqual([]);
    expect(await list('&site=no-such-site')).toEqual([]);
    expect(await list('&topic=any')).toEqual([]);
    expect(await list('&styleguideRun=any')).toEqual([]);
    expect(await list('&finding=all')).toEqual(await list(''));
    expect(await list('&finding=none')).toEqual(await list(''));
    const bad = await sb.request('GET', '/v1/orgs/org-acme/change-requests?finding=some');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('finding: must be one of "none", "all"');
    // The space's list: topic too.
    expect((await sb.request('GET', '/v1/spaces/sp-welcome/change-requests?status=draft')).body.items).toHaveLength(1);
    expect((await sb.request('GET', '/v1/spaces/sp-welcome/change-requests?status=draft&topic=any')).body.items).toEqual([]);
  });

  it('lists the most recently updated first (the document’s default order), or the most recently created with --order-by createdAt', async () => {
    const tick = () => sb.request('POST', '/_sandbox/clock', { advance: '1m' });
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'First']);
    await tick();
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Second']);
    await tick();
    await sb.json(['cr', 'edit', 'sp-welcome', '1', '--subject', 'First, edited']);
    expect(numbers(await sb.json(['cr', 'list', 'sp-welcome', '--status', 'draft']))).toEqual([1, 2]);
    expect(numbers(await sb.json(['cr', 'list', 'sp-welcome', '--status', 'draft', '--order-by', 'updatedAt']))).toEqual([1, 2]);
    expect(numbers(await sb.json(['cr', 'list', 'sp-welcome', '--status', 'draft', '--order-by', 'createdAt']))).toEqual([2, 1]);
    expect(numbers(await sb.json(['cr', 'list', '--status', 'draft', '--order-by', 'createdAt']))).toEqual([2, 1]);
    const bad = await sb.run(['cr', 'list', 'sp-welcome', '--order-by', 'number']);
    expect(bad.exitCode).toBe(2);

    // The organization's list, for one space (the document's `space` filter).
    const other = (await sb.request('POST', '/v1/orgs/org-acme/spaces', { title: 'Other' })).body.id;
    await sb.request('POST', `/v1/spaces/${other}/change-requests`, { subject: 'Elsewhere' });
    const all = (await sb.request('GET', '/v1/orgs/org-acme/change-requests?status=draft')).body.items;
    expect(all.map((cr: { subject: string }) => cr.subject)).toEqual(['Elsewhere', 'First, edited', 'Second']);
    const one = (await sb.request('GET', '/v1/orgs/org-acme/change-requests?status=draft&space=sp-welcome&orderBy=createdAt')).body.items;
    expect(one.map((cr: { subject: string }) => cr.subject)).toEqual(['Second', 'First, edited']);
  });

  it('a locked space takes no new change requests (403)', async () => {
    expect((await sb.request('PATCH', '/v1/spaces/sp-welcome', { editMode: 'locked' })).status).toBe(200);
    const r = await sb.run(['cr', 'create', 'sp-welcome', '--subject', 'Draft']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('space sp-welcome is locked');
    expect((await sb.request('GET', '/v1/spaces/sp-welcome')).body.changeRequests).toBe(0);
  });

  it('is outdated once the space moves to a new revision', async () => {
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Draft']);
    const applied = await sb.request('POST', '/v1/spaces/sp-welcome/content/template', { id: 'getting-started' });
    expect(applied.status).toBe(204);
    const cr = await sb.json(['cr', 'get', 'sp-welcome', '1']);
    const space = (await sb.request('GET', '/v1/spaces/sp-welcome')).body;
    expect(space.revision).not.toBe(cr.revisionInitial);
    expect(cr.outdated).toBe(true);
  });
});

describe('issue 15: change requests', () => {
  it('cr list with nothing open but drafts says so on stderr, pointing to --status all; stdout stays the (empty) list', async () => {
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Draft one']);
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Draft two']);
    const tsv = await sb.run(['cr', 'list', 'sp-welcome']);
    expect(tsv).toMatchObject({ exitCode: 0, stdout: '' });
    expect(tsv.stderr).toBe('no open change requests, but 2 drafts: see them with --status draft, or every status with --status all');
    const json = await sb.run(['cr', 'list', 'sp-welcome', '--json']);
    expect(JSON.parse(json.stdout)).toEqual([]);
    expect(json.stderr).toContain('--status all');
    const org = await sb.run(['cr', 'list']);
    expect(org.stderr).toContain('2 drafts');
    // none at all, or some open: no hint
    const other = (await sb.request('POST', '/v1/orgs/org-acme/spaces', { title: 'Other' })).body.id;
    expect((await sb.run(['cr', 'list', other])).stderr).toBe('');
    await sb.request('PATCH', '/v1/spaces/sp-welcome/change-requests/1', { status: 'open' });
    const open = await sb.run(['cr', 'list', 'sp-welcome']);
    expect(open.stdout.split('\n')).toHaveLength(1);
    expect(open.stderr).not.toContain('drafts');
  });

  it('cr create needs a subject: blank is a usage error too; help says it is required', async () => {
    const blank = await sb.run(['cr', 'create', 'sp-welcome', '--subject', ' ']);
    expect(blank.exitCode).toBe(2);
    expect(blank.stderr).toContain('--subject: must not be blank');
    expect((await sb.request('GET', '/v1/spaces/sp-welcome')).body.changeRequests).toBe(0);
    expect((await sb.run(['cr', 'create', '--help'])).stdout).toContain('A subject is required');
  });

  it('cr merge without --yes names the change request by subject and number', async () => {
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Fix typos']);
    const r = await sb.run(['cr', 'merge', 'sp-welcome', '1']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Merge change request "Fix typos" (#1) into space sp-welcome? Its content becomes the space’s new revision.');
  });
});

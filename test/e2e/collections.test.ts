import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();

describe('collections', () => {
  it('creates, gets, updates and lists collections, with JSON the API’s own objects', async () => {
    const created = await sb.json(['collections', 'create', '--title', 'Guides']);
    expect(created).toMatchObject({ object: 'collection', title: 'Guides', organization: 'org-acme', defaultLevel: 'inherit' });
    expect(created.permissions).toEqual({ view: true, admin: true, viewInviteLinks: true, create: true });

    const child = await sb.json(['collections', 'create', '--title', 'API', '--parent', created.id]);
    expect(child.parent).toBe(created.id);

    const updated = await sb.json(['collections', 'update', created.id, '--description', 'How-tos', '--default-level', 'read']);
    expect(updated).toMatchObject({ description: 'How-tos', defaultLevel: 'read' });
    expect((await sb.json(['collections', 'update', created.id, '--default-level', 'null'])).defaultLevel).toBeNull();

    const all = await sb.json(['collections', 'list']);
    expect(all.map((c: { title: string }) => c.title)).toEqual(['Handbook', 'Guides', 'API']);
    const top = await sb.json(['collections', 'list', '--top-level']);
    expect(top.map((c: { title: string }) => c.title)).toEqual(['Handbook', 'Guides']);

    const got = await sb.json(['collections', 'get', child.id]);
    expect(got).toEqual(child);
  });

  it('prints tab-separated rows without a TTY, in the documented column order', async () => {
    const r = await sb.run(['collections', 'list']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('col-handbook\tHandbook\t\tinherit\tHow we work');
    expect(r.stderr).toBe('');
    const one = await sb.run(['collections', 'get', 'col-handbook', '--fields', 'id,title']);
    expect(one.stdout).toBe('id\tcol-handbook\ntitle\tHandbook');
  });

  it('--fields picks the fields the command names, in JSON as in TSV', async () => {
    const r = await sb.json(['collections', 'list', '--fields', 'id,url']);
    expect(r).toEqual([{ id: 'col-handbook', url: expect.stringContaining('/app/o/org-acme/c/col-handbook') }]);
    const tsv = await sb.run(['collections', 'list', '--fields', 'id,url']);
    expect(tsv.stdout).toBe(`col-handbook\t${r[0].url}`);
  });

  it('rejects bad input before sending: exit 2, the flag and the rule named, nothing created', async () => {
    const long = 'x'.repeat(51);
    const r = await sb.run(['collections', 'create', '--title', long]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--title: must be at most 50 characters');
    expect(r.stdout).toBe('');
    const u = await sb.run(['collections', 'update', 'col-handbook', '--description', 'd'.repeat(101)]);
    expect(u.exitCode).toBe(2);
    expect(u.stderr).toContain('--description: must be at most 100 characters');
    const role = await sb.run(['collections', 'update', 'col-handbook', '--default-level', 'owner']);
    expect(role.exitCode).toBe(2);
    expect(role.stderr).toMatch(/--default-level.*owner.*invalid/);
    const lim = await sb.run(['collections', 'list', '--limit', 'lots']);
    expect(lim.exitCode).toBe(2);
    expect(lim.stderr).toContain('--limit: must be a whole number');
    const list = await sb.request('GET', '/v1/orgs/org-acme/collections');
    expect(list.body.count).toBe(1);
    expect(list.body.items[0].description).toBe('How we work');
  });

  it('the server rejects the same input with 400 naming the field, and changes nothing', async () => {
    const r = await sb.request('POST', '/v1/orgs/org-acme/collections', { title: 'x'.repeat(51) });
    expect(r).toEqual({ status: 400, body: { error: { code: 400, message: 'title: must be at most 50 characters' } } });
    const lim = await sb.request('GET', '/v1/orgs/org-acme/collections?limit=1001');
    expect(lim.status).toBe(400);
    expect(lim.body.error.message).toBe('limit: must be at most 1000');
    expect((await sb.request('GET', '/v1/orgs/org-acme/collections')).body.count).toBe(1);
    // A count of items: an integer (the official document's `number` would take a fraction; docs/compatibility.md).
    for (const limit of ['2.5', '1e-1', '-0.5']) {
      const fraction = await sb.request('GET', `/v1/orgs/org-acme/collections?limit=${limit}`);
      expect(fraction, limit).toEqual({ status: 400, body: { error: { code: 400, message: 'limit: must be an integer' } } });
    }
    const api = await sb.run(['api', '/v1/orgs/org-acme/collections?limit=2.5']);
    expect(api.exitCode).toBe(1);
    expect(api.stderr).toContain('limit: must be an integer');
    expect((await sb.request('GET', '/v1/orgs/org-acme/collections?limit=lots')).body.error.message).toBe('limit: must be a number');
    const flag = await sb.run(['collections', 'list', '--limit', '2.5']);
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toContain('--limit: must be a whole number');
  });

  it('maps 401, 403, 404 and 409 to exit codes 3, 5, 4 and 6', async () => {
    const bad = await sb.run(['collections', 'list'], { env: { DOCSCTL_TOKEN: 'sbx_not-a-real-token' } });
    expect(bad.exitCode).toBe(3);
    expect(bad.stderr).toContain('error: invalid or revoked token');
    expect(bad.stderr).toContain('hint: run docsctl auth login');

    const none = await sb.run(['collections', 'list'], { env: { DOCSCTL_TOKEN: undefined } });
    expect(none.exitCode).toBe(3);
    expect(none.stderr).toContain('not authenticated');

    const forbidden = await sb.run(['collections', 'create', '--title', 'Nope'], { as: 'read' });
    expect(forbidden.exitCode).toBe(5);
    expect(forbidden.stderr).toContain('needs the create role or above; you have read');

    const missing = await sb.run(['collections', 'get', 'no-such-collection']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toContain('no collection no-such-collection');

    const noop = await sb.run(['collections', 'move', 'col-handbook', '--root']);
    expect(noop.exitCode).toBe(6);
    expect(noop.stderr).toContain('nothing would change');

    const noopTransfer = await sb.run(['collections', 'transfer', 'col-handbook', '--to', 'org-acme', '--yes']);
    expect(noopTransfer.exitCode).toBe(6);

    const outsider = await sb.run(['collections', 'get', 'col-handbook'], { as: 'outsider' });
    expect(outsider.exitCode).toBe(4);
  });

  it('--json errors are one JSON object on stderr', async () => {
    const r = await sb.run(['collections', 'get', 'nope', '--json']);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toEqual({ error: { status: 404, message: 'no collection nope', hint: null, exitCode: 4 } });
  });

  it('moves a collection into another, next to a space, and rejects an invalid position', async () => {
    const a = await sb.json(['collections', 'create', '--title', 'A']);
    const moved = await sb.json(['collections', 'move', a.id, '--parent', 'col-handbook', '--before', 'sp-welcome']);
    expect(moved.parent).toBe('col-handbook');
    const state = await sb.request('GET', '/_sandbox/state');
    expect(state.body.data.children.$map.find(([k]: [string]) => k === 'col-handbook')[1]).toEqual([a.id, 'sp-welcome']);

    const after = await sb.json(['collections', 'move', a.id, '--after', 'sp-welcome']);
    expect(after.parent).toBe('col-handbook');

    const invalid = await sb.run(['collections', 'move', a.id, '--root', '--before', 'sp-welcome']);
    expect(invalid.exitCode).toBe(1);
    expect(invalid.stderr).toContain('position.before: space sp-welcome is not in the target organization root');

    const cycle = await sb.run(['collections', 'move', 'col-handbook', '--parent', a.id]);
    expect(cycle.exitCode).toBe(1);
    expect(cycle.stderr).toContain('cannot move into itself or one of its descendants');

    const bothKinds = await sb.run(['collections', 'move', a.id, '--before', 'x', '--before-collection', 'y']);
    expect(bothKinds.exitCode).toBe(2);
    expect(bothKinds.stderr).toContain('--before and --before-collection cannot be used together');

    // A collection anchor: col-handbook's siblings at the root are collections too.
    const b = await sb.json(['collections', 'create', '--title', 'B']);
    await sb.json(['collections', 'move', b.id, '--before-collection', 'col-handbook']);
    const root = (await sb.request('GET', '/_sandbox/state')).body.data.children.$map.find(([k]: [string]) => k === 'org-acme')[1] as string[];
    expect(root.indexOf(b.id)).toBe(root.indexOf('col-handbook') - 1);
  });

  it('transfers a collection with its spaces to another organization', async () => {
    const r = await sb.json(['collections', 'transfer', 'col-handbook', '--to', 'org-globex', '--yes']);
    expect(r.organization).toBe('org-globex');
    const space = await sb.request('GET', '/v1/spaces/sp-welcome');
    expect(space.body.organization).toBe('org-globex');
    expect((await sb.request('GET', '/v1/orgs/org-acme/collections')).body.count).toBe(0);
    // the outsider administers Globex, so now sees it
    expect((await sb.request('GET', '/v1/collections/col-handbook', undefined, 'outsider')).status).toBe(200);
  });

  it('deletes with --yes (204 also when missing), and refuses without it off a TTY', async () => {
    const refused = await sb.run(['collections', 'delete', 'col-handbook']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('pass --yes');
    expect((await sb.request('GET', '/v1/collections/col-handbook')).status).toBe(200);

    const ok = await sb.run(['collections', 'delete', 'col-handbook', '--yes']);
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toBe('');
    expect((await sb.request('GET', '/v1/collections/col-handbook')).status).toBe(404);
    // its space went to the trash
    expect((await sb.request('GET', '/v1/spaces/sp-welcome')).status).toBe(404);
    expect((await sb.request('DELETE', '/v1/collections/col-handbook')).status).toBe(204);
  });

  it('pages through more than 1000 items with --all, and says when --limit cuts the list', async () => {
    for (let i = 0; i < 1100; i++) {
      const r = await sb.request('POST', '/v1/orgs/org-acme/collections', { title: `C${i}` });
      expect(r.status).toBe(201);
    }
    const all = await sb.json(['collections', 'list', '--all']);
    expect(all).toHaveLength(1101);
    expect(new Set(all.map((c: { id: string }) => c.id)).size).toBe(1101);
    expect(all[1100].title).toBe('C1099');

    const some = await sb.run(['collections', 'list', '--limit', '5']);
    expect(some.stdout.split('\n')).toHaveLength(5);
    expect(some.stderr).toMatch(/^showing 5 of 1101 — use --all or --limit \(next page: --page \S+\)$/);

    const cursor = /--page (\S+)\)/.exec(some.stderr)![1];
    const next = await sb.json(['collections', 'list', '--limit', '2', '--page', cursor]);
    expect(next.map((c: { title: string }) => c.title)).toEqual(['C4', 'C5']);
  });

  it('lists the spaces of a collection', async () => {
    const r = await sb.json(['collections', 'spaces', 'col-handbook']);
    expect(r.map((s: { id: string }) => s.id)).toEqual(['sp-welcome']);
    expect(r[0]).toMatchObject({ object: 'space', parent: 'col-handbook', visibility: 'in-collection' });
  });
});

describe('issue 15: no junk from create', () => {
  it('collections create needs a title: missing or blank is a usage error naming --title (exit 2), nothing created', async () => {
    const before = sb.server.store.data.collections.size;
    const missing = await sb.run(['collections', 'create']);
    expect(missing).toMatchObject({ exitCode: 2, stdout: '' });
    expect(missing.stderr).toContain('missing --title');
    expect(missing.stderr).toContain('docsctl collections create --title');
    const blank = await sb.run(['collections', 'create', '--title', '   ']);
    expect(blank.exitCode).toBe(2);
    expect(blank.stderr).toContain('--title: must not be blank');
    expect(sb.server.store.data.collections.size).toBe(before);
    expect((await sb.run(['collections', 'create', '--help'])).stdout).toContain('A title is required');
  });

  it('collections delete without --yes names the collection by title and id', async () => {
    const r = await sb.run(['collections', 'delete', 'col-handbook']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Delete collection "Handbook" (col-handbook) and everything in it? Its spaces can be restored for 7 days.');
    expect(sb.server.store.data.collections.has('col-handbook')).toBe(true);
  });
});

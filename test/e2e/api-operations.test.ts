/**
 * `docsctl api OPERATION_ID` and `docsctl api --operations`: operations of the official API document
 * by id, their fields checked before anything is sent, against the sandbox in process.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();
const official = JSON.parse(readFileSync('node_modules/@gitbook/api/spec/openapi.json', 'utf8'));
const officialIds = Object.values(official.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((item) =>
  Object.values(item).flatMap((op) => (typeof op === 'object' && op?.operationId ? [op.operationId] : [])),
);

describe('docsctl api OPERATION_ID', () => {
  it('sends an operation the sandbox serves: path and query parameters by name, {org} replaced', async () => {
    for (let i = 0; i < 3; i++) await sb.request('POST', '/v1/orgs/org-acme/spaces', { title: `S${i}` });
    const r = await sb.run(['api', 'listSpacesInOrganizationById', '-f', 'organizationId={org}', '-F', 'limit=2']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const page = JSON.parse(r.stdout);
    expect(page.items).toHaveLength(2);
    expect(page.next?.page).toEqual(expect.any(String));
    // --paginate follows the list; --jq filters each page's items.
    const all = await sb.run(['api', 'listSpacesInOrganizationById', '-f', 'organizationId=org-acme', '-f', 'limit=2', '--paginate', '--jq', '.[].title']);
    expect(all.stderr).toBe('');
    expect(all.exitCode).toBe(0);
    const titles = all.stdout.trim().split('\n');
    expect(titles).toEqual(expect.arrayContaining(['S0', 'S1', 'S2']));
    expect(titles.length).toBe((await sb.request('GET', '/v1/orgs/org-acme/spaces?limit=1000')).body.items.length);
  });

  it('sends body fields by name, typed and nested', async () => {
    const updated = await sb.run(['api', 'updateSpaceById', '-f', 'spaceId=sp-welcome', '-f', 'title=Handbook', '-F', 'defaultLevel=null', '-i']);
    expect(updated.exitCode).toBe(0);
    expect(updated.stdout).toMatch(/^HTTP\/1.1 200 OK\n/);
    expect((await sb.request('GET', '/v1/spaces/sp-welcome')).body).toMatchObject({ title: 'Handbook', defaultLevel: null });

    const cr = (await sb.request('POST', '/v1/spaces/sp-welcome/change-requests', { subject: 'Draft' })).body;
    const comment = (await sb.request('POST', `/v1/spaces/sp-welcome/change-requests/${cr.id}/comments`, { body: { markdown: 'a' } })).body;
    const reply = await sb.run([
      'api',
      'postCommentReplyInChangeRequest',
      '-f',
      'spaceId=sp-welcome',
      '-f',
      `changeRequestId=${cr.id}`,
      '-f',
      `commentId=${comment.id}`,
      '-f',
      'body[markdown]=Agreed',
    ]);
    expect(reply.stderr).toBe('');
    expect(reply.exitCode).toBe(0);
    expect(JSON.parse(reply.stdout).body).toEqual({ markdown: 'Agreed' });
    const replies = (await sb.request('GET', `/v1/spaces/sp-welcome/change-requests/${cr.id}/comments/${comment.id}/replies?format=markdown`)).body;
    expect(replies.items.map((x: { body: unknown }) => x.body)).toEqual([{ markdown: 'Agreed' }]);
  });

  it('--input gives the whole body; the fields then go to the path and query only', async () => {
    const file = join(sb.home, 'space.json');
    writeFileSync(file, JSON.stringify({ title: 'From file' }));
    const r = await sb.run(['api', 'updateSpaceById', '-f', 'spaceId=sp-welcome', '--input', file, '--silent']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect((await sb.request('GET', '/v1/spaces/sp-welcome')).body.title).toBe('From file');
    const both = await sb.run(['api', 'updateSpaceById', '-f', 'spaceId=sp-welcome', '-f', 'title=X', '--input', file]);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('title: updateSpaceById takes no field title (--input gives the whole body');
    const noBody = await sb.run(['api', 'getSpaceById', '-f', 'spaceId=sp-welcome', '--input', file]);
    expect(noBody.exitCode).toBe(2);
    expect(noBody.stderr).toContain('error: --input: getSpaceById (GET /spaces/{spaceId}) takes no body');
  });

  it('checks the fields before sending: unknown, missing, wrong type, not a listed value (exit 2, nothing changed)', async () => {
    const before = (await sb.request('GET', '/v1/spaces/sp-welcome')).body;
    const cases: [string[], string][] = [
      [['-f', 'spaceId=sp-welcome', '-f', 'titel=X'], 'error: titel: updateSpaceById takes no field titel'],
      [['-f', 'title=X'], 'error: spaceId: required (path parameter of updateSpaceById)'],
      [['-f', 'spaceId=sp-welcome', '-F', 'title=12'], 'error: title: must be a string (body field)'],
      [['-f', 'spaceId=sp-welcome', '-f', 'editMode=frozen'], 'error: editMode: must be one of live, locked (body field)'],
      [['-f', 'spaceId=sp-welcome'], 'error: updateSpaceById requires a body'],
      [['-f', 'spaceId=sp-welcome', '-f', 'title=X', '-X', 'POST'], 'error: -X POST: updateSpaceById is PATCH /spaces/{spaceId}'],
    ];
    for (const [flags, message] of cases) {
      const r = await sb.run(['api', 'updateSpaceById', ...flags]);
      expect(r.stderr, flags.join(' ')).toContain(message);
      expect(r.exitCode, flags.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect((await sb.request('GET', '/v1/spaces/sp-welcome')).body).toEqual(before);
    // A typo gets the closest field; a query parameter's type is checked on its text.
    const typo = await sb.run(['api', 'updateSpaceById', '-f', 'spaceId=sp-welcome', '-f', 'titel=X']);
    expect(typo.stderr).toContain('Did you mean title?');
    const limit = await sb.run(['api', 'listSpacesInOrganizationById', '-f', 'organizationId={org}', '-f', 'limit=many']);
    expect(limit.exitCode).toBe(2);
    expect(limit.stderr).toContain('error: limit: must be a number (query parameter)');
    const org = await sb.run(['api', 'listSpacesInOrganizationById']);
    expect(org.exitCode).toBe(2);
    expect(org.stderr).toContain('error: organizationId: required (path parameter of listSpacesInOrganizationById)');
    expect(org.stderr).toContain('-f organizationId={org}');
    const notList = await sb.run(['api', 'getSpaceById', '-f', 'spaceId=sp-welcome', '--paginate']);
    expect(notList.exitCode).toBe(2);
    expect(notList.stderr).toContain('--paginate: getSpaceById answers one object, not a list');
  });

  it('a string where the document wants a number or null is refused with the -F hint', async () => {
    const r = await sb.run(['api', 'createOrganizationInvite', '-f', 'organizationId={org}', '-f', 'role=null']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error: role: must be one of admin, create, edit, review, comment, read, null (body field)');
    expect(r.stderr).toContain('-F role=');
  });

  it('an operation the sandbox does not serve: its 404 for an unrouted path, and docsctl says so (exit 4)', async () => {
    const r = await sb.run(['api', 'getIntegrationByName', '-f', 'integrationName=github']);
    expect(r.exitCode).toBe(4);
    expect(JSON.parse(r.stdout)).toEqual({ error: { code: 404, message: 'no route GET /v1/integrations/github' } });
    expect(r.stderr).toContain('error: the sandbox does not implement getIntegrationByName (GET /integrations/{integrationName})');
    // An operation it serves, on an object that is not there: the usual 404, not "does not implement".
    const missing = await sb.run(['api', 'getSpaceById', '-f', 'spaceId=nope']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).not.toContain('does not implement');
  });

  it('an unknown operation id is exit 2 with the closest ids; a bare word is no longer a path', async () => {
    const r = await sb.run(['api', 'listSpacesInOrganisationById']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: unknown operation listSpacesInOrganisationById');
    expect(r.stderr).toContain('Did you mean listSpacesInOrganizationById?');
    const word = await sb.run(['api', 'user']);
    expect(word.exitCode).toBe(2);
    expect(word.stderr).toContain('a path starts with /');
  });
});

describe('docsctl api --operations', () => {
  it('lists every operation of the official document: TSV, --json, --fields, --jq', async () => {
    const tsv = await sb.run(['api', '--operations']);
    expect(tsv.exitCode).toBe(0);
    const rows = tsv.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((r) => r[0]).sort()).toEqual([...officialIds].sort());
    expect(rows.find((r) => r[0] === 'createOrganizationTeam')).toEqual(['createOrganizationTeam', 'PUT', '/orgs/{organizationId}/teams', 'Create a team']);
    const json = await sb.json(['api', '--operations', '--json']);
    expect(json).toHaveLength(officialIds.length);
    expect(Object.keys(json[0])).toEqual(['id', 'method', 'path', 'summary']);
    const ids = await sb.run(['api', '--operations', '--fields', 'id,method', 'listSpacesIn']);
    expect(ids.stdout).toBe('listSpacesInCollectionById\tGET\nlistSpacesInOrganizationById\tGET');
    const count = await sb.run(['api', '--operations', '--jq', 'length']);
    expect(Number(count.stdout)).toBe(officialIds.length);
    const bad = await sb.run(['api', '--operations', '--fields', 'nope']);
    expect(bad.exitCode).toBe(2);
  });

  it('a filter keeps the operations whose id, method, path or summary hold all its words', async () => {
    const r = await sb.json(['api', '--operations', '--json', 'put teams']);
    expect(r.map((o: { id: string }) => o.id).sort()).toEqual(
      ['addMemberToOrganizationTeamById', 'createOrganizationTeam', 'updateMembersInOrganizationTeam'].sort(),
    );
    const none = await sb.run(['api', '--operations', 'nothing-matches-this']);
    expect(none.exitCode).toBe(0);
    expect(none.stdout).toBe('');
    const mixed = await sb.run(['api', '--operations', '-f', 'a=b']);
    expect(mixed.exitCode).toBe(2);
    expect(mixed.stderr).toContain('--operations lists operations: it takes no --raw-field');
  });
});

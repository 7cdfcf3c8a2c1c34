import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/cli.js';

const sb = useSandbox();

describe('docsctl api', () => {
  it('GETs any endpoint, replacing {org}', async () => {
    const r = await sb.run(['api', '/v1/orgs/{org}']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ object: 'organization', id: 'org-acme', title: 'Acme Docs' });
    // /v1 is implied
    expect(JSON.parse((await sb.run(['api', 'user'])).stdout).id).toBe('u-admin');
  });

  it('POSTs fields: -f strings, -F typed values, and nested keys', async () => {
    const r = await sb.run(['api', '/v1/orgs/{org}/collections', '-f', 'title=Guides', '-i']);
    expect(r.exitCode).toBe(0);
    const [head, body] = r.stdout.split('\n\n');
    expect(head).toMatch(/^HTTP\/1.1 201\n/);
    expect(head).toMatch(/\nlocation: http:\/\/127\.0\.0\.1:\d+\/v1\/collections\/\S+/);
    const created = JSON.parse(body);
    expect(created.title).toBe('Guides');
    const p = await sb.run(['api', '-X', 'PATCH', `/v1/collections/${created.id}`, '-F', 'defaultLevel=null', '-f', 'description=x']);
    expect(JSON.parse(p.stdout)).toMatchObject({ defaultLevel: null, description: 'x' });
    const typed = await sb.run(['api', '/v1/orgs/{org}/collections', '-F', 'title=12']);
    expect(typed.exitCode).toBe(1);
    expect(JSON.parse(typed.stdout)).toEqual({ error: { code: 400, message: 'title: must be a string' } });
  });

  it('sends --input from a file or stdin, and headers with -H', async () => {
    const file = join(sb.home, 'body.json');
    writeFileSync(file, JSON.stringify({ title: 'From file' }));
    const r = await sb.run(['api', '/v1/orgs/{org}/collections', '--input', file]);
    expect(JSON.parse(r.stdout).title).toBe('From file');
    const s = await sb.run(['api', '/v1/orgs/{org}/collections', '--input', '-'], { input: '{"title":"From stdin"}' });
    expect(JSON.parse(s.stdout).title).toBe('From stdin');
    const h = await sb.run(['api', '/v1/user', '-H', 'Authorization: Bearer nope']);
    expect(h.exitCode).toBe(3);
  });

  it('--paginate merges every page into one array', async () => {
    for (let i = 0; i < 120; i++) await sb.request('POST', '/v1/orgs/org-acme/collections', { title: `C${i}` });
    const r = await sb.run(['api', '/v1/orgs/{org}/collections?limit=50', '--paginate']);
    expect(r.exitCode).toBe(0);
    const items = JSON.parse(r.stdout);
    expect(items).toHaveLength(121);
    expect(new Set(items.map((c: { id: string }) => c.id)).size).toBe(121);
  });

  it('exit codes follow the status; the error body is printed', async () => {
    const r = await sb.run(['api', '/v1/collections/nope']);
    expect(r.exitCode).toBe(4);
    expect(JSON.parse(r.stdout)).toEqual({ error: { code: 404, message: 'no collection nope' } });
    expect(r.stderr).toContain('error: no collection nope');
    expect((await sb.run(['api', '/v1/nowhere'])).exitCode).toBe(4);
    const bad = await sb.run(['api', '/v1/user', '-f', 'novalue']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('-f: "novalue" must look like key=value');
  });

  it('drives the sandbox control routes (admin token only)', async () => {
    await sb.run(['collections', 'create', '--title', 'Temp']);
    const state = JSON.parse((await sb.run(['api', '/_sandbox/state'])).stdout);
    expect(state.version).toBe(1);
    const clock = await sb.run(['api', '-X', 'POST', '/_sandbox/clock', '-f', 'advance=8d']);
    expect(JSON.parse(clock.stdout).offsetMs).toBe(8 * 86_400_000);
    const badClock = await sb.run(['api', '-X', 'POST', '/_sandbox/clock', '-f', 'advance=soon']);
    expect(badClock.exitCode).toBe(1);
    const denied = await sb.run(['api', '-X', 'POST', '/_sandbox/reset'], { as: 'create' });
    expect(denied.exitCode).toBe(5);
    expect((await sb.run(['api', '-X', 'POST', '/_sandbox/reset'])).exitCode).toBe(0);
    expect((await sb.json(['collections', 'list'])).map((c: { title: string }) => c.title)).toEqual(['Handbook']);
    // load the exported state back
    writeFileSync(join(sb.home, 'state.json'), JSON.stringify(state));
    const put = await sb.run(['api', '-X', 'PUT', '/_sandbox/state', '--input', join(sb.home, 'state.json')]);
    expect(put.exitCode).toBe(0);
    expect((await sb.json(['collections', 'list'])).map((c: { title: string }) => c.title)).toEqual(['Handbook', 'Temp']);
    const malformed = await sb.run(['api', '-X', 'PUT', '/_sandbox/state', '--input', '-'], { input: '{"version": 2}' });
    expect(malformed.exitCode).toBe(1);
    expect((await sb.json(['collections', 'list'])).map((c: { title: string }) => c.title)).toEqual(['Handbook', 'Temp']);
  });
});

/**
 * `--jq` and `--json` as gh does them (issue 23): a list command's jq sees the whole list once (`[]`
 * when it is empty), every command that prints a list goes through the same path, and with `--jq` an
 * error is the JSON envelope `--json` gives. In process, against the sandbox.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ManifestCommand, ManifestNode } from '../../src/cli/manifest.js';
import { sourceManifest, useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();

/** The second organization of the default seed, where the admin starts with nothing. */
const ORG = 'org-globex';
const inOrg = { env: { DOCSCTL_ORG: ORG } };

/** Every command of the manifest that prints a list (its columns are a table's). */
async function listCommands(): Promise<{ path: string[]; node: ManifestCommand }[]> {
  const found: { path: string[]; node: ManifestCommand }[] = [];
  const walk = (nodes: readonly ManifestNode[], path: string[]) => {
    for (const n of nodes) {
      if (n.kind === 'group') walk(n.commands, [...path, n.name]);
      else if (n.list || n.columns?.length) found.push({ path: [...path, n.name], node: n });
    }
  };
  walk((await sourceManifest()).entries, []);
  return found;
}

async function out(args: string[]): Promise<string> {
  const r = await sb.run(args, inOrg);
  expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

/** An empty space, collection, site, change request, comment thread and team in ORG, and an OpenAPI spec. */
async function emptyThings(): Promise<Record<string, string>> {
  const collection = await out(['collections', 'create', '--title', 'Empty', '--jq', '.id']);
  const space = await out(['spaces', 'create', '--title', 'Empty', '--jq', '.id']);
  const cr = await out(['cr', 'create', space, '--subject', 'Nothing yet', '--jq', '.number']);
  const site = await out(['sites', 'create', '--title', 'Empty', '--jq', '.id']);
  const comment = await out(['comments', 'post', space, '-m', 'no replies', '--jq', '.id']);
  const file = join(sb.home, 'spec.json');
  writeFileSync(file, JSON.stringify({ openapi: '3.0.0', info: { title: 'T', version: '1' }, paths: {} }));
  const slug = await out(['openapi', 'create', 'empty', '--file', file, '--jq', '.slug']);
  const team = await out(['teams', 'create', '--title', 'Empty', '--jq', '.id']);
  return { space, collection, cr, site, comment, slug, team, user: 'u-outsider', query: 'nothing-matches-this' };
}

describe('--jq on a list runs once, on the whole list', () => {
  it("every list command of the manifest: --jq length prints one line, the length of --json's array (0 when empty)", async () => {
    const ids = await emptyThings();
    const empty: string[] = [];
    for (const { path, node } of await listCommands()) {
      const args = [
        ...path,
        ...node.args
          .filter((a) => !a.optional)
          .map((a) => {
            expect(ids[a.name], `${path.join(' ')}: no value for <${a.name}> in this test`).toBeDefined();
            return ids[a.name];
          }),
      ];
      // `content links`, `cr links`: a page is needed for a change request's links; its list of pages is the list here.
      const extra =
        path.join(' ') === 'cr links'
          ? ['--page-id', (JSON.parse(await out(['cr', 'pages', ids.space, ids.cr, '--json'])) as { id: string }[])[0]?.id ?? 'none']
          : [];
      const json = await sb.run([...args, ...extra, '--json'], inOrg);
      const jq = await sb.run([...args, ...extra, '--jq', 'length'], inOrg);
      const name = path.join(' ');
      expect(jq.exitCode, `${name} --jq: ${jq.stderr}`).toBe(json.exitCode);
      if (json.exitCode !== 0) {
        // Where the command fails here (a change request's links need a page), it fails alike, as JSON.
        expect(JSON.parse(jq.stderr), name).toEqual(JSON.parse(json.stderr));
        continue;
      }
      const value: unknown = JSON.parse(json.stdout);
      expect(Array.isArray(value), `${name} --json prints an array`).toBe(true);
      const items = value as unknown[];
      expect(jq.stdout, `${name} --jq length`).toBe(String(items.length));
      if (items.length === 0) empty.push(name);
    }
    // The lists the issue names, empty here, among others.
    expect(empty).toEqual(
      expect.arrayContaining([
        'saml list',
        'content files',
        'content search',
        'sites sections list',
        'sites section-groups list',
        'sites spaces list',
        'collections spaces',
        'spaces links',
        'content links',
        'cr list',
        'cr files',
        'comments replies',
        // The team made here is empty (so `teams list` is not).
        'teams members list',
        'spaces permissions list',
        'collections permissions list',
        'sites permissions list',
        'invites links list',
      ]),
    );
    expect(empty.length).toBeGreaterThanOrEqual(15);
  });

  it('spaces list --parent of an empty collection, and --deleted: [] with --json, 0 with --jq length; --deleted takes the expression', async () => {
    const collection = await out(['collections', 'create', '--title', 'Empty', '--jq', '.id']);
    expect(await out(['spaces', 'list', '--parent', collection, '--json'])).toBe('[]');
    expect(await out(['spaces', 'list', '--parent', collection, '--jq', 'length'])).toBe('0');
    expect(await out(['spaces', 'list', '--deleted', '--json'])).toBe('[]');
    expect(await out(['spaces', 'list', '--deleted', '--jq', 'length'])).toBe('0');
    const space = await out(['spaces', 'create', '--title', 'Gone soon', '--jq', '.id']);
    await out(['spaces', 'delete', space, '--yes']);
    expect(await out(['spaces', 'list', '--deleted', '--jq', '.[].title'])).toBe('Gone soon');
    expect(await out(['spaces', 'list', '--deleted', '--jq', '.[].id'])).toBe(space);
  });

  it('cr list --status all: jq sees every status together, once; --limit and --fields apply first', async () => {
    const space = await out(['spaces', 'create', '--title', 'Reviews', '--jq', '.id']);
    // Change requests start as drafts: two of three opened.
    for (const subject of ['Open one', 'A draft', 'Another']) {
      const n = await out(['cr', 'create', space, '--subject', subject, '--jq', '.number']);
      if (subject !== 'A draft') await out(['cr', 'edit', space, n, '--status', 'open']);
    }
    expect(await out(['cr', 'list', space, '--status', 'all', '--jq', 'length'])).toBe('3');
    expect(await out(['cr', 'list', '--status', 'all', '--jq', 'length'])).toBe('3');
    expect(await out(['cr', 'list', space, '--status', 'all', '--jq', '[.[].status] | unique | join(",")'])).toBe('draft,open');
    expect(await out(['cr', 'list', space, '--status', 'all', '--limit', '2', '--jq', 'length'])).toBe('2');
    expect(await out(['cr', 'list', space, '--status', 'all', '--fields', 'subject', '--jq', '.[0] | keys | join(",")'])).toBe('subject');
  });

  it('commands that print before they fail take the expression too: openapi create (a failed processing), links --fail-on-broken', async () => {
    const file = join(sb.home, 'broken.yaml');
    writeFileSync(file, 'openapi: 3.0.0\ninfo: [unclosed\n');
    const r = await sb.run(['openapi', 'create', 'broken', '--file', file, '--jq', '.lastProcessErrorCode'], inOrg);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('PARSE_ERROR');
    expect(JSON.parse(r.stderr).error.message).toContain('processing broken failed: PARSE_ERROR');
    const space = await out(['spaces', 'create', '--title', 'Links', '--jq', '.id']);
    const links = await sb.run(['spaces', 'links', space, '--fail-on-broken', '--jq', 'length'], inOrg);
    expect(links.exitCode).toBe(0);
    expect(links.stdout).toBe('0');
  });
});

describe('--jq reports errors as --json does', () => {
  it('a failure with --jq is the JSON envelope on stderr, nothing on stdout, the same exit code', async () => {
    for (const args of [
      ['spaces', 'get', 'nope'],
      ['spaces', 'list', '--parent', 'nope'],
    ]) {
      const json = await sb.run([...args, '--json'], inOrg);
      const jq = await sb.run([...args, '--jq', '.id'], inOrg);
      expect(jq.exitCode, args.join(' ')).toBe(4);
      expect(jq.exitCode).toBe(json.exitCode);
      expect(jq.stdout).toBe('');
      const envelope = JSON.parse(jq.stderr);
      expect(envelope).toEqual({ error: { status: 404, message: expect.any(String), hint: null, exitCode: 4 } });
      expect(envelope).toEqual(JSON.parse(json.stderr));
    }
    // api (which has no --json) prints the error answer's body, as it came; the error is JSON too.
    const api = await sb.run(['api', '/orgs/{org}/nope', '--jq', '.id'], inOrg);
    expect(api.exitCode).toBe(4);
    expect(JSON.parse(api.stderr).error).toMatchObject({ status: 404, exitCode: 4 });
    // --jq=EXPR, api's -q, and a usage error (before anything is sent) too.
    const eq = await sb.run(['spaces', 'get', 'nope', '--jq=.id'], inOrg);
    expect(JSON.parse(eq.stderr).error.exitCode).toBe(4);
    const q = await sb.run(['api', '/orgs/{org}/nope', '-q', '.x'], inOrg);
    expect(JSON.parse(q.stderr).error).toMatchObject({ status: 404, exitCode: 4 });
    const usage = await sb.run(['spaces', 'list', '--jq', '.[]', '--bogus'], inOrg);
    expect(usage.exitCode).toBe(2);
    expect(JSON.parse(usage.stderr).error).toMatchObject({ status: null, exitCode: 2, message: expect.stringContaining('--bogus') });
    const bad = await sb.run(['spaces', 'list', '--jq', '.['], inOrg);
    expect(bad.exitCode).toBe(2);
    expect(JSON.parse(bad.stderr).error.message).toMatch(/^--jq: /);
    // After --, a word is an argument, not the flag.
    const plain = await sb.run(['api', '/orgs/{org}/nope', '--', '--jq'], inOrg);
    expect(plain.stderr).not.toMatch(/^\{"error"/);
  });
});

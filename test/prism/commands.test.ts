/**
 * The CLI against an implementation of the official API description that no one here wrote: every
 * leaf command of docs/commands.md, run as a user runs it (docsctl's main() in this process with a
 * clean environment, test/helpers/inprocess.ts; its requests over loopback) against Stoplight Prism
 * mocking GitBook's published OpenAPI document (harness.ts), in JSON, TSV and table output. Prism
 * validates each request against the document: it is the judge of request shapes.
 *
 * Each command must exit 0 with output that makes sense (JSON that parses; no `undefined`,
 * `[object Object]` or `NaN` cells; no stack trace), except:
 * - the seed-only commands (their endpoints are in service-api.md but not in the official document),
 *   which must fail with exit 4 and a message naming the missing endpoint;
 * - the ones that need a sandbox extension (`spaces list --deleted`), which must fail saying so;
 * - the local ones (`serve`, `completion`, `auth token|logout`), run without the mock where it makes sense.
 * A leaf command without a row here fails the suite, so new commands are covered.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../helpers/cli.js';
import { docsctlInProcess, sourceManifest } from '../helpers/inprocess.js';
import { PEM } from '../helpers/fixture.js';
import { leafCommands, startPrism, type PrismMock } from './harness.js';

type Expect = 'ok' | 'seed-only' | 'extension' | 'local' | 'no-download';
interface Row {
  args: string[];
  expect?: Expect;
  /** Text on stdin. */
  input?: string;
  /** Only these output modes (default: json, tsv, table). */
  modes?: Mode[];
}
type Mode = 'json' | 'tsv' | 'table';

let prism: PrismMock;
/** Where `content export` writes (named before the rows are read, removed after). */
const EXPORTS = join(tmpdir(), `docsctl-prism-exports-${process.pid}`);
let home: string;
let files: { org: string; schema: string; cert: string; spec: string; description: string; body: string; out: string };

/** How each leaf command is run: ids are any the document's patterns accept. */
function rows(): Record<string, Row> {
  const yes = ['--yes'];
  return {
    // Prism's organizations all have the id `string` (its value for a string without an example).
    'auth login': { args: ['auth', 'login', '--api-url', prism.url, '--org', 'string', '--with-token'], input: 'token-of-prism\n', modes: ['tsv'] },
    'auth status': { args: ['auth', 'status'] },
    // The profile auth login saved (rows run in the order of docs/commands.md).
    'auth switch': { args: ['auth', 'switch', 'default'], expect: 'local', modes: ['tsv'] },
    'auth logout': { args: ['auth', 'logout'], expect: 'local', modes: ['tsv'] },
    'auth token': { args: ['auth', 'token'], expect: 'local', modes: ['tsv'] },
    serve: { args: [], expect: 'local' },
    api: { args: ['api', '/v1/orgs/{org}/spaces'], modes: ['tsv'] },
    completion: { args: ['completion', 'bash'], expect: 'local', modes: ['tsv'] },

    'orgs list': { args: ['orgs', 'list'] },
    'orgs get': { args: ['orgs', 'get', 'org1'] },
    'orgs update': { args: ['orgs', 'update', 'org1', '--title', 'Acme Docs'] },
    // The organization as code reads every kind through the official list operations.
    'orgs export': { args: ['orgs', 'export'], modes: ['tsv'] },
    'orgs plan': { args: ['orgs', 'plan', '-f', files.org], modes: ['json', 'tsv'] },
    'orgs apply': { args: ['orgs', 'apply', '-f', files.org, ...yes], modes: ['tsv'] },
    // The org file, then each space's content (the official list operations; Prism's organization lists no space).
    'orgs backup': { args: ['orgs', 'backup', '--out', join(EXPORTS, 'backup')] },
    'orgs validate': { args: ['orgs', 'validate', '-f', files.org], expect: 'local', modes: ['tsv'] },
    'orgs schema': { args: ['orgs', 'schema'], expect: 'local', modes: ['tsv'] },
    'members list': { args: ['members', 'list', '--role', 'edit', '--sort', 'lastSeenAt', '--order', 'asc', '--search', 'ada'] },
    'members get': { args: ['members', 'get', 'u1'] },
    'members set-role': { args: ['members', 'set-role', 'u1', 'edit', ...yes] },
    'members remove': { args: ['members', 'remove', 'u1', ...yes] },
    'members sso': { args: ['members', 'sso', 'u1'] },
    'members spaces': { args: ['members', 'spaces', 'u1', '--order', 'asc'] },
    'members teams': { args: ['members', 'teams', 'u1', '--title', 'writers'] },
    'teams list': { args: ['teams', 'list', '--title', 'writ', '--owner', 'u1'] },
    'teams get': { args: ['teams', 'get', 'team1'] },
    'teams create': { args: ['teams', 'create', '--title', 'Writers', '--member', 'u1,u2'] },
    'teams update': { args: ['teams', 'update', 'team1', '--title', 'Technical writers'] },
    'teams delete': { args: ['teams', 'delete', 'team1', ...yes] },
    'teams members list': { args: ['teams', 'members', 'list', 'team1'] },
    // By id: with --role an email is looked up in the member list, whose mocked emails are no address.
    'teams members add': { args: ['teams', 'members', 'add', 'team1', 'u1', 'u2', '--role', 'owner'] },
    'teams members remove': { args: ['teams', 'members', 'remove', 'team1', 'u1', 'ada@example.com', ...yes] },
    'invites create': { args: ['invites', 'create', 'ada@example.com', 'bob@example.com', '--role', 'edit', '--sso'] },
    'invites join': { args: ['invites', 'join', 'inv1'] },
    'invites links list': { args: ['invites', 'links', 'list'] },
    'invites links get': { args: ['invites', 'links', 'get', 'inv1'] },
    'invites links create': { args: ['invites', 'links', 'create', '--space', 'sp1', '--level', 'comment'] },
    'invites links update': { args: ['invites', 'links', 'update', 'inv1', '--role', 'guest'] },
    'invites links delete': { args: ['invites', 'links', 'delete', 'inv1', ...yes] },
    'audit list': { args: ['audit', 'list', '--from', '2026-01-01T00:00:00Z', '--action', 'createTeam', '--actor', 'u1', '--target', 'sp1'] },
    'audit get': { args: ['audit', 'get', '3f1c2b9e-8d4a-4e1f-9c2b-7a6d5e4f3a2b'] },
    'audit actions': { args: ['audit', 'actions'] },
    // The audit reads members, teams, content and grants through the official operations only; Prism's
    // members all have the user id `string`.
    'access who': { args: ['access', 'who', '--space', 's1', '--concurrency', '4'] },
    'access of': { args: ['access', 'of', 'string'] },
    ping: { args: ['ping'] },

    'saml list': { args: ['saml', 'list'] },
    'saml get': { args: ['saml', 'get', 'idp1'] },
    'saml create': {
      args: [
        'saml',
        'create',
        '--label',
        'Okta',
        '--entity-id',
        'https://idp.example.com/metadata',
        '--sso-url',
        'https://idp.example.com/sso',
        '--certificate-file',
        files.cert,
        '--default-role',
        'read',
      ],
    },
    'saml update': { args: ['saml', 'update', 'idp1', '--label', 'Okta EU'] },
    'saml delete': { args: ['saml', 'delete', 'idp1', ...yes] },
    'sso list': { args: ['sso', 'list'] },

    'openapi list': { args: ['openapi', 'list'] },
    'openapi get': { args: ['openapi', 'get', 'pets'] },
    'openapi create': { args: ['openapi', 'create', 'Pets-API', '--url', 'https://example.com/openapi.yaml', '--no-wait'] },
    'openapi put': { args: ['openapi', 'put', 'pets', '--file', files.spec, '--no-wait'] },
    'openapi publish': { args: ['openapi', 'publish', 'pets'] },
    'openapi unpublish': { args: ['openapi', 'unpublish', 'pets'] },
    'openapi delete': { args: ['openapi', 'delete', 'pets', ...yes] },
    'openapi versions': { args: ['openapi', 'versions', 'pets'] },
    'openapi version': { args: ['openapi', 'version', 'pets'] },
    // Without --json it writes the version's openapi.* file; Prism's `filesystem` holds none (the
    // document leaves the object free-form, so Prism makes it empty): the whole filesystem then.
    'openapi content': { args: ['openapi', 'content', 'pets'] },

    tree: { args: ['tree'] },
    'collections list': { args: ['collections', 'list'] },
    'collections get': { args: ['collections', 'get', 'col1'] },
    'collections create': { args: ['collections', 'create', '--title', 'Guides', '--parent', 'col1'] },
    'collections update': { args: ['collections', 'update', 'col1', '--title', 'Handbook', '--default-level', 'inherit'] },
    'collections delete': { args: ['collections', 'delete', 'col1', ...yes] },
    'collections move': { args: ['collections', 'move', 'col1', '--parent', 'col2', '--after-collection', 'col3'] },
    'collections transfer': { args: ['collections', 'transfer', 'col1', '--to', 'org2', ...yes] },
    'collections spaces': { args: ['collections', 'spaces', 'col1'] },
    'collections permissions list': { args: ['collections', 'permissions', 'list', 'col1'] },
    'collections permissions add': { args: ['collections', 'permissions', 'add', 'col1', '--user', 'u1,u2', '--team', 'team1', '--role', 'edit'] },
    'collections permissions set': { args: ['collections', 'permissions', 'set', 'col1', '--team', 'team1', '--role', 'read'] },
    'collections permissions remove': { args: ['collections', 'permissions', 'remove', 'col1', '--user', 'u1', ...yes] },

    'spaces list': { args: ['spaces', 'list', '--all'] },
    'spaces get': { args: ['spaces', 'get', 'sp1'] },
    'spaces create': { args: ['spaces', 'create', '--title', 'Getting started', '--emoji', '🚀', '--language', 'pt', '--parent', 'col1'] },
    'spaces update': { args: ['spaces', 'update', 'sp1', '--title', 'Handbook', '--default-level', 'inherit', '--require-reviewers', 'u1,u2'] },
    'spaces delete': { args: ['spaces', 'delete', 'sp1', ...yes] },
    'spaces restore': { args: ['spaces', 'restore', 'sp1'] },
    'spaces duplicate': { args: ['spaces', 'duplicate', 'sp1'] },
    'spaces move': { args: ['spaces', 'move', 'sp1', '--root', '--before', 'sp2'] },
    'spaces transfer': { args: ['spaces', 'transfer', 'sp1', '--to', 'org2', ...yes], expect: 'seed-only' },
    'spaces links': { args: ['spaces', 'links', 'sp1'], expect: 'seed-only' },
    'spaces permissions list': { args: ['spaces', 'permissions', 'list', 'sp1'] },
    'spaces permissions add': { args: ['spaces', 'permissions', 'add', 'sp1', '--user', 'u1,u2', '--team', 'team1', '--role', 'edit'] },
    'spaces permissions set': { args: ['spaces', 'permissions', 'set', 'sp1', '--team', 'team1', '--role', 'read'] },
    'spaces permissions remove': { args: ['spaces', 'permissions', 'remove', 'sp1', '--user', 'u1', ...yes] },

    'content show': { args: ['content', 'show', 'sp1'] },
    'content pages': { args: ['content', 'pages', 'sp1'] },
    // Pages and files are looked up among the space's: Prism's have the id `string`.
    'content page': { args: ['content', 'page', 'sp1', 'string'] },
    'content files': { args: ['content', 'files', 'sp1'] },
    'content file': { args: ['content', 'file', 'sp1', 'string'] },
    'content search': { args: ['content', 'search', 'sp1', 'install windows'] },
    'content import': { args: ['content', 'import', 'sp1', 'https://docs.example.com/'], expect: 'seed-only' },
    'content template': { args: ['content', 'template', 'sp1', 'getting-started'] },
    'content links': { args: ['content', 'links', 'sp1', '--page', 'string'], expect: 'seed-only' },
    'content backlinks': { args: ['content', 'backlinks', 'sp1', '--page', 'string'], expect: 'seed-only' },
    // Only official operations: list pages, read each page's document, list files (Prism's have the
    // downloadURL "string": every request made is the document's, then the file is refused, named).
    'content export': { args: ['content', 'export', 'sp1', '--out', join(EXPORTS, 'space')], expect: 'no-download' },

    'cr list': { args: ['cr', 'list', 'sp1', '--status', 'merged'] },
    'cr get': { args: ['cr', 'get', 'sp1', '3'] },
    'cr create': { args: ['cr', 'create', 'sp1', '--subject', 'Rewrite the quickstart'] },
    'cr edit': { args: ['cr', 'edit', 'sp1', '3', '--subject', 'Renamed', '--description-file', files.description, '--status', 'open'] },
    'cr merge': { args: ['cr', 'merge', 'sp1', '3', ...yes] },
    'cr update': { args: ['cr', 'update', 'sp1', '3'] },
    'cr pdf': { args: ['cr', 'pdf', 'sp1', '3'] },
    'cr content': { args: ['cr', 'content', 'sp1', '3'] },
    'cr pages': { args: ['cr', 'pages', 'sp1', '3'] },
    'cr page': { args: ['cr', 'page', 'sp1', '3', 'string'] },
    // Files are looked up among the change request's: Prism's have the id `string`.
    'cr files': { args: ['cr', 'files', 'sp1', '3'] },
    'cr file': { args: ['cr', 'file', 'sp1', '3', 'string'] },
    'cr links': { args: ['cr', 'links', 'sp1', '3', '--page-id', 'string'], expect: 'seed-only' },
    'cr backlinks': { args: ['cr', 'backlinks', 'sp1', '3', '--file', 'string'], expect: 'seed-only' },
    'cr import': { args: ['cr', 'import', 'sp1', '3', 'https://docs.example.com/'], expect: 'seed-only' },

    'comments list': { args: ['comments', 'list', 'sp1', '--status', 'open', '--order', 'asc'] },
    'comments get': { args: ['comments', 'get', 'sp1', 'c1'] },
    'comments post': { args: ['comments', 'post', 'sp1', '-m', 'Is this still true?'] },
    'comments edit': { args: ['comments', 'edit', 'sp1', 'c1', '--body-file', files.body] },
    'comments resolve': { args: ['comments', 'resolve', 'sp1', 'c1', '--cr', '3'] },
    'comments reopen': { args: ['comments', 'reopen', 'sp1', 'c1'] },
    'comments react': { args: ['comments', 'react', 'sp1', 'c1', ':+1:'] },
    'comments unreact': { args: ['comments', 'unreact', 'sp1', 'c1', '👍', '--reply', 'r1'] },
    'comments delete': { args: ['comments', 'delete', 'sp1', 'c1', ...yes] },
    'comments replies': { args: ['comments', 'replies', 'sp1', 'c1'] },
    'comments reply': { args: ['comments', 'reply', 'sp1', 'c1', '-m', 'Done.'] },
    'comments commenters': { args: ['comments', 'commenters', 'sp1', '--cr', '3'] },

    'sites list': { args: ['sites', 'list', '--published', 'true'] },
    'sites get': { args: ['sites', 'get', 'site1'] },
    'sites create': { args: ['sites', 'create', '--title', 'Developer docs', '--type', 'premium', '--visibility', 'unlisted', '--space', 'sp1'] },
    'sites update': { args: ['sites', 'update', 'site1', '--title', 'Developer docs', '--visibility', 'unlisted'] },
    'sites delete': { args: ['sites', 'delete', 'site1', ...yes] },
    'sites publish': { args: ['sites', 'publish', 'site1'] },
    'sites unpublish': { args: ['sites', 'unpublish', 'site1'] },
    'sites published': { args: ['sites', 'published', 'site1'] },
    'sites sections list': { args: ['sites', 'sections', 'list', 'site1'] },
    'sites sections add': { args: ['sites', 'sections', 'add', 'site1', '--space', 'sp1', '--title', 'Guides', '--icon', 'book'] },
    'sites sections update': { args: ['sites', 'sections', 'update', 'site1', 'sec1', '--title', 'Reference', '--path', 'reference'] },
    'sites sections move': { args: ['sites', 'sections', 'move', 'site1', 'sec1', '--before', 'sec2'] },
    'sites sections remove': { args: ['sites', 'sections', 'remove', 'site1', 'sec1', ...yes] },
    'sites section-groups list': { args: ['sites', 'section-groups', 'list', 'site1'] },
    'sites section-groups add': { args: ['sites', 'section-groups', 'add', 'site1', '--title', 'Products', '--section', 'sec1'] },
    'sites section-groups update': { args: ['sites', 'section-groups', 'update', 'site1', 'grp1', '--title', 'Platform'] },
    'sites section-groups move': { args: ['sites', 'section-groups', 'move', 'site1', 'grp1', '--before', 'sec2'] },
    'sites section-groups add-section': { args: ['sites', 'section-groups', 'add-section', 'site1', 'grp1', 'sec1'], expect: 'seed-only' },
    'sites section-groups remove-section': { args: ['sites', 'section-groups', 'remove-section', 'site1', 'grp1', 'sec1'], expect: 'seed-only' },
    'sites section-groups remove': { args: ['sites', 'section-groups', 'remove', 'site1', 'grp1', ...yes] },
    'sites spaces list': { args: ['sites', 'spaces', 'list', 'site1', '--default', 'false'] },
    'sites spaces add': { args: ['sites', 'spaces', 'add', 'site1', '--space', 'sp1', '--section', 'sec1'] },
    'sites spaces update': { args: ['sites', 'spaces', 'update', 'site1', 'ss1', '--path', 'v2', '--hidden', 'true'] },
    'sites spaces move': { args: ['sites', 'spaces', 'move', 'site1', 'ss1', '--after', 'ss2'] },
    'sites spaces remove': { args: ['sites', 'spaces', 'remove', 'site1', 'ss1', ...yes] },
    'sites schema get': { args: ['sites', 'schema', 'get', 'site1'] },
    'sites schema set': { args: ['sites', 'schema', 'set', 'site1', files.schema] },
    'sites schema conditions': { args: ['sites', 'schema', 'conditions', 'site1'] },
    'sites permissions list': { args: ['sites', 'permissions', 'list', 'site1'] },
    'sites permissions add': { args: ['sites', 'permissions', 'add', 'site1', '--user', 'u1,u2', '--team', 'team1', '--role', 'edit'] },
    'sites permissions set': { args: ['sites', 'permissions', 'set', 'site1', '--team', 'team1', '--role', 'read'] },
    'sites permissions remove': { args: ['sites', 'permissions', 'remove', 'site1', '--user', 'u1', ...yes] },
  };
}

/** Extra cases beyond one per leaf: flags that change what is sent, and what needs an extension. */
function extras(): Record<string, Row> {
  return {
    'spaces list --deleted': { args: ['spaces', 'list', '--deleted'], expect: 'extension', modes: ['tsv'] },
    'cr list (organization)': { args: ['cr', 'list', '--status', 'all'] },
    'content export --cr --format json': {
      args: ['content', 'export', 'sp1', '--cr', '3', '--format', 'json', '--out', join(EXPORTS, 'cr')],
      expect: 'no-download',
    },
    'api --paginate': { args: ['api', '/v1/orgs/{org}/collections', '--paginate'], modes: ['tsv'] },
    // Operations by id: path and query fields, body fields, a list followed, one the sandbox does not serve.
    'api OPERATION_ID': { args: ['api', 'listSpacesInOrganizationById', '-f', 'organizationId={org}', '-F', 'limit=5'], modes: ['tsv'] },
    'api OPERATION_ID (body)': { args: ['api', 'updateSpaceById', '-f', 'spaceId=sp1', '-f', 'title=Handbook', '-F', 'defaultLevel=null'], modes: ['tsv'] },
    'api OPERATION_ID --paginate': {
      args: ['api', 'listCollectionsInOrganizationById', '-f', 'organizationId={org}', '--paginate', '--jq', 'length'],
      modes: ['tsv'],
    },
    'api OPERATION_ID (not in the sandbox)': { args: ['api', 'getIntegrationByName', '-f', 'integrationName=github'], modes: ['tsv'] },
    'api --operations': { args: ['api', '--operations', 'team'], expect: 'local' },
    'spaces permissions list --effective': { args: ['spaces', 'permissions', 'list', 'sp1', '--effective', '--role', 'edit'] },
    'collections permissions list --effective': { args: ['collections', 'permissions', 'list', 'col1', '--effective'] },
    'sites permissions list --effective': {
      args: ['sites', 'permissions', 'list', 'site1', '--effective', '--role', 'read', '--team', 'team1', '--search', 'ada'],
    },
    'invites links create (organization)': { args: ['invites', 'links', 'create', '--role', 'read'] },
  };
}

const LEAVES = leafCommands();

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'docsctl-prism-home-'));
  const write = (name: string, text: string) => {
    const path = join(home, name);
    writeFileSync(path, text);
    return path;
  };
  files = {
    // Declares collections and nothing else: without --prune the plan has nothing to do.
    org: write('org.yaml', 'version: 1\norganization: org1\ncollections: []\n'),
    schema: write(
      'schema.json',
      JSON.stringify({
        type: 'object',
        properties: {
          unsigned: {
            type: 'object',
            description: 'Unsigned claims of the site visitor.',
            properties: { beta: { type: 'boolean', description: 'Beta' } },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      }),
    ),
    cert: write('idp.pem', PEM),
    spec: write('openapi.yaml', 'openapi: 3.0.3\ninfo: {title: Pets, version: "1"}\npaths: {}\n'),
    description: write('description.md', 'Why this change: the quickstart was out of date.\n'),
    body: write('body.md', 'Fixed in the last revision.\n'),
    out: join(home, 'out.pdf'),
  };
  // The command tree is built while Prism starts (in its own process).
  [prism] = await Promise.all([startPrism(), sourceManifest()]);
}, 120_000);

afterAll(async () => {
  await prism?.close();
  if (home) rmSync(home, { recursive: true, force: true });
  rmSync(EXPORTS, { recursive: true, force: true });
});

function run(row: Row, mode: Mode): Promise<RunResult> {
  const args = [...row.args, ...(mode === 'json' ? ['--json'] : [])];
  return docsctlInProcess(
    args,
    {
      HOME: home,
      DOCSCTL_CONFIG_DIR: home,
      DOCSCTL_API_URL: prism.url,
      DOCSCTL_TOKEN: 'token-of-prism',
      DOCSCTL_ORG: 'org1',
      DOCSCTL_MAX_RETRIES: '0',
      ...(mode === 'table' ? { DOCSCTL_FORCE_TTY: '1', NO_COLOR: '1', COLUMNS: '120' } : {}),
    },
    row.input !== undefined ? { input: row.input } : {},
  );
}

/** What is not sane in a successful run's output. */
function insanity(r: RunResult, mode: Mode): string[] {
  const problems: string[] = [];
  if (/\n\s+at .+:\d+:\d+\)?$/m.test(r.stderr) || /bug in docsctl/i.test(r.stderr))
    problems.push(`a stack trace or bug report on stderr: ${r.stderr.slice(0, 400)}`);
  if (mode === 'json' && r.stdout.trim() !== '') {
    try {
      JSON.parse(r.stdout);
    } catch {
      problems.push(`stdout is not JSON: ${r.stdout.slice(0, 200)}`);
    }
  }
  if (mode !== 'json' && /\bundefined\b|\[object Object\]|\bNaN\b/.test(r.stdout)) problems.push(`a broken cell in the output: ${r.stdout.slice(0, 400)}`);
  return problems;
}

describe('the CLI against Prism mocking the official document', () => {
  it('has a row for every leaf command of docs/commands.md', () => {
    expect(LEAVES.length).toBeGreaterThan(90);
    expect(LEAVES.filter((leaf) => !(leaf in rows()))).toEqual([]);
    expect(Object.keys(rows()).filter((name) => !LEAVES.includes(name))).toEqual([]);
  });

  const cases = (): [string, Row][] => [...Object.entries(rows()), ...Object.entries(extras())];
  // Rows need the files and Prism's URL, known only in beforeAll: the table is read there, by name here.
  const names = [...LEAVES, ...Object.keys(extras())];
  for (const name of names) {
    it(name, async () => {
      const row = cases().find(([n]) => n === name)?.[1];
      expect(row, `no row for ${name}`).toBeDefined();
      if (!row || (row.expect === 'local' && row.args.length === 0)) return;
      const problems: string[] = [];
      for (const mode of row.modes ?? (['json', 'tsv', 'table'] as Mode[])) {
        prism.refusals();
        const r = await run(row, mode);
        const what = `docsctl ${[...row.args, ...(mode === 'json' ? ['--json'] : [])].join(' ')} (${mode})`;
        const refused = prism.refusals();
        switch (row.expect ?? 'ok') {
          case 'ok':
          case 'local':
            if (r.exitCode !== 0)
              problems.push(
                `${what} exited ${r.exitCode}: ${r.stderr.slice(0, 500)}${refused.length ? `\n  Prism: ${refused.map((x) => `${x.method} ${x.url} → ${x.status} ${x.body.slice(0, 600)}${x.why.length ? `\n    the request against the document: ${x.why.join('; ')}` : ''}`).join('\n  ')}` : ''}`,
              );
            else problems.push(...insanity(r, mode).map((p) => `${what}: ${p}`));
            break;
          case 'seed-only':
            if (r.exitCode !== 4 || !/the service has no endpoint (GET|POST|PUT|PATCH|DELETE) \/v1\//.test(r.stderr)) {
              problems.push(`${what}: expected exit 4 naming the missing endpoint, got ${r.exitCode}: ${r.stderr.slice(0, 300)}`);
            }
            if (r.stdout.trim() !== '') problems.push(`${what}: wrote to stdout on failure: ${r.stdout.slice(0, 200)}`);
            break;
          case 'no-download':
            if (r.exitCode !== 1 || !/its downloadURL \\?"string\\?" is not an http\(s\) URL: not downloaded/.test(r.stderr) || refused.length > 0)
              problems.push(
                `${what}: expected exit 1 naming the file not downloaded, and no request refused, got ${r.exitCode}: ${r.stderr.slice(0, 300)}; refused: ${refused.length}`,
              );
            break;
          case 'extension':
            if (r.exitCode !== 1 || !/sandbox extension/.test(r.stderr))
              problems.push(`${what}: expected exit 1 saying it needs a sandbox extension, got ${r.exitCode}: ${r.stderr.slice(0, 300)}`);
            break;
        }
        if (r.exitCode !== 0 && /\n\s+at .+:\d+:\d+\)?$/m.test(r.stderr)) problems.push(`${what}: a stack trace: ${r.stderr.slice(0, 400)}`);
      }
      expect(problems).toEqual([]);
    });
  }
});

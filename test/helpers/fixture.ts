/**
 * A sandbox holding one of everything (collections, spaces, a deleted space, content with a page and a
 * file, a change request, comments and replies on both threads, a site with sections, a section group
 * and site spaces, an active SAML provider, a processed OpenAPI specification), built once and
 * restored from its state snapshot before each case: the fresh fixture of the access table and the
 * hostile-input test. Requests go straight to the app, without a socket.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { AnyOp, Role } from '../../src/contract/op.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { watchAnswers } from './official.js';

/** Who sends a request: a default-seed user by role, the other organization's admin, no token, an unknown token. */
export const CALLERS = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest', 'outsider', 'none', 'revoked'] as const;
export type Caller = (typeof CALLERS)[number];

export const ORG = 'org-acme';
export const OTHER_ORG = 'org-globex';
/** The seed's team (u-edit, owner; u-comment). */
export const TEAM = 'team-writers';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: any;
}

export interface FixtureIds {
  /** In the seed: col-handbook holding sp-welcome. */
  collection: string;
  space: string;
  /** A collection at the organization's root, to move, transfer and delete. */
  looseCollection: string;
  /** A space at the organization's root. */
  rootSpace: string;
  /** A deleted space (in the trash, restorable). */
  trashedSpace: string;
  page: string;
  file: string;
  cr: string;
  crNumber: number;
  /** Comments by u-comment, with a reply by u-comment, in the space's thread and in the change request's. */
  spaceComment: string;
  spaceReply: string;
  crComment: string;
  crReply: string;
  site: string;
  /** Two sections; the first holds two site spaces, the second is in a section group. */
  sections: [string, string];
  group: string;
  siteSpaces: [string, string];
  saml: string;
  specSlug: string;
  specVersion: string;
  /** In the seed: team-writers, owned by u-edit, with u-comment as a member. */
  team: string;
  /** An invite link to the organization, for the read role. */
  inviteLink: string;
  /** An event of the organization's audit log (the fixture's last change). */
  auditEvent: string;
}

export interface Bench {
  server: RunningServer;
  /** Base URL of a small website on loopback that content import can read. */
  website: string;
  ids: FixtureIds;
  /** The fixture's exported state. */
  snapshot: string;
  /** Back to the fixture. */
  restore(): void;
  /** The current exported state. */
  state(): string;
  send(who: Caller, method: string, url: string, body?: unknown): Promise<Reply>;
  /** What the official document says is wrong with the answers given since the last call (see official.ts). */
  officialProblems(): string[];
  close(): Promise<void>;
}

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR'),
  Buffer.from([0, 0, 0, 3, 0, 0, 0, 2, 8, 6, 0, 0, 0]),
]);
/**
 * Every kind of block and inline node the sandbox makes of a page (see markdown.ts), also where the
 * official document restricts what a quote or a list item may hold: the page the fixture reads.
 */
const KINDS_HTML =
  '<p><img src="/logo.png" alt="Logo alone"></p><h2>Kinds</h2><h4>Deep</h4>' +
  '<p><b>bold</b> <i>italic</i> <s>struck</s> <code>code</code><br>after a break</p>' +
  '<blockquote><p>Quoted</p><pre><code>code in a quote</code></pre><p><img src="/logo.png" alt="Quoted logo"></p>' +
  '<table><tr><th>Q</th></tr><tr><td>1</td></tr></table><hr><h3>Quoted heading</h3></blockquote>' +
  '<ul><li>item</li><li><p><img src="/logo.png" alt="Listed logo"></p><blockquote><p><img src="/logo.png" alt="Deeper"></p></blockquote></li></ul>' +
  '<ol start="3"><li>three</li></ol><ul><li><input type="checkbox" checked> done</li><li><input type="checkbox"> todo</li></ul><hr>' +
  '<pre><code class="language-js">let a = 1;\nlet b = 2;</code></pre>' +
  '<table><thead><tr><th>A</th><th align="right">B</th></tr></thead><tbody><tr><td>1</td><td><a href="/guide">2</a></td></tr></tbody></table>';
/**
 * The same in Markdown, with what only Markdown has (references, footnotes, raw HTML, autolinks):
 * the fixture's comments, read in document form.
 */
const KINDS_MARKDOWN =
  '# One\n\n## Two\n\n#### Four\n\n**b** _i_ ~~s~~ `c` [link](https://example.com) <https://auto.example.com> ' +
  '![inline](https://example.com/i.png) <b>html</b> line  \nbreak[^1] [ref][r] ![ref image][r]\n\n' +
  '![Alone](https://example.com/a.png) ![Two](https://example.com/b.png)\n\n' +
  '> quote\n>\n> ```\n> code\n> ```\n>\n> ![q](https://example.com/q.png)\n>\n> | a |\n> |---|\n> | b |\n>\n> ---\n\n' +
  '- a\n- ![li](https://example.com/l.png)\n\n  > ![deeper](https://example.com/d.png)\n\n3. x\n4. y\n\n- [ ] t\n- [x] u\n\n---\n\n' +
  '```js\nlet a\n```\n\n    indented\n\n<div>html block</div>\n\n| A | B |\n|:-:|--:|\n| 1 | [l](https://example.com) |\n\n' +
  '[^1]: A footnote\n\n[r]: https://example.com/r\n';

const SITE: Record<string, { type: string; body: string | Buffer }> = {
  '/': {
    type: 'text/html',
    body:
      '<!DOCTYPE html><html><head><title>Fixture site</title></head><body><main><h1>Fixture site</h1>' +
      '<p><img src="/logo.png" alt="Logo"> Read the <a href="/guide">guide</a>.</p>' +
      KINDS_HTML +
      '</main></body></html>',
  },
  '/guide': { type: 'text/html', body: '<html><head><title>Guide</title></head><body><h1>Guide</h1><p>Back <a href="/">home</a>.</p></body></html>' },
  '/logo.png': { type: 'image/png', body: PNG },
};

export const PEM = readFileSync(resolve(import.meta.dirname, '../fixtures/saml-idp.pem'), 'utf8');
export const SPEC_TEXT = JSON.stringify({ openapi: '3.0.3', info: { title: 'Pets', version: '1' }, paths: {} });

/** `op.path` with its placeholders filled (URL-encoded), below `/v1`. */
export function pathOf(op: AnyOp, params: Record<string, string | number>): string {
  return (
    '/v1' +
    op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (params[name] === undefined) throw new Error(`${op.id}: no value for {${name}}`);
      return encodeURIComponent(String(params[name]));
    })
  );
}

function startWebsite(): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer((req, res) => {
    const page = SITE[req.url ?? ''];
    if (!page) res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    else res.writeHead(200, { 'content-type': page.type }).end(page.body);
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

/**
 * Start a sandbox and build the fixture. `collectionLevel` sets col-handbook's `defaultLevel` (which
 * raises everyone's role on it and on sp-welcome).
 */
export async function startBench(opts: { collectionLevel?: Role | null } = {}): Promise<Bench> {
  const server = await startServer({ port: 0 });
  const official = watchAnswers(server.app);
  const site = await startWebsite();
  const host = new URL(server.url).host;
  const tokenOf = (who: Caller) => {
    if (who === 'revoked') return 'sbx_not-a-token-of-anyone';
    return server.users.find((u) => u.id === `u-${who}`)!.token;
  };
  const send = async (who: Caller, method: string, url: string, body?: unknown): Promise<Reply> => {
    const res = await server.app.handle({
      method,
      url,
      headers: { host, ...(who === 'none' ? {} : { authorization: `Bearer ${tokenOf(who)}` }) },
      ...(body === undefined ? {} : { body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body) }),
    });
    const text = res.body?.toString() ?? '';
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  };
  /** A setup step that must succeed. */
  const ok = async (who: Caller, method: string, url: string, body?: unknown) => {
    const r = await send(who, method, url, body);
    if (r.status >= 300) throw new Error(`fixture: ${method} ${url} as ${who} answered ${r.status}: ${r.text}`);
    return r.json;
  };

  const looseCollection = (await ok('admin', 'POST', `/v1/orgs/${ORG}/collections`, { title: 'Loose' })).id;
  const rootSpace = (await ok('admin', 'POST', `/v1/orgs/${ORG}/spaces`, { title: 'Root space' })).id;
  const trashedSpace = (await ok('admin', 'POST', `/v1/orgs/${ORG}/spaces`, { title: 'Trashed' })).id;
  await ok('admin', 'DELETE', `/v1/spaces/${trashedSpace}`);

  const space = 'sp-welcome';
  await ok('admin', 'POST', `/v1/spaces/${space}/content/template`, { id: 'getting-started' });
  await ok('admin', 'POST', `/v1/spaces/${space}/content/import`, { url: `${site.url}/`, source: 'website' });
  // The imported start page, which holds every kind of node.
  const page = (await ok('admin', 'GET', `/v1/spaces/${space}/content/pages`)).pages.find((p: { path: string }) => p.path === 'fixture-site').id;
  const file = (await ok('admin', 'GET', `/v1/spaces/${space}/content/files`)).items[0].id;

  const cr = await ok('edit', 'POST', `/v1/spaces/${space}/change-requests`, { subject: 'Fixture change' });
  const spaceComment = (await ok('comment', 'POST', `/v1/spaces/${space}/comments`, { body: { markdown: `On the space\n\n${KINDS_MARKDOWN}` } })).id;
  const spaceReply = (await ok('comment', 'POST', `/v1/spaces/${space}/comments/${spaceComment}/replies`, { body: { markdown: `Reply\n\n${KINDS_MARKDOWN}` } }))
    .id;
  const crBase = `/v1/spaces/${space}/change-requests/${cr.id}`;
  const crComment = (await ok('comment', 'POST', `${crBase}/comments`, { body: { markdown: `On the change\n\n${KINDS_MARKDOWN}` } })).id;
  const crReply = (await ok('comment', 'POST', `${crBase}/comments/${crComment}/replies`, { body: { markdown: `Reply\n\n${KINDS_MARKDOWN}` } })).id;

  const siteRec = await ok('admin', 'POST', `/v1/orgs/${ORG}/sites`, { title: 'Fixture site', spaces: [space] });
  const siteBase = `/v1/orgs/${ORG}/sites/${siteRec.id}`;
  // The first section takes the site's existing site space; the second holds the root space.
  await ok('admin', 'POST', `${siteBase}/sections`, { spaceId: rootSpace, title: 'Second' });
  const sections = (await ok('admin', 'GET', `${siteBase}/sections`)).items.map((s: { id: string }) => s.id);
  await ok('admin', 'POST', `${siteBase}/site-spaces`, { spaceId: rootSpace, sectionId: sections[0] });
  const firstSection = (await ok('admin', 'GET', `${siteBase}/sections`)).items[0];
  const group = (await ok('admin', 'POST', `${siteBase}/section-groups`, { title: 'Group', sections: [sections[1]] })).id;

  const saml = (
    await ok('admin', 'POST', `/v1/orgs/${ORG}/saml`, {
      label: 'Fixture IdP',
      entityID: 'https://idp.fixture.test/metadata',
      certificate: PEM,
      ssoURL: 'https://idp.fixture.test/sso',
    })
  ).id;

  // Grants that change no one's role where other rows act (u-read already reads; no row but the
  // permission rows acts on the root space or the loose collection as u-edit or u-comment).
  for (const target of [`/v1/spaces/${rootSpace}`, `/v1/collections/${looseCollection}`, siteBase]) {
    await ok('admin', 'POST', `${target}/permissions`, { role: 'read', users: ['u-read'] });
  }
  await ok('admin', 'POST', `/v1/spaces/${rootSpace}/permissions`, { role: 'comment', teams: [TEAM] });
  await ok('admin', 'POST', `/v1/collections/${looseCollection}/permissions`, { role: 'edit', teams: [TEAM] });

  const specSlug = 'pets';
  await ok('admin', 'POST', `/v1/orgs/${ORG}/openapi`, { slug: specSlug, source: { text: SPEC_TEXT } });
  let spec;
  for (let i = 0; i < 1000 && spec?.processingState !== 'complete'; i++) {
    await new Promise((r) => setTimeout(r, 5));
    spec = await ok('admin', 'GET', `/v1/orgs/${ORG}/openapi/${specSlug}`);
  }
  if (!spec?.lastVersion) throw new Error(`fixture: the OpenAPI specification was not processed: ${JSON.stringify(spec)}`);

  if (opts.collectionLevel !== undefined) {
    await ok('admin', 'PATCH', `/v1/collections/col-handbook`, { defaultLevel: opts.collectionLevel });
  }

  const inviteLink = (await ok('admin', 'POST', `/v1/orgs/${ORG}/link-invites`, { role: 'read' })).id;
  const auditEvent = (await ok('admin', 'GET', `/v1/orgs/${ORG}/audit-events?limit=1`)).items[0].id;

  const ids: FixtureIds = {
    collection: 'col-handbook',
    space,
    looseCollection,
    rootSpace,
    trashedSpace,
    page,
    file,
    cr: cr.id,
    crNumber: cr.number,
    spaceComment,
    spaceReply,
    crComment,
    crReply,
    site: siteRec.id,
    sections: [sections[0], sections[1]],
    group,
    siteSpaces: firstSection.siteSpaces.map((s: { id: string }) => s.id) as [string, string],
    saml,
    specSlug,
    specVersion: spec.lastVersion,
    team: 'team-writers',
    inviteLink,
    auditEvent,
  };
  const snapshot = server.store.exportState();
  // The state as last exported (with the store's version then), until the next request: a case
  // compares the state before a request with the state after it, and the fixture's many cases ask
  // for it thousands of times (each export a few ms). A request through `send` drops it, so the
  // state after a request is always exported afresh; one changed otherwise (a test's own socket,
  // background work) moves the version.
  let known: { text: string; version: number } | undefined;
  const remember = (text: string) => {
    known = { text, version: server.store.version };
    return text;
  };
  const current = () => (known && known.version === server.store.version ? known.text : undefined);
  server.store.importState(snapshot);
  if (server.store.exportState() !== snapshot) throw new Error('fixture: the state exported after importing the snapshot is not the snapshot');
  remember(snapshot);
  return {
    server,
    website: site.url,
    ids,
    snapshot,
    send: (who, method, url, body) => {
      known = undefined;
      return send(who, method, url, body);
    },
    officialProblems: () => official.take(),
    restore: () => {
      // (Importing the snapshot over itself changes nothing.)
      if (current() === snapshot) return;
      server.store.importState(snapshot);
      remember(snapshot);
    },
    state: () => current() ?? remember(server.store.exportState()),
    close: async () => {
      await server.close();
      site.server.closeAllConnections();
      await new Promise<void>((done) => site.server.close(() => done()));
    },
  };
}

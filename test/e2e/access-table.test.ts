/**
 * The access table: every operation of the contract, sent by every kind of caller against a fresh
 * fixture, answers what decisions.md (Access) says, and a refused request changes nothing.
 *
 * The expected answers come from the rules declared below, one per operation, not from the server:
 * - no token, or a token of no one: 401;
 * - a user of another organization (u-outsider, admin of org-globex only): 404, so ids do not leak;
 * - a member: the operation's success status when their role (org role, raised by no defaultLevel in
 *   this fixture) reaches the rule's minimum, else 403 naming what is needed;
 * - a guest (member without a role): like a role below `read`, except where the rule says otherwise.
 * Every operation exported by src/contract must have a row: a new operation without one fails here.
 * A second part checks that the `permissions` booleans of objects agree with what the caller can do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { families } from '../../src/contract/index.js';
import type { AnyOp, Role } from '../../src/contract/op.js';
import { CALLERS, ORG, OTHER_ORG, pathOf, SPEC_TEXT, startBench, type Bench, type Caller, type FixtureIds, type Reply } from '../helpers/fixture.js';

const RANK: Record<Role, number> = { read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 };
const ALL_OPS: Record<string, AnyOp> = Object.assign({}, ...Object.values(families));

/** Who may do it. */
type Rule =
  /** Any authenticated user, member or not (their own user, their organizations). */
  | { anyone: true }
  /** Any member of the organization, guests included. */
  | { member: true }
  /** Members whose role reaches `min`. `guest` / `below`: the status for a guest / a lower role when not 403. */
  | { min: Role; guest?: 404; below?: 404 }
  /** The author of the comment or reply (u-comment, who holds the comment role), or an admin. */
  | { authorOrAdmin: true };

interface Row {
  rule: Rule;
  params?: Record<string, string | number>;
  query?: Record<string, string>;
  body?: unknown;
}

const read: Rule = { min: 'read' };
const comment: Rule = { min: 'comment' };
const edit: Rule = { min: 'edit' };
const create: Rule = { min: 'create' };
const admin: Rule = { min: 'admin' };
const member: Rule = { member: true };
/** A site's published profile and public lists: a guest is a visitor, and a visitor sees only a published site (this one is not). */
const readOrVisitor: Rule = { min: 'read', guest: 404 };

const SCHEMA = { type: 'object', properties: { unsigned: { type: 'object', properties: {}, additionalProperties: false } } };

/** decisions.md, Access: read views; comment comments; edit edits content and change requests; create creates spaces, collections and sites; admin deletes, moves, transfers, manages members, SAML, OpenAPI and sites. */
function table(f: FixtureIds, website: string): Record<string, Row> {
  const org = { organizationId: ORG };
  const col = { collectionId: f.collection };
  const loose = { collectionId: f.looseCollection };
  const sp = { spaceId: f.space };
  const memberOf = (userId: string) => ({ ...org, userId });
  const saml = { ...org, samlProviderId: f.saml };
  const spec = { ...org, specSlug: f.specSlug };
  const cr = { ...sp, changeRequestId: f.cr };
  const crPage = { ...cr, pageId: f.page };
  const crFile = { ...cr, fileId: f.file };
  const site = { ...org, siteId: f.site };
  const section = { ...site, siteSectionId: f.sections[0] };
  const group = { ...site, siteSectionGroupId: f.group };
  const siteSpace = { ...site, siteSpaceId: f.siteSpaces[0] };
  const page = { ...sp, pageId: f.page };
  const file = { ...sp, fileId: f.file };
  const text = { body: { markdown: 'Hello' } };

  const comments = (suffix: string, thread: Record<string, string>, c: string, r: string): Record<string, Row> => ({
    [`listComments${suffix}`]: { rule: read, params: thread },
    [`postComment${suffix}`]: { rule: comment, params: thread, body: text },
    [`getComment${suffix}`]: { rule: read, params: { ...thread, commentId: c } },
    [`updateComment${suffix}`]: { rule: comment, params: { ...thread, commentId: c }, body: { resolved: true } },
    [`deleteComment${suffix}`]: { rule: { authorOrAdmin: true }, params: { ...thread, commentId: c } },
    [`listCommentReplies${suffix}`]: { rule: read, params: { ...thread, commentId: c } },
    [`postCommentReply${suffix}`]: { rule: comment, params: { ...thread, commentId: c }, body: text },
    [`getCommentReply${suffix}`]: { rule: read, params: { ...thread, commentId: c, commentReplyId: r } },
    [`updateCommentReply${suffix}`]: { rule: comment, params: { ...thread, commentId: c, commentReplyId: r }, body: { addedReactions: ['🎉'] } },
    [`deleteCommentReply${suffix}`]: { rule: { authorOrAdmin: true }, params: { ...thread, commentId: c, commentReplyId: r } },
    [`listCommenters${suffix}`]: { rule: read, params: thread },
  });

  return {
    // orgs
    getAuthenticatedUser: { rule: { anyone: true } },
    listOrganizations: { rule: { anyone: true } },
    getOrganization: { rule: member, params: org },
    // A guest's organization says listTeams: false.
    listTeams: { rule: read, params: org },

    // collections
    listCollections: { rule: member, params: org },
    createCollection: { rule: create, params: org, body: { title: 'New' } },
    getCollection: { rule: read, params: col },
    updateCollection: { rule: admin, params: col, body: { title: 'Renamed' } },
    deleteCollection: { rule: admin, params: loose },
    listCollectionSpaces: { rule: read, params: col },
    moveCollection: { rule: admin, params: loose, body: { parent: f.collection } },
    transferCollection: { rule: admin, params: loose, body: { organization: OTHER_ORG } },

    // spaces
    createSpace: { rule: create, params: org, body: { title: 'New space' } },
    listSpaces: { rule: member, params: org },
    getSpace: { rule: read, params: sp },
    updateSpace: { rule: edit, params: sp, body: { title: 'Renamed' } },
    deleteSpace: { rule: admin, params: sp },
    // A deleted space exists only for those who may restore it.
    restoreSpace: { rule: { min: 'admin', below: 404, guest: 404 }, params: { spaceId: f.trashedSpace } },
    duplicateSpace: { rule: create, params: sp },
    moveSpace: { rule: admin, params: sp, body: { parent: null } },
    transferSpace: { rule: admin, params: sp, body: { organization: OTHER_ORG } },

    // members
    listMembers: { rule: read, params: org },
    getMember: { rule: read, params: memberOf('u-edit') },
    updateMember: { rule: admin, params: memberOf('u-read'), body: { role: 'comment' } },
    removeMember: { rule: admin, params: memberOf('u-read') },
    ping: { rule: { member: true }, params: org },
    setMemberSso: { rule: admin, params: memberOf('u-read') },
    listMemberSpaces: { rule: read, params: memberOf('u-edit') },
    listMemberTeams: { rule: read, params: memberOf('u-edit') },

    // SAML
    listSamlProviders: { rule: admin, params: org },
    createSamlProvider: { rule: admin, params: org, body: { label: 'Another IdP' } },
    getSamlProvider: { rule: admin, params: saml },
    updateSamlProvider: { rule: admin, params: saml, body: { label: 'Renamed' } },
    deleteSamlProvider: { rule: admin, params: saml },
    listSsoProviders: { rule: { member: true }, params: org },

    // OpenAPI (the fixture's specification is private)
    listOpenAPISpecs: { rule: { member: true }, params: org },
    createOpenAPISpec: { rule: admin, params: org, body: { slug: 'new-spec', source: { text: SPEC_TEXT } } },
    getOpenAPISpec: { rule: read, params: spec },
    putOpenAPISpec: { rule: admin, params: spec, body: { source: { text: SPEC_TEXT } } },
    updateOpenAPISpec: { rule: admin, params: spec, body: { visibility: 'public' } },
    deleteOpenAPISpec: { rule: admin, params: spec },
    listOpenAPISpecVersions: { rule: read, params: spec },
    getLatestOpenAPISpecVersion: { rule: read, params: spec },
    getLatestOpenAPISpecVersionContent: { rule: read, params: spec },
    getOpenAPISpecVersion: { rule: read, params: { ...spec, versionId: f.specVersion } },
    getOpenAPISpecVersionContent: { rule: read, params: { ...spec, versionId: f.specVersion } },

    // change requests
    listChangeRequests: { rule: read, params: sp, query: { status: 'draft' } },
    createChangeRequest: { rule: edit, params: sp, body: { subject: 'Another change' } },
    getChangeRequest: { rule: read, params: cr },
    updateChangeRequest: { rule: edit, params: cr, body: { subject: 'Renamed' } },
    listOrganizationChangeRequests: { rule: { member: true }, params: org, query: { status: 'draft' } },
    mergeChangeRequest: { rule: { min: 'review' }, params: cr },
    updateChangeRequestFromSpace: { rule: edit, params: cr },
    getChangeRequestPdf: { rule: read, params: cr },
    getChangeRequestContent: { rule: read, params: cr },
    importChangeRequestContent: { rule: edit, params: cr, body: { url: `${website}/guide`, source: 'website' } },
    listChangeRequestPages: { rule: read, params: cr },
    listChangeRequestFiles: { rule: read, params: cr },
    getChangeRequestFile: { rule: read, params: crFile },
    listChangeRequestFileBacklinks: { rule: read, params: crFile },
    getChangeRequestPage: { rule: read, params: crPage },
    listChangeRequestPageLinks: { rule: read, params: crPage },

    // comments, in both threads
    ...comments('InSpace', sp, f.spaceComment, f.spaceReply),
    ...comments('InChangeRequest', cr, f.crComment, f.crReply),

    // sites
    listSites: { rule: read, params: org },
    createSite: { rule: create, params: org, body: { title: 'New site' } },
    getSite: { rule: read, params: site },
    updateSite: { rule: admin, params: site, body: { title: 'Renamed' } },
    deleteSite: { rule: admin, params: site },
    publishSite: { rule: admin, params: site },
    unpublishSite: { rule: admin, params: site },
    getPublishedSite: { rule: readOrVisitor, params: site },
    getAdaptiveSchema: { rule: read, params: site },
    putAdaptiveSchema: { rule: admin, params: site, body: { jsonSchema: SCHEMA } },
    listTemplateConditions: { rule: read, params: site },
    listSiteSections: { rule: readOrVisitor, params: site },
    createSiteSection: { rule: admin, params: site, body: { spaceId: f.rootSpace } },
    updateSiteSection: { rule: admin, params: section, body: { title: 'Renamed' } },
    deleteSiteSection: { rule: admin, params: section },
    moveSiteSection: { rule: admin, params: section, body: { position: { after: { type: 'site-section', siteSection: f.group } } } },
    listSiteSectionGroups: { rule: read, params: site },
    createSiteSectionGroup: { rule: admin, params: site, body: { title: 'Another group' } },
    updateSiteSectionGroup: { rule: admin, params: group, body: { title: 'Renamed' } },
    deleteSiteSectionGroup: { rule: admin, params: group },
    addSiteSectionToGroup: { rule: admin, params: group, body: { sectionId: f.sections[0] } },
    removeSiteSectionFromGroup: { rule: admin, params: { ...group, siteSectionId: f.sections[1] } },
    moveSiteSectionGroup: { rule: admin, params: group, body: { position: { before: { type: 'site-section', id: f.sections[0] } } } },
    listSiteSpaces: { rule: readOrVisitor, params: site },
    createSiteSpace: { rule: admin, params: site, body: { spaceId: f.rootSpace, sectionId: f.sections[1] } },
    updateSiteSpace: { rule: admin, params: siteSpace, body: { hidden: true } },
    deleteSiteSpace: { rule: admin, params: siteSpace },
    moveSiteSpace: { rule: admin, params: siteSpace, body: { position: { after: { type: 'site-space', siteSpace: f.siteSpaces[1] } } } },

    // content
    getSpaceContent: { rule: read, params: sp },
    importSpaceContent: { rule: edit, params: sp, body: { url: `${website}/`, source: 'website' } },
    applySpaceTemplate: { rule: edit, params: sp, body: { id: 'api-reference' } },
    listSpacePages: { rule: read, params: sp },
    listSpaceFiles: { rule: read, params: sp },
    getSpaceFile: { rule: read, params: file },
    listSpaceFileBacklinks: { rule: read, params: file },
    getSpacePage: { rule: read, params: page },
    listSpacePageLinks: { rule: read, params: page },
    listSpacePageBacklinks: { rule: read, params: page },
    listSpaceLinks: { rule: read, params: sp },
    searchSpaceContent: { rule: read, params: sp, query: { query: 'guide' } },
  };
}

/** The status the rule gives `who`; `ok` is the operation's own success status. */
function expected(rule: Rule, who: Caller, ok: number): number {
  if (who === 'none' || who === 'revoked') return 401;
  if ('anyone' in rule) return ok;
  if (who === 'outsider') return 404;
  if ('member' in rule) return ok;
  if ('authorOrAdmin' in rule) return who === 'admin' || who === 'comment' ? ok : 403;
  if (who === 'guest') return rule.guest ?? rule.below ?? 403;
  return RANK[who] >= RANK[rule.min] ? ok : (rule.below ?? 403);
}

/** A 403 names the role needed (or that only the author may). */
const FORBIDDEN_SAYS_WHY = /\b(admin|create|review|edit|comment|read) role\b|\ba role\b|\bauthor\b/;

function urlOf(op: AnyOp, row: Row): string {
  const query = row.query ? `?${new URLSearchParams(row.query)}` : '';
  return pathOf(op, row.params ?? {}) + query;
}

let bench: Bench;
let rows: Record<string, Row>;
let checked = 0;
let probed = 0;

beforeAll(async () => {
  bench = await startBench();
  rows = table(bench.ids, bench.website);
});
afterAll(async () => {
  await bench?.close();
  if (checked) console.info(`access table: ${Object.keys(ALL_OPS).length} operations × ${CALLERS.length} callers = ${checked} requests checked; ${probed} permissions booleans checked against the operation they allow`);
});

describe('access table', () => {
  it('has exactly one row per operation of the contract', () => {
    const ops = Object.keys(ALL_OPS).sort();
    expect(ops.filter((id) => !(id in rows)), 'operations without a row').toEqual([]);
    expect(Object.keys(rows).filter((id) => !(id in ALL_OPS)), 'rows without an operation').toEqual([]);
  });

  for (const [id, op] of Object.entries(ALL_OPS)) {
    it(`${op.method} ${op.path} (${id})`, async () => {
      const row = rows[id];
      expect(row, `no row for ${id}`).toBeDefined();
      const problems: string[] = [];
      for (const who of CALLERS) {
        bench.restore();
        const before = bench.state();
        const want = expected(row.rule, who, op.status);
        const r = await bench.send(who, op.method, urlOf(op, row), row.body);
        checked++;
        const where = `${who}: ${op.method} ${urlOf(op, row)}`;
        if (r.status !== want) {
          problems.push(`${where} answered ${r.status}, the table says ${want}: ${r.text.slice(0, 200)}`);
          continue;
        }
        if (want >= 400) {
          if (r.json?.error?.code !== want || typeof r.json?.error?.message !== 'string' || !r.json.error.message) {
            problems.push(`${where}: error body is not {error: {code: ${want}, message}}: ${r.text.slice(0, 200)}`);
          }
          if (want === 403 && !FORBIDDEN_SAYS_WHY.test(r.json?.error?.message ?? '')) {
            problems.push(`${where}: the 403 message does not say what is needed: ${r.json?.error?.message}`);
          }
          if (bench.state() !== before) problems.push(`${where}: refused with ${r.status} but the state changed`);
          continue;
        }
        if (op.method === 'GET' && bench.state() !== before) problems.push(`${where}: a read changed the state`);
        if (op.status !== 204) {
          const parsed = op.response.safeParse(r.json);
          if (!parsed.success) problems.push(`${where}: the answer does not match the contract: ${parsed.error.issues[0]?.message} at ${parsed.error.issues[0]?.path.join('.')}`);
        } else if (r.text !== '') {
          problems.push(`${where}: a 204 with a body`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// `permissions` booleans agree with what the caller can do

interface Probe {
  /** The object, read by the caller: its `permissions`. */
  read: (f: FixtureIds) => { op: string; row: Row };
  /** boolean → the operation it allows (run as the same caller on a fresh fixture). */
  allows: Record<string, (f: FixtureIds) => { op: string; row?: Partial<Row> }>;
}

const PROBES: Record<string, Probe> = {
  space: {
    read: () => ({ op: 'getSpace', row: { rule: read } }),
    allows: {
      edit: () => ({ op: 'updateSpace' }),
      admin: () => ({ op: 'deleteSpace' }),
      comment: () => ({ op: 'postCommentInSpace' }),
      merge: () => ({ op: 'mergeChangeRequest' }),
    },
  },
  collection: {
    read: () => ({ op: 'getCollection', row: { rule: read } }),
    allows: {
      admin: () => ({ op: 'updateCollection' }),
      create: (f) => ({ op: 'createSpace', row: { body: { title: 'In the collection', parent: f.collection } } }),
    },
  },
  'space comment': {
    read: () => ({ op: 'getCommentInSpace', row: { rule: read } }),
    allows: {
      edit: () => ({ op: 'updateCommentInSpace', row: { body: { body: { markdown: 'Edited' } } } }),
      delete: () => ({ op: 'deleteCommentInSpace' }),
      reply: () => ({ op: 'postCommentReplyInSpace' }),
    },
  },
  'space reply': {
    read: () => ({ op: 'getCommentReplyInSpace', row: { rule: read } }),
    allows: {
      edit: () => ({ op: 'updateCommentReplyInSpace', row: { body: { body: { markdown: 'Edited' } } } }),
      delete: () => ({ op: 'deleteCommentReplyInSpace' }),
      reply: () => ({ op: 'postCommentReplyInSpace' }),
    },
  },
  'change-request comment': {
    read: () => ({ op: 'getCommentInChangeRequest', row: { rule: read } }),
    allows: {
      edit: () => ({ op: 'updateCommentInChangeRequest', row: { body: { body: { markdown: 'Edited' } } } }),
      delete: () => ({ op: 'deleteCommentInChangeRequest' }),
      reply: () => ({ op: 'postCommentReplyInChangeRequest' }),
    },
  },
  'change request': {
    read: () => ({ op: 'getChangeRequest', row: { rule: read } }),
    allows: {
      edit: () => ({ op: 'updateChangeRequest' }),
      comment: () => ({ op: 'postCommentInChangeRequest' }),
      merge: () => ({ op: 'mergeChangeRequest' }),
    },
  },
  'OpenAPI specification': {
    read: () => ({ op: 'getOpenAPISpec', row: { rule: read } }),
    allows: {
      view: () => ({ op: 'listOpenAPISpecVersions' }),
      edit: () => ({ op: 'updateOpenAPISpec' }),
    },
  },
  organization: {
    read: () => ({ op: 'getOrganization', row: { rule: member } }),
    allows: {
      createContent: () => ({ op: 'createSite' }),
      admin: () => ({ op: 'updateMember' }),
      listMembers: () => ({ op: 'listMembers' }),
      listTeams: () => ({ op: 'listTeams' }),
      createOpenAPISpec: () => ({ op: 'createOpenAPISpec' }),
    },
  },
};

/** Callers who are members of the organization (the others see no object, so no booleans). */
const MEMBERS = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest'] as const;

describe('permissions booleans agree with what the caller can do', () => {
  // col-handbook's defaultLevel raises every member's role on it and on sp-welcome.
  for (const level of [null, 'comment', 'create'] as const) {
    it(`with col-handbook defaultLevel ${level}`, async () => {
      const b = level === null ? bench : await startBench({ collectionLevel: level });
      const base = table(b.ids, b.website);
      const problems: string[] = [];
      let seen = 0;
      try {
        for (const [name, probe] of Object.entries(PROBES)) {
          for (const who of MEMBERS) {
            b.restore();
            const get = probe.read(b.ids);
            const getOp = ALL_OPS[get.op];
            const obj = await b.send(who, getOp.method, urlOf(getOp, base[get.op]));
            if (obj.status !== 200) continue;
            const permissions = obj.json.permissions as Record<string, boolean>;
            for (const [flag, target] of Object.entries(probe.allows)) {
              const t = target(b.ids);
              const op = ALL_OPS[t.op];
              const row = { ...base[t.op], ...t.row };
              b.restore();
              const r: Reply = await b.send(who, op.method, urlOf(op, row), row.body);
              seen++;
              const can = r.status >= 200 && r.status < 300;
              if (permissions[flag] !== can) {
                problems.push(`${who} on the ${name}: permissions.${flag} is ${permissions[flag]} but ${t.op} answered ${r.status} ${r.text.slice(0, 160)}`);
              }
            }
          }
        }
      } finally {
        if (b !== bench) await b.close();
      }
      probed += seen;
      expect(seen).toBeGreaterThan(100);
      expect(problems).toEqual([]);
    });
  }
});

/**
 * One request per operation of the contract against the fixture of `fixture.ts`, with who may send
 * it (the roles: read views, comment comments, edit edits, create creates, admin administers; see
 * `table` below): the access table sends each by every caller, the conformance test
 * checks each answer against the official document.
 */
import { families } from '../../src/contract/index.js';
import type { AnyOp, Role } from '../../src/contract/op.js';
import { ORG, OTHER_ORG, pathOf, SPEC_TEXT, TEAM, type FixtureIds } from './fixture.js';

export const ALL_OPS: Record<string, AnyOp> = Object.assign({}, ...Object.values(families));

/** Who may do it. */
export type Rule =
  /** Any authenticated user, member or not (their own user, their organizations). */
  | { anyone: true }
  /** Any member of the organization, guests included. */
  | { member: true }
  /**
   * Members whose role reaches `min`. `guest` / `below`: the status for a guest / a lower role when not 403.
   * `outsider`: what a non-member gets when not 404 (a delete of the object answers as for a missing one).
   */
  | { min: Role; guest?: 404; below?: 404; outsider?: 204 }
  /** The author of the comment or reply (u-comment, who holds the comment role), or an admin. */
  | { authorOrAdmin: true };

export interface Row {
  rule: Rule;
  params?: Record<string, string | number>;
  query?: Record<string, string>;
  body?: unknown;
}

export const read: Rule = { min: 'read' };
const comment: Rule = { min: 'comment' };
const edit: Rule = { min: 'edit' };
const create: Rule = { min: 'create' };
const admin: Rule = { min: 'admin' };
export const member: Rule = { member: true };
/** A site's published profile and public lists: a guest is a visitor, and a visitor sees only a published site (this one is not). */
const readOrVisitor: Rule = { min: 'read', guest: 404 };

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', properties: {}, additionalProperties: false } },
};

/** Who may: read views; comment comments; edit edits content and change requests; create creates spaces, collections and sites; admin deletes, moves, transfers, manages members, SAML, OpenAPI and sites. */
export function table(f: FixtureIds, website: string): Record<string, Row> {
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
  const inDocumentForm = { format: 'document' };

  const comments = (suffix: string, thread: Record<string, string>, c: string, r: string): Record<string, Row> => ({
    // Read in document form: the fixture's comments hold every kind of node (fixture.ts KINDS_MARKDOWN).
    [`listComments${suffix}`]: { rule: read, params: thread, query: inDocumentForm },
    [`postComment${suffix}`]: { rule: comment, params: thread, body: text },
    [`getComment${suffix}`]: { rule: read, params: { ...thread, commentId: c }, query: inDocumentForm },
    [`updateComment${suffix}`]: { rule: comment, params: { ...thread, commentId: c }, body: { resolved: true } },
    [`deleteComment${suffix}`]: { rule: { authorOrAdmin: true }, params: { ...thread, commentId: c } },
    [`listCommentReplies${suffix}`]: { rule: read, params: { ...thread, commentId: c }, query: inDocumentForm },
    [`postCommentReply${suffix}`]: { rule: comment, params: { ...thread, commentId: c }, body: text },
    [`getCommentReply${suffix}`]: { rule: read, params: { ...thread, commentId: c, commentReplyId: r }, query: inDocumentForm },
    [`updateCommentReply${suffix}`]: { rule: comment, params: { ...thread, commentId: c, commentReplyId: r }, body: { addedReactions: ['🎉'] } },
    [`deleteCommentReply${suffix}`]: { rule: { authorOrAdmin: true }, params: { ...thread, commentId: c, commentReplyId: r } },
    [`listCommenters${suffix}`]: { rule: read, params: thread },
  });

  return {
    // orgs
    getAuthenticatedUser: { rule: { anyone: true } },
    listOrganizations: { rule: { anyone: true } },
    getOrganization: { rule: member, params: org },
    updateOrganization: {
      rule: admin,
      params: org,
      body: { title: 'Renamed', mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] } },
    },
    // A guest's organization says listTeams: false.
    listTeams: { rule: read, params: org },

    // collections
    listCollections: { rule: member, params: org },
    createCollection: { rule: create, params: org, body: { title: 'New' } },
    getCollection: { rule: read, params: col },
    updateCollection: { rule: admin, params: col, body: { title: 'Renamed' } },
    // To a non-member the collection does not exist: deleting it answers 204, as for a missing one (and deletes nothing).
    deleteCollection: { rule: { min: 'admin', outsider: 204 }, params: loose },
    listCollectionSpaces: { rule: read, params: col },
    moveCollection: { rule: admin, params: loose, body: { parent: f.collection } },
    transferCollection: { rule: admin, params: loose, body: { organization: OTHER_ORG } },

    // spaces
    createSpace: { rule: create, params: org, body: { title: 'New space' } },
    listSpaces: { rule: member, params: org },
    getSpace: { rule: read, params: sp },
    updateSpace: { rule: edit, params: sp, body: { title: 'Renamed' } },
    deleteSpace: { rule: { min: 'admin', outsider: 204 }, params: sp },
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

    // permission grants (the fixture's: u-read and the team on the root space, the loose collection; u-read on the site)
    ...grants('Space', 'To', { spaceId: f.rootSpace }, { spaceId: f.space }),
    ...grants('Collection', 'To', { collectionId: f.looseCollection }, col),
    ...grants('Site', 'To', site, site),
  };
}

/**
 * The rows of the eight grant operations of spaces, collections or sites: `target` holds the fixture's
 * grants; `bare` is where the team has none (its removal answers 204, as for a grant that is not there).
 */
function grants(name: string, to: string, target: Record<string, string>, bare: Record<string, string>): Record<string, Row> {
  return {
    [`invite${to}${name}`]: { rule: admin, params: target, body: { role: 'comment', users: ['u-comment'], teams: [TEAM] } },
    [`listUserPermissionsIn${name}`]: { rule: read, params: target },
    [`updateUserPermissionIn${name}`]: { rule: admin, params: { ...target, userId: 'u-read' }, body: { role: 'comment' } },
    // u-comment holds no grant there: 204.
    [`removeUserFrom${name}`]: { rule: admin, params: { ...target, userId: 'u-comment' } },
    [`listTeamPermissionsIn${name}`]: { rule: read, params: target },
    [`updateTeamPermissionIn${name}`]: { rule: admin, params: { ...target, teamId: TEAM }, body: { role: 'edit' } },
    [`removeTeamFrom${name}`]: { rule: admin, params: { ...bare, teamId: TEAM } },
    [`listPermissionsAggregateIn${name}`]: { rule: read, params: target },
  };
}

/** The URL of a row's request, below the host. */
export function urlOf(op: AnyOp, row: Row): string {
  const query = row.query ? `?${new URLSearchParams(row.query)}` : '';
  return pathOf(op, row.params ?? {}) + query;
}

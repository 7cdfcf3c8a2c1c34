/**
 * Who may do what. A user's role on a piece of content (permissions/model.ts: their organization
 * role, the default levels of the content and its containers, and the grants to them and their
 * teams) gives the `permissions` booleans, and every operation checks the same booleans, so what an
 * object says and what the server allows agree.
 */
import type { AnyOp, Role } from '../contract/op.js';
import { forbidden, notFound, type HttpError } from './errors.js';
import { atLeast, roleOnCollection, roleOnSite, roleOnSpace } from './permissions/model.js';
import type { SiteRec } from './sites/state.js';
import type { CollectionRec, OrgRec, SpaceRec, Store, UserRec } from './store.js';

export { atLeast, maxRole } from './permissions/model.js';

/** The request's caller, as handlers see it. */
export interface Caller {
  user: UserRec;
}

/**
 * The organization, if the caller is a member of it. A non-member gets 404, not 403, so ids of
 * other organizations do not leak: `no organization <id>`, or `missing` when the organization was
 * found through one of its objects (`no space <id>`: the object, as if it did not exist).
 */
export function orgFor(store: Store, caller: Caller, orgId: string, missing = `no organization ${orgId}`): { org: OrgRec; role: Role | null } {
  const org = store.data.orgs.get(orgId);
  const member = org && store.member(orgId, caller.user.id);
  if (!org || !member || member.disabled) throw notFound(missing);
  return { org, role: member.role };
}

/**
 * What the first parameter of a path names (`/orgs/{organizationId}…`, `/spaces/{spaceId}…`,
 * `/collections/{collectionId}…`) and the organization holding it, if it exists.
 */
const SCOPES: Record<string, { what: string; orgOf: (store: Store, id: string) => string | undefined }> = {
  organizationId: { what: 'organization', orgOf: (store, id) => (store.data.orgs.has(id) ? id : undefined) },
  spaceId: { what: 'space', orgOf: (store, id) => store.data.spaces.get(id)?.org },
  collectionId: { what: 'collection', orgOf: (store, id) => store.data.collections.get(id)?.org },
};

type PathParams = Record<string, string | undefined>;

/** Whether a request's caller may be told anything about the organization its path is in. */
export interface Gate {
  /** The caller is an enabled member of the organization holding the path's object (which exists). */
  admits(store: Store, caller: Caller, params: PathParams): boolean;
  /**
   * What the operation answers when that object does not exist, and so what a non-member is told:
   * 404 `no <what> <id>`, naming only the id sent; null (204, no content) for a delete of the
   * object itself, as for any missing target (the official document: "did not exist").
   */
  absent(params: PathParams): HttpError | null;
}

/**
 * The check that runs before anything else of an operation under an organization, a space or a
 * collection, before its other ids are looked up and its query and body read: to a caller who is
 * not an enabled member of the organization holding the path's object, that object does not exist,
 * whatever they sent; so an outsider learns nothing of another organization's ids (docs/security.md,
 * Organizations stay apart). None for paths without an object (`/user`, `/orgs`) and for the
 * operations open to visitors (`visitors` in the contract), whose handlers show a non-member only
 * what is published or shared and answer what a missing object answers otherwise.
 */
export function gateOf(op: AnyOp): Gate | undefined {
  const first = /^\/[^{]*\{(\w+)\}/.exec(op.path)?.[1];
  if (first === undefined || op.visitors) return undefined;
  const scope = SCOPES[first];
  if (!scope) throw new Error(`${op.id}: no organization is known for {${first}}: add it to SCOPES in access.ts`);
  const deletesIt = op.method === 'DELETE' && op.status === 204 && op.path.endsWith(`{${first}}`);
  return {
    admits(store, caller, params) {
      const org = scope.orgOf(store, params[first] ?? '');
      const member = org === undefined ? undefined : store.member(org, caller.user.id);
      return member !== undefined && !member.disabled;
    },
    absent: (params) => (deletesIt ? null : notFound(`no ${scope.what} ${params[first] ?? ''}`)),
  };
}

/** Require an organization role; 403 names the role needed. */
export function requireRole(role: Role | null, min: Role, what: string): void {
  if (!atLeast(role, min)) {
    throw forbidden(`${what} needs the ${min} role or above; you have ${role ?? 'guest access'}`);
  }
}

/** A user's effective role on a collection (null: none). */
export function collectionRole(store: Store, userId: string, collection: CollectionRec): Role | null {
  return roleOnCollection(store, userId, collection);
}

/** A user's effective role on a space (null: none). */
export function spaceRole(store: Store, userId: string, space: SpaceRec): Role | null {
  return roleOnSpace(store, userId, space);
}

/** A user's effective role on a site (null: none; what a visitor sees is the sites family's). */
export function siteRole(store: Store, userId: string, site: SiteRec): Role | null {
  return roleOnSite(store, userId, site);
}

export function orgPermissions(role: Role | null) {
  const admin = atLeast(role, 'admin');
  return {
    view: true,
    admin,
    ownTeam: admin,
    createContent: atLeast(role, 'create'),
    createOpenAPISpec: admin,
    ingestConversations: admin,
    viewBilling: admin,
    listMembers: role !== null,
    listTeams: role !== null,
    listIntegrations: role !== null,
    listInstallations: admin,
    installIntegration: admin,
  };
}

export function collectionPermissions(role: Role | null) {
  return {
    view: atLeast(role, 'read'),
    admin: atLeast(role, 'admin'),
    viewInviteLinks: atLeast(role, 'admin'),
    create: atLeast(role, 'create'),
  };
}

export function spacePermissions(role: Role | null, space: Pick<SpaceRec, 'editMode'>) {
  const editable = space.editMode !== 'locked';
  return {
    view: atLeast(role, 'read'),
    access: atLeast(role, 'read'),
    admin: atLeast(role, 'admin'),
    viewInviteLinks: atLeast(role, 'admin'),
    edit: editable && atLeast(role, 'edit'),
    triggerGitSync: editable && atLeast(role, 'edit'),
    comment: atLeast(role, 'comment'),
    merge: atLeast(role, 'review'),
    review: atLeast(role, 'review'),
    installIntegration: atLeast(role, 'admin'),
  };
}

/**
 * Reading the organization as the service has it, for export and plan: the lists of each kind
 * (pages of 1000), then each site's structure and adaptive schema, with bounded concurrency. Only
 * the kinds asked for are read (a plan reads what its file declares, and what those refer to).
 */
import type { Api, CallInput } from '../client/api.js';
import { ops as collectionOps } from '../contract/collections.js';
import { ops as memberOps } from '../contract/members.js';
import type { AnyOp, OpItem, OpResult } from '../contract/op.js';
import { ops as openapiOps } from '../contract/openapi.js';
import { ops as orgOps } from '../contract/orgs.js';
import { ops as teamOps } from '../contract/teams.js';
import { ops as samlOps } from '../contract/saml.js';
import { ops as siteOps, type AdaptiveJsonSchema, type SiteSection, type SiteSectionGroup, type SiteSpace } from '../contract/sites.js';
import { ApiError } from '../client/errors.js';
import { RETENTION_DAYS, ops as spaceOps, type ListedSpace, type Space } from '../contract/spaces.js';
import type { LDeletedSpace, LGroup, Live, LNode, LSection, LSite, LSiteSpace, LSpace, LStructure, ReadKind } from './model.js';
import { readAccess, readSettings, readTeamMembers } from './access.js';
import type { Pool } from './pool.js';
import type { Kind } from './schema.js';

/** Calls through the pool (bounded, counted), and lists read whole. */
export class Reader {
  constructor(
    readonly api: Api,
    readonly pool: Pool,
  ) {}

  call<O extends AnyOp>(op: O, input: CallInput<O> = {}): Promise<OpResult<O>> {
    return this.pool.run(() => this.api.call(op, input));
  }

  /**
   * Every item of a list, in pages of 1000: the client's Paginator (and its checks of each page),
   * each page fetched in a slot of the pool.
   */
  async all<O extends AnyOp>(op: O, input: CallInput<O> = {}): Promise<OpItem<O>[]> {
    const paginator = this.api.paginate(op, input);
    const pages = paginator.pages()[Symbol.asyncIterator]();
    const out: OpItem<O>[] = [];
    for (;;) {
      const next = await this.pool.run(() => pages.next());
      if (next.done) return out;
      out.push(...next.value);
      // The last page said so: no slot (and no request) for asking again.
      if (paginator.nextCursor === undefined) return out;
    }
  }
}

export type { ReadKind };

/**
 * What reading needs for each kind a file declares: the kinds its references reach too. `access`:
 * some item has `access:` (the grants are read, with the members and teams they name);
 * `organization`: the file manages the organization's settings.
 */
export function kindsToRead(declared: Iterable<Kind>, opts: { teams?: boolean; access?: boolean; organization?: boolean } = {}): Set<ReadKind> {
  const out = new Set<ReadKind>();
  for (const k of declared) {
    out.add(k);
    if (k === 'spaces') out.add('collections').add('members');
    if (k === 'collections') out.add('spaces');
    if (k === 'sites') out.add('spaces');
    if (k === 'saml' && opts.teams) out.add('teams');
    if (k === 'teams') out.add('team-members').add('members');
  }
  if (opts.access) out.add('access').add('members').add('teams');
  if (opts.organization) out.add('organization').add('members').add('sites');
  return out;
}

export type ReadProgress = (what: string) => void;

/** Read the organization's kinds `kinds` (default: all). */
export async function readLive(reader: Reader, organizationId: string, kinds: Set<ReadKind>, progress?: ReadProgress): Promise<Live> {
  const params = { organizationId };
  const live: Live = {
    organization: organizationId,
    kinds: new Set(kinds),
    collections: [],
    spaces: [],
    sites: [],
    members: [],
    saml: [],
    openapi: [],
    teams: [],
  };
  const tasks: Promise<void>[] = [];
  const task = (what: string, work: () => Promise<void>) => tasks.push(work().then(() => progress?.(what), forbiddenNamed(what)));

  if (kinds.has('collections')) {
    task('collections', async () => {
      live.collections = (await reader.all(collectionOps.listCollections, { params })).map((c) => ({
        id: c.id,
        title: c.title,
        ...(c.description !== undefined ? { description: c.description } : {}),
        defaultLevel: c.defaultLevel ?? null,
        ...(c.parent ? { parent: c.parent } : {}),
      }));
    });
  }
  if (kinds.has('spaces')) {
    task('spaces', async () => {
      live.spaces = (await reader.all(spaceOps.listSpaces, { params })).filter((s) => !s.deletedAt).map(liveSpace);
    });
  }
  if (kinds.has('members')) {
    task('members', async () => {
      const [members, me] = await Promise.all([reader.all(memberOps.listMembers, { params }), reader.call(orgOps.getAuthenticatedUser).catch(() => undefined)]);
      live.members = members.map((m) => ({
        id: m.user.id,
        name: m.user.displayName,
        ...(m.user.email ? { email: m.user.email } : {}),
        role: m.role ?? null,
      }));
      if (me) live.me = me.id;
    });
  }
  if (kinds.has('saml')) {
    task('SAML providers', async () => {
      live.saml = (await reader.all(samlOps.listSamlProviders, { params })).map((p) => ({
        id: p.id,
        label: p.label,
        entityID: p.entityID ?? '',
        ssoURL: p.ssoURL ?? '',
        certificate: p.certificate ?? '',
        defaultRole: p.defaultRole ?? null,
        ...(p.defaultTeam ? { defaultTeam: { id: p.defaultTeam.id, title: p.defaultTeam.title } } : {}),
      }));
    });
  }
  if (kinds.has('teams') || kinds.has('team-members')) {
    task('teams', async () => {
      live.teams = (await reader.all(teamOps.listTeams, { params })).map((t) => ({ id: t.id, title: t.title }));
      if (kinds.has('team-members')) await readTeamMembers(reader, organizationId, live.teams);
    });
  }
  if (kinds.has('organization')) {
    task('organization', async () => {
      live.settings = await readSettings(reader, organizationId);
    });
  }
  if (kinds.has('openapi')) {
    task('OpenAPI specifications', async () => {
      live.openapi = (await reader.all(openapiOps.listOpenAPISpecs, { params })).map((s) => ({
        slug: s.slug,
        ...(s.sourceURL ? { url: s.sourceURL } : {}),
        visibility: s.visibility,
      }));
    });
  }
  if (kinds.has('sites')) {
    task('sites', async () => {
      const sites = await reader.all(siteOps.listSites, { params });
      live.sites = await Promise.all(
        sites.map(async (s): Promise<LSite> => {
          const [structure, schema] = await Promise.all([
            readStructure(reader, organizationId, s.id),
            reader.call(siteOps.getAdaptiveSchema, { params: { organizationId, siteId: s.id } }),
          ]);
          const jsonSchema = schema.jsonSchema as AdaptiveJsonSchema;
          return {
            id: s.id,
            title: s.title,
            type: s.type,
            visibility: s.visibility,
            published: s.published,
            ...(s.basename ? { basename: s.basename } : {}),
            defaultLevel: s.defaultLevel ?? null,
            adaptiveContent: s.adaptiveContent?.enabled ?? false,
            agentsContext: s.agentsContext,
            ...(isEmptySchema(jsonSchema) ? {} : { adaptiveSchema: jsonSchema }),
            structure,
          };
        }),
      );
    });
  }
  await settleAll(tasks);
  // The grants on what was read (each collection, space and site: its users' and teams').
  if (kinds.has('access')) await readAccess(reader, organizationId, live, progress);
  return live;
}

function liveSpace(s: Space): LSpace {
  return {
    id: s.id,
    title: s.title,
    emoji: s.emoji ?? '',
    visibility: s.visibility,
    ...(s.parent ? { parent: s.parent } : {}),
    ...(s.editMode ? { editMode: s.editMode } : {}),
    defaultLevel: s.defaultLevel ?? null,
    ...(s.language ? { language: s.language } : {}),
    mergeRules: s.mergeRules ?? { type: 'inherit' },
  };
}

const DAY_MS = 86_400_000;

/**
 * The spaces of these ids (the file's, which the live spaces lack) as the trash has them: restorable
 * (within RETENTION_DAYS of their deletion), or why not. The trash's list (`deleted=true`, a sandbox
 * extension) when the service has it; else each space by its id (a deleted one answers its
 * `deletedAt`). Nothing is read when there is no such id.
 */
export async function readDeletedSpaces(reader: Reader, organizationId: string, ids: string[], now = Date.now()): Promise<Map<string, LDeletedSpace | string>> {
  const out = new Map<string, LDeletedSpace | string>();
  if (ids.length === 0) return out;
  const gone = (id: string) =>
    `${id} is neither a space of the organization nor a deleted one it can still restore (a deleted space is restorable for ${RETENTION_DAYS} days): created anew`;
  const trash = await reader.all(spaceOps.listSpaces, { params: { organizationId }, query: { deleted: true } }).catch((e: unknown) => {
    if (e instanceof ApiError && e.status >= 400 && e.status < 500 && e.status !== 401 && e.status !== 403) return undefined;
    throw e;
  });
  const listed = trash?.every((s) => s.deletedAt && s.trash) ? new Map(trash.map((s) => [s.id, s])) : undefined;
  await Promise.all(
    ids.map(async (id) => {
      let s: ListedSpace | undefined = listed?.get(id);
      if (!listed) {
        s = await reader.call(spaceOps.getSpace, { params: { spaceId: id } }).catch((e: unknown) => {
          if (e instanceof ApiError && e.status === 404) return undefined;
          throw e;
        });
        if (s && s.organization !== organizationId) s = undefined;
      }
      if (!s?.deletedAt) {
        out.set(id, gone(id));
        return;
      }
      const until = s.trash?.restorableUntil ?? new Date(Date.parse(s.deletedAt) + RETENTION_DAYS * DAY_MS).toISOString();
      if (!s.trash && Date.parse(until) <= now) {
        out.set(id, `${id} was deleted on ${s.deletedAt.slice(0, 10)}, more than ${RETENTION_DAYS} days ago: it can no longer be restored, created anew`);
        return;
      }
      out.set(id, { space: liveSpace(s), deletedAt: s.deletedAt, restorableUntil: until });
    }),
  );
  return out;
}

/** The latest document of each of these specifications (by slug, lower case); one without a version yet is left out. */
export async function readSpecDocuments(reader: Reader, organizationId: string, slugs: string[]): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  await Promise.all(
    slugs.map(async (specSlug) => {
      const content = await reader.call(openapiOps.getLatestOpenAPISpecVersionContent, { params: { organizationId, specSlug } }).catch((e: unknown) => {
        if (e instanceof ApiError && e.status === 404) return undefined;
        throw e;
      });
      const documents = Object.values(content?.filesystem ?? {});
      if (documents.length === 1) out.set(specSlug.toLowerCase(), documents[0]);
    }),
  );
  return out;
}

/** The role listing a kind needs, where it is more than a member's (a 403 names it). */
const READ_ROLE: Record<string, string> = { 'SAML providers': 'admin' };
/** The file's key of a kind read (for the hint). */
const FILE_KEY: Record<string, string> = { 'SAML providers': 'saml:', 'OpenAPI specifications': 'openapi:' };

/**
 * A 403 while reading a kind, as a message that names what was read and the role it needs (not a
 * bare 403): `reading the organization's SAML providers needs the admin role`.
 */
function forbiddenNamed(what: string): (e: unknown) => never {
  return (e) => {
    if (!(e instanceof ApiError) || e.status !== 403) throw e;
    const role = READ_ROLE[what];
    const needs = role ? `the ${role} role` : 'a role that may read them';
    throw new ApiError(
      403,
      `reading the organization's ${what} needs ${needs}, which this token's user does not have (the service: ${e.message})`,
      e.method,
      e.path,
      e.body,
      e.headers,
      `plan${role ? ` with a token of an ${role}` : ' with a token that may read them'} (the plan reads every kind the files declare), or leave ${FILE_KEY[what] ?? `${what}:`} out of the files this token plans`,
    );
  };
}

/** Wait for every task; the first failure is thrown once all have settled (no request left running). */
async function settleAll(tasks: Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(tasks);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** A schema with no claim at all (what a site whose schema was never set answers). */
export function isEmptySchema(schema: AdaptiveJsonSchema | Record<string, unknown> | undefined): boolean {
  if (!schema) return true;
  const props = (schema as { properties?: Record<string, unknown> }).properties ?? {};
  const unsigned = props.unsigned as { properties?: Record<string, unknown> } | undefined;
  return Object.keys(props).every((k) => k === 'unsigned') && Object.keys(unsigned?.properties ?? {}).length === 0;
}

/**
 * A site's structure: its sections (in structure order, each with its site spaces) and groups
 * (each with its children in order), or its site spaces when it has no sections. The top level's
 * order of sections and groups follows from both lists; only a group with no section anywhere
 * inside leaves it open, and then the published profile (the tree itself) is read.
 */
async function readStructure(reader: Reader, organizationId: string, siteId: string): Promise<LStructure> {
  const params = { organizationId, siteId };
  const [sections, groups] = await Promise.all([reader.all(siteOps.listSiteSections, { params }), reader.all(siteOps.listSiteSectionGroups, { params })]);
  if (sections.length === 0) {
    const siteSpaces = groups.length ? [] : await reader.all(siteOps.listSiteSpaces, { params });
    if (groups.length === 0) return { mode: 'siteSpaces', siteSpaces: siteSpaces.map(liveSiteSpace) };
  }
  const byId = new Map<string, SiteSection | SiteSectionGroup>();
  for (const s of sections) byId.set(s.id, s);
  for (const g of groups) byId.set(g.id, g);
  // Each item once: an answer where a group holds itself (or an item sits in two places) is read
  // as a tree, its first place kept, rather than followed for ever.
  const placed = new Set<string>();
  const toNode = (id: string): LNode | undefined => {
    const item = byId.get(id);
    if (!item || placed.has(id)) return undefined;
    placed.add(id);
    if (item.object === 'site-section') return liveSection(item);
    return liveGroup(item, toNode);
  };
  let rootIds = topLevelOrder(sections, groups);
  if (rootIds === undefined) {
    const profile = await reader.call(siteOps.getPublishedSite, { params });
    rootIds = profile.structure.type === 'sections' ? profile.structure.structure.map((n) => n.id) : [];
    // Items the profile leaves out (it should not, for an admin) go at the end.
    for (const id of [...sections.filter((s) => !s.sectionGroup).map((s) => s.id), ...groups.filter((g) => !g.sectionGroup).map((g) => g.id)]) {
      if (!rootIds.includes(id)) rootIds.push(id);
    }
  }
  return { mode: 'sections', items: rootIds.map(toNode).filter((n): n is LNode => n !== undefined) };
}

/**
 * The top level's ids in order, from the sections (depth first) and the groups (depth first):
 * a top-level group comes before the first section inside it. Undefined when a top-level group has
 * no section inside and there are top-level sections (its place among them is not known).
 */
export function topLevelOrder(sections: { id: string; sectionGroup?: string }[], groups: { id: string; sectionGroup?: string }[]): string[] | undefined {
  const parentOf = new Map<string, string | undefined>();
  for (const g of groups) parentOf.set(g.id, g.sectionGroup);
  const rootOf = (groupId: string): string => {
    let id = groupId;
    for (let depth = 0; parentOf.get(id) !== undefined && depth < 256; depth++) id = parentOf.get(id)!;
    return id;
  };
  const order: string[] = [];
  for (const s of sections) {
    const top = s.sectionGroup ? rootOf(s.sectionGroup) : s.id;
    if (!order.includes(top)) order.push(top);
  }
  const rootGroups = groups.filter((g) => !g.sectionGroup).map((g) => g.id);
  const empty = rootGroups.filter((id) => !order.includes(id));
  if (empty.length === 0) return order;
  const rootSections = sections.some((s) => !s.sectionGroup);
  if (rootSections) return undefined;
  // Only groups at the top: their own order (depth first) is the order.
  return rootGroups;
}

function liveSiteSpace(ss: SiteSpace): LSiteSpace {
  return {
    id: ss.id,
    space: ss.space.id,
    path: ss.path,
    ...(ss.condition !== undefined ? { condition: ss.condition } : {}),
    hidden: ss.hidden,
    default: ss.default,
  };
}

function liveSection(s: SiteSection): LSection {
  return {
    type: 'section',
    id: s.id,
    title: s.title,
    path: s.path,
    ...(s.icon !== undefined ? { icon: s.icon } : {}),
    ...(s.description !== undefined ? { description: s.description } : {}),
    ...(s.condition !== undefined ? { condition: s.condition } : {}),
    default: s.default,
    siteSpaces: s.siteSpaces.map(liveSiteSpace),
  };
}

function liveGroup(g: SiteSectionGroup, toNode: (id: string) => LNode | undefined): LGroup {
  return {
    type: 'group',
    id: g.id,
    title: g.title,
    ...(g.icon !== undefined ? { icon: g.icon } : {}),
    children: g.children.map((c) => toNode(c.id)).filter((n): n is LNode => n !== undefined),
  };
}

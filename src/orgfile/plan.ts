/**
 * The plan: what apply would change to make the organization the file's, as steps in dependency
 * order. Collections before spaces before sites (a site shows spaces), members, SAML providers and
 * OpenAPI specifications next, deletions (only with --prune, only of the kinds the file declares)
 * last; creations before moves. Items are matched by id, then key, then title (see match).
 */
import { CheckoutNeededError } from '../client/errors.js';
import { ops as collectionOps } from '../contract/collections.js';
import { ops as memberOps } from '../contract/members.js';
import { ops as openapiOps } from '../contract/openapi.js';
import { UNSET_SSO_URL, ops as samlOps } from '../contract/saml.js';
import { isCheckout, ops as siteOps } from '../contract/sites.js';
import { RETENTION_DAYS, ops as spaceOps, type MergeRules } from '../contract/spaces.js';
import { KeyAllocator, slug } from './keys.js';
import { isEmptySchema } from './live.js';
import type { DCollection, Desired, DSaml, DSite, DSpace, LCollection, Live, LSaml, LSite, LSpace, LStructure, Path } from './model.js';
import { walkDesired, walkLive } from './model.js';
import { describeLiveCertificate } from './certificate.js';
import { diffFields, match, same, siteSteps, STAGE, type SiteStep } from './sites.js';
import { nearby, OrgFileError, pathText, type Problem } from './source.js';
import { ownership } from './owns.js';
import { bodyOf, type Change, type Drift, type Exec, type FieldChange, type Kept } from './steps.js';
import { plural } from '../cli/text.js';

export interface PlanOptions {
  /** Delete what the file does not have, of the kinds it declares. */
  prune?: boolean;
}

/** Steps run phase by phase; lanes of a phase side by side, the steps of a lane in order. */
const PHASE = {
  COLLECTIONS: 1,
  COLLECTION_MOVES: 2,
  SPACES: 3,
  SPACE_MOVES: 4,
  SITES: 5,
  ORGANIZATION: 6,
  DELETE_SITES: 7,
  DELETE_SPACES: 8,
  DELETE_COLLECTIONS: 9,
} as const;

export interface PlanStep {
  /** What it changes (a site's step changes the site and its structure). */
  changes: Change[];
  phase: number;
  lane?: string;
  run(x: ApplyExec, done: (change: Change) => void): Promise<void>;
}

/** What steps run with at apply time. */
export interface ApplyExec extends Exec {
  /** Read a site's structure again. */
  readStructure(siteId: string): Promise<LStructure>;
}

export interface Summary {
  create: number;
  update: number;
  move: number;
  delete: number;
}

export interface Plan {
  organization: string;
  source: string;
  prune: boolean;
  steps: PlanStep[];
  /** Every change, in the order apply makes them. */
  changes: Change[];
  drift: Drift[];
  kept: Kept[];
  summary: Summary;
  /** Ids known before apply starts (`kind:key` → id). */
  ids: Map<string, string>;
}

/** Keys of the service's items, as export writes them (unique within their kind, in list order). */
export function liveKeys(live: Live) {
  const keyed = <T extends { id: string }>(items: T[], base: (t: T) => string) => {
    const alloc = new KeyAllocator();
    return new Map(items.map((t) => [t.id, alloc.take(base(t))]));
  };
  return {
    collection: keyed(live.collections, (c) => slug(c.title, 'collection')),
    space: keyed(live.spaces, (s) => slug(s.title, 'space')),
    site: keyed(live.sites, (s) => slug(s.title, 'site')),
    member: keyed(live.members, (m) => slug(m.name || m.id, 'member')),
    saml: keyed(live.saml, (p) => slug(p.label, 'provider')),
    team: keyed(live.teams, (t) => slug(t.title, 'team')),
  };
}

export function buildPlan(desired: Desired, live: Live, opts: PlanOptions = {}): Plan {
  const prune = Boolean(opts.prune);
  const steps: PlanStep[] = [];
  const drift: Drift[] = [];
  const kept: Kept[] = [];
  const problems: Problem[] = [];
  const ids = new Map<string, string>();
  const keys = liveKeys(live);
  const declared = desired.kinds;
  const problem = (path: Path, message: string) => problems.push({ where: desired.where(path), path: desired.pathIn?.(path) ?? pathText(path), message });

  // --- Matching, kind by kind -------------------------------------------------------------------
  const collectionOf = match(desired.collections, live.collections, (d) => d.id, keys.collection, [(d, l) => d.title === l.title]);
  const spaceOf = match(desired.spaces, live.spaces, (d) => d.id, keys.space, [(d, l) => d.title === l.title]);
  const siteOf = match(desired.sites, live.sites, (d) => d.id, keys.site, [(d, l) => d.title === l.title]);
  const samlOf = match(desired.saml, live.saml, (d) => d.id, keys.saml, [(d, l) => d.label === l.label]);

  /** `kind:key` → id, for everything the file may refer to; and id → key, for showing the service's values. */
  const keyOfId = {
    collection: new Map<string, string>(),
    space: new Map<string, string>(),
    member: new Map<string, string>(),
    team: new Map<string, string>(),
  };
  const register = <D extends { key: string }, L extends { id: string }>(
    kind: 'collection' | 'space' | 'site' | 'saml',
    isDeclared: boolean,
    matched: Map<D, L>,
    liveItems: L[],
    liveKey: Map<string, string>,
  ) => {
    if (isDeclared) {
      for (const [d, l] of matched) ids.set(`${kind}:${d.key}`, l.id);
    } else {
      for (const l of liveItems) ids.set(`${kind}:${liveKey.get(l.id)}`, l.id);
    }
  };
  register('collection', declared.has('collections'), collectionOf, live.collections, keys.collection);
  register('space', declared.has('spaces'), spaceOf, live.spaces, keys.space);
  register('site', declared.has('sites'), siteOf, live.sites, keys.site);
  register('saml', declared.has('saml'), samlOf, live.saml, keys.saml);
  for (const l of live.collections) keyOfId.collection.set(l.id, keys.collection.get(l.id)!);
  for (const [d, l] of collectionOf) keyOfId.collection.set(l.id, d.key);
  for (const l of live.spaces) keyOfId.space.set(l.id, keys.space.get(l.id)!);
  for (const [d, l] of spaceOf) keyOfId.space.set(l.id, d.key);
  for (const t of live.teams) keyOfId.team.set(t.id, keys.team.get(t.id)!);
  // Members: the user id is the identity.
  const liveMember = new Map(live.members.map((m) => [m.id, m]));
  const memberKeyToUser = new Map<string, string>();
  if (declared.has('members')) for (const m of desired.members) memberKeyToUser.set(m.key, m.id);
  else for (const m of live.members) memberKeyToUser.set(keys.member.get(m.id)!, m.id);
  for (const m of live.members) keyOfId.member.set(m.id, keys.member.get(m.id)!);
  for (const m of desired.members) keyOfId.member.set(m.id, m.key);
  const teamKeyToId = new Map(live.teams.map((t) => [keys.team.get(t.id)!, t.id]));

  // --- References the file makes to kinds it does not declare: they must exist --------------------
  const liveRef = (kind: 'collection' | 'space', key: string, path: Path, keyList: Iterable<string>) => {
    if (!ids.has(`${kind}:${key}`))
      problem(path, `no ${kind} with key ${JSON.stringify(key)} in the file or in organization ${live.organization}${nearby(key, keyList)}`);
  };
  if (!declared.has('collections')) {
    for (const s of desired.spaces) if (s.parent !== null) liveRef('collection', s.parent, [...s.at, 'parent'], keys.collection.values());
  }
  if (!declared.has('spaces')) {
    for (const site of desired.sites) {
      for (const ss of siteSpacesOf(site)) liveRef('space', ss.space, [...ss.at, 'space'], keys.space.values());
    }
  }
  if (!declared.has('members')) {
    for (const s of desired.spaces) {
      mergeUsers(s.mergeRules).forEach(({ user, path }) => {
        if (!memberKeyToUser.has(user))
          problem(
            [...s.at, 'mergeRules', ...path],
            `no member with key ${JSON.stringify(user)} in organization ${live.organization}${nearby(user, memberKeyToUser.keys())}`,
          );
      });
    }
  }
  for (const p of desired.saml) {
    if (typeof p.defaultTeam === 'string' && !teamKeyToId.has(p.defaultTeam)) {
      problem(
        [...p.at, 'defaultTeam'],
        `no team with key ${JSON.stringify(p.defaultTeam)} in organization ${live.organization} (teams: ${[...teamKeyToId.keys()].join(', ') || 'none'})`,
      );
    }
  }
  if (problems.length) throw new OrgFileError(desired.source, problems);

  // What --prune may delete: what the files own (owns.ts).
  const owned = ownership(desired.owners, live, (kind, ref) => {
    const liveKey = kind === 'collection' ? keys.collection : keys.site;
    const items = kind === 'collection' ? live.collections : live.sites;
    return ids.get(`${kind}:${ref}`) ?? [...liveKey].find(([, k]) => k === ref)?.[0] ?? items.find((i) => i.id === ref)?.id;
  });

  /** Merge rules with member keys as the API has them (user ids). */
  const rulesToApi = (rules: MergeRules): MergeRules =>
    rules.type !== 'rules'
      ? rules
      : { type: 'rules', rules: rules.rules.map((r) => ('users' in r ? { ...r, users: r.users.map((u) => memberKeyToUser.get(u) ?? u) } : r)) };
  const rulesToFile = (rules: MergeRules): MergeRules =>
    rules.type !== 'rules'
      ? rules
      : { type: 'rules', rules: rules.rules.map((r) => ('users' in r ? { ...r, users: r.users.map((u) => keyOfId.member.get(u) ?? u) } : r)) };

  // --- Collections -------------------------------------------------------------------------------
  if (declared.has('collections')) {
    const byKey = new Map(desired.collections.map((c) => [c.key, c]));
    const depth = (c: DCollection): number => {
      let d = 0;
      for (let p = c.parent; p !== null && d < 1000; p = byKey.get(p)?.parent ?? null) d++;
      return d;
    };
    const moves: { d: DCollection; l: LCollection; depth: number }[] = [];
    for (const d of desired.collections) {
      const l = collectionOf.get(d);
      const parentId = d.parent === null ? null : ids.get(`collection:${d.parent}`);
      if (!l) {
        const later = { ...(d.description ? { description: d.description } : {}), ...(d.defaultLevel ? { defaultLevel: d.defaultLevel } : {}) };
        steps.push(
          step(
            PHASE.COLLECTIONS + depth(d) / 1000,
            {
              kind: 'collection',
              action: 'create',
              key: d.key,
              title: d.title,
              fields: [{ field: 'title', to: d.title }, ...(d.parent ? [{ field: 'parent', to: d.parent }] : []), ...fieldsOf(later)],
            },
            async (x) => {
              const made = await x.send(collectionOps.createCollection, {
                params: { organizationId: x.organizationId },
                body: { title: d.title, ...(d.parent !== null ? { parent: x.idOf(`collection:${d.parent}`) } : {}) },
              });
              x.ids.set(`collection:${d.key}`, made.id);
              if (Object.keys(later).length) await x.send(collectionOps.updateCollection, { params: { collectionId: made.id }, body: later });
            },
          ),
        );
        continue;
      }
      const fields = diffFields([
        ['title', d.title, l.title],
        ['description', d.description, l.description ?? ''],
        ['defaultLevel', d.defaultLevel, l.defaultLevel],
      ]);
      if (fields.length) {
        steps.push(
          step(PHASE.COLLECTIONS, { kind: 'collection', action: 'update', key: d.key, id: l.id, title: l.title, fields }, async (x) => {
            await x.send(collectionOps.updateCollection, { params: { collectionId: l.id }, body: bodyOf(fields) });
          }),
        );
      }
      if ((parentId ?? undefined) !== l.parent || (d.parent !== null && parentId === undefined)) moves.push({ d, l, depth: depth(d) });
    }
    // Shallowest first: a collection's new parent is in place before it moves in (no cycle on the way).
    moves.sort((a, b) => a.depth - b.depth);
    for (const { d, l } of moves) {
      steps.push(
        step(
          PHASE.COLLECTION_MOVES,
          {
            kind: 'collection',
            action: 'move',
            key: d.key,
            id: l.id,
            title: l.title,
            fields: [{ field: 'parent', from: l.parent ? (keyOfId.collection.get(l.parent) ?? l.parent) : null, to: d.parent }],
          },
          async (x) => {
            await x.send(collectionOps.moveCollection, {
              params: { collectionId: l.id },
              body: { parent: d.parent === null ? null : x.idOf(`collection:${d.parent}`) },
            });
          },
          'collection-moves',
        ),
      );
    }
    const matched = new Set([...collectionOf.values()].map((l) => l.id));
    const gone = live.collections.filter((c) => !matched.has(c.id) && owned.collection(c));
    const goneIds = new Set(gone.map((c) => c.id));
    for (const c of gone) {
      const item = { kind: 'collection' as const, key: keys.collection.get(c.id)!, id: c.id, title: c.title };
      if (!prune) {
        kept.push(item);
        continue;
      }
      // Only the top-most: a collection's deletion takes what is inside it.
      if (c.parent && goneIds.has(c.parent)) continue;
      const inside = subtree(live.collections, c.id);
      const spacesLeft = live.spaces.filter((s) => s.parent && inside.has(s.parent) && !movedOut(s));
      if (spacesLeft.length && !declared.has('spaces')) {
        drift.push({
          ...item,
          why: `it holds ${plural(spacesLeft.length, 'space')} (${spacesLeft
            .slice(0, 3)
            .map((s) => s.title)
            .join(
              ', ',
            )}${spacesLeft.length > 3 ? '…' : ''}), which would go to the trash with it, and the file does not declare spaces: declare them (where they go, or not at all to delete them), or delete the collection with docsctl collections delete`,
        });
        continue;
      }
      const nested = inside.size - 1;
      const notes = [
        nested ? `with the ${plural(nested, 'collection')} inside it` : '',
        spacesLeft.length
          ? `its ${plural(spacesLeft.length, 'space')} ${spacesLeft.length === 1 ? 'goes' : 'go'} to the trash with it (restorable for ${RETENTION_DAYS} days)`
          : '',
      ].filter(Boolean);
      steps.push(
        step(PHASE.DELETE_COLLECTIONS, { ...item, action: 'delete', ...(notes.length ? { note: notes.join('; ') } : {}) }, async (x) => {
          await x.send(collectionOps.deleteCollection, { params: { collectionId: c.id } });
        }),
      );
    }
  }

  /** Whether the plan moves a live space out of where it is (to a collection that stays, or the root). */
  function movedOut(s: LSpace): boolean {
    const d = [...spaceOf].find(([, l]) => l.id === s.id)?.[0];
    if (!d) return false;
    const to = d.parent === null ? null : (ids.get(`collection:${d.parent}`) ?? `new:${d.parent}`);
    return to !== (s.parent ?? null);
  }

  // --- Spaces ------------------------------------------------------------------------------------
  if (declared.has('spaces')) {
    for (const d of desired.spaces) {
      const l = spaceOf.get(d);
      if (!l) {
        steps.push(createSpace(d));
        continue;
      }
      const update = spaceUpdate(d, l);
      if (update) steps.push(update);
      if (d.visibility !== undefined && d.visibility !== l.visibility) {
        drift.push({
          kind: 'space',
          key: d.key,
          id: l.id,
          field: 'visibility',
          live: l.visibility,
          file: d.visibility,
          why: 'the API has no way to set a space’s visibility (change it in the app, or export again)',
        });
      }
      const parentId = d.parent === null ? null : ids.get(`collection:${d.parent}`);
      if (parentId === undefined || parentId !== (l.parent ?? null)) {
        steps.push(
          step(
            PHASE.SPACE_MOVES,
            {
              kind: 'space',
              action: 'move',
              key: d.key,
              id: l.id,
              title: l.title,
              fields: [{ field: 'parent', from: l.parent ? (keyOfId.collection.get(l.parent) ?? l.parent) : null, to: d.parent }],
            },
            async (x) => {
              await x.send(spaceOps.moveSpace, { params: { spaceId: l.id }, body: { parent: d.parent === null ? null : x.idOf(`collection:${d.parent}`) } });
            },
          ),
        );
      }
    }
    const matched = new Set([...spaceOf.values()].map((l) => l.id));
    for (const s of live.spaces) {
      if (matched.has(s.id) || !owned.space(s)) continue;
      const item = { kind: 'space' as const, key: keys.space.get(s.id)!, id: s.id, title: s.title };
      if (!prune) kept.push(item);
      else {
        steps.push(
          step(PHASE.DELETE_SPACES, { ...item, action: 'delete', note: `restorable for ${RETENTION_DAYS} days (docsctl spaces restore)` }, async (x) => {
            await x.send(spaceOps.deleteSpace, { params: { spaceId: s.id } });
          }),
        );
      }
    }
  }

  function createSpace(d: DSpace): PlanStep {
    const later = {
      ...(d.defaultLevel ? { defaultLevel: d.defaultLevel } : {}),
      ...(d.mergeRules && d.mergeRules.type !== 'inherit' ? { mergeRules: d.mergeRules } : {}),
    };
    const first = {
      ...(d.emoji ? { emoji: d.emoji } : {}),
      ...(d.language ? { language: d.language } : {}),
      ...(d.editMode ? { editMode: d.editMode } : {}),
    };
    return step(
      PHASE.SPACES,
      {
        kind: 'space',
        action: 'create',
        key: d.key,
        title: d.title,
        fields: [{ field: 'title', to: d.title }, ...(d.parent ? [{ field: 'parent', to: d.parent }] : []), ...fieldsOf(first), ...fieldsOf(later)],
      },
      async (x) => {
        const made = await x.send(spaceOps.createSpace, {
          params: { organizationId: x.organizationId },
          body: { title: d.title, ...first, ...(d.parent !== null ? { parent: x.idOf(`collection:${d.parent}`) } : {}) } as never,
        });
        x.ids.set(`space:${d.key}`, made.id);
        if (Object.keys(later).length) {
          await x.send(spaceOps.updateSpace, {
            params: { spaceId: made.id },
            body: { ...later, ...(later.mergeRules ? { mergeRules: rulesToApi(later.mergeRules) } : {}) },
          });
        }
      },
    );
  }

  function spaceUpdate(d: DSpace, l: LSpace): PlanStep | undefined {
    const fields = diffFields([
      ['title', d.title, l.title],
      ['emoji', d.emoji, l.emoji],
      ['editMode', d.editMode, l.editMode ?? 'live'],
      ['defaultLevel', d.defaultLevel, l.defaultLevel],
      ['language', d.language, l.language],
      ['mergeRules', d.mergeRules, rulesToFile(l.mergeRules)],
    ]);
    if (!fields.length) return undefined;
    return step(PHASE.SPACES, { kind: 'space', action: 'update', key: d.key, id: l.id, title: l.title, fields }, async (x) => {
      const body = bodyOf(fields) as Record<string, unknown>;
      if (body.emoji === '') body.emoji = null;
      if (body.mergeRules) body.mergeRules = rulesToApi(body.mergeRules as MergeRules);
      // A locked space takes no edit of its title, emoji or language unless the same request unlocks it.
      const edits = ['title', 'emoji', 'language'].some((f) => f in body);
      const lockedAfter = (d.editMode ?? l.editMode) === 'locked';
      if (edits && lockedAfter && l.editMode === 'locked') {
        await x.send(spaceOps.updateSpace, { params: { spaceId: l.id }, body: { ...body, editMode: 'live' } });
        await x.send(spaceOps.updateSpace, { params: { spaceId: l.id }, body: { editMode: 'locked' } });
      } else {
        await x.send(spaceOps.updateSpace, { params: { spaceId: l.id }, body });
      }
    });
  }

  // --- Sites -------------------------------------------------------------------------------------
  if (declared.has('sites')) {
    const spaceKeyOf = (spaceId: string) => keyOfId.space.get(spaceId) ?? spaceId;
    const spaceIdOf = (key: string) => ids.get(`space:${key}`);
    for (const d of desired.sites) steps.push(siteStep(d, siteOf.get(d), spaceKeyOf, spaceIdOf));
    const matched = new Set([...siteOf.values()].map((l) => l.id));
    for (const s of live.sites) {
      if (matched.has(s.id) || !owned.site(s)) continue;
      const item = { kind: 'site' as const, key: keys.site.get(s.id)!, id: s.id, title: s.title };
      if (!prune) kept.push(item);
      else {
        const n = walkLive(s.structure).siteSpaces.length;
        steps.push(
          step(
            PHASE.DELETE_SITES,
            { ...item, action: 'delete', note: `with its structure${n ? ` (${plural(n, 'site space')})` : ''}; its spaces stay` },
            async (x) => {
              await x.send(siteOps.deleteSite, { params: { organizationId: x.organizationId, siteId: s.id } });
            },
          ),
        );
      }
    }
  }

  function siteStep(d: DSite, l: LSite | undefined, spaceKeyOf: (id: string) => string, spaceIdOf: (key: string) => string | undefined): PlanStep {
    const changes: Change[] = [];
    const settings = {
      ...(d.basename !== undefined ? { basename: d.basename } : {}),
      ...(d.defaultLevel !== undefined ? { defaultLevel: d.defaultLevel } : {}),
      ...(d.adaptiveContent !== undefined ? { adaptiveContent: d.adaptiveContent } : {}),
      ...(d.agentsContext !== undefined ? { agentsContext: d.agentsContext } : {}),
    };
    let fields: FieldChange[] = [];
    if (!l) {
      changes.push({
        kind: 'site',
        action: 'create',
        key: d.key,
        title: d.title,
        fields: [
          { field: 'title', to: d.title },
          ...(d.type ? [{ field: 'type', to: d.type }] : []),
          ...(d.visibility ? [{ field: 'visibility', to: d.visibility }] : []),
          ...fieldsOf(settings),
          ...(d.adaptiveSchema && !isEmptySchema(d.adaptiveSchema) ? [{ field: 'adaptiveSchema', to: '(set)' }] : []),
        ],
      });
    } else {
      fields = diffFields([
        ['title', d.title, l.title],
        ['visibility', d.visibility, l.visibility],
        ['basename', d.basename, l.basename],
        ['defaultLevel', d.defaultLevel, l.defaultLevel],
        ['adaptiveContent', d.adaptiveContent, l.adaptiveContent],
        ['agentsContext', d.agentsContext, l.agentsContext],
      ]);
      const schemaChanged = d.adaptiveSchema !== undefined && !same(isEmptySchema(d.adaptiveSchema) ? undefined : d.adaptiveSchema, l.adaptiveSchema);
      const all = [...fields, ...(schemaChanged ? [{ field: 'adaptiveSchema', from: l.adaptiveSchema ? '(a schema)' : '(none)', to: '(the file’s)' }] : [])];
      if (all.length) changes.push({ kind: 'site', action: 'update', key: d.key, id: l.id, title: l.title, fields: all });
      if (d.type !== undefined && d.type !== l.type) {
        drift.push({
          kind: 'site',
          key: d.key,
          id: l.id,
          field: 'type',
          live: l.type,
          file: d.type,
          why: 'a site’s type is set when it is created: the API cannot change it',
        });
      }
    }
    const liveStructure: LStructure = l?.structure ?? { mode: 'siteSpaces', siteSpaces: [] };
    const structureInput = d.structure
      ? {
          siteKey: d.key,
          desired: d.structure,
          prune,
          spaceKeyOf,
          spaceIdOf,
          ids,
        }
      : undefined;
    const first = structureInput ? siteSteps({ ...structureInput, live: liveStructure }) : undefined;
    if (first) {
      changes.push(...first.steps.map((s) => s.change));
      drift.push(...first.drift);
      kept.push(...first.kept);
    }
    const publish = d.published !== undefined && d.published !== (l?.published ?? false);
    const publishChange: Change | undefined = publish
      ? {
          kind: 'site',
          action: 'update',
          key: d.key,
          ...(l ? { id: l.id, title: l.title } : {}),
          fields: [{ field: 'published', from: l?.published ?? false, to: d.published }],
        }
      : undefined;
    if (publishChange) changes.push(publishChange);
    return {
      changes,
      phase: PHASE.SITES,
      lane: `site:${d.key}`,
      run: async (x, done) => {
        let siteId = l?.id;
        const params = () => ({ organizationId: x.organizationId, siteId: siteId! });
        if (!siteId) {
          const made = await x.send(siteOps.createSite, {
            params: { organizationId: x.organizationId },
            body: { title: d.title, ...(d.type ? { type: d.type as never } : {}), ...(d.visibility ? { visibility: d.visibility as never } : {}) },
          });
          siteId = made.id;
          x.ids.set(`site:${d.key}`, made.id);
          if (Object.keys(settings).length) await x.send(siteOps.updateSite, { params: params(), body: apiSettings(settings) });
          if (d.adaptiveSchema && !isEmptySchema(d.adaptiveSchema))
            await x.send(siteOps.putAdaptiveSchema, { params: params(), body: { jsonSchema: d.adaptiveSchema } });
          done(changes[0]);
        } else if (changes[0]?.kind === 'site' && changes[0].action === 'update' && changes[0] !== publishChange) {
          const body = apiSettings(bodyOf(fields));
          if (Object.keys(body).length) await x.send(siteOps.updateSite, { params: params(), body });
          if (changes[0].fields!.some((f) => f.field === 'adaptiveSchema')) {
            await x.send(siteOps.putAdaptiveSchema, {
              params: params(),
              body: { jsonSchema: (isEmptySchema(d.adaptiveSchema) ? emptySchema() : d.adaptiveSchema) as never },
            });
          }
          done(changes[0]);
        }
        if (structureInput && first) await reconcile(x, siteId, structureInput, first.steps, done);
        if (publishChange) {
          if (d.published) {
            const answer = await x.send(siteOps.publishSite, { params: params() });
            if (isCheckout(answer)) throw new CheckoutNeededError(siteId, answer.sessionId);
          } else await x.send(siteOps.unpublishSite, { params: params() });
          done(publishChange);
        }
      },
    };
  }

  // --- Members -----------------------------------------------------------------------------------
  if (declared.has('members')) {
    for (const d of desired.members) {
      const l = liveMember.get(d.id);
      if (!l) {
        drift.push({
          kind: 'member',
          key: d.key,
          id: d.id,
          why: `user ${d.id} is not a member of organization ${live.organization}: members join by invitation, which the API does not offer`,
        });
        continue;
      }
      if (d.role !== l.role) {
        const change: Change = {
          kind: 'member',
          action: 'update',
          key: d.key,
          id: d.id,
          title: l.name,
          fields: [{ field: 'role', from: l.role ?? 'guest', to: d.role ?? 'guest' }],
        };
        steps.push(
          step(PHASE.ORGANIZATION, change, async (x) => {
            await x.send(memberOps.updateMember, { params: { organizationId: x.organizationId, userId: d.id }, body: { role: d.role } });
          }),
        );
      }
    }
    const inFile = new Set(desired.members.map((m) => m.id));
    for (const m of live.members) {
      if (inFile.has(m.id) || !owned.whole('members')) continue;
      const item = { kind: 'member' as const, key: keys.member.get(m.id)!, id: m.id, title: m.name };
      if (!prune) kept.push(item);
      else if (m.id === live.me) drift.push({ ...item, why: 'you are not in the file, and apply never removes the member whose token it uses' });
      else {
        steps.push(
          step(PHASE.DELETE_SITES, { ...item, action: 'delete', note: 'removed from the organization' }, async (x) => {
            await x.send(memberOps.removeMember, { params: { organizationId: x.organizationId, userId: m.id } });
          }),
        );
      }
    }
  }

  // --- SAML providers ----------------------------------------------------------------------------
  if (declared.has('saml')) {
    for (const d of desired.saml) {
      const l = samlOf.get(d);
      const team = d.defaultTeam === undefined ? undefined : d.defaultTeam === null ? '' : teamKeyToId.get(d.defaultTeam)!;
      if (!l) {
        const body = {
          label: d.label,
          ...(d.entityID !== undefined ? { entityID: d.entityID } : {}),
          ...(d.ssoURL !== undefined ? { ssoURL: d.ssoURL } : {}),
          ...(d.certificate !== undefined ? { certificate: d.certificate } : {}),
          ...(d.defaultRole !== undefined ? { defaultRole: d.defaultRole } : {}),
          ...(team ? { defaultTeam: team } : {}),
        };
        steps.push(
          step(
            PHASE.ORGANIZATION,
            {
              kind: 'saml',
              action: 'create',
              key: d.key,
              title: d.label,
              fields: fieldsOf({
                ...body,
                ...(d.certificate !== undefined ? { certificate: d.certificateShown } : {}),
                ...(team ? { defaultTeam: d.defaultTeam } : {}),
              }),
            },
            async (x) => {
              const made = await x.send(samlOps.createSamlProvider, { params: { organizationId: x.organizationId }, body });
              x.ids.set(`saml:${d.key}`, made.id);
            },
          ),
        );
        continue;
      }
      const fields = samlFields(d, l);
      if (fields.length) {
        steps.push(
          step(PHASE.ORGANIZATION, { kind: 'saml', action: 'update', key: d.key, id: l.id, title: l.label, fields: fields.map(shown) }, async (x) => {
            const body = Object.fromEntries(fields.map((f) => [f.field, f.field === 'defaultTeam' ? team : f.to]));
            await x.send(samlOps.updateSamlProvider, { params: { organizationId: x.organizationId, samlProviderId: l.id }, body });
          }),
        );
      }
    }
    const matched = new Set([...samlOf.values()].map((l) => l.id));
    for (const p of live.saml) {
      if (matched.has(p.id) || !owned.whole('saml')) continue;
      const item = { kind: 'saml' as const, key: keys.saml.get(p.id)!, id: p.id, title: p.label };
      if (!prune) kept.push(item);
      else {
        steps.push(
          step(PHASE.DELETE_SITES, { ...item, action: 'delete' }, async (x) => {
            await x.send(samlOps.deleteSamlProvider, { params: { organizationId: x.organizationId, samlProviderId: p.id } });
          }),
        );
      }
    }
  }

  function samlFields(d: DSaml, l: LSaml): ShownField[] {
    const liveUrl = l.ssoURL === UNSET_SSO_URL ? '' : l.ssoURL;
    const rows: [string, unknown, unknown][] = [
      ['label', d.label, l.label],
      ['entityID', d.entityID, l.entityID],
      ['ssoURL', d.ssoURL, liveUrl],
      ['defaultRole', d.defaultRole, l.defaultRole],
      ['defaultTeam', d.defaultTeam, l.defaultTeam ? (keyOfId.team.get(l.defaultTeam.id) ?? slug(l.defaultTeam.title, 'team')) : null],
    ];
    const out: ShownField[] = diffFields(rows);
    if (d.certificate !== undefined && certificateBody(d.certificate) !== certificateBody(l.certificate)) {
      out.push({ field: 'certificate', from: l.certificate, to: d.certificate, shown: { ...liveCertificate(l.certificate), to: d.certificateShown } });
    }
    return out;
  }

  // --- OpenAPI specifications --------------------------------------------------------------------
  if (declared.has('openapi')) {
    const liveSpec = new Map(live.openapi.map((s) => [s.slug.toLowerCase(), s]));
    for (const d of desired.openapi) {
      const l = liveSpec.get(d.slug.toLowerCase());
      if (!l) {
        if (d.url === undefined) {
          drift.push({ kind: 'openapi', key: d.slug, why: 'a new specification needs its url (the file holds no specification text)' });
          continue;
        }
        const url = d.url;
        steps.push(
          step(
            PHASE.ORGANIZATION,
            {
              kind: 'openapi',
              action: 'create',
              key: d.slug,
              fields: [{ field: 'url', to: url }, ...(d.visibility ? [{ field: 'visibility', to: d.visibility }] : [])],
            },
            async (x) => {
              await x.send(openapiOps.createOpenAPISpec, { params: { organizationId: x.organizationId }, body: { slug: d.slug, source: { url } } });
              if (d.visibility === 'public')
                await x.send(openapiOps.updateOpenAPISpec, { params: { organizationId: x.organizationId, specSlug: d.slug }, body: { visibility: 'public' } });
            },
          ),
        );
        continue;
      }
      const fields = diffFields([
        ['url', d.url, l.url],
        ['visibility', d.visibility, l.visibility],
      ]);
      if (!fields.length) continue;
      steps.push(
        step(
          PHASE.ORGANIZATION,
          {
            kind: 'openapi',
            action: 'update',
            key: d.slug,
            id: l.slug,
            fields,
            ...(fields.some((f) => f.field === 'url') ? { note: 'the service fetches and processes it again' } : {}),
          },
          async (x) => {
            const params = { organizationId: x.organizationId, specSlug: l.slug };
            const url = fields.find((f) => f.field === 'url');
            if (url) await x.send(openapiOps.putOpenAPISpec, { params, body: { source: { url: url.to as string } } });
            const visibility = fields.find((f) => f.field === 'visibility');
            if (visibility) await x.send(openapiOps.updateOpenAPISpec, { params, body: { visibility: visibility.to as 'public' | 'private' } });
          },
        ),
      );
    }
    const inFile = new Set(desired.openapi.map((s) => s.slug.toLowerCase()));
    for (const s of live.openapi) {
      if (inFile.has(s.slug.toLowerCase()) || !owned.whole('openapi')) continue;
      const item = { kind: 'openapi' as const, key: s.slug, id: s.slug };
      if (!prune) kept.push(item);
      else {
        steps.push(
          step(PHASE.DELETE_SITES, { ...item, action: 'delete' }, async (x) => {
            await x.send(openapiOps.deleteOpenAPISpec, { params: { organizationId: x.organizationId, specSlug: s.slug } });
          }),
        );
      }
    }
  }

  steps.sort((a, b) => a.phase - b.phase);
  const changes = steps.flatMap((s) => s.changes);
  return { organization: live.organization, source: desired.source, prune, steps, changes, drift, kept, summary: summarize(changes), ids };
}

/** The structure of a site: the planned steps first, then again from what the site has, until nothing is left. */
async function reconcile(
  x: ApplyExec,
  siteId: string,
  input: Omit<Parameters<typeof siteSteps>[0], 'live'>,
  planned: SiteStep[],
  done: (c: Change) => void,
): Promise<void> {
  let steps = planned;
  for (let pass = 1; pass <= 5; pass++) {
    // Creations, moves and deletions first; fields and defaults once the structure is in place
    // (the paths the service gave new items are known then). Each batch is checked by reading again.
    const structural = steps.filter((s) => s.stage < STAGE.UPDATE);
    const batch = structural.length ? structural : steps;
    if (batch.length === 0) return;
    for (const s of batch) {
      await s.run(x, siteId);
      done(s.change);
    }
    steps = siteSteps({ ...input, live: await x.readStructure(siteId) }).steps;
  }
  if (steps.length) {
    throw new Error(
      `the structure of site ${input.siteKey} is still not the file’s after 5 passes (left: ${steps.map((s) => `${s.change.action} ${s.change.kind} ${s.change.key}`).join(', ')})`,
    );
  }
}

function step(phase: number, change: Change, run: (x: ApplyExec) => Promise<void>, lane?: string): PlanStep {
  return {
    changes: [change],
    phase,
    ...(lane ? { lane } : {}),
    run: async (x, done) => {
      await run(x);
      done(change);
    },
  };
}

function fieldsOf(values: Record<string, unknown>): FieldChange[] {
  return Object.entries(values).map(([field, to]) => ({ field, to }));
}

/** Site settings as the API takes them (`adaptiveContent: {enabled}`). */
function apiSettings(values: Record<string, unknown>): Record<string, never> {
  const out: Record<string, unknown> = { ...values };
  if (typeof out.adaptiveContent === 'boolean') out.adaptiveContent = { enabled: out.adaptiveContent };
  return out as Record<string, never>;
}

function emptySchema() {
  return { type: 'object', properties: {}, additionalProperties: false };
}

/** A certificate's base64 body, for comparing PEM with a bare body. */
function certificateBody(text: string): string {
  return text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

/** A field change whose values are sent but not shown: `shown` is what a plan shows instead. */
type ShownField = FieldChange & { shown?: { from?: string; to: string | undefined } };

/** A certificate is not shown in a plan: its fingerprint is (and where the file's comes from). */
function shown(f: ShownField): FieldChange {
  if (!f.shown) return f;
  return { field: f.field, ...(f.shown.from !== undefined ? { from: f.shown.from } : {}), to: f.shown.to };
}

/** The service's certificate as a plan shows it: its fingerprint, or `(none)`. */
function liveCertificate(text: string): { from: string } {
  return { from: describeLiveCertificate(text) ?? '(none)' };
}

function mergeUsers(rules: MergeRules | undefined): { user: string; path: Path }[] {
  if (rules?.type !== 'rules') return [];
  return rules.rules.flatMap((r, i) => ('users' in r ? r.users.map((user, j) => ({ user, path: ['rules', i, 'users', j] as Path })) : []));
}

function subtree(collections: LCollection[], id: string): Set<string> {
  const out = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const c of collections)
      if (c.parent && out.has(c.parent) && !out.has(c.id)) {
        out.add(c.id);
        grew = true;
      }
  }
  return out;
}

function siteSpacesOf(site: DSite) {
  return site.structure ? walkDesired(site.structure).siteSpaces : [];
}

function summarize(changes: Change[]): Summary {
  const out: Summary = { create: 0, update: 0, move: 0, delete: 0 };
  for (const c of changes) out[c.action]++;
  return out;
}

/**
 * A site's structure: from what the service has to what the file says, as steps. The steps are
 * computed over a copy of the structure that each step changes as the service would (a simulation),
 * so that every move names neighbours that are really there when it runs:
 *
 *   1. deletions of site spaces (--prune), which frees their paths;
 *   2. new section groups, then new sections (a section starts with a site space: its first one
 *      in the file), then new site spaces (at the end of their section);
 *   3. moves of sections and groups, container by container from the top (a parent is in place
 *      before its children move into it), then of site spaces, section by section: only the items
 *      outside the longest run already in order move, each next to a neighbour already in place;
 *   4. deletions of sections and groups (--prune), and of the site spaces a move had to re-create;
 *   5. field changes (paths, titles, conditions, hidden), a path another item holds being moved
 *      aside first; then the defaults.
 *
 * Apply runs 1–4, reads the structure again and computes the rest from what is there (the paths
 * the service gave new items), until nothing is left: the same function serves plan and apply.
 */
import { ops } from '../contract/sites.js';
import { KeyAllocator, slug } from './keys.js';
import type { DGroup, DNode, DSection, DSiteSpace, DStructure, LNode, LSection, LSiteSpace, LStructure } from './model.js';
import { walkDesired, walkLive } from './model.js';
import { bodyOf, ref as refTo, request, type Change, type Drift, type FieldChange, type IdRef, type Kept, type StepRequest } from './steps.js';
import { plural } from '../cli/text.js';

/** The stages of a site's steps (see the module comment). */
const STAGE = { DELETE_SITE_SPACES: 1, CREATE: 2, MOVE: 3, DELETE: 4, UPDATE: 5, DEFAULTS: 6 } as const;

interface SiteStep {
  change: Change;
  stage: number;
  requests: StepRequest[];
}

export interface SiteDiffInput {
  siteKey: string;
  organizationId: string;
  /** The site's id, or a reference to the id its creation gives. */
  siteId: string | IdRef;
  desired: DStructure;
  live: LStructure;
  prune: boolean;
  /** The key a live space is known by (the file's, when it declares it). */
  spaceKeyOf(spaceId: string): string;
  /** The id of a space of the file, when it exists now (undefined: made by this apply). */
  spaceIdOf(key: string): string | undefined;
  /** Ids known so far (`site/section/key` → id), from earlier passes of this apply. */
  ids: Map<string, string>;
}

export interface SiteDiff {
  steps: SiteStep[];
  kept: Kept[];
  drift: Drift[];
}

/** Keys of a site's live sections, groups and site spaces, as export writes them. */
export function liveSiteKeys(structure: LStructure, spaceKeyOf: (spaceId: string) => string) {
  const { sections, groups, siteSpaces } = walkLive(structure);
  const sectionKeys = new KeyAllocator();
  const groupKeys = new KeyAllocator();
  const ssKeys = new KeyAllocator();
  return {
    section: new Map(sections.map((s) => [s.id, sectionKeys.take(slug(s.title, 'section'))])),
    group: new Map(groups.map((g) => [g.id, groupKeys.take(slug(g.title, 'group'))])),
    siteSpace: new Map(siteSpaces.map((ss) => [ss.id, ssKeys.take(spaceKeyOf(ss.space))])),
  };
}

const ROOT = '#root';
/** The key of the section the service makes of a site's site spaces (see `converted`). */
const CONVERTED = '#converted';
type Ref = string;

/** A placeholder for an item made by this apply: `@site/kind/key`, its id known once made. */
function placeholder(siteKey: string, kind: 'section' | 'group' | 'site-space', key: string): Ref {
  return `@${siteKey}/${kind}/${key}`;
}

/** A placeholder as a request's reference to the id it will have; a live item's id as it is. */
function idOf(r: Ref): string | IdRef {
  return r.startsWith('@') ? refTo(r.slice(1)) : r;
}

/** A site's tree of sections and groups, and its lists of site spaces, changed step by step. */
class Sim {
  root: Ref[] = [];
  readonly children = new Map<Ref, Ref[]>();
  readonly parent = new Map<Ref, Ref | null>();
  readonly kind = new Map<Ref, 'section' | 'group'>();
  readonly lists = new Map<Ref, Ref[]>([[ROOT, []]]);
  readonly listOf = new Map<Ref, Ref>();

  static of(live: LStructure): Sim {
    const sim = new Sim();
    if (live.mode === 'siteSpaces') {
      for (const ss of live.siteSpaces) sim.addSiteSpace(ss.id, ROOT);
      return sim;
    }
    const visit = (nodes: LNode[], parent: Ref | null) => {
      for (const n of nodes) {
        if (n.type === 'group') {
          sim.addGroup(n.id, parent);
          visit(n.children, n.id);
        } else {
          sim.addSection(n.id, parent);
          for (const ss of n.siteSpaces) sim.addSiteSpace(ss.id, n.id);
        }
      }
    };
    visit(live.items, null);
    return sim;
  }

  container(parent: Ref | null): Ref[] {
    return parent === null ? this.root : this.children.get(parent)!;
  }
  containerOf(ref: Ref): Ref[] {
    return this.container(this.parent.get(ref) ?? null);
  }
  addGroup(ref: Ref, parent: Ref | null): void {
    this.kind.set(ref, 'group');
    this.children.set(ref, []);
    this.parent.set(ref, parent);
    this.container(parent).push(ref);
  }
  addSection(ref: Ref, parent: Ref | null): void {
    this.kind.set(ref, 'section');
    this.lists.set(ref, []);
    this.parent.set(ref, parent);
    this.container(parent).push(ref);
  }
  addSiteSpace(ref: Ref, list: Ref): void {
    this.lists.get(list)!.push(ref);
    this.listOf.set(ref, list);
  }
  /** Next to an anchor (joining its container), or at the end of `into`'s container. */
  moveNode(ref: Ref, to: { before?: Ref; after?: Ref } | { into: Ref | null }): void {
    remove(this.containerOf(ref), ref);
    if ('into' in to) {
      this.container(to.into).push(ref);
      this.parent.set(ref, to.into);
      return;
    }
    const anchor = (to.before ?? to.after)!;
    const list = this.containerOf(anchor);
    list.splice(list.indexOf(anchor) + (to.after !== undefined ? 1 : 0), 0, ref);
    this.parent.set(ref, this.parent.get(anchor) ?? null);
  }
  moveSiteSpace(ref: Ref, to: { before?: Ref; after?: Ref }): void {
    remove(this.lists.get(this.listOf.get(ref)!)!, ref);
    const anchor = (to.before ?? to.after)!;
    const list = this.lists.get(this.listOf.get(anchor)!)!;
    list.splice(list.indexOf(anchor) + (to.after !== undefined ? 1 : 0), 0, ref);
    this.listOf.set(ref, this.listOf.get(anchor)!);
  }
  removeSiteSpace(ref: Ref): void {
    remove(this.lists.get(this.listOf.get(ref)!)!, ref);
    this.listOf.delete(ref);
  }
  removeSection(ref: Ref): void {
    for (const ss of this.lists.get(ref) ?? []) this.listOf.delete(ss);
    this.lists.delete(ref);
    remove(this.containerOf(ref), ref);
    this.parent.delete(ref);
  }
  /** A group's children take its place. */
  removeGroup(ref: Ref): void {
    const list = this.containerOf(ref);
    const kids = this.children.get(ref)!;
    list.splice(list.indexOf(ref), 1, ...kids);
    for (const k of kids) this.parent.set(k, this.parent.get(ref) ?? null);
    this.children.delete(ref);
    this.parent.delete(ref);
  }
  /** The first section created on a site with site spaces: the service makes them a section of their own first. */
  convertRoot(ref: Ref): void {
    const list = this.lists.get(ROOT)!;
    if (list.length === 0) return;
    this.addSection(ref, null);
    for (const ss of [...list]) this.addSiteSpace(ss, ref);
    this.lists.set(ROOT, []);
  }
  sectionCount(): number {
    return [...this.kind.values()].filter((k) => k === 'section').length;
  }
}

function remove(list: Ref[], ref: Ref): void {
  const at = list.indexOf(ref);
  if (at >= 0) list.splice(at, 1);
}

/**
 * Positions (in `seq`) of a longest strictly increasing subsequence of `seq`: the items already in
 * order, which stay where they are.
 */
export function longestIncreasing(seq: readonly number[]): Set<number> {
  const tails: number[] = [];
  const prev = new Array<number>(seq.length).fill(-1);
  for (let i = 0; i < seq.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]] < seq[i]) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1];
    tails[lo] = i;
  }
  const out = new Set<number>();
  for (let i = tails.length ? tails[tails.length - 1] : -1; i >= 0; i = prev[i]) out.add(i);
  return out;
}

/**
 * The moves that put `desired` in order within a container whose current content is `current`
 * (items of `desired` that are elsewhere join it): each item outside the longest run already in
 * order goes after its predecessor in `desired`, or before the first item of that run.
 */
export function movesFor(desired: readonly Ref[], current: readonly Ref[]): { ref: Ref; before?: Ref; after?: Ref }[] {
  const index = new Map(desired.map((r, i) => [r, i]));
  const present = current.filter((r) => index.has(r));
  const seq = present.map((r) => index.get(r)!);
  const stay = new Set([...longestIncreasing(seq)].map((i) => present[i]));
  const firstStaying = desired.find((r) => stay.has(r));
  const out: { ref: Ref; before?: Ref; after?: Ref }[] = [];
  desired.forEach((ref, i) => {
    if (stay.has(ref)) return;
    if (i > 0) out.push({ ref, after: desired[i - 1] });
    else out.push({ ref, ...(firstStaying !== undefined ? { before: firstStaying } : {}) });
  });
  return out;
}

/** The steps that make a site's structure the file's (see the module comment). */
export function siteSteps(input: SiteDiffInput): SiteDiff {
  const { siteKey, desired, live, prune } = input;
  const steps: SiteStep[] = [];
  const kept: Kept[] = [];
  const drift: Drift[] = [];
  const want = walkDesired(desired);
  const have = walkLive(live);
  const liveKeys = liveSiteKeys(live, input.spaceKeyOf);
  const reg = (kind: 'section' | 'group' | 'site-space', key: string) => `${siteKey}/${kind}/${key}`;
  const known = (kind: 'section' | 'group' | 'site-space', d: { key: string; id?: string }) => d.id ?? input.ids.get(reg(kind, d.key));
  const base = { site: siteKey } as const;
  const site = { organizationId: input.organizationId, siteId: input.siteId };
  /** A space's id, or a reference to the id this apply gives it. */
  const spaceRef = (key: string): string | IdRef => input.spaceIdOf(key) ?? refTo(`space:${key}`);
  /** A new section's fields that its creation does not take: set right after it. */
  const sectionFields = (s: DSection, id: IdRef): StepRequest[] => {
    const body = {
      ...(s.path !== undefined ? { path: s.path } : {}),
      ...(typeof s.description === 'string' ? { description: s.description } : {}),
      ...(typeof s.condition === 'string' ? { condition: s.condition } : {}),
    };
    return Object.keys(body).length ? [request(ops.updateSiteSection, { ...site, siteSectionId: id }, body)] : [];
  };
  /** The same for a new site space. */
  const siteSpaceFields = (ss: DSiteSpace, id: IdRef): StepRequest[] => {
    const body = {
      ...(ss.path !== undefined ? { path: ss.path } : {}),
      ...(typeof ss.condition === 'string' ? { condition: ss.condition } : {}),
      ...(ss.hidden ? { hidden: true } : {}),
    };
    return Object.keys(body).length ? [request(ops.updateSiteSpace, { ...site, siteSpaceId: id }, body)] : [];
  };

  // --- Matching: by id, then key, then title (site spaces: then their space) ---------------------
  const groupOf = match(want.groups, have.groups, (d) => known('group', d), liveKeys.group, [(d, l) => d.title === l.title]);
  const sectionOf = match(want.sections, have.sections, (d) => known('section', d), liveKeys.section, [(d, l) => d.title === l.title]);
  const liveSectionOfSs = new Map<string, string>();
  for (const s of have.sections) for (const ss of s.siteSpaces) liveSectionOfSs.set(ss.id, s.id);
  const dSectionOfSs = new Map<DSiteSpace, DSection>();
  for (const s of want.sections) for (const ss of s.siteSpaces) dSectionOfSs.set(ss, s);
  // A site space shows a space: the same space in the matching section, then anywhere in the site.
  const sameSpace = (d: DSiteSpace, l: LSiteSpace) => input.spaceIdOf(d.space) === l.space;
  const ssOf = match(want.siteSpaces, have.siteSpaces, (d) => known('site-space', d), liveKeys.siteSpace, [
    (d, l) => {
      const ds = dSectionOfSs.get(d);
      const ls = ds ? sectionOf.get(ds) : undefined;
      return sameSpace(d, l) && (ds === undefined || (ls !== undefined && liveSectionOfSs.get(l.id) === ls.id));
    },
    sameSpace,
  ]);

  const liveById = {
    section: new Map(have.sections.map((s) => [s.id, s])),
    group: new Map(have.groups.map((g) => [g.id, g])),
    siteSpace: new Map(have.siteSpaces.map((s) => [s.id, s])),
  };
  const matchedLive = new Set<string>([...groupOf.values(), ...sectionOf.values(), ...ssOf.values()].map((l) => l.id));
  const refOf = new Map<DSection | DGroup | DSiteSpace, Ref>();
  for (const [d, l] of groupOf) refOf.set(d, l.id);
  for (const [d, l] of sectionOf) refOf.set(d, l.id);
  for (const [d, l] of ssOf) refOf.set(d, l.id);
  const keyOfRef = new Map<Ref, string>();
  for (const [d, r] of refOf) keyOfRef.set(r, d.key);
  const name = (ref: Ref): string => keyOfRef.get(ref) ?? liveKeys.section.get(ref) ?? liveKeys.group.get(ref) ?? liveKeys.siteSpace.get(ref) ?? ref;

  const sim = Sim.of(live);
  /** Live site spaces that move under a temporary path (theirs is taken where they go): id → that path. */
  const movedAside = new Map<string, string>();

  // --- A site with sections that the file wants without: only by deleting them (--prune) ---------
  if (desired.mode === 'siteSpaces' && have.sections.length + have.groups.length > 0) {
    if (!prune) {
      drift.push({
        kind: 'site',
        key: siteKey,
        why: 'the file lists the site’s site spaces without sections, and the site has sections: the API cannot take sections away and keep their site spaces; apply with --prune deletes the sections (with their site spaces) and adds the site spaces again',
      });
      return { steps, kept, drift };
    }
    const note = 'the file wants the site without sections';
    for (const s of have.sections) {
      steps.push({
        stage: STAGE.DELETE_SITE_SPACES,
        change: { ...base, kind: 'section', action: 'delete', key: name(s.id), id: s.id, title: s.title, note },
        requests: [request(ops.deleteSiteSection, { ...site, siteSectionId: s.id })],
      });
    }
    for (const g of have.groups) {
      steps.push({
        stage: STAGE.DELETE_SITE_SPACES,
        change: { ...base, kind: 'group', action: 'delete', key: name(g.id), id: g.id, title: g.title, note },
        requests: [request(ops.deleteSiteSectionGroup, { ...site, siteSectionGroupId: g.id })],
      });
    }
    const rest = siteSteps({ ...input, live: { mode: 'siteSpaces', siteSpaces: [] } });
    return { steps: [...steps, ...rest.steps], kept: rest.kept, drift: rest.drift };
  }
  return finish();

  function finish(): SiteDiff {
    const desiredLists: { list: DSiteSpace[]; owner: DSection | null }[] =
      desired.mode === 'siteSpaces' ? [{ list: desired.siteSpaces, owner: null }] : want.sections.map((s) => ({ list: s.siteSpaces, owner: s }));
    const recreated: LSiteSpace[] = [];
    /** The section the service makes of a site's site spaces when its first section is created. */
    let converted: Ref | undefined;
    const autoDefault = new Set<Ref>();

    // 1. Site spaces the file does not have: deleted with --prune (their section's going takes them otherwise).
    for (const l of have.siteSpaces) {
      if (matchedLive.has(l.id) || !sim.listOf.has(l.id)) continue;
      const sectionId = liveSectionOfSs.get(l.id);
      const sectionKept = sectionId === undefined || matchedLive.has(sectionId);
      if (!prune) {
        kept.push({ ...base, kind: 'site-space', key: name(l.id), id: l.id, title: l.path });
        continue;
      }
      if (!sectionKept) continue;
      steps.push({
        stage: STAGE.DELETE_SITE_SPACES,
        change: { ...base, kind: 'site-space', action: 'delete', key: name(l.id), id: l.id, title: l.path },
        requests: [request(ops.deleteSiteSpace, { ...site, siteSpaceId: l.id })],
      });
      sim.removeSiteSpace(l.id);
    }

    // 2. New groups, top down.
    const parentOf = new Map<DNode, DGroup | null>();
    if (desired.mode === 'sections') {
      const visit = (nodes: DNode[], parent: DGroup | null) =>
        nodes.forEach((n) => {
          parentOf.set(n, parent);
          if (n.type === 'group') visit(n.children, n);
        });
      visit(desired.items, null);
    }
    const parentRef = (n: DNode): Ref | null => {
      const p = parentOf.get(n);
      return p ? refOf.get(p)! : null;
    };
    for (const g of want.groups) {
      if (groupOf.has(g)) continue;
      const ref = placeholder(siteKey, 'group', g.key);
      const parent = parentRef(g);
      refOf.set(g, ref);
      keyOfRef.set(ref, g.key);
      steps.push({
        stage: STAGE.CREATE,
        change: {
          ...base,
          kind: 'group',
          action: 'create',
          key: g.key,
          title: g.title,
          fields: [
            { field: 'title', to: g.title },
            ...(g.icon ? [{ field: 'icon', to: g.icon }] : []),
            ...(parent ? [{ field: 'group', to: name(parent) }] : []),
          ],
        },
        requests: [
          {
            ...request(ops.createSiteSectionGroup, site, {
              title: g.title,
              ...(typeof g.icon === 'string' ? { icon: g.icon } : {}),
              ...(parent ? { parent: idOf(parent) } : {}),
            }),
            saves: { [reg('group', g.key)]: 'id' },
          },
        ],
      });
      sim.addGroup(ref, parent);
    }

    // 2. New sections, each with its first site space.
    for (const s of want.sections) {
      if (sectionOf.has(s)) continue;
      const ref = placeholder(siteKey, 'section', s.key);
      const parent = parentRef(s);
      const first = s.siteSpaces[0];
      const firstLive = ssOf.get(first);
      const firstRef = placeholder(siteKey, 'site-space', first.key);
      refOf.set(s, ref);
      keyOfRef.set(ref, s.key);
      const converts = sim.sectionCount() === 0 && sim.lists.get(ROOT)!.length > 0;
      const notes = [
        firstLive ? `site space ${first.key} is made again in it (a new section starts with a site space)` : '',
        converts ? 'the service first makes the site’s site spaces a section of their own' : '',
      ].filter(Boolean);
      steps.push({
        stage: STAGE.CREATE,
        change: {
          ...base,
          kind: 'section',
          action: 'create',
          key: s.key,
          title: s.title,
          fields: [
            { field: 'title', to: s.title },
            ...(s.path !== undefined ? [{ field: 'path', to: s.path }] : []),
            ...(s.icon ? [{ field: 'icon', to: s.icon }] : []),
            ...(parent ? [{ field: 'group', to: name(parent) }] : []),
            { field: 'siteSpaces', to: s.siteSpaces.map((ss) => ss.key) },
          ],
          ...(notes.length ? { note: notes.join('; ') } : {}),
        },
        requests: [
          {
            ...request(ops.createSiteSection, site, {
              spaceId: spaceRef(first.space),
              title: s.title,
              ...(typeof s.icon === 'string' ? { icon: s.icon } : {}),
              ...(parent ? { siteSectionGroupId: idOf(parent) } : {}),
            }),
            // The section starts with the site space it was made with (the last of its list).
            saves: { [reg('section', s.key)]: 'id', [reg('site-space', first.key)]: 'siteSpaces.-1.id' },
          },
          ...sectionFields(s, refTo(reg('section', s.key))),
          ...siteSpaceFields(first, refTo(reg('site-space', first.key))),
          // The section the service made of the site's site spaces: the first of the site's.
          ...(converts ? [{ ...request(ops.listSiteSections, site), saves: { [reg('section', CONVERTED)]: 'items.0.id' } }] : []),
        ],
      });
      if (converts) {
        converted = placeholder(siteKey, 'section', CONVERTED);
        const lead = live.mode === 'siteSpaces' ? (live.siteSpaces.find((x) => x.default) ?? live.siteSpaces[0]) : undefined;
        keyOfRef.set(converted, lead ? input.spaceKeyOf(lead.space) : CONVERTED);
        sim.convertRoot(converted);
      }
      if (sim.sectionCount() === 0) autoDefault.add(ref);
      sim.addSection(ref, parent);
      if (firstLive) {
        recreated.push(firstLive);
        ssOf.delete(first);
      }
      refOf.set(first, firstRef);
      keyOfRef.set(firstRef, first.key);
      autoDefault.add(firstRef);
      sim.addSiteSpace(firstRef, ref);
    }

    // 2. New site spaces, at the end of their section (or of the site without sections).
    for (const { list, owner } of desiredLists) {
      for (const ss of list) {
        if (refOf.has(ss)) continue;
        const ref = placeholder(siteKey, 'site-space', ss.key);
        refOf.set(ss, ref);
        keyOfRef.set(ref, ss.key);
        const sectionRef = owner ? refOf.get(owner)! : null;
        steps.push(createSiteSpaceStep(ss, sectionRef));
        if ((sim.lists.get(sectionRef ?? ROOT) ?? []).length === 0) autoDefault.add(ref);
        sim.addSiteSpace(ref, sectionRef ?? ROOT);
      }
    }

    // 3. Sections and groups into their place, containers from the top.
    if (desired.mode === 'sections') {
      const containers: { owner: DGroup | null; items: DNode[] }[] = [{ owner: null, items: desired.items }];
      for (let i = 0; i < containers.length; i++) {
        for (const n of containers[i].items) if (n.type === 'group') containers.push({ owner: n, items: n.children });
      }
      for (const { owner, items } of containers) {
        const ownerRef = owner ? refOf.get(owner)! : null;
        const wanted = items.map((n) => refOf.get(n)!);
        for (const move of movesFor(wanted, sim.container(ownerRef))) {
          const node = items[wanted.indexOf(move.ref)];
          const fromParent = sim.parent.get(move.ref) ?? null;
          const to = move.before !== undefined || move.after !== undefined ? { before: move.before, after: move.after } : { into: ownerRef };
          steps.push(moveNodeStep(node, move.ref, to, fromParent, ownerRef));
          sim.moveNode(move.ref, to);
        }
      }
    }

    // 3. Site spaces into their place, list by list.
    for (const { list, owner } of desiredLists) {
      const listRef = owner ? refOf.get(owner)! : ROOT;
      const wanted = list.map((ss) => refOf.get(ss)!);
      for (const move of movesFor(wanted, sim.lists.get(listRef) ?? [])) {
        const ss = list[wanted.indexOf(move.ref)];
        const fromList = sim.listOf.get(move.ref);
        let anchor: { before?: Ref; after?: Ref } | undefined = move.before !== undefined || move.after !== undefined ? move : undefined;
        if (!anchor) {
          const present = sim.lists.get(listRef) ?? [];
          if (present.length) anchor = { after: present[present.length - 1] };
        }
        if (!anchor) {
          // Nothing in that list to move next to: made again there.
          const old = liveById.siteSpace.get(move.ref);
          if (old) recreated.push(old);
          const ref = placeholder(siteKey, 'site-space', ss.key);
          ssOf.delete(ss);
          refOf.set(ss, ref);
          keyOfRef.set(ref, ss.key);
          steps.push({ ...createSiteSpaceStep(ss, owner ? listRef : null), stage: STAGE.MOVE });
          sim.removeSiteSpace(move.ref);
          autoDefault.add(ref);
          sim.addSiteSpace(ref, listRef);
          continue;
        }
        steps.push(moveSiteSpaceStep(ss, move.ref, { before: anchor.before, after: anchor.after }, fromList, listRef));
        sim.moveSiteSpace(move.ref, anchor);
      }
    }

    // 4. Site spaces made again elsewhere, then sections and groups the file does not have.
    for (const l of recreated) {
      steps.push({
        stage: STAGE.DELETE,
        change: { ...base, kind: 'site-space', action: 'delete', key: name(l.id), id: l.id, title: l.path, note: 'made again in its new section' },
        requests: [request(ops.deleteSiteSpace, { ...site, siteSpaceId: l.id })],
      });
      sim.removeSiteSpace(l.id);
    }
    for (const s of have.sections) {
      if (matchedLive.has(s.id)) continue;
      if (!prune) {
        kept.push({ ...base, kind: 'section', key: name(s.id), id: s.id, title: s.title });
        continue;
      }
      const staying = (sim.lists.get(s.id) ?? []).length;
      steps.push({
        stage: STAGE.DELETE,
        change: {
          ...base,
          kind: 'section',
          action: 'delete',
          key: name(s.id),
          id: s.id,
          title: s.title,
          ...(staying ? { note: goWithIt(staying) } : {}),
        },
        requests: [request(ops.deleteSiteSection, { ...site, siteSectionId: s.id })],
      });
      sim.removeSection(s.id);
    }
    if (converted !== undefined && prune) {
      const staying = (sim.lists.get(converted) ?? []).length;
      steps.push({
        stage: STAGE.DELETE,
        change: {
          ...base,
          kind: 'section',
          action: 'delete',
          key: name(converted),
          note: `the section the service makes of the site’s site spaces${staying ? `; ${goWithIt(staying)}` : ''}`,
        },
        requests: [request(ops.deleteSiteSection, { ...site, siteSectionId: idOf(converted) })],
      });
      sim.removeSection(converted);
    }
    for (const g of have.groups) {
      if (matchedLive.has(g.id)) continue;
      if (!prune) {
        kept.push({ ...base, kind: 'group', key: name(g.id), id: g.id, title: g.title });
        continue;
      }
      steps.push({
        stage: STAGE.DELETE,
        change: { ...base, kind: 'group', action: 'delete', key: name(g.id), id: g.id, title: g.title, note: 'what it still holds takes its place' },
        requests: [request(ops.deleteSiteSectionGroup, { ...site, siteSectionGroupId: g.id })],
      });
      sim.removeGroup(g.id);
    }

    // 5. Fields of the items that exist (new ones get theirs on the next pass, from the paths the service gave them).
    const sectionUpdates: { d: DSection; l: LSection; fields: FieldChange[] }[] = [];
    for (const [d, l] of sectionOf) {
      const fields = diffFields([
        ['title', d.title, l.title],
        ['path', d.path, l.path],
        ['icon', d.icon, l.icon ?? null],
        ['description', d.description, l.description ?? null],
        ['condition', d.condition, l.condition ?? null],
      ]);
      if (fields.length) sectionUpdates.push({ d, l, fields });
    }
    steps.push(
      ...pathAware(
        sectionUpdates,
        have.sections.filter((s) => sim.kind.has(s.id)).map((s) => ({ id: s.id, path: s.path })),
        'section',
      ),
    );
    for (const [d, l] of groupOf) {
      const fields = diffFields([
        ['title', d.title, l.title],
        ['icon', d.icon, l.icon ?? null],
      ]);
      if (!fields.length) continue;
      steps.push({
        stage: STAGE.UPDATE,
        change: { ...base, kind: 'group', action: 'update', key: d.key, id: l.id, title: l.title, fields },
        requests: [request(ops.updateSiteSectionGroup, { ...site, siteSectionGroupId: l.id }, bodyOf(fields))],
      });
    }
    const ssUpdates = new Map<Ref, { d: DSiteSpace; l: LSiteSpace; fields: FieldChange[] }[]>();
    for (const [d, live] of ssOf) {
      const aside = movedAside.get(live.id);
      const l = aside === undefined ? live : { ...live, path: aside };
      const fields = diffFields([
        ['path', d.path ?? (aside !== undefined ? live.path : undefined), l.path],
        ['condition', d.condition, l.condition ?? null],
        ['hidden', d.hidden, l.hidden],
      ]);
      if (!fields.length) continue;
      const list = sim.listOf.get(l.id) ?? ROOT;
      ssUpdates.set(list, [...(ssUpdates.get(list) ?? []), { d, l, fields }]);
    }
    for (const [list, updates] of ssUpdates) {
      const holders = (sim.lists.get(list) ?? []).map((ref) => liveById.siteSpace.get(ref)).filter((l): l is LSiteSpace => l !== undefined);
      steps.push(
        ...pathAware(
          updates,
          holders.map((l) => ({ id: l.id, path: movedAside.get(l.id) ?? l.path })),
          'site-space',
        ),
      );
    }

    // 6. Defaults: the file's, where it marks one. A new item is the default already when it was
    // the first of an empty list (sections: of a site without any).
    const defaultSection = want.sections.find((s) => s.default);
    if (defaultSection) {
      const l = sectionOf.get(defaultSection);
      const at = refOf.get(defaultSection)!;
      if (l ? !l.default : !autoDefault.has(at)) {
        steps.push({
          stage: STAGE.DEFAULTS,
          change: {
            ...base,
            kind: 'section',
            action: 'update',
            key: defaultSection.key,
            ...(l ? { id: l.id, title: l.title } : {}),
            fields: [{ field: 'default', from: false, to: true }],
          },
          requests: [request(ops.updateSite, site, { defaultSiteSection: idOf(at) })],
        });
      }
    }
    for (const { list, owner } of desiredLists) {
      const wanted = list.find((ss) => ss.default);
      if (!wanted) continue;
      const l = ssOf.get(wanted);
      const at = refOf.get(wanted)!;
      if (l ? l.default : autoDefault.has(at)) continue;
      const ownerRef = owner ? refOf.get(owner)! : undefined;
      steps.push({
        stage: STAGE.DEFAULTS,
        change: {
          ...base,
          kind: 'site-space',
          action: 'update',
          key: wanted.key,
          ...(l ? { id: l.id } : {}),
          fields: [{ field: 'default', from: false, to: true }],
        },
        requests: [
          ownerRef === undefined
            ? request(ops.updateSite, site, { defaultSiteSpace: idOf(at) })
            : request(ops.updateSiteSection, { ...site, siteSectionId: idOf(ownerRef) }, { defaultSiteSpace: idOf(at) }),
        ],
      });
    }
    steps.sort((a, b) => a.stage - b.stage);
    return { steps, kept, drift };
  }

  function liveId(ref: Ref): boolean {
    return !ref.startsWith('@');
  }

  function createSiteSpaceStep(ss: DSiteSpace, sectionRef: Ref | null): SiteStep {
    return {
      stage: STAGE.CREATE,
      change: {
        ...base,
        kind: 'site-space',
        action: 'create',
        key: ss.key,
        fields: [
          { field: 'space', to: ss.space },
          ...(sectionRef ? [{ field: 'section', to: name(sectionRef) }] : []),
          ...(ss.path !== undefined ? [{ field: 'path', to: ss.path }] : []),
          ...(ss.condition ? [{ field: 'condition', to: ss.condition }] : []),
          ...(ss.hidden ? [{ field: 'hidden', to: true }] : []),
        ],
      },
      requests: [
        {
          ...request(ops.createSiteSpace, site, { spaceId: spaceRef(ss.space), ...(sectionRef ? { sectionId: idOf(sectionRef) } : {}) }),
          saves: { [reg('site-space', ss.key)]: 'id' },
        },
        ...siteSpaceFields(ss, refTo(reg('site-space', ss.key))),
      ],
    };
  }

  function moveNodeStep(node: DNode, ref: Ref, to: { before?: Ref; after?: Ref } | { into: Ref | null }, from: Ref | null, owner: Ref | null): SiteStep {
    const where =
      'into' in to
        ? to.into === null
          ? 'to the end of the top level'
          : `to the end of group ${name(to.into)}`
        : to.before !== undefined
          ? `before ${name(to.before)}`
          : `after ${name(to.after!)}`;
    const fields: FieldChange[] = from !== owner ? [{ field: 'group', from: from === null ? null : name(from), to: owner === null ? null : name(owner) }] : [];
    return {
      stage: STAGE.MOVE,
      change: { ...base, kind: node.type, action: 'move', key: node.key, ...(liveId(ref) ? { id: ref } : {}), title: node.title, fields, note: where },
      requests: [moveNodeRequest(node, idOf(ref), to)],
    };
  }

  function moveNodeRequest(node: DNode, id: string | IdRef, to: { before?: Ref; after?: Ref } | { into: Ref | null }): StepRequest {
    if ('into' in to) {
      if (to.into === null) {
        return node.type === 'section'
          ? request(ops.moveSiteSection, { ...site, siteSectionId: id }, {})
          : request(ops.moveSiteSectionGroup, { ...site, siteSectionGroupId: id }, {});
      }
      return node.type === 'section'
        ? request(ops.updateSiteSection, { ...site, siteSectionId: id }, { siteSectionGroupId: idOf(to.into) })
        : request(ops.updateSiteSectionGroup, { ...site, siteSectionGroupId: id }, { parentSectionGroupId: idOf(to.into) });
    }
    const side = to.before !== undefined ? 'before' : 'after';
    const anchor = (to.before ?? to.after)!;
    if (node.type === 'section') {
      return request(ops.moveSiteSection, { ...site, siteSectionId: id }, { position: { [side]: { type: 'site-section', siteSection: idOf(anchor) } } });
    }
    const type = sim.kind.get(anchor) === 'group' ? 'site-section-group' : 'site-section';
    return request(ops.moveSiteSectionGroup, { ...site, siteSectionGroupId: id }, { position: { [side]: { type, id: idOf(anchor) } } });
  }

  function moveSiteSpaceStep(ss: DSiteSpace, ref: Ref, to: { before?: Ref; after?: Ref }, fromList: Ref | undefined, toList: Ref): SiteStep {
    const side = to.before !== undefined ? 'before' : 'after';
    const anchor = (to.before ?? to.after)!;
    const params = { ...site, siteSpaceId: idOf(ref) };
    const fields: FieldChange[] =
      fromList !== toList && toList !== ROOT
        ? [{ field: 'section', from: fromList === undefined || fromList === ROOT ? null : name(fromList), to: name(toList) }]
        : [];
    const move = request(ops.moveSiteSpace, params, { position: { [side]: { type: 'site-space', siteSpace: idOf(anchor) } } });
    // Its path taken in the section it joins (paths are unique there): it moves under a temporary
    // path, set right with the updates, once the holder has moved aside or gone.
    const l = liveById.siteSpace.get(ref);
    const taken = l !== undefined && fromList !== toList && (sim.lists.get(toList) ?? []).some((r) => r !== ref && liveById.siteSpace.get(r)?.path === l.path);
    if (l && taken) {
      const aside = temporaryPath(l.path);
      movedAside.set(l.id, aside);
      return {
        stage: STAGE.MOVE,
        change: {
          ...base,
          kind: 'site-space',
          action: 'move',
          key: ss.key,
          id: l.id,
          fields,
          note: `${side} ${name(anchor)}, under a temporary path (${JSON.stringify(l.path)} is taken there)`,
        },
        requests: [request(ops.updateSiteSpace, params, { path: aside }), move],
      };
    }
    return {
      stage: STAGE.MOVE,
      change: { ...base, kind: 'site-space', action: 'move', key: ss.key, ...(liveId(ref) ? { id: ref } : {}), fields, note: `${side} ${name(anchor)}` },
      requests: [
        {
          ...move,
          // A path taken there that the plan could not see (a new item's): the same, then.
          onPathTaken: [request(ops.updateSiteSpace, params, { path: temporaryPath(ss.path ?? ss.key) })],
        },
      ],
    };
  }

  /**
   * Updates of one list's items, where paths are unique: when an item's new path is another's
   * current one, and that other is changing too, the other first takes a temporary path.
   */
  function pathAware<D extends { key: string }, L extends { id: string; path: string; title?: string }>(
    updates: { d: D; l: L; fields: FieldChange[] }[],
    holders: { id: string; path: string }[],
    kind: 'section' | 'site-space',
  ): SiteStep[] {
    const out: SiteStep[] = [];
    const changing = new Map(updates.map((u) => [u.l.id, u]));
    const holderOf = new Map(holders.map((h) => [h.path, h.id]));
    const aside = new Set<string>();
    for (const u of updates) {
      const to = u.fields.find((f) => f.field === 'path')?.to as string | undefined;
      if (to === undefined) continue;
      const holder = holderOf.get(to);
      if (holder === undefined || holder === u.l.id) continue;
      if (changing.get(holder)?.fields.some((f) => f.field === 'path')) aside.add(holder);
      else {
        drift.push({
          kind,
          key: u.d.key,
          id: u.l.id,
          site: siteKey,
          field: 'path',
          live: u.l.path,
          file: to,
          why: `path ${JSON.stringify(to)} is taken by ${kind === 'section' ? 'section' : 'site space'} ${name(holder)}, which keeps it${matchedLive.has(holder) ? '' : ' (it is not in the file: --prune deletes it)'}`,
        });
        u.fields = u.fields.filter((f) => f.field !== 'path');
      }
    }
    const send = (id: string, body: Record<string, unknown>) =>
      kind === 'section'
        ? request(ops.updateSiteSection, { ...site, siteSectionId: id }, body)
        : request(ops.updateSiteSpace, { ...site, siteSpaceId: id }, body);
    if (aside.size) {
      const ids = [...aside];
      out.push({
        stage: STAGE.UPDATE,
        change: { site: siteKey, kind, action: 'update', key: ids.map(name).join(', '), fields: [{ field: 'path', to: '(temporary, to swap paths)' }] },
        requests: ids.map((id) => send(id, { path: temporaryPath(holders.find((h) => h.id === id)!.path) })),
      });
    }
    for (const u of updates) {
      if (!u.fields.length) continue;
      out.push({
        stage: STAGE.UPDATE,
        change: { site: siteKey, kind, action: 'update', key: u.d.key, id: u.l.id, ...(u.l.title ? { title: u.l.title } : {}), fields: u.fields },
        requests: [send(u.l.id, bodyOf(u.fields))],
      });
    }
    return out;
  }
}

/** `[field, file's value (undefined: not managed), live value]` → the differences. */
export function diffFields(rows: [string, unknown, unknown][]): FieldChange[] {
  return rows.filter(([, want, have]) => want !== undefined && !same(want, have)).map(([field, to, from]) => ({ field, from, to }));
}

export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** A value with its keys sorted, `undefined` as `null`: equal values give equal JSON. */
export function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  return v === undefined ? null : v;
}

/** `its 2 site spaces go with it`. */
function goWithIt(n: number): string {
  return `its ${plural(n, 'site space')} ${n === 1 ? 'goes' : 'go'} with it`;
}

function temporaryPath(path: string): string {
  return `${path.slice(0, 80)}-moving-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Pairs of the file's items and the service's: by id (the file's, or one learnt earlier in this
 * apply), then by key (the service's items keyed as export keys them), then by `alike` (the title).
 */
export function match<D extends { key: string }, L extends { id: string }>(
  desired: readonly D[],
  live: readonly L[],
  idOf: (d: D) => string | undefined,
  liveKey: Map<string, string>,
  alike: ((d: D, l: L) => boolean)[] = [],
): Map<D, L> {
  const out = new Map<D, L>();
  const taken = new Set<string>();
  const pair = (d: D, l: L | undefined) => {
    if (!l || taken.has(l.id) || out.has(d)) return;
    out.set(d, l);
    taken.add(l.id);
  };
  const byId = new Map(live.map((l) => [l.id, l]));
  for (const d of desired) {
    const id = idOf(d);
    if (id !== undefined) pair(d, byId.get(id));
  }
  const byKey = new Map<string, L>();
  for (const l of live) if (!taken.has(l.id)) byKey.set(liveKey.get(l.id) ?? l.id, l);
  // An item with an id the service does not have is matched by key or title too (a file from another organization).
  for (const d of desired) if (!out.has(d)) pair(d, byKey.get(d.key));
  for (const test of alike) {
    for (const d of desired)
      if (!out.has(d))
        pair(
          d,
          live.find((l) => !taken.has(l.id) && test(d, l)),
        );
  }
  return out;
}

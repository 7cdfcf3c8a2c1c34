/**
 * `orgs export --update FILE`: the file rewritten from the organization, keeping what its authors
 * wrote. The file's YAML document is edited in place (the `yaml` package's Document API keeps its
 * comments, its order and the style of what does not change):
 *
 * - items are matched to the service's as plan matches them (matchItems: id, then key with the
 *   `moved:` notes, then title; members by user id, specifications by slug; a site's sections,
 *   groups and site spaces as siteSteps matches them), so a matched item keeps its key; one whose
 *   key came from its title and whose title changed gets its key written (`key: getting-started`),
 *   so that references to it still hold;
 * - a matched item's fields are set to the service's values, only the fields the file has (a field
 *   left out is not managed, and stays out; a value the service no longer has is left out), its id
 *   added when it had none; a certificate written `${env:NAME}` or `{ file: … }` stays so;
 * - items the organization no longer has are removed, new ones appended (as export writes them,
 *   with keys that do not collide with the file's); a site's structure follows the service's order;
 * - only the kinds the file declares: a file without `sites:` gets none.
 */
import { isMap, isScalar, isSeq, parseDocument, visit, type Document, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { exportFile, type ExportKeys, type SiteKeys } from './export.js';
import { KeyAllocator, slug } from './keys.js';
import type { Desired, DGroup, DSection, DSiteSpace, Live, LNode, LSiteSpace, LStructure, Path } from './model.js';
import { walkDesired, walkLive } from './model.js';
import { certificateBody } from './kinds/common.js';
import { buildPlan, liveKeys, matchItems } from './plan.js';
import type { Kind } from './schema.js';
import { liveSiteKeys, match } from './sites.js';
import { parseOrgFile, type LoadOptions } from './source.js';

export interface UpdateResult {
  /** The new text (the same as the old when nothing changed). */
  text: string;
  added: string[];
  removed: string[];
  /** `space getting-started: title, parent`. */
  changed: string[];
  /** What was kept though the organization differs (a certificate from the environment or a file). */
  kept: string[];
}

const SINGULAR: Record<Kind, string> = {
  collections: 'collection',
  spaces: 'space',
  sites: 'site',
  teams: 'team',
  members: 'member',
  saml: 'saml',
  openapi: 'openapi',
};
const ENV_VALUE = /^\$\{env:[^}]*\}$/;

/**
 * The file checked as plan checks it, before anything is read. Throws OrgFileError. A `${env:NAME}`
 * certificate needs no variable here: it is kept as it is, and matching needs no certificate.
 */
export function checkForUpdate(text: string, source: string, opts: LoadOptions = {}): Desired {
  return parseOrgFile(withoutEnvCertificates(text), source, opts);
}

/** The file's text (checked by checkForUpdate into `desired`) rewritten from `live` (read with every kind). */
export function updateFile(text: string, desired: Desired, live: Live): UpdateResult {
  const doc = parseDocument(text, { keepSourceTokens: false });
  const json = desired.source.endsWith('.json') || /^\s*\{/.test(text);
  const base = liveKeys(live);
  const { collectionOf, spaceOf, siteOf, samlOf, teamOf } = matchItems(desired, live, base);
  const memberOf = new Map(desired.members.flatMap((d) => live.members.filter((l) => l.id === d.id).map((l) => [d, l] as const)));
  const specOf = new Map(desired.openapi.flatMap((d) => live.openapi.filter((l) => l.slug.toLowerCase() === d.slug.toLowerCase()).map((l) => [d, l] as const)));

  // Keys: the file's for what it has, fresh ones (not colliding with the file's) for the rest.
  const keysOf = <D extends { key: string }, L extends { id: string }>(
    declared: boolean,
    matched: Map<D, L>,
    liveItems: L[],
    liveKey: Map<string, string>,
    all: D[],
    baseOf: (l: L) => string,
  ) => {
    if (!declared) return liveKey;
    const alloc = new KeyAllocator();
    all.forEach((d) => alloc.reserve(d.key));
    const out = new Map<string, string>();
    for (const [d, l] of matched) out.set(l.id, d.key);
    for (const l of liveItems) if (!out.has(l.id)) out.set(l.id, alloc.take(baseOf(l)));
    return out;
  };
  const has = (k: Kind) => desired.kinds.has(k);
  const keys: ExportKeys = {
    collection: keysOf(has('collections'), collectionOf, live.collections, base.collection, desired.collections, (l) => slug(l.title, 'collection')),
    space: keysOf(has('spaces'), spaceOf, live.spaces, base.space, desired.spaces, (l) => slug(l.title, 'space')),
    site: keysOf(has('sites'), siteOf, live.sites, base.site, desired.sites, (l) => slug(l.title, 'site')),
    member: keysOf(has('members'), memberOf, live.members, base.member, desired.members, (l) => slug(l.name || l.id, 'member')),
    saml: keysOf(has('saml'), samlOf, live.saml, base.saml, desired.saml, (l) => slug(l.label, 'provider')),
    team: keysOf(has('teams'), teamOf, live.teams, base.team, desired.teams, (l) => slug(l.title, 'team')),
  };

  // A site's structure: matched as plan matches it, the file's keys kept.
  const dSiteOf = new Map([...siteOf].map(([d, l]) => [l.id, d]));
  const spaceIds = new Map([...keys.space].map(([id, k]) => [k, id]));
  const structureMatch = new Map<string, { groups: Map<DGroup, unknown>; sections: Map<DSection, unknown>; siteSpaces: Map<DSiteSpace, LSiteSpace> }>();
  const siteKeys = (siteId: string, structure: LStructure, spaceKey: (id: string) => string): SiteKeys => {
    const fresh = liveSiteKeys(structure, spaceKey);
    const d = dSiteOf.get(siteId);
    if (!d?.structure) return fresh;
    const want = walkDesired(d.structure);
    const have = walkLive(structure);
    const groups = match(want.groups, have.groups, (x) => x.id, fresh.group, [(x, l) => x.title === l.title]);
    const sections = match(want.sections, have.sections, (x) => x.id, fresh.section, [(x, l) => x.title === l.title]);
    // Site spaces as siteSteps matches them: the same space in the matching section, then anywhere in the site.
    const dSectionOf = new Map(want.sections.flatMap((sec) => sec.siteSpaces.map((ss) => [ss, sec] as const)));
    const lSectionOf = new Map(have.sections.flatMap((sec) => sec.siteSpaces.map((ss) => [ss.id, sec.id] as const)));
    const sameSpace = (x: DSiteSpace, l: LSiteSpace) => spaceIds.get(x.space) === l.space;
    const siteSpaces = match(want.siteSpaces, have.siteSpaces, (x) => x.id, fresh.siteSpace, [
      (x, l) => {
        const ds = dSectionOf.get(x);
        return sameSpace(x, l) && (ds === undefined || sections.get(ds)?.id === lSectionOf.get(l.id));
      },
      sameSpace,
    ]);
    structureMatch.set(siteId, { groups, sections, siteSpaces });
    const keep = <D extends { key: string }, L extends { id: string }>(m: Map<D, L>, all: D[], items: L[], freshKeys: Map<string, string>) => {
      const alloc = new KeyAllocator();
      all.forEach((x) => alloc.reserve(x.key));
      const out = new Map<string, string>();
      for (const [x, l] of m) out.set(l.id, x.key);
      // A new item keeps the key export would give it, unless the file has that key already.
      for (const l of items) if (!out.has(l.id)) out.set(l.id, alloc.take(freshKeys.get(l.id)!));
      return out;
    };
    return {
      group: keep(groups, want.groups, have.groups, fresh.group),
      section: keep(sections, want.sections, have.sections, fresh.section),
      siteSpace: keep(siteSpaces, want.siteSpaces, have.siteSpaces, fresh.siteSpace),
    };
  };
  const data = exportFile(live, [...desired.kinds], keys, siteKeys) as unknown as Record<string, Record<string, unknown>[] | undefined>;

  const result: UpdateResult = { text, added: [], removed: [], changed: [], kept: [] };
  const nodeAt = (at: Path) => doc.getIn(at, true) as YAMLMap;
  const name = (kind: Kind, e: Record<string, unknown>) => `${SINGULAR[kind]} ${String(e.key ?? e.slug)}`;

  const kind = <D extends { key?: string; at: Path }, L>(
    k: Kind,
    items: D[],
    liveItems: L[],
    matched: Map<D, L>,
    title?: (e: Record<string, unknown>) => string,
  ) => {
    if (!has(k)) return;
    const exported = data[k]!;
    const seq = doc.get(k, true) as YAMLSeq;
    const liveIndex = new Map(liveItems.map((l, i) => [l, i]));
    const kept = new Set<L>();
    const out: unknown[] = [];
    for (const d of items) {
      const l = matched.get(d);
      const node = nodeAt(d.at);
      if (l === undefined) {
        result.removed.push(`${SINGULAR[k]} ${d.key ?? (d as { slug?: string }).slug}`);
        continue;
      }
      kept.add(l);
      const e = exported[liveIndex.get(l)!];
      const fields = updateItem(doc, node, e, title ? slug(title(e), SINGULAR[k]) : undefined, result, name(k, e));
      if (k === 'sites')
        fields.push(...updateStructure(doc, node, e, live.sites[liveIndex.get(l)!].structure, structureMatch.get(live.sites[liveIndex.get(l)!].id), nodeAt));
      if (fields.length) result.changed.push(`${name(k, e)}: ${[...new Set(fields)].join(', ')}`);
      out.push(node);
    }
    liveItems.forEach((l, i) => {
      if (kept.has(l)) return;
      out.push(doc.createNode(exported[i]));
      result.added.push(name(k, exported[i]));
    });
    // `spaces: []` that gets items is written as a block list, as export writes lists.
    if (seq.flow && seq.items.length === 0 && out.length) seq.flow = false;
    seq.items = out;
  };
  kind('collections', desired.collections, live.collections, collectionOf, (e) => String(e.title));
  kind('spaces', desired.spaces, live.spaces, spaceOf, (e) => String(e.title));
  kind('sites', desired.sites, live.sites, siteOf, (e) => String(e.title));
  kind('teams', desired.teams, live.teams, teamOf, (e) => String(e.title));
  kind('members', desired.members, live.members, memberOf, (e) => String(e.name || e.id));
  kind('saml', desired.saml, live.saml, samlOf, (e) => String(e.label));
  kind('openapi', desired.openapi as unknown as { at: Path; key?: string }[], live.openapi, specOf as never);
  const settings = doc.get('organization', true);
  if (isMap(settings) && typeof data.organization === 'object') {
    // The settings the file manages, set to the service's (only the fields it has).
    const fields = updateItem(doc, settings, data.organization as unknown as Record<string, unknown>, undefined, result, 'organization');
    if (fields.length) result.changed.push(`organization: ${fields.join(', ')}`);
  } else if (doc.has('organization') && doc.get('organization') !== live.organization) {
    doc.set('organization', live.organization);
    result.changed.push(`organization: ${live.organization}`);
  }

  if (result.added.length || result.removed.length || result.changed.length) {
    result.text = json ? JSON.stringify(doc.toJS(), null, 2) + '\n' : doc.toString({ lineWidth: 0 });
  }
  return result;
}

/**
 * What plan would still change with the updated text (`--prune`): nothing, unless the file asks for
 * what export cannot write (a value the API cannot set, a reference export cannot follow). Empty
 * when the text cannot be planned offline.
 */
export function stillPlanned(text: string, source: string, live: Live, opts: LoadOptions = {}): string[] {
  try {
    const plan = buildPlan(checkForUpdate(text, source, opts), live, { prune: true });
    return plan.changes.map((c) => `${c.action} ${c.kind} ${c.site ? `${c.site}/` : ''}${c.key}`);
  } catch {
    return [];
  }
}

/** Fields that are structure, not values: rebuilt by updateStructure. */
const CHILDREN = new Set(['sections', 'siteSpaces']);

/**
 * One item's fields set to `e` (the service's, as export writes it), only those the file has; its
 * id added; its key written when it came from a title that changed. Returns the fields changed.
 */
function updateItem(doc: Document, node: YAMLMap, e: Record<string, unknown>, derivedKey: string | undefined, result: UpdateResult, name: string): string[] {
  const changed: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (!node.has('key') && e.key !== undefined && derivedKey !== undefined && derivedKey !== e.key) {
    node.items.unshift(doc.createPair('key', e.key) as Pair<unknown, unknown>);
    changed.push('key (written: its title changed)');
  }
  for (const [f, v] of Object.entries(e)) {
    if (f === 'key' || CHILDREN.has(f)) continue;
    const present = node.has(f);
    const value = node.get(f, true);
    const current = isScalar(value) ? value.value : present ? (value as unknown as { toJSON(): unknown }).toJSON() : undefined;
    if (f === 'certificate' && present && (isMap(value) || (typeof current === 'string' && ENV_VALUE.test(current)))) {
      if (certificateBody(String(v)) !== certificateBody(String(current))) {
        result.kept.push(
          `${name}: certificate ${isMap(value) ? JSON.stringify((current as { file?: string }).file) : String(current)} kept (not compared here: plan compares it)`,
        );
      }
      continue;
    }
    if (f === 'certificate' && typeof current === 'string' && certificateBody(current) === certificateBody(String(v))) continue;
    // An OpenAPI specification given by its document (`file:`) stays so: plan compares the document.
    if (f === 'url' && node.has('file')) continue;
    if (!present) {
      if (f === 'id' || (f === 'parent' && v !== null)) {
        // After its key, else after its first field: the item's first line stays as it was.
        if (f === 'id')
          node.items.splice(
            Math.max(1, node.items.findIndex((p) => isScalar(p.key) && p.key.value === 'key') + 1),
            0,
            doc.createPair('id', v) as Pair<unknown, unknown>,
          );
        else node.set(f, v);
        changed.push(f);
      }
      continue;
    }
    if (!same(current, v)) {
      if (isScalar(value)) value.value = v;
      else node.set(f, updatedNode(doc, value, v));
      changed.push(f);
    }
  }
  // A value the service no longer has (export leaves it out): left out, no longer managed.
  for (const pair of [...node.items]) {
    const f = isScalar(pair.key) ? String(pair.key.value) : '';
    if (f === '' || f === 'key' || f === 'group' || CHILDREN.has(f) || f in e) continue;
    const v = isScalar(pair.value) ? pair.value.value : pair.value;
    if (v === null || v === '' || v === false) continue;
    // A certificate the file takes from the environment or a file stays, set or not in the service.
    if (f === 'certificate' && (isMap(v) || (typeof v === 'string' && ENV_VALUE.test(v)))) continue;
    if (f === 'file') continue;
    node.delete(f);
    changed.push(`${f} (no longer set)`);
  }
  return changed;
}

/** Fields that name an entry of a list of maps (a grant's user or team, a rule's kind): its entry is matched by them. */
const ENTRY_NAMES = ['key', 'id', 'user', 'team', 'rule', 'type'];

/**
 * `node` (the file's) made to hold `value` in place where it can, so that its comments stay: a map
 * keeps the pairs whose values it still has (updated the same way), a list the entries it still has
 * (scalars by value; maps by what names them, else by position), in `value`'s order.
 */
function updatedNode(doc: Document, node: unknown, value: unknown): unknown {
  if (isScalar(node) && (value === null || typeof value !== 'object')) {
    node.value = value;
    return node;
  }
  if (isMap(node) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = value as Record<string, unknown>;
    for (const pair of [...node.items]) {
      const f = isScalar(pair.key) ? String(pair.key.value) : '';
      if (!(f in entries)) node.delete(pair.key);
    }
    for (const [f, v] of Object.entries(entries)) node.set(f, node.has(f) ? updatedNode(doc, node.get(f, true), v) : doc.createNode(v));
    return node;
  }
  if (isSeq(node) && Array.isArray(value)) {
    const left = [...node.items];
    const nameOf = (v: unknown): string | undefined => {
      if (isScalar(v)) return `=${JSON.stringify(v.value)}`;
      if (v === null || typeof v !== 'object') return `=${JSON.stringify(v)}`;
      const plain = isMap(v) ? (v.toJSON() as Record<string, unknown>) : (v as Record<string, unknown>);
      const named = ENTRY_NAMES.filter((n) => plain[n] !== undefined);
      return named.length ? named.map((n) => `${n}=${JSON.stringify(plain[n])}`).join(',') : undefined;
    };
    node.items = value.map((v, i) => {
      const name = nameOf(v);
      const at = name !== undefined ? left.findIndex((n) => n !== undefined && nameOf(n) === name) : left[i] !== undefined && isMap(left[i]) ? i : -1;
      if (at < 0) return doc.createNode(v);
      const kept = left[at];
      left[at] = undefined as never;
      return updatedNode(doc, kept, v);
    });
    return node;
  }
  return doc.createNode(value);
}

type StructureMatch = { groups: Map<DGroup, unknown>; sections: Map<DSection, unknown>; siteSpaces: Map<DSiteSpace, LSiteSpace> };

/** A site's sections or site spaces rebuilt in the service's order, the file's nodes reused (their comments with them). */
function updateStructure(
  doc: Document,
  node: YAMLMap,
  e: Record<string, unknown>,
  structure: LStructure,
  m: StructureMatch | undefined,
  nodeAt: (at: Path) => YAMLMap,
): string[] {
  const field = structure.mode;
  const other = field === 'sections' ? 'siteSpaces' : 'sections';
  if (!node.has('sections') && !node.has('siteSpaces')) return [];
  const before = JSON.stringify(node.toJSON());
  if (node.has(other) || !m) {
    node.delete(other);
    node.set(field, doc.createNode(e[field]));
    return [field];
  }
  const nodeOf = new Map<string, YAMLMap>();
  for (const mm of [m.groups, m.sections, m.siteSpaces] as Map<{ at: Path }, unknown>[])
    for (const [d, l] of mm) nodeOf.set((l as { id: string }).id, nodeAt(d.at));
  const list = (
    seqNode: unknown,
    items: { id: string }[],
    exported: Record<string, unknown>[],
    children: (item: never, n: YAMLMap, ex: Record<string, unknown>) => void,
  ) => {
    const seq = seqNode as YAMLSeq;
    seq.items = items.map((item, i) => {
      const n = nodeOf.get(item.id);
      if (!n) return doc.createNode(exported[i]);
      // A section's or group's key from a title that changed is written; a site space's is its space's.
      const x = exported[i];
      const derived = 'siteSpaces' in x || 'sections' in x ? slug(String(x.title), 'sections' in x ? 'group' : 'section') : undefined;
      updateItem(doc, n, x, derived, { text: '', added: [], removed: [], changed: [], kept: [] }, '');
      children(item as never, n, exported[i]);
      return n;
    });
  };
  const siteSpaces = (n: YAMLMap, items: LSiteSpace[], ex: Record<string, unknown>[]) => list(n.get('siteSpaces', true), items, ex, () => {});
  const nodes = (seqNode: unknown, items: LNode[], ex: Record<string, unknown>[]) =>
    list(seqNode, items, ex, (item: LNode, n: YAMLMap, x: Record<string, unknown>) => {
      if (item.type === 'group') {
        if (isSeq(n.get('sections', true))) nodes(n.get('sections', true), item.children, x.sections as Record<string, unknown>[]);
        else n.set('sections', doc.createNode(x.sections));
      } else if (isSeq(n.get('siteSpaces', true))) siteSpaces(n, item.siteSpaces, x.siteSpaces as Record<string, unknown>[]);
      else n.set('siteSpaces', doc.createNode(x.siteSpaces));
    });
  if (structure.mode === 'siteSpaces') siteSpaces(node, structure.siteSpaces, e.siteSpaces as Record<string, unknown>[]);
  else nodes(node.get('sections', true), structure.items, e.sections as Record<string, unknown>[]);
  return JSON.stringify(node.toJSON()) === before ? [] : [field];
}

/**
 * The text with each `certificate: ${env:NAME}` of a block map blanked out (spaces, so that every
 * place keeps its line and column; one in a flow map `{…}` is left): matching needs no certificate, and the variable need not be set to update.
 */
function withoutEnvCertificates(text: string): string {
  const doc = parseDocument(text);
  if (doc.errors.length) return text;
  const spans: [number, number][] = [];
  visit(doc, {
    Pair(_k, pair, ancestors) {
      if (!isScalar(pair.key) || pair.key.value !== 'certificate' || !isScalar(pair.value)) return;
      if (typeof pair.value.value !== 'string' || !ENV_VALUE.test(pair.value.value)) return;
      if (!ancestors.some((a) => isSeq(a) && doc.get('saml', true) === a)) return;
      const start = pair.key.range?.[0];
      const end = pair.value.range?.[1];
      if (start === undefined || end === undefined || /[{,]\s*$/.test(text.slice(0, start))) return;
      spans.push([start, end]);
    },
  });
  let out = text;
  for (const [a, b] of spans) out = out.slice(0, a) + out.slice(a, b).replace(/[^\n]/g, ' ') + out.slice(b);
  return out;
}

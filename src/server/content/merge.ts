/**
 * Merging lines of content, page by page, for change requests: a three-way merge that reports
 * the pages both sides changed (conflicts).
 *
 * A page "changed" when it was added, removed, or any of its own fields (title, slug, body,
 * attributes) or its parent differ; its position among its siblings alone is not a change, but a
 * reordering made on one side only is kept by the merge.
 *
 * The merge is written as steps (a generator) that pause between pages: a request runs it in slices
 * (`mergeInSlices`), so that merging thousands of pages does not hold up other requests; the
 * contents it reads are immutable, so pausing changes nothing of its result.
 */
import { runAtOnce, runInSlices, type Steps } from '../slices.js';
import { walkPages, type FileRec, type PageRec, type RevisionContent } from './model.js';

interface FlatPage {
  rec: Omit<PageRec, 'pages'>;
  parent: string | null;
  fingerprint: string;
}

interface Flat {
  pages: Map<string, FlatPage>;
  /** parent id ('' for the top level) → child ids in order. */
  order: Map<string, string[]>;
}

/** JSON with object keys sorted, so equal records give equal text whatever order they were built in. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

function* flatten(content: RevisionContent): Steps<void, void, Flat> {
  const pages = new Map<string, FlatPage>();
  const order = new Map<string, string[]>();
  for (const { page, parent } of walkPages(content.pages)) {
    yield;
    const { pages: _children, ...rec } = page;
    const parentId = parent?.id ?? null;
    // Timestamps aside: the same edit made on both sides is not a conflict.
    const own = { ...rec, createdAt: undefined, updatedAt: undefined };
    pages.set(page.id, { rec, parent: parentId, fingerprint: stableJson([own, parentId]) });
    const key = parentId ?? '';
    const siblings = order.get(key);
    if (siblings) siblings.push(page.id);
    else order.set(key, [page.id]);
  }
  return { pages, order };
}

export interface MergeResult {
  /** The merged content; `ours` unchanged when there are conflicts. */
  content: RevisionContent;
  /** Ids of conflicting pages (empty when the merge succeeded). */
  conflicts: string[];
}

/**
 * Three-way merge: every page, file and variable changed on `theirs` since `base` replaces what
 * `ours` has; pages changed on both sides differently are conflicts. A page whose parent is gone
 * on the other side, or that a pair of moves would place inside itself, is a conflict too.
 */
export function mergeContent(base: RevisionContent, ours: RevisionContent, theirs: RevisionContent): MergeResult {
  return runAtOnce(mergeSteps(base, ours, theirs), () => undefined);
}

/** `mergeContent` in slices, for a request. */
export function mergeInSlices(base: RevisionContent, ours: RevisionContent, theirs: RevisionContent): Promise<MergeResult> {
  return runInSlices(mergeSteps(base, ours, theirs), () => undefined);
}

function* mergeSteps(base: RevisionContent, ours: RevisionContent, theirs: RevisionContent): Steps<void, void, MergeResult> {
  const b = yield* flatten(base);
  const o = yield* flatten(ours);
  const t = yield* flatten(theirs);
  const chosen = new Map<string, FlatPage>();
  const conflicts = new Set<string>();
  for (const id of new Set([...b.pages.keys(), ...o.pages.keys(), ...t.pages.keys()])) {
    yield;
    const [bp, op, tp] = [b.pages.get(id), o.pages.get(id), t.pages.get(id)];
    const oursChanged = bp?.fingerprint !== op?.fingerprint;
    const theirsChanged = bp?.fingerprint !== tp?.fingerprint;
    if (oursChanged && theirsChanged && op?.fingerprint !== tp?.fingerprint) conflicts.add(id);
    const pick = theirsChanged ? tp : op;
    if (pick) chosen.set(id, pick);
  }
  for (const p of chosen.values()) if (p.parent !== null && !chosen.has(p.parent)) conflicts.add(p.parent);
  if (conflicts.size > 0) return { content: ours, conflicts: [...conflicts] };

  const same = (x: string[] = [], y: string[] = []) => x.length === y.length && x.every((v, i) => v === y[i]);
  const childrenOf = (parent: string | null): string[] => {
    const key = parent ?? '';
    const [bo, oo, to] = [b.order.get(key) ?? [], o.order.get(key) ?? [], t.order.get(key) ?? []];
    const belongs = (id: string) => chosen.get(id)?.parent === parent;
    const list = (same(oo, bo) && !same(to, bo) ? to : oo).filter(belongs);
    // Each page missing from the list goes right after the nearest page before it in its own
    // order that the list has (or first): in one pass per order, the list kept as a linked list.
    const after = new Map<string, string[]>(); // a page → the pages placed right after it, in order
    const first: string[] = [];
    const listed = new Set(list);
    for (const source of [to, oo]) {
      let prev: string | undefined;
      for (const id of source) {
        if (!belongs(id) || listed.has(id)) {
          if (listed.has(id)) prev = id;
          continue;
        }
        const slot = prev === undefined ? first : (after.get(prev) ?? (after.set(prev, []), after.get(prev)!));
        // Inserted right after `prev`, so before what earlier passes put there.
        slot.unshift(id);
        listed.add(id);
        prev = id;
      }
    }
    const out: string[] = [];
    const stack = [...first, ...list].reverse();
    while (stack.length > 0) {
      const id = stack.pop()!;
      out.push(id);
      const next = after.get(id);
      if (next) for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]);
    }
    return out;
  };
  const placed = new Set<string>();
  function* build(parent: string | null): Steps<void, void, PageRec[]> {
    const pages: PageRec[] = [];
    for (const id of childrenOf(parent)) {
      yield;
      placed.add(id);
      pages.push({ ...chosen.get(id)!.rec, pages: yield* build(id) });
    }
    return pages;
  }
  const pages = yield* build(null);
  const unplaced = [...chosen.keys()].filter((id) => !placed.has(id));
  if (unplaced.length > 0) return { content: ours, conflicts: unplaced };

  return {
    content: { pages, files: mergeFiles(base.files, ours.files, theirs.files), variables: mergeRecords(base.variables, ours.variables, theirs.variables) },
    conflicts: [],
  };
}

function mergeFiles(base: FileRec[], ours: FileRec[], theirs: FileRec[]): FileRec[] {
  const key = (f: FileRec | undefined) => (f ? stableJson(f) : undefined);
  const [b, t] = [new Map(base.map((f) => [f.id, f])), new Map(theirs.map((f) => [f.id, f]))];
  const out: FileRec[] = [];
  for (const f of ours) {
    const changed = key(b.get(f.id)) !== key(t.get(f.id));
    const pick = changed ? t.get(f.id) : f;
    if (pick) out.push(pick);
  }
  const kept = new Set(out.map((f) => f.id));
  for (const f of theirs) if (!b.has(f.id) && !kept.has(f.id)) out.push(f);
  return out;
}

function mergeRecords(base: Record<string, string>, ours: Record<string, string>, theirs: Record<string, string>): Record<string, string> {
  const out = { ...ours };
  for (const k of new Set([...Object.keys(base), ...Object.keys(theirs)])) {
    if (base[k] === theirs[k]) continue;
    if (theirs[k] === undefined) delete out[k];
    else out[k] = theirs[k];
  }
  return out;
}

/** The pages of `ids` with their title and path, taken from the first of `contents` that holds each, in tree order. */
export function describePages(ids: Iterable<string>, ...contents: RevisionContent[]): { id: string; title: string; path: string }[] {
  const wanted = new Set(ids);
  const out: { id: string; title: string; path: string }[] = [];
  for (const content of contents) {
    for (const { page, path } of walkPages(content.pages)) if (wanted.delete(page.id)) out.push({ id: page.id, title: page.title, path });
  }
  return out;
}

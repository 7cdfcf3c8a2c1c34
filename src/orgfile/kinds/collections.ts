/** Collections: created top-down, updated, moved (shallowest first), deleted top-most only (with --prune). */
import { ops as collectionOps } from '../../contract/collections.js';
import { RETENTION_DAYS } from '../../contract/spaces.js';
import type { DCollection, LCollection, LSpace } from '../model.js';
import { diffFields } from '../sites.js';
import { bodyOf, ref, request, type Drift, type Kept, type Step } from '../steps.js';
import { plural } from '../../cli/text.js';
import { fieldsOf, step, subtree } from './common.js';
import type { KindDiff, PlanContext } from './context.js';

export function diffCollections(c: PlanContext): KindDiff {
  const { desired, live, prune, ids, keys, org, idRef, keyOfId, owned } = c;
  const { collectionOf, spaceOf } = c.matched;
  const declared = desired.kinds;
  const steps: Step[] = [];
  const drift: Drift[] = [];
  const kept: Kept[] = [];
  const byKey = new Map(desired.collections.map((c) => [c.key, c]));
  const depth = (c: DCollection): number => {
    let d = 0;
    for (let p = c.parent; p !== null && d < 1000; p = byKey.get(p)?.parent ?? null) d++;
    return d;
  };
  const moves: { d: DCollection; l: LCollection; depth: number }[] = [];
  // Creations top-down: a collection after the one it goes in (apply waits for its id anyway).
  const inOrder = [...desired.collections].map((d, i) => ({ d, i, depth: depth(d) })).sort((x, y) => x.depth - y.depth || x.i - y.i);
  for (const { d } of inOrder) {
    const l = collectionOf.get(d);
    const parentId = d.parent === null ? null : ids.get(`collection:${d.parent}`);
    if (!l) {
      const later = {
        ...(d.description ? { description: d.description } : {}),
        ...(d.defaultLevel !== undefined && d.defaultLevel !== 'inherit' ? { defaultLevel: d.defaultLevel } : {}),
      };
      steps.push(
        step(
          'collections',
          {
            kind: 'collection',
            action: 'create',
            key: d.key,
            title: d.title,
            fields: [{ field: 'title', to: d.title }, ...(d.parent ? [{ field: 'parent', to: d.parent }] : []), ...fieldsOf(later)],
          },
          [
            {
              ...request(
                collectionOps.createCollection,
                { organizationId: org },
                { title: d.title, ...(d.parent !== null ? { parent: idRef(`collection:${d.parent}`) } : {}) },
              ),
              saves: { [`collection:${d.key}`]: 'id' },
            },
            ...(Object.keys(later).length ? [request(collectionOps.updateCollection, { collectionId: ref(`collection:${d.key}`) }, later)] : []),
          ],
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
        step('collections', { kind: 'collection', action: 'update', key: d.key, id: l.id, title: l.title, fields }, [
          request(collectionOps.updateCollection, { collectionId: l.id }, bodyOf(fields)),
        ]),
      );
    }
    if ((parentId ?? undefined) !== l.parent || (d.parent !== null && parentId === undefined)) moves.push({ d, l, depth: depth(d) });
  }
  // Shallowest first: a collection's new parent is in place before it moves in (no cycle on the way).
  moves.sort((a, b) => a.depth - b.depth);
  for (const { d, l } of moves) {
    steps.push(
      step(
        'collection-moves',
        {
          kind: 'collection',
          action: 'move',
          key: d.key,
          id: l.id,
          title: l.title,
          fields: [{ field: 'parent', from: l.parent ? (keyOfId.collection.get(l.parent) ?? l.parent) : null, to: d.parent }],
        },
        [request(collectionOps.moveCollection, { collectionId: l.id }, { parent: d.parent === null ? null : idRef(`collection:${d.parent}`) })],
        // One at a time, shallowest first: a new parent is in place before a collection moves in (no cycle on the way).
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
      step('delete-collections', { ...item, action: 'delete', ...(notes.length ? { note: notes.join('; ') } : {}) }, [
        request(collectionOps.deleteCollection, { collectionId: c.id }),
      ]),
    );
  }
  return { steps, drift, kept };
  /** Whether the plan moves a live space out of where it is (to a collection that stays, or the root). */
  function movedOut(s: LSpace): boolean {
    const d = [...spaceOf].find(([, l]) => l.id === s.id)?.[0];
    if (!d) return false;
    const to = d.parent === null ? null : (ids.get(`collection:${d.parent}`) ?? `new:${d.parent}`);
    return to !== (s.parent ?? null);
  }
}

/** Spaces: created, updated (a locked one unlocked for the edit), moved, deleted to the trash (with --prune). */
import { RETENTION_DAYS, ops as spaceOps, type MergeRules } from '../../contract/spaces.js';
import type { DSpace, LSpace } from '../model.js';
import { diffFields } from '../sites.js';
import { bodyOf, ref, request, type Drift, type Kept, type Step } from '../steps.js';
import { fieldsOf, step } from './common.js';
import type { KindDiff, PlanContext } from './context.js';

export function diffSpaces(c: PlanContext): KindDiff {
  const { desired, live, prune, ids, keys, org, idRef, keyOfId, rulesToApi, rulesToFile } = c;
  const { spaceOf } = c.matched;
  const steps: Step[] = [];
  const drift: Drift[] = [];
  const kept: Kept[] = [];
  const liveCollections = new Set(live.collections.map((col) => col.id));
  for (const d of desired.spaces) {
    let l = spaceOf.get(d);
    const deleted = !l && d.id !== undefined ? live.deletedSpaces?.get(d.id) : undefined;
    let lane: string | undefined;
    if (!l && typeof deleted === 'object') {
      // Deleted in the app, still in the file with its id: out of the trash (its content with it), then as the file says.
      lane = `space:${d.key}`;
      const trashed = deleted.space;
      steps.push(
        step(
          'spaces',
          {
            kind: 'space',
            action: 'restore',
            key: d.key,
            id: trashed.id,
            title: trashed.title,
            note: `deleted on ${deleted.deletedAt.slice(0, 10)}, restorable until ${deleted.restorableUntil.slice(0, 10)}: restored with its content, not created empty`,
          },
          [{ ...request(spaceOps.restoreSpace, { spaceId: trashed.id }), saves: { [`space:${d.key}`]: 'id' } }],
          lane,
        ),
      );
      // It goes back into its collection when that is still there, else to the root.
      l = { ...trashed, ...(trashed.parent && !liveCollections.has(trashed.parent) ? { parent: undefined } : {}) };
    }
    if (!l) {
      steps.push(createSpace(d, typeof deleted === 'string' ? deleted : undefined));
      continue;
    }
    const update = spaceUpdate(d, l, lane);
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
          'space-moves',
          {
            kind: 'space',
            action: 'move',
            key: d.key,
            id: l.id,
            title: l.title,
            fields: [{ field: 'parent', from: l.parent ? (keyOfId.collection.get(l.parent) ?? l.parent) : null, to: d.parent }],
          },
          [request(spaceOps.moveSpace, { spaceId: l.id }, { parent: d.parent === null ? null : idRef(`collection:${d.parent}`) })],
        ),
      );
    }
  }
  const matched = new Set([...spaceOf.values()].map((l) => l.id));
  for (const s of live.spaces) {
    if (matched.has(s.id) || !c.owned.space(s)) continue;
    const item = { kind: 'space' as const, key: keys.space.get(s.id)!, id: s.id, title: s.title };
    if (!prune) kept.push(item);
    else {
      steps.push(
        step('delete-spaces', { ...item, action: 'delete', note: `restorable for ${RETENTION_DAYS} days (docsctl spaces restore)` }, [
          request(spaceOps.deleteSpace, { spaceId: s.id }),
        ]),
      );
    }
  }
  return { steps, drift, kept };

  function createSpace(d: DSpace, why?: string): Step {
    const later = {
      // New content is `inherit`: any other level (null, no access, among them) is set after it is created.
      ...(d.defaultLevel !== undefined && d.defaultLevel !== 'inherit' ? { defaultLevel: d.defaultLevel } : {}),
      ...(d.mergeRules && d.mergeRules.type !== 'inherit' ? { mergeRules: d.mergeRules } : {}),
    };
    const first = {
      ...(d.emoji ? { emoji: d.emoji } : {}),
      ...(d.language ? { language: d.language } : {}),
      ...(d.editMode ? { editMode: d.editMode } : {}),
    };
    return step(
      'spaces',
      {
        kind: 'space',
        action: 'create',
        key: d.key,
        title: d.title,
        fields: [{ field: 'title', to: d.title }, ...(d.parent ? [{ field: 'parent', to: d.parent }] : []), ...fieldsOf(first), ...fieldsOf(later)],
        ...(why ? { note: why } : {}),
      },
      [
        {
          ...request(
            spaceOps.createSpace,
            { organizationId: org },
            { title: d.title, ...first, ...(d.parent !== null ? { parent: idRef(`collection:${d.parent}`) } : {}) },
          ),
          saves: { [`space:${d.key}`]: 'id' },
        },
        ...(Object.keys(later).length
          ? [
              request(
                spaceOps.updateSpace,
                { spaceId: ref(`space:${d.key}`) },
                { ...later, ...(later.mergeRules ? { mergeRules: rulesToApi(later.mergeRules) } : {}) },
              ),
            ]
          : []),
      ],
    );
  }

  function spaceUpdate(d: DSpace, l: LSpace, lane?: string): Step | undefined {
    const fields = diffFields([
      ['title', d.title, l.title],
      ['emoji', d.emoji, l.emoji],
      ['editMode', d.editMode, l.editMode ?? 'live'],
      ['defaultLevel', d.defaultLevel, l.defaultLevel],
      ['language', d.language, l.language],
      ['mergeRules', d.mergeRules, rulesToFile(l.mergeRules)],
    ]);
    if (!fields.length) return undefined;
    const body = bodyOf(fields) as Record<string, unknown>;
    if (body.emoji === '') body.emoji = null;
    if (body.mergeRules) body.mergeRules = rulesToApi(body.mergeRules as MergeRules);
    // A locked space takes no edit of its title, emoji or language unless the same request unlocks it.
    const edits = ['title', 'emoji', 'language'].some((f) => f in body);
    const lockedAfter = (d.editMode ?? l.editMode) === 'locked';
    const params = { spaceId: l.id };
    return step(
      'spaces',
      { kind: 'space', action: 'update', key: d.key, id: l.id, title: l.title, fields },
      edits && lockedAfter && l.editMode === 'locked'
        ? [request(spaceOps.updateSpace, params, { ...body, editMode: 'live' }), request(spaceOps.updateSpace, params, { editMode: 'locked' })]
        : [request(spaceOps.updateSpace, params, body)],
      lane,
    );
  }
}

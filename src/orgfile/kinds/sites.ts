/** Sites: each one lane (the site, its structure in order: see ../sites.ts, its publication), deleted (with --prune). */
import { ops as siteOps } from '../../contract/sites.js';
import { isEmptySchema } from '../live.js';
import type { DSite, LSite } from '../model.js';
import { walkLive } from '../model.js';
import { diffFields, same, siteSteps } from '../sites.js';
import { bodyOf, ref, request, type Drift, type Kept, type Step } from '../steps.js';
import { plural } from '../../cli/text.js';
import { apiSettings, emptySchema, fieldsOf, step } from './common.js';
import type { KindDiff, PlanContext } from './context.js';

export function diffSites(c: PlanContext): KindDiff {
  const { desired, live, prune, ids, keys, org, keyOfId } = c;
  const { siteOf } = c.matched;
  const steps: Step[] = [];
  const drift: Drift[] = [];
  const kept: Kept[] = [];
  const spaceKeyOf = (spaceId: string) => keyOfId.space.get(spaceId) ?? spaceId;
  const spaceIdOf = (key: string) => ids.get(`space:${key}`);
  for (const d of desired.sites) steps.push(...siteStepsOf(d, siteOf.get(d), spaceKeyOf, spaceIdOf));
  const matched = new Set([...siteOf.values()].map((l) => l.id));
  for (const s of live.sites) {
    if (matched.has(s.id) || !c.owned.site(s)) continue;
    const item = { kind: 'site' as const, key: keys.site.get(s.id)!, id: s.id, title: s.title };
    if (!prune) kept.push(item);
    else {
      const n = walkLive(s.structure).siteSpaces.length;
      steps.push(
        step('delete-sites', { ...item, action: 'delete', note: `with its structure${n ? ` (${plural(n, 'site space')})` : ''}; its spaces stay` }, [
          request(siteOps.deleteSite, { organizationId: org, siteId: s.id }),
        ]),
      );
    }
  }
  return { steps, drift, kept };

  /** A site's steps, one lane: the site, then its structure in order, then its publication. */
  function siteStepsOf(d: DSite, l: LSite | undefined, spaceKeyOf: (id: string) => string, spaceIdOf: (key: string) => string | undefined): Step[] {
    const lane = `site:${d.key}`;
    const out: Step[] = [];
    const siteId = l ? l.id : ref(`site:${d.key}`);
    const params = { organizationId: org, siteId };
    const settings = {
      ...(d.basename !== undefined ? { basename: d.basename } : {}),
      ...(d.defaultLevel !== undefined ? { defaultLevel: d.defaultLevel } : {}),
      ...(d.adaptiveContent !== undefined ? { adaptiveContent: d.adaptiveContent } : {}),
      ...(d.agentsContext !== undefined ? { agentsContext: d.agentsContext } : {}),
    };
    if (!l) {
      const schema = d.adaptiveSchema && !isEmptySchema(d.adaptiveSchema);
      out.push(
        step(
          'sites',
          {
            kind: 'site',
            action: 'create',
            key: d.key,
            title: d.title,
            fields: [
              { field: 'title', to: d.title },
              ...(d.type ? [{ field: 'type', to: d.type }] : []),
              ...(d.visibility ? [{ field: 'visibility', to: d.visibility }] : []),
              ...fieldsOf(settings),
              ...(schema ? [{ field: 'adaptiveSchema', to: '(set)' }] : []),
            ],
          },
          [
            {
              ...request(
                siteOps.createSite,
                { organizationId: org },
                { title: d.title, ...(d.type ? { type: d.type } : {}), ...(d.visibility ? { visibility: d.visibility } : {}) },
              ),
              saves: { [`site:${d.key}`]: 'id' },
            },
            ...(Object.keys(settings).length ? [request(siteOps.updateSite, params, apiSettings(settings))] : []),
            ...(schema ? [request(siteOps.putAdaptiveSchema, params, { jsonSchema: d.adaptiveSchema })] : []),
          ],
          lane,
        ),
      );
    } else {
      const fields = diffFields([
        ['title', d.title, l.title],
        ['visibility', d.visibility, l.visibility],
        ['basename', d.basename, l.basename],
        ['defaultLevel', d.defaultLevel, l.defaultLevel],
        ['adaptiveContent', d.adaptiveContent, l.adaptiveContent],
        ['agentsContext', d.agentsContext, l.agentsContext],
      ]);
      const schemaChanged = d.adaptiveSchema !== undefined && !same(isEmptySchema(d.adaptiveSchema) ? undefined : d.adaptiveSchema, l.adaptiveSchema);
      const all = [...fields, ...(schemaChanged ? [{ field: 'adaptiveSchema', from: l.adaptiveSchema ? '(a schema)' : '(none)', to: '(the file’s)' }] : [])];
      if (all.length) {
        const body = apiSettings(bodyOf(fields));
        out.push(
          step(
            'sites',
            { kind: 'site', action: 'update', key: d.key, id: l.id, title: l.title, fields: all },
            [
              ...(Object.keys(body).length ? [request(siteOps.updateSite, params, body)] : []),
              ...(schemaChanged
                ? [request(siteOps.putAdaptiveSchema, params, { jsonSchema: isEmptySchema(d.adaptiveSchema) ? emptySchema() : d.adaptiveSchema })]
                : []),
            ],
            lane,
          ),
        );
      }
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
    if (d.structure) {
      const structure = siteSteps({
        siteKey: d.key,
        organizationId: org,
        siteId,
        desired: d.structure,
        live: l?.structure ?? { mode: 'siteSpaces', siteSpaces: [] },
        prune,
        spaceKeyOf,
        spaceIdOf,
        ids,
      });
      out.push(...structure.steps.map((st) => ({ ...st.change, phase: 'sites' as const, lane, requests: st.requests })));
      drift.push(...structure.drift);
      kept.push(...structure.kept);
    }
    if (d.published !== undefined && d.published !== (l?.published ?? false)) {
      out.push(
        step(
          'sites',
          {
            kind: 'site',
            action: 'update',
            key: d.key,
            ...(l ? { id: l.id, title: l.title } : {}),
            fields: [{ field: 'published', from: l?.published ?? false, to: d.published }],
          },
          [d.published ? { ...request(siteOps.publishSite, params), checkout: true } : request(siteOps.unpublishSite, params)],
          lane,
        ),
      );
    }
    return out;
  }
}

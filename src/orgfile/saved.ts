/**
 * Saved plans (`orgs plan --out PLAN`, `orgs apply PLAN`): the plan's steps as data, and what it read
 * of the organization, object by object (a digest of each), so that apply can tell, before it sends
 * anything, whether the organization changed since the plan was made; it refuses then (exit 6),
 * naming what changed, and applies nothing. A plan reviewed on a pull request is what is applied.
 */
import { createHash } from 'node:crypto';
import { RETENTION_DAYS } from '../contract/spaces.js';
import { knownOperation } from './apply.js';
import type { ReadKind } from './live.js';
import type { Live } from './model.js';
import { liveKeys, type Plan, type Summary } from './plan.js';
import { canonical } from './sites.js';
import { PHASES, type Drift, type Kept, type Step } from './steps.js';

const PLAN_FORMAT = 'docsctl-plan';
const PLAN_VERSION = 1;

/** The kind of the read objects that are spaces of the file as the trash had them. */
const TRASHED = 'deleted-space';

/** One object the plan read: `kind:id`, the key it was known by, and a digest of each of its fields. */
interface ReadObject {
  ref: string;
  key: string;
  fields: Record<string, string>;
}

export interface SavedPlan {
  format: typeof PLAN_FORMAT;
  version: typeof PLAN_VERSION;
  organization: string;
  source: string;
  prune: boolean;
  createdAt: string;
  summary: Summary;
  steps: Step[];
  drift: Drift[];
  kept: Kept[];
  /** Ids known when planning (`kind:key` → id), which the steps' references may name. */
  ids: Record<string, string>;
  /** What the plan read: the kinds, and each object of them. */
  read: { kinds: ReadKind[]; objects: ReadObject[] };
}

/** A short digest of a value (its JSON with sorted keys). */
function digest(v: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(v)) ?? 'undefined')
    .digest('hex')
    .slice(0, 12);
}

/** Every object of the kinds read, with its digest (a site's with its structure and schema). */
function readObjects(live: Live): ReadObject[] {
  const keys = liveKeys(live);
  const out: ReadObject[] = [];
  const add = (kind: string, id: string, key: string | undefined, value: object) =>
    out.push({ ref: `${kind}:${id}`, key: key ?? id, fields: Object.fromEntries(Object.entries(value).map(([f, v]) => [f, digest(v)])) });
  for (const c of live.collections) add('collection', c.id, keys.collection.get(c.id), c);
  for (const s of live.spaces) add('space', s.id, keys.space.get(s.id), s);
  for (const s of live.sites) add('site', s.id, keys.site.get(s.id), s);
  for (const m of live.members) add('member', m.id, keys.member.get(m.id), m);
  for (const p of live.saml) add('saml', p.id, keys.saml.get(p.id), p);
  for (const s of live.openapi) add('openapi', s.slug.toLowerCase(), s.slug, s);
  for (const t of live.teams) add('team', t.id, keys.team.get(t.id), t);
  if (live.settings) add('organization', live.organization, live.organization, live.settings);
  // Spaces of the file found in the trash (restored by the plan) or not restorable (created anew):
  // read again at apply, so that a space purged, or restored in the app, since is not acted on blindly.
  for (const [id, d] of live.deletedSpaces ?? [])
    add(TRASHED, id, typeof d === 'object' ? d.space.title : id, { restorable: typeof d === 'object' ? d.deletedAt : false });
  return out;
}

export function savePlan(plan: Plan, live: Live, now = new Date()): SavedPlan {
  return {
    format: PLAN_FORMAT,
    version: PLAN_VERSION,
    organization: plan.organization,
    source: plan.source,
    prune: plan.prune,
    createdAt: now.toISOString(),
    summary: plan.summary,
    steps: plan.steps,
    drift: plan.drift,
    kept: plan.kept,
    ids: Object.fromEntries(plan.ids),
    read: { kinds: [...live.kinds], objects: readObjects(live) },
  };
}

/** A plan file that is not one (or not of this version): what is wrong with it. */
export class PlanFileError extends Error {}

const READ_KINDS = new Set<string>(['collections', 'spaces', 'sites', 'members', 'saml', 'openapi', 'teams', 'team-members', 'access', 'organization']);

/** A saved plan from its JSON text, checked enough that apply sends only what it says (a step's operation must be one docsctl knows). */
export function parseSavedPlan(text: string, file: string): SavedPlan {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new PlanFileError(`${file}: not JSON (${(e as Error).message}): a plan file is what docsctl orgs plan --out writes`);
  }
  const p = v as Partial<SavedPlan>;
  const bad = (what: string) => new PlanFileError(`${file}: ${what}: a plan file is what docsctl orgs plan --out writes`);
  if (!p || typeof p !== 'object' || p.format !== PLAN_FORMAT) throw bad(`format: not "${PLAN_FORMAT}"`);
  if (p.version !== PLAN_VERSION) throw bad(`version: ${JSON.stringify(p.version)}, this docsctl reads version ${PLAN_VERSION}`);
  if (typeof p.organization !== 'string' || !p.organization) throw bad('organization: missing');
  if (!Array.isArray(p.steps)) throw bad('steps: not a list');
  p.steps.forEach((s, i) => {
    if (!s || typeof s !== 'object' || !PHASES.includes(s.phase)) throw bad(`steps[${i}].phase: not one of ${PHASES.join(', ')}`);
    if (!Array.isArray(s.requests)) throw bad(`steps[${i}].requests: not a list`);
    const check = (r: { op?: unknown; onPathTaken?: unknown }, at: string) => {
      if (typeof r?.op !== 'string' || !knownOperation(r.op)) throw bad(`${at}.op: not an operation docsctl knows`);
      if (r.onPathTaken !== undefined) (r.onPathTaken as object[]).forEach((f, j) => check(f, `${at}.onPathTaken[${j}]`));
    };
    s.requests.forEach((r, j) => check(r, `steps[${i}].requests[${j}]`));
  });
  if (!p.ids || typeof p.ids !== 'object') throw bad('ids: missing');
  if (!p.read || !Array.isArray(p.read.kinds) || !Array.isArray(p.read.objects) || p.read.kinds.some((k) => !READ_KINDS.has(k))) {
    throw bad('read: missing or not what plan --out writes');
  }
  return p as SavedPlan;
}

/** The ids of the spaces a saved plan read in the trash (to read there again at apply). */
export function trashedIds(saved: SavedPlan): string[] {
  return saved.read.objects.flatMap((o) => (o.ref.startsWith(`${TRASHED}:`) ? [o.ref.slice(TRASHED.length + 1)] : []));
}

/** What changed since the plan read the organization: one line per object changed, gone or new. */
export function changedSince(saved: SavedPlan, now: Live): string[] {
  const then = new Map(saved.read.objects.map((o) => [o.ref, o]));
  const current = new Map(readObjects(now).map((o) => [o.ref, o]));
  const name = (o: ReadObject) => {
    const [kind, id] = o.ref.split(/:(.*)/s);
    return `${kind} ${o.key}${id !== o.key ? ` (${id})` : ''}`;
  };
  const out: string[] = [];
  for (const [ref, o] of then) {
    const c = current.get(ref);
    if (ref.startsWith(`${TRASHED}:`)) {
      const [was, is] = [o.fields.restorable !== digest(false), c !== undefined && c.fields.restorable !== digest(false)];
      const id = ref.slice(TRASHED.length + 1);
      if (was && !is)
        out.push(
          `space ${o.key} (${id}): in the trash when planned (to be restored), now not (purged, past its ${RETENTION_DAYS} days, or restored in the app)`,
        );
      else if (!was && is) out.push(`space ${id}: not restorable when planned (to be created anew), now in the trash`);
      else if (c && o.fields.restorable !== c.fields.restorable) out.push(`space ${o.key} (${id}): deleted again since the plan`);
      continue;
    }
    if (!c) {
      out.push(`${name(o)}: deleted`);
      continue;
    }
    const fields = [...new Set([...Object.keys(o.fields), ...Object.keys(c.fields)])].filter((f) => o.fields[f] !== c.fields[f]);
    if (fields.length) out.push(`${name(o)}: ${fields.join(', ')} changed`);
  }
  for (const [ref, c] of current) if (!then.has(ref)) out.push(`${name(c)}: new`);
  return out;
}

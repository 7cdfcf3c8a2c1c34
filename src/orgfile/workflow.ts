/**
 * The workflow over a client: read what a file needs, plan, apply. Shared by `orgs plan`, `orgs
 * apply` and `serve --seed` (which applies an organization file to the sandbox it starts).
 */
import type { Api } from '../client/api.js';
import { applyPlan, type ApplyResult, type Runnable } from './apply.js';
import { exportFile } from './export.js';
import { kindsToRead, readDeletedSpaces, readLive, Reader, readSpecDocuments, type ReadKind } from './live.js';
import type { Desired, Live } from './model.js';
import { buildPlan, type Plan } from './plan.js';
import { CONCURRENCY, Pool } from './pool.js';
import { KINDS, type OrgFileData } from './schema.js';
import type { Change } from './steps.js';
import { changedSince, trashedIds, type SavedPlan } from './saved.js';

export function reader(api: Api, concurrency: number = CONCURRENCY.default): Reader {
  return new Reader(api, new Pool(concurrency));
}

/** The whole organization, as plan and export read it. */
export function readAll(r: Reader, organizationId: string): Promise<Live> {
  return readLive(r, organizationId, new Set<ReadKind>([...KINDS, 'team-members', 'access', 'organization']));
}

/** The whole organization as a file's data. */
export async function exportOrganization(r: Reader, organizationId: string): Promise<{ data: OrgFileData; live: Live }> {
  const live = await readAll(r, organizationId);
  return { data: exportFile(live), live };
}

/** Read what the file declares (and what it refers to), and plan. Throws OrgFileError for references the service lacks. */
export async function planFile(r: Reader, organizationId: string, desired: Desired, prune: boolean): Promise<Plan> {
  const access = [...desired.collections, ...desired.spaces, ...desired.sites].some((i) => i.access !== undefined);
  const live = await readLive(r, organizationId, kindsToRead(desired.kinds, { teams: true, access, organization: desired.settings !== undefined }));
  if (desired.kinds.has('spaces')) {
    // A space of the file whose id the organization's live spaces lack: deleted in the app? (restored, not made anew)
    const liveIds = new Set(live.spaces.map((s) => s.id));
    const missing = [...new Set(desired.spaces.flatMap((s) => (s.id && !liveIds.has(s.id) ? [s.id] : [])))];
    if (missing.length) live.deletedSpaces = await readDeletedSpaces(r, organizationId, missing);
  }
  if (desired.kinds.has('openapi')) {
    // A specification given by its document, which the service has without a URL: its latest document, to compare.
    const bySlug = new Map(live.openapi.map((s) => [s.slug.toLowerCase(), s]));
    const read = desired.openapi.filter((d) => d.file && bySlug.has(d.slug.toLowerCase()) && !bySlug.get(d.slug.toLowerCase())!.url);
    if (read.length)
      live.openapiDocuments = await readSpecDocuments(
        r,
        organizationId,
        read.map((d) => bySlug.get(d.slug.toLowerCase())!.slug),
      );
  }
  return buildPlan(desired, live, { prune });
}

export function applyFile(r: Reader, plan: Runnable, onDone: (c: Change) => void): Promise<ApplyResult> {
  return applyPlan(plan, r, onDone);
}

/** A saved plan as apply runs it. */
export function runnableOf(saved: SavedPlan): Runnable {
  return { organization: saved.organization, steps: saved.steps, ids: new Map(Object.entries(saved.ids)) };
}

/** Read again what a saved plan read: what changed since (nothing: it may be applied). */
export async function changedSincePlan(r: Reader, saved: SavedPlan): Promise<string[]> {
  const live = await readLive(r, saved.organization, new Set(saved.read.kinds));
  const trashed = trashedIds(saved);
  if (trashed.length) live.deletedSpaces = await readDeletedSpaces(r, saved.organization, trashed);
  return changedSince(saved, live);
}

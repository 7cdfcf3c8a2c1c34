/** OpenAPI specifications: created and put again from their URL (apply waits for the processing), visibility, deleted (with --prune). */
import { ops as openapiOps } from '../../contract/openapi.js';
import { parse } from 'yaml';
import { canonical, diffFields } from '../sites.js';
import { request, type Drift, type FieldChange, type Kept, type Step, type StepRequest } from '../steps.js';
import { step } from './common.js';
import type { KindDiff, PlanContext } from './context.js';

export function diffOpenapi(c: PlanContext): KindDiff {
  const { desired, live, prune, org } = c;
  const steps: Step[] = [];
  const drift: Drift[] = [];
  const kept: Kept[] = [];
  const liveSpec = new Map(live.openapi.map((s) => [s.slug.toLowerCase(), s]));
  for (const d of desired.openapi) {
    const l = liveSpec.get(d.slug.toLowerCase());
    if (!l) {
      if (d.url === undefined && d.file === undefined) {
        drift.push({
          kind: 'openapi',
          key: d.slug,
          why: 'a new specification needs its url, or its document (file: petstore.yaml, beside the organization file)',
        });
        continue;
      }
      const source = d.file ? { text: d.file.text } : { url: d.url! };
      steps.push(
        step(
          'organization',
          {
            kind: 'openapi',
            action: 'create',
            key: d.slug,
            fields: [
              d.file ? { field: 'file', to: d.file.path } : { field: 'url', to: d.url },
              ...(d.visibility ? [{ field: 'visibility', to: d.visibility }] : []),
            ],
          },
          [
            { ...request(openapiOps.createOpenAPISpec, { organizationId: org }, { slug: d.slug, source }), waitProcessing: true },
            ...(d.visibility === 'public' ? [request(openapiOps.updateOpenAPISpec, { organizationId: org, specSlug: d.slug }, { visibility: 'public' })] : []),
          ],
        ),
      );
      continue;
    }
    const fields = diffFields([
      ['url', d.url, l.url],
      ['visibility', d.visibility, l.visibility],
    ]);
    if (d.file && fileDiffers(d.file.text, l.url, live.openapiDocuments?.get(l.slug.toLowerCase()))) {
      fields.unshift({ field: 'file', ...(l.url ? { from: `(fetched from ${l.url})` } : { from: '(another document)' }), to: d.file.path });
    }
    if (!fields.length) continue;
    steps.push(
      step(
        'organization',
        {
          kind: 'openapi',
          action: 'update',
          key: d.slug,
          id: l.slug,
          fields,
          ...(fields.some((f) => f.field === 'url') ? { note: 'the service fetches and processes it again' } : {}),
          ...(fields.some((f) => f.field === 'file') ? { note: 'a new version from the file’s document, processed again' } : {}),
        },
        openapiUpdate(l.slug, fields),
      ),
    );
  }
  const inFile = new Set(desired.openapi.map((s) => s.slug.toLowerCase()));
  for (const s of live.openapi) {
    if (inFile.has(s.slug.toLowerCase()) || !c.owned.whole('openapi')) continue;
    const item = { kind: 'openapi' as const, key: s.slug, id: s.slug };
    if (!prune) kept.push(item);
    else {
      steps.push(
        step('delete-organization', { ...item, action: 'delete', irreversible: 'every version of the specification goes with it' }, [
          request(openapiOps.deleteOpenAPISpec, { organizationId: org, specSlug: s.slug }),
        ]),
      );
    }
  }
  return { steps, drift, kept };
  function openapiUpdate(slug: string, fields: FieldChange[]): StepRequest[] {
    const params = { organizationId: org, specSlug: slug };
    const url = fields.find((f) => f.field === 'url');
    const file = fields.find((f) => f.field === 'file') && desired.openapi.find((d) => d.slug.toLowerCase() === slug.toLowerCase())?.file;
    const visibility = fields.find((f) => f.field === 'visibility');
    return [
      ...(url ? [{ ...request(openapiOps.putOpenAPISpec, params, { source: { url: url.to as string } }), waitProcessing: true as const }] : []),
      ...(file ? [{ ...request(openapiOps.putOpenAPISpec, params, { source: { text: file.text } }), waitProcessing: true as const }] : []),
      ...(visibility ? [request(openapiOps.updateOpenAPISpec, params, { visibility: visibility.to })] : []),
    ];
  }
}

/**
 * Whether the file's document is not the service's: a specification fetched from a URL is (its
 * source changes to the file); else its latest document (read for it: live.openapiDocuments),
 * compared parsed; unknown (not read, or no version yet) counts as the same.
 */
function fileDiffers(text: string, liveUrl: string | undefined, liveDocument: unknown): boolean {
  if (liveUrl) return true;
  if (liveDocument === undefined) return false;
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch {
    return true;
  }
  return JSON.stringify(canonical(parsed)) !== JSON.stringify(canonical(liveDocument));
}

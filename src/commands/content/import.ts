import { checkBody, defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import type { Api } from '../../client/api.js';
import { ops, type LinkItem } from '../../contract/content.js';
import { brokenLinks, locationText, targetText, withPaths } from './links-output.js';

export default defineCommand({
  name: 'import',
  summary: 'Import a website (the page at URL and the same-site pages it links to) into a space as a new revision',
  description:
    'The answer counts what was found and what was imported. When some pages or files were not (they failed, or ' +
    'were past the import’s bounds), the imported pages link to them with links that are now broken: docsctl ' +
    'compares the space’s broken links before and after, and names those targets on stderr with the pages that ' +
    'link to them (the service’s answer does not name them itself). A host outside loopback needs the sandbox ' +
    'started with serve --allow-fetch HOST.',
  args: [
    { name: 'space', description: 'space id' },
    { name: 'url', description: 'http:// or https:// URL of the first page' },
  ],
  examples: ['docsctl content import sp_123 https://docs.example.com/', 'docsctl content import sp_123 https://example.com/guide/ --json'],
  output: { fields: ['revision', 'importedResources', 'totalResources'] },
  async run(ctx, { args }) {
    const body = checkBody(ops.importSpaceContent, { url: args.url, source: 'website' }, { url: '<url>' });
    const api = await ctx.api();
    // The broken links before, so that those the import leaves can be told apart (best effort).
    const before = await brokenLinks(api, args.space).catch(() => undefined);
    const result = await ctx.spinning(`importing ${body.url}`, api.call(ops.importSpaceContent, { params: { spaceId: args.space }, body }));
    ctx.info(`imported ${result.importedResources} of ${result.totalResources} resources found into space ${args.space} (revision ${result.revision})`);
    const missing = result.totalResources - result.importedResources;
    if (missing > 0) await reportMissing(ctx, api, args.space, body.url, missing, before);
    return result;
  },
});

/** Name what was not imported: the targets of the broken links the import added. */
async function reportMissing(ctx: Context, api: Api, spaceId: string, url: string, missing: number, before: LinkItem[] | undefined) {
  const head = `${missing} not imported (failed, or past the import’s bounds)`;
  const after = before && (await brokenLinks(api, spaceId).catch(() => undefined));
  // A link is new when its target or where it is are: a re-import makes new pages with the same broken targets.
  const key = (l: LinkItem) => JSON.stringify([l.targetReference, l.locationReferences]);
  const known = new Set((before ?? []).map(key));
  const fresh = after
    ? await withPaths(
        api,
        spaceId,
        after.filter((l) => !known.has(key(l))),
      ).catch(() => undefined)
    : undefined;
  if (!fresh?.length) {
    ctx.info(`${head}; the service does not say which`);
    return;
  }
  // A path of the site (`/guide/missing`) is shown as the URL it came from.
  const shown = (l: LinkItem) => {
    const target = targetText(l);
    return target.startsWith('/') && !target.startsWith('//') ? new URL(target, url).href : target;
  };
  ctx.info(`${head}; the imported pages now link to them with broken links:`);
  for (const l of fresh) ctx.info(`  ${shown(l)}  (linked from ${locationText(l)})`);
}

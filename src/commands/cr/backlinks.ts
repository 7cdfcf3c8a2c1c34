import { defineCommand } from '../../cli/command.js';
import { UsageError } from '../../cli/errors.js';
import { ops } from '../../contract/change-requests.js';
import type { Backlink } from '../../contract/content.js';
import { backlinkColumns, withPathsOf } from '../content/links-output.js';
import { flattenPages } from '../content/lookup.js';
import { CR_ARGS, crParams } from './columns.js';
import { listCrPages, resolveCrFile } from './lookup.js';

export default defineCommand({
  name: 'backlinks',
  summary: 'List the pages of a change request that link to a file',
  description: 'As content backlinks --file, in the change request’s content (the service lists the backlinks of files there, not of pages).',
  args: CR_ARGS,
  flags: {
    file: { description: 'the file linked to (id or name); required', value: 'file-id' },
  },
  examples: ['docsctl cr backlinks sp_123 3 --file logo.png', 'docsctl cr backlinks sp_123 3 --file fl_456 --json'],
  output: { columns: backlinkColumns },
  async run(ctx, { args, flags }) {
    if (flags.file === undefined)
      throw new UsageError('missing --file: the file linked to (id or name)', `list the files: docsctl cr files ${args.space} ${args.cr}`);
    const api = await ctx.api();
    const params = crParams(args);
    const fileId = (await resolveCrFile(api, params, flags.file)).id;
    const items: Backlink[] = [];
    for await (const b of api.paginate(ops.listChangeRequestFileBacklinks, { params: { ...params, fileId } })) items.push(b);
    return withPathsOf(items, flattenPages(await listCrPages(api, params)));
  },
});

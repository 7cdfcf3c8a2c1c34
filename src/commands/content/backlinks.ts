import { defineCommand } from '../../cli/command.js';
import { UsageError } from '../../cli/errors.js';
import { ops, type Backlink } from '../../contract/content.js';
import { backlinkColumns, withPaths } from './links-output.js';
import { resolveFile, resolvePage } from './lookup.js';
import { pageIdFlags, pageIdOf } from '../flags.js';

export default defineCommand({
  name: 'backlinks',
  summary: 'List the pages that link to a page or to a file',
  args: [{ name: 'space', description: 'space id' }],
  flags: {
    ...pageIdFlags('the page linked to (id or path)', 'page'),
    file: { description: 'the file linked to (id or name)', value: 'file-id' },
  },
  examples: ['docsctl content backlinks sp_123 --page-id getting-started/install', 'docsctl content backlinks sp_123 --file logo.png --json'],
  output: { columns: backlinkColumns },
  async run(ctx, { args, flags }) {
    const pageRef = pageIdOf(ctx, flags);
    if ((pageRef === undefined) === (flags.file === undefined)) throw new UsageError('pass exactly one of --page-id or --file');
    const api = await ctx.api();
    const spaceId = args.space;
    const items: Backlink[] = [];
    const pages =
      pageRef !== undefined
        ? api.paginate(ops.listSpacePageBacklinks, { params: { spaceId, pageId: (await resolvePage(api, spaceId, pageRef)).id } })
        : api.paginate(ops.listSpaceFileBacklinks, { params: { spaceId, fileId: (await resolveFile(api, spaceId, flags.file!)).id } });
    for await (const b of pages) items.push(b);
    return withPaths(api, spaceId, items);
  },
});

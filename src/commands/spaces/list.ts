import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/spaces.js';
import { ops as collectionOps } from '../../contract/collections.js';
import { spaceColumns } from './columns.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the spaces of the organization (or of one collection)',
  flags: { collection: { description: 'only the spaces in this collection', value: 'id' } },
  examples: ['docsctl spaces list', 'docsctl spaces list --collection col_123 --all --json'],
  list: true,
  output: { columns: spaceColumns },
  async run(ctx, { flags }) {
    const api = await ctx.api();
    if (flags.collection) return api.paginate(collectionOps.listCollectionSpaces, { params: { collectionId: flags.collection } }, flags.page);
    return api.paginate(ops.listSpaces, { params: { organizationId: await ctx.org() } }, flags.page);
  },
});

import { checkQuery, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/collections.js';
import { collectionColumns } from './columns.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the collections of the organization',
  flags: {
    topLevel: { type: 'boolean', description: 'only top-level collections (nested=false)' },
  },
  examples: ['docsctl collections list', 'docsctl collections list --top-level --json | jq -r ".[].title"'],
  list: true,
  output: { columns: collectionColumns },
  async run(ctx, { flags }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    const query = checkQuery(ops.listCollections, { nested: flags.topLevel ? false : undefined });
    return api.paginate(ops.listCollections, { params: { organizationId }, query }, flags.page);
  },
});

import { checkBody, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/collections.js';
import { collectionFields } from './columns.js';

export default defineCommand({
  name: 'transfer',
  summary: 'Transfer a collection, with everything in it, to another organization',
  args: [{ name: 'collection', description: 'collection id' }],
  flags: { to: { description: 'id of the target organization (required)', value: 'org' } },
  examples: ['docsctl collections transfer col_123 --to org_456 --yes'],
  destructive: true,
  output: { fields: collectionFields },
  async run(ctx, { args, flags }) {
    const body = checkBody(ops.transferCollection, { organization: flags.to }, { organization: '--to' });
    await ctx.confirm(`Transfer collection ${args.collection} and its spaces to organization ${flags.to}?`, flags.yes);
    const api = await ctx.api();
    return api.call(ops.transferCollection, { params: { collectionId: args.collection }, body });
  },
});

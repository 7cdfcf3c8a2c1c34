import { checkBody, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/collections.js';
import { collectionFields } from './columns.js';
import { confirmAction } from '../prompts.js';

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
    const api = await ctx.api();
    await confirmAction(ctx, flags.yes, {
      verb: 'Transfer',
      kind: 'collection',
      id: args.collection,
      rest: `and its spaces to organization ${flags.to}`,
      title: async () => (await api.call(ops.getCollection, { params: { collectionId: args.collection } })).title,
    });
    return api.call(ops.transferCollection, { params: { collectionId: args.collection }, body });
  },
});

import { checkBody, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/collections.js';
import { collectionFields } from './columns.js';

export default defineCommand({
  name: 'create',
  summary: 'Create a collection (at the root, or inside --parent)',
  flags: {
    title: { description: 'title (at most 50 characters)', value: 'title' },
    parent: { description: 'id of the parent collection', value: 'id' },
  },
  examples: ['docsctl collections create --title Guides', 'docsctl collections create --title "API" --parent col_123 --json'],
  output: { fields: collectionFields },
  async run(ctx, { flags }) {
    const body = checkBody(ops.createCollection, { title: flags.title, parent: flags.parent });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.createCollection, { params: { organizationId }, body });
  },
});

import { checkBody, defineCommand } from '../../cli/command.js';
import { ops, collectionTitle } from '../../contract/collections.js';
import { collectionFields } from './columns.js';
import { requiredText } from '../prompts.js';
import { characters, lengthBounds } from '../flags.js';

export default defineCommand({
  name: 'create',
  summary: 'Create a collection (at the root, or inside --parent)',
  description:
    'A title is required (the API would make an untitled collection): asked for on a terminal when --title is missing or blank, a usage error (exit 2) otherwise.',
  flags: {
    title: { description: `title (${characters(collectionTitle)}; required, asked for on a terminal)`, value: 'title' },
    parent: { description: 'id of the parent collection', value: 'collection' },
  },
  examples: ['docsctl collections create --title Guides', 'docsctl collections create --title "API" --parent col_123 --json'],
  output: { fields: collectionFields },
  async run(ctx, { flags }) {
    const title = await requiredText(ctx, flags.title, {
      flag: '--title',
      label: 'Title',
      ...lengthBounds(collectionTitle),
      example: 'docsctl collections create --title Guides',
    });
    const body = checkBody(ops.createCollection, { title, parent: flags.parent });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.createCollection, { params: { organizationId }, body });
  },
});

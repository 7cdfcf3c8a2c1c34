import { checkBody, nonEmpty, defineCommand } from '../../cli/command.js';
import { ops, collectionDescription, collectionTitle } from '../../contract/collections.js';
import { DEFAULT_LEVELS } from '../../contract/op.js';
import { collectionFields } from './columns.js';
import { characters } from '../flags.js';

export default defineCommand({
  name: 'update',
  aliases: ['edit'],
  summary: 'Change a collection’s title, description or default level',
  args: [{ name: 'collection', description: 'collection id' }],
  flags: {
    title: { description: `new title (${characters(collectionTitle)})`, value: 'title' },
    description: { description: `new description (${characters(collectionDescription)})`, value: 'text' },
    defaultLevel: {
      description: 'default role for its content, inherit (its parent’s), or null to remove',
      value: 'level',
      choices: DEFAULT_LEVELS,
      nullable: true,
    },
  },
  examples: ['docsctl collections update col_123 --title Handbook', 'docsctl collections update col_123 --default-level read'],
  output: { fields: collectionFields },
  async run(ctx, { args, flags }) {
    const body = checkBody(ops.updateCollection, { title: flags.title, description: flags.description, defaultLevel: flags.defaultLevel });
    nonEmpty(body, 'pass --title, --description or --default-level');
    const api = await ctx.api();
    return api.call(ops.updateCollection, { params: { collectionId: args.collection }, body });
  },
});

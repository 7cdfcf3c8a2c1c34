import { checkBody, defineCommand } from '../../cli/command.js';
import { EDIT_MODES, LANGUAGES, ops, spaceEmoji, spaceTitle } from '../../contract/spaces.js';
import { spaceFields } from './columns.js';
import { requiredText } from '../prompts.js';
import { aliased, hiddenAlias, characters, lengthBounds } from '../flags.js';

export default defineCommand({
  name: 'create',
  summary: 'Create a space (at the root, or inside --parent)',
  description:
    'A title is required (the API would make an untitled space): asked for on a terminal when --title is missing or blank, a usage error (exit 2) otherwise.',
  flags: {
    title: { description: `title (${characters(spaceTitle)}; required, asked for on a terminal)`, value: 'title' },
    emoji: { description: `emoji (${characters(spaceEmoji)})`, value: 'emoji' },
    parent: { description: 'id of the collection to create it in', value: 'collection', conflicts: ['collection'] },
    collection: hiddenAlias('--parent', 'collection'),
    language: { description: 'content language', value: 'code', choices: LANGUAGES },
    editMode: { description: 'live (directly editable) or locked', value: 'mode', choices: EDIT_MODES },
    template: { description: 'fill it from this content template (see docsctl content template --help)', value: 'id' },
  },
  examples: [
    'docsctl spaces create --title "Getting started" --emoji 🚀',
    'docsctl spaces create --title API --parent col_123 --json',
    'docsctl spaces create --title Handbook --template getting-started',
  ],
  output: { fields: spaceFields },
  async run(ctx, { flags }) {
    const parent = aliased(ctx, { flag: '--parent', old: '--collection' }, flags.parent, flags.collection);
    const title = await requiredText(ctx, flags.title, {
      flag: '--title',
      label: 'Title',
      ...lengthBounds(spaceTitle),
      example: 'docsctl spaces create --title "Getting started"',
    });
    const body = checkBody(ops.createSpace, {
      title,
      emoji: flags.emoji,
      parent,
      language: flags.language,
      editMode: flags.editMode,
      template: flags.template === undefined ? undefined : { id: flags.template },
    });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.createSpace, { params: { organizationId }, body });
  },
});

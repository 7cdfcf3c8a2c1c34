import { checkBody, defineCommand } from '../../cli/command.js';
import { EDIT_MODES, LANGUAGES, ops } from '../../contract/spaces.js';
import { spaceFields } from './columns.js';

export default defineCommand({
  name: 'create',
  summary: 'Create a space (at the root, or inside --parent)',
  flags: {
    title: { description: 'title (at most 50 characters)', value: 'title' },
    emoji: { description: 'emoji (at most 50 characters)', value: 'emoji' },
    parent: { description: 'id of the collection to create it in', value: 'id' },
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
    const body = checkBody(ops.createSpace, {
      title: flags.title, emoji: flags.emoji, parent: flags.parent, language: flags.language, editMode: flags.editMode,
      template: flags.template === undefined ? undefined : { id: flags.template },
    });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.createSpace, { params: { organizationId }, body });
  },
});

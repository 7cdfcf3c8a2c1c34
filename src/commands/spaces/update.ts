import { checkBody, nonEmpty, defineCommand } from '../../cli/command.js';
import { DEFAULT_LEVELS } from '../../contract/op.js';
import { EDIT_MODES, LANGUAGES, ops, type MergeRules, spaceEmoji, spaceTitle } from '../../contract/spaces.js';
import { spaceFields } from './columns.js';
import { characters } from '../flags.js';

export default defineCommand({
  name: 'update',
  aliases: ['edit'],
  summary: 'Change a space’s title, emoji or icon, language, edit mode, default level or merge rules',
  description:
    'Title, emoji, icon and language need the edit role and an unlocked space; edit mode, default level and merge rules ' +
    'need the admin role. --edit-mode live unlocks a locked space in the same request.',
  args: [{ name: 'space', description: 'space id' }],
  flags: {
    title: { description: `new title (${characters(spaceTitle)})`, value: 'title' },
    emoji: { description: `new emoji (${characters(spaceEmoji)}; it replaces an icon), or null to remove it`, value: 'emoji', nullable: true },
    icon: { description: 'URL of an image shown instead of an emoji, or null to remove it', value: 'url', nullable: true },
    language: { description: 'content language', value: 'code', choices: LANGUAGES },
    editMode: { description: 'live (directly editable) or locked (all edits locked)', value: 'mode', choices: EDIT_MODES },
    defaultLevel: {
      description: 'default role for the space’s content, inherit (its collection’s), or null to remove it',
      value: 'level',
      choices: DEFAULT_LEVELS,
      nullable: true,
    },
    mergeRules: { description: 'inherit: merge rules of the organization', value: 'rules', choices: ['inherit'], conflicts: ['requireReviewers'] },
    requireReviewers: { description: 'merge rule: changes need a review by one of these users (comma-separated ids)', value: 'users' },
  },
  examples: [
    'docsctl spaces update sp_123 --title Handbook --emoji 📘',
    'docsctl spaces update sp_123 --edit-mode locked',
    'docsctl spaces update sp_123 --icon https://example.com/logo.png',
    'docsctl spaces update sp_123 --require-reviewers u_ada,u_bob',
  ],
  output: { fields: spaceFields },
  async run(ctx, { args, flags }) {
    let mergeRules: MergeRules | undefined = flags.mergeRules ? { type: flags.mergeRules } : undefined;
    if (flags.requireReviewers !== undefined) {
      const users = flags.requireReviewers
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean);
      mergeRules = { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users }] };
    }
    const body = checkBody(
      ops.updateSpace,
      {
        title: flags.title,
        emoji: flags.emoji,
        icon: flags.icon,
        language: flags.language,
        editMode: flags.editMode,
        defaultLevel: flags.defaultLevel,
        mergeRules,
      },
      { mergeRules: flags.requireReviewers !== undefined ? '--require-reviewers' : '--merge-rules' },
    );
    nonEmpty(body, 'pass --title, --emoji, --icon, --language, --edit-mode, --default-level, --merge-rules or --require-reviewers');
    const api = await ctx.api();
    return api.call(ops.updateSpace, { params: { spaceId: args.space }, body });
  },
});

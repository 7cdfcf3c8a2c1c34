import { defineCommand } from '../cli/command.js';
import { commandsMarkdown } from '../cli/docs.js';

export default defineCommand({
  name: '__docs',
  summary: 'Print docs/commands.md from the command tree (internal; npm run docs)',
  examples: ['docsctl __docs > docs/commands.md'],
  noJson: true,
  async run(ctx) {
    if (!ctx.manifest) throw new Error('the command manifest is missing: rebuild docsctl');
    return commandsMarkdown(ctx.manifest);
  },
});

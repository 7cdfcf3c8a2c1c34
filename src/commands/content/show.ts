import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/content.js';
import { revisionFields } from './columns.js';

export default defineCommand({
  name: 'show',
  summary: 'Show the active revision of a space: its parents, message and what it holds',
  args: [{ name: 'space', description: 'space id' }],
  flags: { omitMetadata: { type: 'boolean', description: 'leave out git metadata (metadata=false)' } },
  examples: ['docsctl content show sp_123', 'docsctl content show sp_123 --json | jq ".pages[].path"'],
  output: { fields: revisionFields },
  async run(ctx, { args, flags }) {
    const api = await ctx.api();
    return api.call(ops.getSpaceContent, { params: { spaceId: args.space }, query: flags.omitMetadata ? { metadata: false } : {} });
  },
});

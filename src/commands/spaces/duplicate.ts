import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/spaces.js';
import { spaceFields } from './columns.js';

export default defineCommand({
  name: 'duplicate',
  aliases: ['copy'],
  summary: 'Duplicate a space with its content: "<title> (copy)", placed right after it',
  args: [{ name: 'space', description: 'space id' }],
  examples: ['docsctl spaces duplicate sp_123', 'docsctl spaces duplicate sp_123 --json | jq -r .id'],
  output: { fields: spaceFields },
  async run(ctx, { args }) {
    const api = await ctx.api();
    const copy = await api.call(ops.duplicateSpace, { params: { spaceId: args.space } });
    ctx.info(`duplicated space ${args.space} as ${copy.id}`);
    return copy;
  },
});

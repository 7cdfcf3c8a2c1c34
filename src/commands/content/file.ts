import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/content.js';
import { fileFields } from './columns.js';
import { resolveFile } from './lookup.js';

export default defineCommand({
  name: 'file',
  summary: 'Show one file, by id or (when no other file has it) by name; --json has its downloadURL',
  args: [
    { name: 'space', description: 'space id' },
    { name: 'file', description: 'file id, or its name' },
  ],
  examples: ['docsctl content file sp_123 logo.png', 'docsctl content file sp_123 fl_456 --json | jq -r .downloadURL'],
  output: { fields: fileFields },
  async run(ctx, { args }) {
    const api = await ctx.api();
    const { id } = await resolveFile(api, args.space, args.file);
    return api.call(ops.getSpaceFile, { params: { spaceId: args.space, fileId: id } });
  },
});

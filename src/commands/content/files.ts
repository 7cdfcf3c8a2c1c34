import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/content.js';
import { fileColumns } from './columns.js';

export default defineCommand({
  name: 'files',
  summary: 'List the files of a space (images and other attachments)',
  args: [{ name: 'space', description: 'space id' }],
  examples: ['docsctl content files sp_123', 'docsctl content files sp_123 --all --json | jq -r ".[].name"'],
  list: true,
  output: { columns: fileColumns },
  async run(ctx, { args, flags }) {
    const api = await ctx.api();
    return api.paginate(ops.listSpaceFiles, { params: { spaceId: args.space } }, flags.page);
  },
});

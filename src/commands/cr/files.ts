import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/change-requests.js';
import { fileColumns } from '../content/columns.js';
import { CR_ARGS, crParams } from './columns.js';

export default defineCommand({
  name: 'files',
  summary: 'List the files of a change request’s content (images and other attachments)',
  args: CR_ARGS,
  examples: ['docsctl cr files sp_123 3', 'docsctl cr files sp_123 3 --all --json | jq -r ".[].name"'],
  list: true,
  output: { columns: fileColumns },
  async run(ctx, { args, flags }) {
    const api = await ctx.api();
    return api.paginate(ops.listChangeRequestFiles, { params: crParams(args) }, flags.page);
  },
});

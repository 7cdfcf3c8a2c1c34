import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/change-requests.js';
import { fileFields } from '../content/columns.js';
import { CR_ARGS, crParams } from './columns.js';
import { resolveCrFile } from './lookup.js';

export default defineCommand({
  name: 'file',
  summary: 'Show one file of a change request, by id or (when no other file has it) by name; --json has its downloadURL',
  args: [...CR_ARGS, { name: 'file', description: 'file id, or its name' }],
  examples: ['docsctl cr file sp_123 3 logo.png', 'docsctl cr file sp_123 3 fl_456 --json | jq -r .downloadURL'],
  output: { fields: fileFields },
  async run(ctx, { args }) {
    const api = await ctx.api();
    const params = crParams(args);
    const { id } = await resolveCrFile(api, params, args.file);
    return api.call(ops.getChangeRequestFile, { params: { ...params, fileId: id } });
  },
});

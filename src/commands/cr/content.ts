import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/change-requests.js';
import { revisionFields } from '../content/columns.js';
import { CR_ARGS, crParams } from './columns.js';

export default defineCommand({
  name: 'content',
  summary: 'Show the content of a change request: its current revision, parents, message and what it holds',
  args: CR_ARGS,
  flags: { omitMetadata: { type: 'boolean', description: 'leave out git metadata (metadata=false)' } },
  examples: ['docsctl cr content sp_123 3', 'docsctl cr content sp_123 3 --json | jq ".pages[].path"'],
  output: { fields: revisionFields },
  async run(ctx, { args, flags }) {
    const api = await ctx.api();
    return api.call(ops.getChangeRequestContent, { params: crParams(args), query: flags.omitMetadata ? { metadata: false } : {} });
  },
});

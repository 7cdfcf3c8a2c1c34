import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/openapi.js';
import { specColumns } from './columns.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the organization’s OpenAPI specifications',
  examples: ['docsctl openapi list', 'docsctl openapi list --json | jq -r ".[].slug"'],
  list: true,
  output: { columns: specColumns },
  async run(ctx, { flags }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.paginate(ops.listOpenAPISpecs, { params: { organizationId } }, flags.page);
  },
});

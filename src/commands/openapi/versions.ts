import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/openapi.js';
import { versionColumns } from './columns.js';

export default defineCommand({
  name: 'versions',
  summary: 'List the versions of a specification, newest first',
  args: [{ name: 'slug', description: 'specification slug' }],
  examples: ['docsctl openapi versions petstore', 'docsctl openapi versions petstore --json | jq length'],
  list: true,
  output: { columns: versionColumns },
  async run(ctx, { args, flags }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.paginate(ops.listOpenAPISpecVersions, { params: { organizationId, specSlug: args.slug } }, flags.page);
  },
});

import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/openapi.js';
import { specFields } from './columns.js';

export default defineCommand({
  name: 'get',
  aliases: ['view'],
  summary: 'Show an OpenAPI specification and the state of its last processing',
  args: [{ name: 'slug', description: 'specification slug' }],
  examples: ['docsctl openapi get petstore', 'docsctl openapi get petstore --json | jq .lastProcessedErrors'],
  output: { fields: specFields },
  async run(ctx, { args }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.getOpenAPISpec, { params: { organizationId, specSlug: args.slug } });
  },
});

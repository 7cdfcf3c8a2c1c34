import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/openapi.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete an OpenAPI specification and all its versions',
  args: [{ name: 'slug', description: 'specification slug' }],
  examples: ['docsctl openapi delete petstore --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    await ctx.confirm(`Delete OpenAPI specification ${args.slug} and all its versions?`, flags.yes);
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    await api.call(ops.deleteOpenAPISpec, { params: { organizationId, specSlug: args.slug } });
    ctx.info(`deleted OpenAPI specification ${args.slug}`);
  },
});

import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/openapi.js';
import { confirmAction } from '../prompts.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete an OpenAPI specification and all its versions',
  args: [{ name: 'slug', description: 'specification slug' }],
  examples: ['docsctl openapi delete petstore --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    // A specification has no title: its slug is its name.
    await confirmAction(ctx, flags.yes, { verb: 'Delete', kind: 'OpenAPI specification', id: args.slug, then: 'All its versions go with it.' });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    await api.call(ops.deleteOpenAPISpec, { params: { organizationId, specSlug: args.slug } });
    ctx.info(`deleted OpenAPI specification ${args.slug}`);
  },
});

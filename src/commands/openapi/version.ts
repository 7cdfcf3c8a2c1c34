import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/openapi.js';

export default defineCommand({
  name: 'version',
  summary: 'Show one version of a specification (the latest by default)',
  args: [
    { name: 'slug', description: 'specification slug' },
    { name: 'version', description: 'version id (default: the latest)', optional: true },
  ],
  examples: ['docsctl openapi version petstore', 'docsctl openapi version petstore v_123 --json'],
  output: { fields: ['id', 'createdAt', 'url'] },
  async run(ctx, { args }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    const params = { organizationId, specSlug: args.slug };
    return args.version === undefined
      ? api.call(ops.getLatestOpenAPISpecVersion, { params })
      : api.call(ops.getOpenAPISpecVersion, { params: { ...params, versionId: args.version } });
  },
});

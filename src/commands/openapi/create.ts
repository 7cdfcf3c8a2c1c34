import { checkBody, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/openapi.js';
import { specFields } from './columns.js';
import { sourceFlags, sourceOf, waitFlags, WAIT_DESCRIPTION } from './source.js';
import { outcome } from './wait.js';

export default defineCommand({
  name: 'create',
  summary: 'Add an OpenAPI specification (fails if the slug is taken; put replaces)',
  description: WAIT_DESCRIPTION,
  args: [{ name: 'slug', description: 'letters and digits in dash-separated words, e.g. petstore-v2 or PetStore (found whatever its case)' }],
  flags: sourceFlags,
  examples: [
    'docsctl openapi create petstore --url https://example.com/openapi.yaml',
    'docsctl openapi create petstore --file openapi.json --json | jq -r .lastVersion',
  ],
  output: { fields: specFields },
  async run(ctx, { args, flags, print }) {
    waitFlags(flags);
    const { source, flag } = await sourceOf(ctx, flags);
    const body = checkBody(ops.createOpenAPISpec, { slug: args.slug, source }, { slug: '<slug>', source: flag });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    const answer = await api.call(ops.createOpenAPISpec, { params: { organizationId }, body });
    return outcome(ctx, flags, answer, () => api.call(ops.getOpenAPISpec, { params: { organizationId, specSlug: answer.slug } }), print);
  },
});

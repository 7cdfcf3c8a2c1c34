import { checkBody, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/openapi.js';
import { specFields } from './columns.js';
import { checkSlug, sourceFlags, sourceOf, waitFlags, WAIT_DESCRIPTION } from './source.js';
import { outcome } from './wait.js';

export default defineCommand({
  name: 'put',
  summary: 'Create or replace an OpenAPI specification from a URL or a file; each successful processing adds a version',
  description: WAIT_DESCRIPTION,
  args: [{ name: 'slug', description: 'letters and digits in dash-separated words, e.g. petstore-v2 or PetStore (found whatever its case)' }],
  flags: sourceFlags,
  examples: [
    'docsctl openapi put petstore --file openapi.yaml',
    'docsctl openapi put petstore --url https://example.com/openapi.yaml --wait-timeout 60',
    'docsctl openapi put petstore --file openapi.yaml --no-wait --json',
  ],
  output: { fields: specFields },
  async run(ctx, { args, flags, print }) {
    checkSlug(args.slug);
    waitFlags(flags);
    const { source, flag } = await sourceOf(ctx, flags);
    const body = checkBody(ops.putOpenAPISpec, { source }, { source: flag });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    const params = { organizationId, specSlug: args.slug };
    const answer = await api.call(ops.putOpenAPISpec, { params, body });
    return outcome(ctx, flags, answer, () => api.call(ops.getOpenAPISpec, { params }), print);
  },
});

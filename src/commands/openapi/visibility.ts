/** `publish` and `unpublish`: the specification's visibility. */
import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/openapi.js';
import { specFields } from './columns.js';

function visibilityCommand(name: string, visibility: 'public' | 'private', summary: string) {
  return defineCommand({
    name,
    summary,
    args: [{ name: 'slug', description: 'specification slug' }],
    examples: [`docsctl openapi ${name} petstore`],
    output: { fields: specFields },
    async run(ctx, { args }) {
      const [api, organizationId] = [await ctx.api(), await ctx.org()];
      return api.call(ops.updateOpenAPISpec, { params: { organizationId, specSlug: args.slug }, body: { visibility } });
    },
  });
}

export const publish = visibilityCommand('publish', 'public', 'Make a specification public (anyone with its public link can read it)');
export const unpublish = visibilityCommand('unpublish', 'private', 'Make a specification private again');

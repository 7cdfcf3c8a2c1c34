import { defineCommand } from '../../cli/command.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { ops, type OpenAPISpecContent } from '../../contract/openapi.js';

/** The document of a version: its only file, or its `openapi.*` file. Text is written as it is. */
function documentOf(content: OpenAPISpecContent): string {
  const files = Object.entries(content.filesystem);
  const file = files.length === 1 ? files[0] : files.find(([name]) => /^openapi\.(json|ya?ml)$/.test(name));
  if (!file) {
    throw new CliError(`the version holds ${files.length} files (${files.map(([n]) => n).join(', ') || 'none'}) and no openapi.* file`, EXIT.FAILED, 'use --json to get them all');
  }
  return typeof file[1] === 'string' ? file[1] : JSON.stringify(file[1], null, 2) + '\n';
}

export default defineCommand({
  name: 'content',
  summary: 'Write the stored document of a version (the latest by default) to stdout, as JSON',
  description: '--json prints the whole answer instead: {filesystem, url, urls}.',
  // The version is an argument, not `--version`: the program's own -V/--version would take that flag.
  args: [
    { name: 'slug', description: 'specification slug' },
    { name: 'version', description: 'version id (default: the latest)', optional: true },
  ],
  examples: ['docsctl openapi content petstore > spec.json', 'docsctl openapi content petstore v_123 > old.json'],
  async run(ctx, { args, flags }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    const params = { organizationId, specSlug: args.slug };
    const content = args.version === undefined
      ? await api.call(ops.getLatestOpenAPISpecVersionContent, { params })
      : await api.call(ops.getOpenAPISpecVersionContent, { params: { ...params, versionId: args.version } });
    return flags.json ? content : documentOf(content);
  },
});

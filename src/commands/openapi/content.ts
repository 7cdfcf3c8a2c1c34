import { defineCommand } from '../../cli/command.js';
import { CliError, EXIT, UsageError } from '../../cli/errors.js';
import { ops, type OpenAPISpecContent } from '../../contract/openapi.js';
import { plural } from '../../cli/text.js';

/** The document of a version: its only file, or its `openapi.*` file. Text is written as it is. */
function documentOf(content: OpenAPISpecContent): string {
  const files = Object.entries(content.filesystem);
  const file = files.length === 1 ? files[0] : files.find(([name]) => /^openapi\.(json|ya?ml)$/.test(name));
  if (!file) {
    throw new CliError(`the version holds ${plural(files.length, 'file')} (${files.map(([n]) => n).join(', ') || 'none'}) and no openapi.* file`, EXIT.FAILED, 'use --json to get them all');
  }
  return typeof file[1] === 'string' ? file[1] : JSON.stringify(file[1], null, 2) + '\n';
}

export default defineCommand({
  name: 'content',
  summary: 'Write the stored document of a version (the latest by default) to stdout, as JSON',
  description: '--json prints the whole answer instead: {filesystem, url, urls}.',
  args: [
    { name: 'slug', description: 'specification slug' },
    { name: 'version', description: 'version id (default: the latest); or --version ID', optional: true },
  ],
  flags: {
    version: { description: 'this version (an id from docsctl openapi versions) instead of the latest', value: 'id' },
  },
  examples: ['docsctl openapi content petstore > spec.json', 'docsctl openapi content petstore --version v_123 > old.json'],
  async run(ctx, { args, flags }) {
    if (args.version !== undefined && flags.version !== undefined && args.version !== flags.version) {
      throw new UsageError(`--version: ${flags.version} and the argument ${args.version} name two versions; give one`);
    }
    const versionId = flags.version ?? args.version;
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    const params = { organizationId, specSlug: args.slug };
    const content = versionId === undefined
      ? await api.call(ops.getLatestOpenAPISpecVersionContent, { params })
      : await api.call(ops.getOpenAPISpecVersionContent, { params: { ...params, versionId } });
    return flags.json ? content : documentOf(content);
  },
});

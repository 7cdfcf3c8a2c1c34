import { defineCommand } from '../../cli/command.js';
import { UsageError } from '../../cli/errors.js';
import { ops, type OpenAPISpecContent } from '../../contract/openapi.js';
import { plural } from '../../cli/text.js';

/** A file as it is written: text as it is, a parsed document as JSON. */
const fileText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2) + '\n');

/**
 * What `content` writes of a version: its `openapi.*` file (at any depth), or its only entry; any
 * other filesystem (none, or several files without an `openapi.*` one: the official document leaves
 * `filesystem` free-form) whole, as JSON, with a note on stderr saying so.
 */
function documentOf(content: OpenAPISpecContent): { text: string; note?: string } {
  const files = Object.entries(content.filesystem);
  const file = files.find(([name]) => /(^|\/)openapi\.(json|ya?ml)$/.test(name)) ?? (files.length === 1 ? files[0] : undefined);
  if (file) return { text: fileText(file[1]) };
  const holds = files.length === 0 ? 'no file' : `${plural(files.length, 'file')} (${files.map(([n]) => n).join(', ')}) and no openapi.* file`;
  return { text: fileText(content.filesystem), note: `the version holds ${holds}: this is its whole filesystem, as JSON (--json: the whole answer)` };
}

export default defineCommand({
  name: 'content',
  summary: 'Write the stored document of a version (the latest by default) to stdout, as JSON',
  description:
    'Its openapi.* file, or its only file; a version holding no file, or several and no openapi.* one, is written whole ' +
    '(its filesystem, as JSON), saying so on stderr. --json prints the whole answer instead: {filesystem, url, urls}.',
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
    const content =
      versionId === undefined
        ? await api.call(ops.getLatestOpenAPISpecVersionContent, { params })
        : await api.call(ops.getOpenAPISpecVersionContent, { params: { ...params, versionId } });
    if (flags.json) return content;
    const { text, note } = documentOf(content);
    if (note) ctx.info(note);
    return text;
  },
});

import { checkBody, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/content.js';

export default defineCommand({
  name: 'import',
  summary: 'Import a website (the page at URL and the same-site pages it links to) into a space as a new revision',
  args: [
    { name: 'space', description: 'space id' },
    { name: 'url', description: 'http:// or https:// URL of the first page' },
  ],
  examples: ['docsctl content import sp_123 https://docs.example.com/', 'docsctl content import sp_123 https://example.com/guide/ --json'],
  output: { fields: ['revision', 'importedResources', 'totalResources'] },
  async run(ctx, { args }) {
    const body = checkBody(ops.importSpaceContent, { url: args.url, source: 'website' }, { url: '<url>' });
    const api = await ctx.api();
    const result = await ctx.spinning(`importing ${body.url}`, api.call(ops.importSpaceContent, { params: { spaceId: args.space }, body }));
    ctx.info(`imported ${result.importedResources} of ${result.totalResources} resources found into space ${args.space} (revision ${result.revision})`);
    return result;
  },
});

import { checkBody, defineCommand } from '../../cli/command.js';
import { ops, type ImportContentResult } from '../../contract/content.js';

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
    // One request that may take a while: a spinner with the elapsed time, on a terminal only.
    const started = Date.now();
    const spin = ctx.spinner(`importing ${body.url}`);
    const timer = setInterval(() => spin.update(`importing ${body.url} · ${Math.round((Date.now() - started) / 1000)}s`), 1000);
    let result: ImportContentResult;
    try {
      result = await api.call(ops.importSpaceContent, { params: { spaceId: args.space }, body });
    } finally {
      clearInterval(timer);
      spin.stop();
    }
    ctx.info(`imported ${result.importedResources} of ${result.totalResources} resources found into space ${args.space} (revision ${result.revision})`);
    return result;
  },
});

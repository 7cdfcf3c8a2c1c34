import { checkBody, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/change-requests.js';
import { CR_ARGS, crParams } from './columns.js';

export default defineCommand({
  name: 'import',
  summary: 'Import a website into a change request (a new revision of the change request; the space is untouched)',
  args: [...CR_ARGS, { name: 'url', description: 'http:// or https:// URL of the first page' }],
  examples: ['docsctl cr import sp_123 3 https://docs.example.com/', 'docsctl cr import sp_123 3 https://example.com/guide/ --json'],
  output: { fields: ['revision', 'importedResources', 'totalResources'] },
  async run(ctx, { args }) {
    const body = checkBody(ops.importChangeRequestContent, { url: args.url, source: 'website' }, { url: '<url>' });
    const params = crParams(args);
    const api = await ctx.api();
    const result = await ctx.spinning(`importing ${body.url}`, api.call(ops.importChangeRequestContent, { params, body }));
    ctx.info(
      `imported ${result.importedResources} of ${result.totalResources} resources found into change request ${params.changeRequestId} of space ${params.spaceId} (revision ${result.revision})`,
    );
    return result;
  },
});

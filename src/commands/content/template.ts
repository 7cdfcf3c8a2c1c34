import { checkBody, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/content.js';

export default defineCommand({
  name: 'template',
  summary: 'Add the pages of a built-in template to a space (e.g. getting-started, api-reference)',
  args: [
    { name: 'space', description: 'space id' },
    { name: 'id', description: 'template id; the service names the ones it knows when given another' },
  ],
  flags: { logo: { description: 'a file of the space to show on the first page (id)', value: 'file' } },
  examples: ['docsctl content template sp_123 getting-started', 'docsctl content template sp_123 api-reference --logo fl_456'],
  async run(ctx, { args, flags }) {
    const body = checkBody(ops.applySpaceTemplate, {
      id: args.id,
      params: flags.logo === undefined ? undefined : { contentRefs: { logo: { kind: 'file', file: flags.logo } } },
    }, { id: '<id>', params: '--logo' });
    const api = await ctx.api();
    await api.call(ops.applySpaceTemplate, { params: { spaceId: args.space }, body });
    ctx.info(`applied template ${args.id} to space ${args.space}`);
  },
});

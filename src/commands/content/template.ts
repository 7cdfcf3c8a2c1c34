import { checkBody, defineCommand } from '../../cli/command.js';
import { UsageError } from '../../cli/errors.js';
import { ops } from '../../contract/content.js';
import { crRef } from '../cr/columns.js';

export default defineCommand({
  name: 'template',
  summary: 'Add the pages of a built-in template to a space, or to one of its change requests (e.g. getting-started, api-reference)',
  args: [
    { name: 'space', description: 'space id' },
    { name: 'id', description: 'template id; the service names the ones it knows when given another' },
  ],
  flags: {
    logo: { description: 'a file to show on the first page (id), of the space unless --logo-space names another', value: 'file-id' },
    logoSpace: { description: 'with --logo: the space the file is in (you need the read role on it)', value: 'space' },
    cr: { description: 'apply it to this change request of the space (number or id) instead of the space', value: 'cr' },
  },
  examples: [
    'docsctl content template sp_123 getting-started',
    'docsctl content template sp_123 api-reference --logo fl_456',
    'docsctl content template sp_123 getting-started --logo fl_456 --logo-space sp_brand --cr 3',
  ],
  async run(ctx, { args, flags }) {
    if (flags.logoSpace !== undefined && flags.logo === undefined) throw new UsageError('--logo-space needs --logo');
    const logo =
      flags.logo === undefined ? undefined : { kind: 'file', file: flags.logo, ...(flags.logoSpace !== undefined ? { space: flags.logoSpace } : {}) };
    const body = checkBody(
      ops.applySpaceTemplate,
      {
        id: args.id,
        params: logo === undefined ? undefined : { contentRefs: { logo } },
        changeRequestId: flags.cr === undefined ? undefined : crRef(flags.cr),
      },
      { id: '<id>', params: '--logo', changeRequestId: '--cr' },
    );
    const api = await ctx.api();
    await api.call(ops.applySpaceTemplate, { params: { spaceId: args.space }, body });
    ctx.info(`applied template ${args.id} to ${flags.cr === undefined ? '' : `change request ${crRef(flags.cr)} of `}space ${args.space}`);
  },
});

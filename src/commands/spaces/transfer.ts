import { checkBody, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/spaces.js';
import { spaceFields } from './columns.js';
import { confirmAction } from '../prompts.js';

export default defineCommand({
  name: 'transfer',
  summary: 'Transfer a space to another organization and/or collection',
  description:
    'Needs the admin role on the space and in the target organization. Without --parent it lands at the ' +
    'target organization’s root. A locked space cannot be transferred (exit 6): unlock it first.',
  args: [{ name: 'space', description: 'space id' }],
  flags: {
    to: { description: 'id of the target organization (required; the current one to change collection only)', value: 'org' },
    parent: { description: 'id of a collection in the target organization', value: 'id' },
  },
  examples: ['docsctl spaces transfer sp_123 --to org_456 --yes', 'docsctl spaces transfer sp_123 --to org_456 --parent col_789 --yes'],
  destructive: true,
  output: { fields: spaceFields },
  async run(ctx, { args, flags }) {
    const body = checkBody(ops.transferSpace, { organization: flags.to, parent: flags.parent }, { organization: '--to' });
    const where = flags.parent ? `collection ${flags.parent} of organization ${flags.to}` : `organization ${flags.to}`;
    const api = await ctx.api();
    await confirmAction(ctx, flags.yes, {
      verb: 'Transfer',
      kind: 'space',
      id: args.space,
      rest: `to ${where}`,
      title: async () => (await api.call(ops.getSpace, { params: { spaceId: args.space } })).title,
    });
    return api.call(ops.transferSpace, { params: { spaceId: args.space }, body });
  },
});

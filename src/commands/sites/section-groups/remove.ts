import { defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { confirmAction, titleIn } from '../../prompts.js';

export default defineCommand({
  name: 'remove',
  aliases: ['rm', 'delete'],
  summary: 'Remove a section group; its sections and groups take its place',
  args: [
    { name: 'site', description: 'site id' },
    { name: 'group', description: 'section group id' },
  ],
  examples: ['docsctl sites section-groups remove site_123 grp_456 --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    await confirmAction(ctx, flags.yes, {
      verb: 'Remove',
      kind: 'section group',
      id: args.group,
      rest: `from site ${args.site}`,
      then: 'Its sections stay, in its place.',
      title: () => titleIn(api.paginate(ops.listSiteSectionGroups, { params: { organizationId, siteId: args.site } }), args.group),
    });
    await api.call(ops.deleteSiteSectionGroup, { params: { organizationId, siteId: args.site, siteSectionGroupId: args.group } });
    ctx.info(`removed section group ${args.group}`);
  },
});

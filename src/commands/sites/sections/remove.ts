import { defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { confirmAction, titleIn } from '../../prompts.js';

export default defineCommand({
  name: 'remove',
  aliases: ['rm', 'delete'],
  summary: 'Remove a section and its site spaces from a site (the spaces themselves stay)',
  args: [
    { name: 'site', description: 'site id' },
    { name: 'section', description: 'section id' },
  ],
  examples: ['docsctl sites sections remove site_123 sec_456 --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    await confirmAction(ctx, flags.yes, {
      verb: 'Remove',
      kind: 'section',
      id: args.section,
      rest: `from site ${args.site}`,
      then: 'Its site spaces go with it.',
      title: () => titleIn(api.paginate(ops.listSiteSections, { params: { organizationId, siteId: args.site } }), args.section),
    });
    await api.call(ops.deleteSiteSection, { params: { organizationId, siteId: args.site, siteSectionId: args.section } });
    ctx.info(`removed section ${args.section}`);
  },
});

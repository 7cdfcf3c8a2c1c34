import { defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { confirmAction, titleIn } from '../../prompts.js';

export default defineCommand({
  name: 'remove',
  aliases: ['rm', 'delete'],
  summary: 'Remove a site space from a site (the space itself stays)',
  args: [
    { name: 'site', description: 'site id' },
    { name: 'siteSpace', description: 'site space id' },
  ],
  examples: ['docsctl sites spaces remove site_123 ss_456 --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    await confirmAction(ctx, flags.yes, {
      verb: 'Remove',
      kind: 'site space',
      id: args.siteSpace,
      rest: `from site ${args.site}`,
      then: 'Its space is not deleted.',
      title: () => titleIn(api.paginate(ops.listSiteSpaces, { params: { organizationId, siteId: args.site } }), args.siteSpace),
    });
    await api.call(ops.deleteSiteSpace, { params: { organizationId, siteId: args.site, siteSpaceId: args.siteSpace } });
    ctx.info(`removed site space ${args.siteSpace}`);
  },
});

import { checkBody, defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { sectionFields } from '../columns.js';

export default defineCommand({
  name: 'add',
  aliases: ['create'],
  summary: 'Add a section to a site, from a space that becomes its first site space',
  description:
    'The first section of a site that already has site spaces takes them into a first section of their own, ' +
    'so the new section is the second one.',
  args: [{ name: 'site', description: 'site id' }],
  flags: {
    space: { description: 'the space to publish in it (required)', value: 'id' },
    title: { description: 'title (1 to 128 characters; default: the space’s title)', value: 'title' },
    icon: { description: 'icon name, such as gear or book-open', value: 'name' },
  },
  examples: ['docsctl sites sections add site_123 --space sp_456 --title Guides --icon book'],
  output: { fields: sectionFields },
  async run(ctx, { args, flags }) {
    const body = checkBody(ops.createSiteSection, { spaceId: flags.space, title: flags.title, icon: flags.icon }, { spaceId: '--space' });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.createSiteSection, { params: { organizationId, siteId: args.site }, body });
  },
});

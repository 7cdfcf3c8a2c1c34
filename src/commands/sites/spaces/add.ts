import { checkBody, defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { siteSpaceFields } from '../columns.js';

export default defineCommand({
  name: 'add',
  aliases: ['create'],
  summary: 'Publish a space in a site, at the end of a section (default: the default section)',
  args: [{ name: 'site', description: 'site id' }],
  flags: {
    space: { description: 'the space to publish (required)', value: 'id' },
    section: { description: 'the section to add it to (default: the default section, or the site itself without sections)', value: 'id' },
  },
  examples: ['docsctl sites spaces add site_123 --space sp_456', 'docsctl sites spaces add site_123 --space sp_456 --section sec_789'],
  output: { fields: siteSpaceFields },
  async run(ctx, { args, flags }) {
    const body = checkBody(ops.createSiteSpace, { spaceId: flags.space, sectionId: flags.section }, { spaceId: '--space', sectionId: '--section' });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.createSiteSpace, { params: { organizationId, siteId: args.site }, body });
  },
});

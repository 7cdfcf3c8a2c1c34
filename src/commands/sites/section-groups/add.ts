import { checkBody, defineCommand } from '../../../cli/command.js';
import { ops, groupTitle } from '../../../contract/sites.js';
import { groupColumns } from '../columns.js';
import { characters } from '../../flags.js';

export default defineCommand({
  name: 'add',
  aliases: ['create'],
  summary: 'Add a section group, taking in sections (it goes where its first section was)',
  args: [{ name: 'site', description: 'site id' }],
  flags: {
    title: { description: `title (${characters(groupTitle)}; required)`, value: 'title' },
    icon: { description: 'icon name, such as gear', value: 'name' },
    section: { type: 'list', description: 'a section to take in (repeatable, in order)', value: 'id' },
    parent: { description: 'the group to nest it in (default: the site’s root)', value: 'id' },
    draft: { type: 'boolean', description: 'add it as a draft, which visitors do not see' },
  },
  examples: ['docsctl sites section-groups add site_123 --title Products --section sec_1 --section sec_2'],
  output: { fields: groupColumns },
  async run(ctx, { args, flags }) {
    const body = checkBody(
      ops.createSiteSectionGroup,
      {
        title: flags.title,
        icon: flags.icon,
        sections: flags.section,
        parent: flags.parent,
        draft: flags.draft || undefined,
      },
      { sections: '--section' },
    );
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.createSiteSectionGroup, { params: { organizationId, siteId: args.site }, body });
  },
});

import { checkBody, nonEmpty, defineCommand } from '../../../cli/command.js';
import { ops, groupTitle } from '../../../contract/sites.js';
import { groupColumns } from '../columns.js';
import { BOOLEAN_CHOICES, toBool } from '../flags.js';
import { characters } from '../../flags.js';

export default defineCommand({
  name: 'update',
  aliases: ['edit'],
  summary: 'Change a section group’s title, icon, parent group or draft state',
  args: [
    { name: 'site', description: 'site id' },
    { name: 'group', description: 'section group id' },
  ],
  flags: {
    title: { description: `new title (${characters(groupTitle)})`, value: 'title' },
    icon: { description: 'icon name, or null to remove', value: 'name', nullable: true },
    parent: { description: 'the group to move it into (at its end), or null for the site’s top level', value: 'id', nullable: true },
    draft: { description: 'make it a draft (true) or live (false)', value: 'bool', choices: BOOLEAN_CHOICES },
  },
  examples: [
    'docsctl sites section-groups update site_123 grp_456 --title Platform --icon layers',
    'docsctl sites section-groups update site_123 grp_456 --parent null',
  ],
  output: { fields: groupColumns },
  async run(ctx, { args, flags }) {
    const body = checkBody(
      ops.updateSiteSectionGroup,
      {
        title: flags.title,
        icon: flags.icon,
        parentSectionGroupId: flags.parent,
        draft: toBool(flags.draft),
      },
      { parentSectionGroupId: '--parent' },
    );
    nonEmpty(body, 'pass --title, --icon, --parent or --draft');
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.updateSiteSectionGroup, { params: { organizationId, siteId: args.site, siteSectionGroupId: args.group }, body });
  },
});

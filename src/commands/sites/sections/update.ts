import { checkBody, nonEmpty, defineCommand } from '../../../cli/command.js';
import { ops, condition, iconName, sectionDescription, sectionTitle, sitePath } from '../../../contract/sites.js';
import { sectionFields } from '../columns.js';
import { BOOLEAN_CHOICES, toBool } from '../flags.js';
import { characters } from '../../flags.js';

export default defineCommand({
  name: 'update',
  aliases: ['edit'],
  summary: 'Change a section’s title, path, default site space, condition, icon, description, group or draft state',
  args: [
    { name: 'site', description: 'site id' },
    { name: 'section', description: 'section id' },
  ],
  flags: {
    title: { description: `new title (${characters(sectionTitle)})`, value: 'title' },
    path: { description: `URL path segment (${characters(sitePath)}), unique within the site`, value: 'segment' },
    defaultSiteSpace: { description: 'the section’s default site space', value: 'id' },
    condition: { description: `expression deciding who sees it (${characters(condition)}), or null to remove`, value: 'expr', nullable: true },
    icon: { description: `icon name (${characters(iconName)}), or null to remove`, value: 'name', nullable: true },
    description: { description: `description (${characters(sectionDescription)}), or null to remove`, value: 'text', nullable: true },
    group: { description: 'the section group to move it into (at its end), or null for the site’s top level', value: 'id', nullable: true },
    draft: { description: 'make it a draft (true) or live (false)', value: 'bool', choices: BOOLEAN_CHOICES },
  },
  examples: [
    'docsctl sites sections update site_123 sec_456 --title Reference --path reference',
    'docsctl sites sections update site_123 sec_456 --condition "visitor.claims.unsigned.beta === true"',
    'docsctl sites sections update site_123 sec_456 --group null --draft false',
  ],
  output: { fields: sectionFields },
  async run(ctx, { args, flags }) {
    const body = checkBody(
      ops.updateSiteSection,
      {
        title: flags.title,
        path: flags.path,
        defaultSiteSpace: flags.defaultSiteSpace,
        condition: flags.condition,
        icon: flags.icon,
        description: flags.description,
        siteSectionGroupId: flags.group,
        draft: toBool(flags.draft),
      },
      { siteSectionGroupId: '--group' },
    );
    nonEmpty(body, 'pass at least one flag; see docsctl sites sections update --help');
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.updateSiteSection, { params: { organizationId, siteId: args.site, siteSectionId: args.section }, body });
  },
});

import { checkBody, nonEmpty, defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { sectionFields } from '../columns.js';

export default defineCommand({
  name: 'update',
  aliases: ['edit'],
  summary: 'Change a section’s title, path, default site space, condition, icon or description',
  args: [{ name: 'site', description: 'site id' }, { name: 'section', description: 'section id' }],
  flags: {
    title: { description: 'new title (1 to 128 characters)', value: 'title' },
    path: { description: 'URL path segment, unique within the site', value: 'path' },
    defaultSiteSpace: { description: 'the section’s default site space', value: 'id' },
    condition: { description: 'expression deciding who sees it, or null to remove', value: 'expr', nullable: true },
    icon: { description: 'icon name, or null to remove', value: 'name', nullable: true },
    description: { description: 'description (at most 500 characters), or null to remove', value: 'text', nullable: true },
  },
  examples: [
    'docsctl sites sections update site_123 sec_456 --title Reference --path reference',
    'docsctl sites sections update site_123 sec_456 --condition "visitor.claims.unsigned.beta === true"',
  ],
  output: { fields: sectionFields },
  async run(ctx, { args, flags }) {
    const body = checkBody(ops.updateSiteSection, {
      title: flags.title, path: flags.path, defaultSiteSpace: flags.defaultSiteSpace,
      condition: flags.condition, icon: flags.icon, description: flags.description,
    });
    nonEmpty(body, 'pass at least one flag; see docsctl sites sections update --help');
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.updateSiteSection, { params: { organizationId, siteId: args.site, siteSectionId: args.section }, body });
  },
});
